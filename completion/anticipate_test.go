package completion_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/text"
)

// A request that comes while the generation a change anticipated is still
// being built waits for it and joins it, rather than asking the model
// itself.
func TestRequestJoinsAnticipationBeingBuilt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "42", gap: 10 * time.Millisecond}
		e := engine(m, time.Second)
		defer e.Close()
		doc := text.New(src)
		gate := make(chan struct{})
		e.Anticipate("file:///p.go", func() (completion.Query, func(), bool) {
			<-gate // the prompt's context takes a while
			return query(doc, cursor), func() {}, true
		})
		got := make(chan completion.Suggestion, 1)
		go func() {
			s, _ := e.Suggest(context.Background(), query(doc, cursor))
			got <- s
		}()
		synctest.Wait() // the request is in, the anticipation not yet built
		close(gate)
		if s := <-got; s.Text != "42" {
			t.Fatalf("suggestion %q, want %q", s.Text, "42")
		}
		if st := e.Stats(); st.ModelRequests != 1 || st.Anticipated != 1 || st.AnticipatedUsed != 1 {
			t.Fatalf("stats %+v: want the request to join the anticipated generation", st)
		}
	})
}

// A document closed while its anticipation is being built ends it: a
// request waiting for it goes on, and nothing reaches the model for it.
func TestDidCloseEndsAnticipationBeingBuilt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &scriptedModel{reply: "42"}
		e := engine(m, time.Second)
		defer e.Close()
		doc := text.New(src)
		gate := make(chan struct{})
		e.Anticipate("file:///p.go", func() (completion.Query, func(), bool) {
			<-gate
			return query(doc, cursor), func() {}, true
		})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.Suggest(ctx, query(doc, cursor))
		}()
		synctest.Wait()
		e.DidClose("file:///p.go")
		<-done // the request no longer waits on the anticipation
		close(gate)
		synctest.Wait()
		if st := e.Stats(); st.Anticipated != 0 {
			t.Fatalf("stats %+v: want nothing anticipated for a closed document", st)
		}
	})
}
