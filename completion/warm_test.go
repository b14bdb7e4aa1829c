package completion_test

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// warmingModel is a scriptedModel whose provider caches prompts: a
// warm-up takes hold long, or until cancelled.
type warmingModel struct {
	scriptedModel
	hold             time.Duration
	warmed, stopped  atomic.Int64
	lastWarmedPrefix atomic.Value
}

func (m *warmingModel) WarmPrompt(ctx context.Context, req transport.Request) error {
	m.warmed.Add(1)
	m.lastWarmedPrefix.Store(req.Prefix)
	select {
	case <-time.After(m.hold):
		return nil
	case <-ctx.Done():
		m.stopped.Add(1)
		return ctx.Err()
	}
}

func warmingEngine(m transport.Model, idle time.Duration) *completion.Engine {
	cfg := config.Default().Completion
	cfg.Speculate, cfg.WarmAfterIdle = false, idle
	return completion.NewEngine(completion.Options{Model: m, Config: cfg})
}

// An idle document's last prompt is warmed after the idle interval, a
// bounded number of times; the next request cancels a warm-up in flight
// and starts the count again.
func TestIdleWarmupIsBudgetedAndYields(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &warmingModel{scriptedModel: scriptedModel{reply: "42"}, hold: 10 * time.Second}
		e := warmingEngine(m, time.Minute)
		defer e.Close()
		doc := text.New(src)
		e.Suggest(context.Background(), query(doc, cursor))
		time.Sleep(59 * time.Second)
		synctest.Wait()
		if n := m.warmed.Load(); n != 0 {
			t.Fatalf("%d warm-ups before the document was idle a minute", n)
		}
		time.Sleep(10 * time.Minute)
		synctest.Wait()
		if n := m.warmed.Load(); n != 3 {
			t.Fatalf("%d warm-ups over ten idle minutes, want the budget of 3", n)
		}
		if p, _ := m.lastWarmedPrefix.Load().(string); p == "" || p != src[:cursor] {
			t.Fatalf("warmed prefix %q, want the last prompt's", p)
		}
		// A new idle stretch: the user types, pauses, and types while
		// the warm-up is in flight.
		e.Suggest(context.Background(), query(doc, cursor-1))
		time.Sleep(61 * time.Second)
		synctest.Wait()
		if n := m.warmed.Load(); n != 4 {
			t.Fatalf("%d warm-ups, want a fourth after the new idle minute", n)
		}
		e.Suggest(context.Background(), query(doc, cursor-2))
		synctest.Wait()
		if n := m.stopped.Load(); n != 1 {
			t.Fatalf("%d warm-ups stopped, want the one in flight stopped by the request", n)
		}
		if st := e.Stats(); st.Warmups != 4 {
			t.Fatalf("stats %+v", st)
		}
	})
}

// A model without prompt caching is never warmed, and warm-ups can be
// turned off.
func TestNoWarmupWithoutTheCapability(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &warmingModel{scriptedModel: scriptedModel{reply: "42"}}
		e := warmingEngine(m, 0)
		e.Suggest(context.Background(), query(text.New(src), cursor))
		time.Sleep(time.Hour)
		synctest.Wait()
		e.Close()
		if n := m.warmed.Load(); n != 0 {
			t.Fatalf("%d warm-ups with warmAfterIdle 0", n)
		}
		plain := &scriptedModel{reply: "42"}
		e = warmingEngine(plain, time.Minute)
		e.Suggest(context.Background(), query(text.New(src), cursor))
		time.Sleep(time.Hour)
		synctest.Wait()
		if st := e.Stats(); st.Warmups != 0 {
			t.Fatalf("a model without prompt caching was warmed: %+v", st)
		}
		e.Close()
	})
}

// noCache is a warmer whose wire has no warm-up.
type noCache struct {
	scriptedModel
	asked atomic.Int64
}

func (m *noCache) WarmPrompt(context.Context, transport.Request) error {
	m.asked.Add(1)
	return transport.ErrNoPromptCache
}

// A model that says it cannot warm is not asked again.
func TestNoPromptCacheStopsWarmups(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &noCache{scriptedModel: scriptedModel{reply: "42"}}
		e := warmingEngine(m, time.Minute)
		defer e.Close()
		e.Suggest(context.Background(), query(text.New(src), cursor))
		time.Sleep(time.Hour)
		synctest.Wait()
		e.Suggest(context.Background(), query(text.New(src), cursor-1))
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := m.asked.Load(); n != 1 {
			t.Fatalf("asked to warm %d times, want once", n)
		}
	})
}

// A document whose last request was served without asking the model
// (from the generation or the cache) still warms once idle: being asked
// restarts the idle clock, whatever answered.
func TestWarmupAfterAnAnswerFromTheGeneration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &warmingModel{scriptedModel: scriptedModel{reply: "42"}, hold: time.Second}
		e := warmingEngine(m, time.Minute)
		defer e.Close()
		doc := text.New(src)
		e.Suggest(context.Background(), query(doc, cursor))
		synctest.Wait()
		time.Sleep(30 * time.Second)
		doc = typeAt(e, doc, cursor, "4")
		if s, _ := e.Suggest(context.Background(), query(doc, cursor+1)); s.Text != "2" {
			t.Fatalf("typed ahead: %+v", s)
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests, want the typed-ahead one served without asking", n)
		}
		time.Sleep(59 * time.Second)
		synctest.Wait()
		if n := m.warmed.Load(); n != 0 {
			t.Fatalf("%d warm-ups before the document was idle a minute since it was last asked", n)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if n := m.warmed.Load(); n != 1 {
			t.Fatalf("%d warm-ups a minute after the last request, want 1", n)
		}
	})
}
