package completion_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// scriptedModel streams reply one byte at a time, waiting gap between
// bytes, and counts requests and cancellations; with err set, it fails
// with err instead. With hold set, it keeps the stream open after the
// reply until the request is cancelled: a model still generating.
type scriptedModel struct {
	reply  string
	finish string // the result's finish reason

	gap       time.Duration
	hold      bool
	err       error
	requests  atomic.Int64
	cancelled atomic.Int64
}

func (m *scriptedModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	m.requests.Add(1)
	if m.err != nil {
		return transport.Result{}, m.err
	}
	for i := range len(m.reply) {
		if m.gap > 0 {
			select {
			case <-time.After(m.gap):
			case <-ctx.Done():
				m.cancelled.Add(1)
				return transport.Result{}, &transport.Error{Kind: transport.KindCancelled, Err: ctx.Err()}
			}
		}
		onDelta(m.reply[i : i+1])
	}
	if m.hold {
		<-ctx.Done()
		m.cancelled.Add(1)
		return transport.Result{}, &transport.Error{Kind: transport.KindCancelled, Err: ctx.Err()}
	}
	return transport.Result{Text: m.reply, FinishReason: m.finish}, nil
}

func (m *scriptedModel) Close() error { return nil }

func engine(m transport.Model, grace time.Duration) *completion.Engine {
	cfg := config.Default().Completion
	cfg.Grace = grace
	cfg.Speculate = false // these tests count model requests; speculate_test.go turns it on
	return completion.NewEngine(completion.Options{Model: m, Config: cfg})
}

const src = "package p\n\nfunc f() int {\n\treturn \n}\n"

var cursor = len("package p\n\nfunc f() int {\n\treturn ")

func query(doc *text.Text, at int) completion.Query {
	return completion.Query{URI: "file:///p.go", Path: "/p.go", LanguageID: "go", Text: doc, Cursor: at}
}

// suggesting asks e for q on its own goroutine and returns where the
// suggestion comes.
func suggesting(e *completion.Engine, q completion.Query) <-chan completion.Suggestion {
	got := make(chan completion.Suggestion, 1)
	go func() {
		s, _ := e.Suggest(context.Background(), q)
		got <- s
	}()
	return got
}

// type inserts s at off, telling the engine, and returns the new text.
func typeAt(e *completion.Engine, doc *text.Text, off int, s string) *text.Text {
	next, ed, err := doc.Replace(off, off, s)
	if err != nil {
		panic(err)
	}
	e.DidChange("file:///p.go", doc, next, []text.Edit{ed})
	return next
}

func TestBackspaceAndRetypeServedFromCache(t *testing.T) {
	m := &scriptedModel{reply: "42"}
	e := engine(m, 200*time.Millisecond)
	defer e.Close()
	doc := text.New(src)
	s, err := e.Suggest(context.Background(), query(doc, cursor))
	if err != nil || s.Text != "42" {
		t.Fatalf("suggestion %+v, %v", s, err)
	}
	typed := typeAt(e, doc, cursor, "4")
	if s, _ := e.Suggest(context.Background(), query(typed, cursor+1)); s.Text != "2" || s.Source != completion.FromTypedAhead {
		t.Fatalf("typed ahead: %+v", s)
	}
	// Backspace over the typed key and the space before the anchor (the
	// generation is dropped), then type the space again: the cache has it.
	back, ed, _ := typed.Replace(cursor-1, cursor+1, "")
	e.DidChange("file:///p.go", typed, back, []text.Edit{ed})
	again := typeAt(e, back, cursor-1, " ")
	s, _ = e.Suggest(context.Background(), query(again, cursor))
	if s.Text != "42" || s.Source != completion.FromCache {
		t.Fatalf("after backspace and retype: %+v, want \"42\" from the cache", s)
	}
	again = typeAt(e, again, cursor, "4")
	if s, _ = e.Suggest(context.Background(), query(again, cursor+1)); s.Text != "2" || s.Source != completion.FromCache {
		t.Fatalf("typing on from the cache: %+v", s)
	}
	if n := m.requests.Load(); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
}

// A generation no request wants any more stops at the model after the
// grace period, not before: the next keystroke's request may want it.
func TestGraceThenCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "1234567890", gap: 100 * time.Millisecond}
		e := engine(m, 250*time.Millisecond)
		defer e.Close()
		doc := text.New(src)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { e.Suggest(ctx, query(doc, cursor)) })
		time.Sleep(150 * time.Millisecond)
		cancel() // the editor cancelled its request
		wg.Wait()
		time.Sleep(200 * time.Millisecond) // within the grace period
		synctest.Wait()
		if m.cancelled.Load() != 0 {
			t.Fatal("the generation stopped before the grace period ended")
		}
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if m.cancelled.Load() != 1 {
			t.Fatal("the unwanted generation did not stop after the grace period")
		}
	})
}

// A keystroke that disagrees with the stream cancels it at once.
func TestDivergenceCancels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "abcdef", gap: 50 * time.Millisecond}
		e := engine(m, time.Second)
		defer e.Close()
		doc := text.New(src)
		var wg sync.WaitGroup
		var got completion.Suggestion
		wg.Go(func() { got, _ = e.Suggest(context.Background(), query(doc, cursor)) })
		time.Sleep(120 * time.Millisecond) // "ab" streamed
		typeAt(e, doc, cursor, "x")
		wg.Wait()
		synctest.Wait()
		if got.Text != "" || m.cancelled.Load() != 1 {
			t.Fatalf("got %+v, cancelled %d; want an empty answer and one cancel", got, m.cancelled.Load())
		}
	})
}

// Typing that agrees with a generation only because the model has not
// produced that much yet, or nothing at all, must not cost the next
// request its answer: when the generation ends without what was typed (or
// before it started, when the model had said nothing), the request at the
// new cursor gets a fresh generation, not an empty answer. An editor that
// asks on every key asks first after one letter, then after the word.
func TestTypedPastAGenerationAsksAgain(t *testing.T) {
	for _, tc := range []struct {
		name  string
		wait  time.Duration // before typing: the model's "a" is out after 100 ms
		typed string
	}{
		{"nothing produced yet", 50 * time.Millisecond, "x"},
		{"typed past what was produced", 150 * time.Millisecond, "az"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &scriptedModel{reply: "ab", gap: 100 * time.Millisecond}
				e := engine(m, time.Second)
				defer e.Close()
				doc := text.New(src)
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				wg.Go(func() { e.Suggest(ctx, query(doc, cursor)) })
				time.Sleep(tc.wait)
				typed := doc
				for i := range len(tc.typed) {
					typed = typeAt(e, typed, cursor+i, tc.typed[i:i+1])
				}
				cancel() // the editor moves on
				wg.Wait()
				s, err := e.Suggest(context.Background(), query(typed, cursor+len(tc.typed)))
				if err != nil || s.Text != "ab" {
					t.Fatalf("after typing %q: %+v, %v; want a fresh \"ab\"", tc.typed, s, err)
				}
				if n := m.requests.Load(); n != 2 {
					t.Fatalf("%d model requests, want 2", n)
				}
			})
		})
	}
}

// A generation started again because typing outran its predecessor does
// not bet on typing a second time: a key typed before its first token
// drops it, stopping it at the model, instead of riding on it.
func TestRestartedGenerationDoesNotBetTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "ab", gap: 100 * time.Millisecond}
		e := engine(m, time.Second)
		defer e.Close()
		doc := text.New(src)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { e.Suggest(ctx, query(doc, cursor)) })
		time.Sleep(50 * time.Millisecond)
		typed := typeAt(e, doc, cursor, "x") // agrees: the model has said nothing yet
		cancel()
		wg.Wait()
		// Asked at the new cursor, the first generation ends with "ab",
		// not "x": the engine asks again.
		wg.Go(func() { e.Suggest(context.Background(), query(typed, cursor+1)) })
		for m.requests.Load() < 2 {
			time.Sleep(time.Millisecond)
		}
		typeAt(e, typed, cursor+1, "y")
		synctest.Wait()
		if n := m.cancelled.Load(); n != 1 {
			t.Fatalf("%d generations cancelled at the model; want the restarted one, dropped by the key typed before its first token", n)
		}
		wg.Wait()
		if n := m.requests.Load(); n != 2 {
			t.Fatalf("%d model requests, want 2", n)
		}
	})
}

// A query whose Until is closed when it comes answers Pending and leaves
// the document's generation alone, though it asks at another cursor: the
// text moved on past it, and the caller asks again.
func TestClosedUntilTouchesNoGeneration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "1234567890", gap: 10 * time.Millisecond}
		e := engine(m, time.Hour)
		defer e.Close()
		doc := text.New(src)
		q := query(doc, cursor)
		q.Budget = 25 * time.Millisecond
		if s, _ := e.Suggest(context.Background(), q); !s.Pending {
			t.Fatalf("suggestion %+v; want Pending past the budget", s)
		}
		until := make(chan struct{})
		close(until)
		q = query(doc, cursor-1)
		q.Until = until
		if s, err := e.Suggest(context.Background(), q); err != nil || !s.Pending {
			t.Fatalf("suggestion %+v, %v; want Pending", s, err)
		}
		synctest.Wait()
		if n, c := m.requests.Load(), m.cancelled.Load(); n != 1 || c != 0 {
			t.Fatalf("%d model requests, %d cancelled; want the first generation alone, running on", n, c)
		}
		if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != m.reply {
			t.Fatalf("suggestion %+v; want the first generation's %q", s, m.reply)
		}
	})
}

// A query's wait ends once its Until closes: it answers Pending, and the
// generation goes on to its end though nobody waits for it, so that the
// caller's next query is answered from it.
func TestUntilEndsTheWaitAndKeepsTheGeneration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "1234567890", gap: 10 * time.Millisecond}
		e := engine(m, time.Nanosecond) // an unwanted generation stops at once
		defer e.Close()
		doc := text.New(src)
		until := make(chan struct{})
		q := query(doc, cursor)
		q.Until = until
		got := suggesting(e, q)
		time.Sleep(25 * time.Millisecond) // two bytes streamed
		close(until)
		if s := <-got; !s.Pending {
			t.Fatalf("suggestion %+v; want Pending once Until closed", s)
		}
		time.Sleep(time.Second) // past the grace and the stream's end
		if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != m.reply || m.requests.Load() != 1 || m.cancelled.Load() != 0 {
			t.Fatalf("suggestion %+v, %d model requests, %d cancelled; want the kept generation's %q",
				s, m.requests.Load(), m.cancelled.Load(), m.reply)
		}
	})
}

// A reply its output bound cut short mid-line is shown as the model wrote
// it, not completed with a closer it would not have put there; typing
// past its end asks the model again.
func TestReplyCutShortIsNotCompleted(t *testing.T) {
	m := &scriptedModel{reply: "g(x.", finish: "length"}
	e := engine(m, time.Second)
	defer e.Close()
	doc := text.New(src)
	if s, err := e.Suggest(context.Background(), query(doc, cursor)); err != nil || s.Text != "g(x." {
		t.Fatalf("suggestion %+v, %v; want \"g(x.\" as written", s, err)
	}
	typed := doc
	for i, c := range "g(x.y" {
		typed = typeAt(e, typed, cursor+i, string(c))
	}
	m.reply, m.finish = "z)", ""
	if s, err := e.Suggest(context.Background(), query(typed, cursor+len("g(x.y"))); err != nil || s.Text != "z)" {
		t.Fatalf("typed past the end: %+v, %v; want a fresh \"z)\"", s, err)
	}
	if n := m.requests.Load(); n != 2 {
		t.Fatalf("%d model requests, want 2", n)
	}
}

// A blank line's suggestion shows at most its plan's lines: once the
// model has written them, the request is answered, though the model goes
// on (a completion item in Helix or Emacs waits for the answer).
func TestAnsweredOnceThePlansLinesAreWritten(t *testing.T) {
	var reply strings.Builder
	for i := range 12 {
		fmt.Fprintf(&reply, "\tx%d := %d\n", i, i)
	}
	e := engine(&scriptedModel{reply: reply.String(), hold: true}, 50*time.Millisecond)
	defer e.Close()
	doc := text.New("package p\n\nfunc f() {\n\ta := 1\n\t\n}\n")
	at := len("package p\n\nfunc f() {\n\ta := 1\n\t")
	select {
	case s := <-suggesting(e, query(doc, at)):
		if !strings.HasPrefix(strings.TrimLeft(s.Text, "\t"), "x0 := 0\n\tx1 := 1") || strings.Contains(s.Text, "x11") {
			t.Fatalf("suggestion %q, want the first lines of the reply", s.Text)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no answer while the model goes on past the lines the suggestion shows")
	}
}
