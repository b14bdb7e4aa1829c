package completion_test

import (
	"context"
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

// A request that comes while the generation a change anticipated is still
// being built waits for it and joins it, rather than asking the model
// itself.
func TestRequestJoinsAnticipationBeingBuilt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "42", gap: 10 * time.Millisecond}
		e, doc, open, _ := anticipateGated(t, m) // the prompt's context takes a while
		got := suggesting(e, query(doc, cursor))
		synctest.Wait() // the request is in, the anticipation not yet built
		open()
		if s := <-got; s.Text != "42" {
			t.Fatalf("suggestion %q, want %q", s.Text, "42")
		}
		if st := e.Stats(); st.ModelRequests != 1 || st.Anticipated != 1 || st.AnticipatedUsed != 1 {
			t.Fatalf("stats %+v: want the request to join the anticipated generation", st)
		}
	})
}

// A request waiting for the anticipation being built goes on once the
// document closes (which ends the anticipation: nothing reaches the model
// for it) or once the request's Until closes (it answers Pending).
func TestWaitForAnticipationEnds(t *testing.T) {
	for _, tc := range []struct {
		name            string
		end             func(e *completion.Engine, until chan struct{})
		wantPending     bool
		wantAnticipated int64
	}{
		{"the document closes", func(e *completion.Engine, _ chan struct{}) { e.DidClose("file:///p.go") }, false, 0},
		{"the request's Until closes", func(_ *completion.Engine, until chan struct{}) { close(until) }, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &scriptedModel{reply: "42"}
				e, doc, open, _ := anticipateGated(t, m)
				until := make(chan struct{})
				q := query(doc, cursor)
				q.Until = until
				got := suggesting(e, q)
				synctest.Wait()
				tc.end(e, until)
				synctest.Wait()
				select {
				case s := <-got:
					if s.Pending != tc.wantPending {
						t.Fatalf("suggestion %+v; want Pending %v", s, tc.wantPending)
					}
				default:
					t.Fatal("the request still waits for the anticipation")
				}
				open()
				synctest.Wait()
				if st := e.Stats(); st.Anticipated != tc.wantAnticipated {
					t.Fatalf("stats %+v: want %d anticipated", st, tc.wantAnticipated)
				}
			})
		})
	}
}

// builds counts the builds of an anticipation's query and the releases of
// what they hold.
type builds struct{ built, released atomic.Int64 }

// at returns an anticipation's build of the query at at in doc.
func (b *builds) at(doc *text.Text, at int) func() (completion.Query, func(), bool) {
	return func() (completion.Query, func(), bool) {
		b.built.Add(1)
		return query(doc, at), func() { b.released.Add(1) }, true
	}
}

// anticipateGated returns an engine asking m (with a second's grace)
// that anticipates the request at cursor in src with a build that waits
// until open is called, counted in b. The engine is closed, and the build
// let go, when the test ends.
func anticipateGated(t *testing.T, m transport.Model) (e *completion.Engine, doc *text.Text, open func(), b *builds) {
	e, doc, b = engine(m, time.Second), text.New(src), new(builds)
	t.Cleanup(e.Close)
	gate := make(chan struct{})
	open = sync.OnceFunc(func() { close(gate) })
	t.Cleanup(open)
	build := b.at(doc, cursor)
	e.Anticipate("file:///p.go", cursor, func() (completion.Query, func(), bool) {
		<-gate
		return build()
	})
	return e, doc, open, b
}

// An anticipation starts nothing when something already answers its
// cursor, when the model is held back or when a debounce is configured;
// where the engine can tell before the query is built, it is not built.
func TestAnticipationRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		// setup readies e and returns the document and cursor the
		// change left.
		setup     func(t *testing.T, e *completion.Engine, m *scriptedModel) (*text.Text, int)
		cfg       func(*config.Completion)
		wantBuilt int64
	}{
		{
			name: "the document's generation serves the cursor, typed ahead",
			setup: func(t *testing.T, e *completion.Engine, m *scriptedModel) (*text.Text, int) {
				doc := text.New(src)
				if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "42" {
					t.Fatalf("suggestion %+v", s)
				}
				return typeAt(e, doc, cursor, "4"), cursor + 1
			},
		},
		{
			name: "the cache answers the cursor",
			setup: func(t *testing.T, e *completion.Engine, m *scriptedModel) (*text.Text, int) {
				doc := text.New(src)
				if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "42" {
					t.Fatalf("suggestion %+v", s)
				}
				// Backspace over the space before the anchor (the
				// generation is dropped) and type it again.
				back, ed, _ := doc.Replace(cursor-1, cursor, "")
				e.DidChange("file:///p.go", doc, back, []text.Edit{ed})
				return typeAt(e, back, cursor-1, " "), cursor
			},
			wantBuilt: 1, // the cache is asked about the built query's text
		},
		{
			name: "the model is held back",
			setup: func(t *testing.T, e *completion.Engine, m *scriptedModel) (*text.Text, int) {
				m.err = &transport.Error{Kind: transport.KindRateLimited, Message: "rate limited", RetryAfter: time.Hour}
				doc := text.New(src)
				if _, err := e.Suggest(context.Background(), query(doc, cursor)); transport.KindOf(err) != transport.KindRateLimited {
					t.Fatalf("suggestion: %v; want the rate limit", err)
				}
				return doc, cursor
			},
		},
		{
			name:  "a debounce is configured",
			cfg:   func(c *config.Completion) { c.Debounce = 50 * time.Millisecond },
			setup: func(*testing.T, *completion.Engine, *scriptedModel) (*text.Text, int) { return text.New(src), cursor },
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &scriptedModel{reply: "42"}
				cfg := config.Default().Completion
				cfg.Speculate = false
				if tc.cfg != nil {
					tc.cfg(&cfg)
				}
				e := completion.NewEngine(completion.Options{Model: m, Config: cfg})
				defer e.Close()
				doc, at := tc.setup(t, e, m)
				synctest.Wait()
				requests := m.requests.Load()
				var b builds
				e.Anticipate("file:///p.go", at, b.at(doc, at))
				synctest.Wait()
				if st := e.Stats(); st.Anticipated != 0 || m.requests.Load() != requests {
					t.Fatalf("stats %+v, %d model requests after %d: want nothing anticipated", st, m.requests.Load(), requests)
				}
				if n := b.built.Load(); n != tc.wantBuilt || b.released.Load() != n {
					t.Fatalf("query built %d times, released %d; want %d", n, b.released.Load(), tc.wantBuilt)
				}
			})
		})
	}
}

// Without typing ahead configured, the document's generation does not
// serve a cursor typed ahead of it: the anticipation starts, as a request
// there would ask anew.
func TestAnticipationWithoutTypingAhead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "42"}
		cfg := config.Default().Completion
		cfg.Speculate, cfg.TypedAhead = false, false
		e := completion.NewEngine(completion.Options{Model: m, Config: cfg})
		defer e.Close()
		doc := text.New(src)
		if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "42" {
			t.Fatalf("suggestion %+v", s)
		}
		doc = typeAt(e, doc, cursor, "4")
		var b builds
		e.Anticipate("file:///p.go", cursor+1, b.at(doc, cursor+1))
		synctest.Wait()
		if st := e.Stats(); st.Anticipated != 1 || b.built.Load() != 1 {
			t.Fatalf("stats %+v, %d builds: want the anticipation started", st, b.built.Load())
		}
	})
}

// An anticipation made stale while its query is built starts nothing: by
// a change (nothing starts for the text it was built from), or by another
// anticipation superseding it (only the latest reaches the model, even
// with no change between them to tell the first it is not wanted).
func TestStaleAnticipationStartsNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		// stale makes the anticipation for cursor in doc stale and
		// returns how many anticipations that leaves to start.
		stale func(e *completion.Engine, doc *text.Text) int64
	}{
		{"the document changed", func(e *completion.Engine, doc *text.Text) int64 {
			typeAt(e, doc, cursor, "x")
			return 0
		}},
		{"another superseded it", func(e *completion.Engine, doc *text.Text) int64 {
			var b builds
			e.Anticipate("file:///p.go", cursor-1, b.at(doc, cursor-1))
			return 1
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &scriptedModel{reply: "42"}
				e, doc, open, b := anticipateGated(t, m)
				synctest.Wait()
				want := tc.stale(e, doc)
				open()
				synctest.Wait()
				if st := e.Stats(); st.Anticipated != want || m.requests.Load() != want || b.released.Load() != 1 {
					t.Fatalf("stats %+v, %d model requests, %d releases of the stale query: want %d started, the stale query released",
						st, m.requests.Load(), b.released.Load(), want)
				}
			})
		})
	}
}

// build may return no release function.
func TestAnticipationWithoutRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "42"}
		e := engine(m, time.Second)
		defer e.Close()
		doc := text.New(src)
		e.Anticipate("file:///p.go", cursor, func() (completion.Query, func(), bool) {
			return query(doc, cursor), nil, true
		})
		if s, err := e.Suggest(context.Background(), query(doc, cursor)); err != nil || s.Text != "42" {
			t.Fatalf("suggestion %+v, %v; want %q", s, err, "42")
		}
		if st := e.Stats(); st.AnticipatedUsed != 1 {
			t.Fatalf("stats %+v: want the anticipated generation used", st)
		}
	})
}

// An anticipated generation no request took up wastes its tokens, also
// when typing moved its stream on to another generation before it was
// dropped: rebased (the same text shaped anew at the new cursor) or its
// look-ahead taken while it still streamed. One a request took up wastes
// none.
func TestAnticipatedStreamAccountedWhereverItGoes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply string
		gap   time.Duration
		// claim: a request takes the anticipated generation up, before
		// the keys or, with claimAfter, after them.
		claim, claimAfter bool
		// keys, typed once the first line streamed, move the stream on;
		// "x" then drops it.
		keys                    []string
		wantUsed, wantCancelled int64
	}{
		// A trailing space, trimmed from the suggestion: typing it rebases.
		{name: "rebased once done", reply: " b \n\treturn s\n", keys: []string{" ", "b", " "}},
		{name: "rebased while streaming", reply: " b \n\treturn s\n", gap: 10 * time.Millisecond, keys: []string{" ", "b", " "}, wantCancelled: 1},
		{name: "rebased, taken up", reply: " b \n\treturn s\n", claim: true, keys: []string{" ", "b", " "}, wantUsed: 1},
		{name: "look-ahead taken while streaming", reply: " b\n\treturn s\n", gap: 10 * time.Millisecond, keys: []string{" b", "\n"}, wantCancelled: 1},
		{name: "look-ahead taken once done, then taken up", reply: " b\n\treturn s\n", keys: []string{" b", "\n"}, claimAfter: true, wantUsed: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &scriptedModel{reply: tc.reply, gap: tc.gap}
				e := speculating(m, false, true)
				defer e.Close()
				doc := text.New(lineSrc)
				var b builds
				e.Anticipate("file:///p.go", lineEnd, b.at(doc, lineEnd))
				claim := func(at int) {
					if s, _ := e.Suggest(context.Background(), query(doc, at)); s.Text == "" {
						t.Fatalf("no suggestion at %d", at)
					}
				}
				if tc.claim {
					claim(lineEnd)
				}
				time.Sleep(45 * time.Millisecond) // the first line streamed
				synctest.Wait()
				at := lineEnd
				for _, key := range tc.keys {
					doc = typeAt(e, doc, at, key)
					at += len(key)
				}
				time.Sleep(2 * tc.gap) // the stream goes on
				synctest.Wait()
				if tc.claimAfter {
					claim(at)
				}
				typeAt(e, doc, at, "x")
				synctest.Wait()
				st := e.Stats()
				if st.Anticipated != 1 || st.AnticipatedUsed != tc.wantUsed || st.AnticipatedCancelled != tc.wantCancelled {
					t.Fatalf("stats %+v: want one anticipated generation, %d used, %d cancelled", st, tc.wantUsed, tc.wantCancelled)
				}
				if want := st.Tokens * (1 - tc.wantUsed); st.AnticipatedWastedTokens != want || st.Tokens < 6 {
					t.Fatalf("stats %+v: want %d tokens wasted", st, want)
				}
			})
		})
	}
}
