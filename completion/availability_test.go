package completion_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// flakyModel fails its first len(errs) generations with errs, in order,
// then answers reply. A nil error in errs means "stall": send one delta and
// then nothing until cancelled (or, with stallFirst, nothing at all).
type flakyModel struct {
	errs       []error
	reply      string
	stallFirst bool
	requests   atomic.Int64
	cancelled  atomic.Int64
}

var errStall error // the nil error: flakyModel stalls

func (m *flakyModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	n := int(m.requests.Add(1))
	if n <= len(m.errs) {
		if err := m.errs[n-1]; err != nil {
			return transport.Result{}, err
		}
		if !m.stallFirst {
			onDelta(m.reply[:1])
		}
		<-ctx.Done()
		m.cancelled.Add(1)
		return transport.Result{}, &transport.Error{Kind: transport.KindCancelled, Err: context.Cause(ctx)}
	}
	onDelta(m.reply)
	return transport.Result{Text: m.reply}, nil
}

func (m *flakyModel) Close() error { return nil }

// statusLog records Status calls.
type statusLog struct {
	mu  sync.Mutex
	got []string
}

func (l *statusLog) add(state, _ string) { l.mu.Lock(); l.got = append(l.got, state); l.mu.Unlock() }
func (l *statusLog) states() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.got...)
}

func flakyEngine(m transport.Model, status *statusLog) *completion.Engine {
	cfg := config.Default().Completion
	cfg.FirstTokenTimeout, cfg.IdleTimeout = 3*time.Second, 2*time.Second
	cfg.Speculate = false // these tests count model requests
	return completion.NewEngine(completion.Options{Model: m, Config: cfg, Status: status.add})
}

var unavailable = &transport.Error{Kind: transport.KindUnavailable, Message: "model endpoint down"}

// A failed generation is not served again: asking at the same cursor
// asks the model.
func TestFailedGenerationIsNotReplayed(t *testing.T) {
	m := &flakyModel{errs: []error{unavailable}, reply: "42"}
	e := flakyEngine(m, &statusLog{})
	defer e.Close()
	doc := text.New(src)
	if _, err := e.Suggest(context.Background(), query(doc, cursor)); transport.KindOf(err) != transport.KindUnavailable {
		t.Fatalf("first: %v, want the model's error", err)
	}
	s, err := e.Suggest(context.Background(), query(doc, cursor))
	if err != nil || s.Text != "42" {
		t.Fatalf("again at the same cursor: %+v, %v", s, err)
	}
	if n := m.requests.Load(); n != 2 {
		t.Fatalf("%d model requests, want 2", n)
	}
}

// A rate limit's Retry-After delays the next attempt: requests during it
// answer at once without asking the model; the first after it asks.
func TestRetryAfterIsADelayNotAnAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		limited := &transport.Error{Kind: transport.KindRateLimited, Status: 429, Message: "rate limited", RetryAfter: 2 * time.Second}
		m := &flakyModel{errs: []error{limited}, reply: "42"}
		e := flakyEngine(m, &statusLog{})
		defer e.Close()
		doc := text.New(src)
		if _, err := e.Suggest(context.Background(), query(doc, cursor)); transport.KindOf(err) != transport.KindRateLimited {
			t.Fatalf("first: %v", err)
		}
		time.Sleep(1900 * time.Millisecond)
		if s, err := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "" || transport.KindOf(err) != transport.KindRateLimited {
			t.Fatalf("during Retry-After: %+v, %v; want no answer", s, err)
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests during Retry-After, want 1", n)
		}
		time.Sleep(100 * time.Millisecond)
		if s, err := e.Suggest(context.Background(), query(doc, cursor)); err != nil || s.Text != "42" {
			t.Fatalf("after Retry-After: %+v, %v", s, err)
		}
	})
}

// A rejected API key holds requests back: while the hold lasts they
// answer at once with the endpoint's error and never reach the model (a
// request per keystroke with a bad key is what gets it revoked), and the
// outage is told once; after the hold one request tries again.
func TestRejectedKeyHoldsRequestsBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rejected := &transport.Error{Kind: transport.KindAuth, Status: 401, Message: "model endpoint rejected the API key"}
		m := &flakyModel{errs: []error{rejected, rejected}, reply: "42"}
		status := &statusLog{}
		e := flakyEngine(m, status)
		defer e.Close()
		doc := text.New(src)
		for key := range 20 {
			if _, err := e.Suggest(context.Background(), query(doc, cursor)); transport.KindOf(err) != transport.KindAuth {
				t.Fatalf("key %d: %v, want the endpoint's rejection", key, err)
			}
			time.Sleep(time.Second)
		}
		if n := m.requests.Load(); n != 1 {
			t.Fatalf("%d model requests over 20 keys in 20 s with a rejected key, want 1", n)
		}
		time.Sleep(10 * time.Second) // past the hold: one request tries again, rejected again
		if _, err := e.Suggest(context.Background(), query(doc, cursor)); transport.KindOf(err) != transport.KindAuth {
			t.Fatalf("after the hold: %v", err)
		}
		if n := m.requests.Load(); n != 2 {
			t.Fatalf("%d model requests after the hold, want 2", n)
		}
		time.Sleep(31 * time.Second)
		if s, err := e.Suggest(context.Background(), query(doc, cursor)); err != nil || s.Text != "42" {
			t.Fatalf("once the key is accepted: %+v, %v", s, err)
		}
		if got := status.states(); !slices.Equal(got, []string{completion.StatusUnavailable, completion.StatusReady}) {
			t.Errorf("told %v, want one outage and one recovery", got)
		}
	})
}

// A stalled generation ends at its deadline — before the first token or
// between tokens — with an Unavailable error, and is cancelled at the
// model.
func TestStallEndsAtDeadline(t *testing.T) {
	for _, c := range []struct {
		name       string
		stallFirst bool
		deadline   time.Duration
	}{{"first token", true, 3 * time.Second}, {"between tokens", false, 2 * time.Second}} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &flakyModel{errs: []error{errStall}, reply: "42", stallFirst: c.stallFirst}
				e := flakyEngine(m, &statusLog{})
				defer e.Close()
				start := time.Now()
				_, err := e.Suggest(context.Background(), query(text.New(src), cursor))
				if transport.KindOf(err) != transport.KindUnavailable {
					t.Fatalf("stalled: %v, want Unavailable", err)
				}
				// In the bubble, time moves only when everything waits: the
				// fake clock reads exactly the deadline.
				if took := time.Since(start); took != c.deadline {
					t.Errorf("ended after %v, want the %v deadline", took, c.deadline)
				}
				synctest.Wait()
				if m.cancelled.Load() != 1 {
					t.Fatal("the stalled generation was not cancelled at the model")
				}
			})
		})
	}
}

// The status changes once per change of availability, never per request.
func TestStatusOncePerChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errs := make([]error, 20)
		for i := range errs {
			errs[i] = unavailable
		}
		m := &flakyModel{errs: errs, reply: "42"}
		var log statusLog
		e := flakyEngine(m, &log)
		defer e.Close()
		doc := text.New(src)
		for i := range 25 {
			doc = typeAt(e, doc, cursor+i, " ")
			e.Suggest(context.Background(), query(doc, cursor+i+1))
			synctest.Wait()
		}
		got := log.states()
		if len(got) != 2 || got[0] != completion.StatusUnavailable || got[1] != completion.StatusReady {
			t.Fatalf("statuses %q over 20 failures and 5 answers; want [%s %s]", got, completion.StatusUnavailable, completion.StatusReady)
		}
		if st := e.Stats(); st.Failures != 20 {
			t.Fatalf("failures = %d, want 20", st.Failures)
		}
	})
}

// A failure of another kind while the model is unavailable is told once
// more, so the status names the current reason (a key that stopped
// working, say, after the endpoint came back).
func TestStatusToldAgainForANewKindOfFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		auth := &transport.Error{Kind: transport.KindAuth, Message: "API key rejected"}
		m := &flakyModel{errs: []error{unavailable, unavailable, auth, auth}, reply: "42"}
		var log statusLog
		e := flakyEngine(m, &log)
		defer e.Close()
		doc := text.New(src)
		for i := range 5 {
			doc = typeAt(e, doc, cursor+i, " ")
			e.Suggest(context.Background(), query(doc, cursor+i+1))
			synctest.Wait()
			time.Sleep(time.Minute) // past a rejected key's hold
		}
		want := []string{completion.StatusUnavailable, completion.StatusUnavailable, completion.StatusReady}
		if got := log.states(); !slices.Equal(got, want) {
			t.Fatalf("statuses %q over two failures of each of two kinds and an answer; want %q", got, want)
		}
	})
}

// A warm-up failure reported through Unavailable is told once; after the
// engine is closed (replaced by a new configuration, whose model it
// closed) it is not told at all: it says nothing of the new engine's model.
func TestUnavailableToldUntilClosed(t *testing.T) {
	var log statusLog
	e := flakyEngine(&flakyModel{reply: "42"}, &log)
	e.Unavailable(unavailable)
	if got := log.states(); len(got) != 1 || got[0] != completion.StatusUnavailable {
		t.Fatalf("statuses %q after a failed warm-up; want [%s]", got, completion.StatusUnavailable)
	}
	e.Close()
	e.Unavailable(unavailable)
	e.Unavailable(&transport.Error{Kind: transport.KindAuth, Message: "closed"})
	if got := log.states(); len(got) != 1 {
		t.Fatalf("statuses %q: a closed engine told a failure", got)
	}
}
