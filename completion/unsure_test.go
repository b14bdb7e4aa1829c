package completion_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/transport"
)

// doubtingModel answers "x + 1", unsure of its " +" (the runner-up is
// " -"), and a prompt that ends in "x -" with " 2". It reports the doubt
// only when asked, as a provider with token probabilities does.
type doubtingModel struct {
	requests atomic.Int64
}

func (m *doubtingModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	m.requests.Add(1)
	tokens := []string{"x", " +", " 1"}
	if strings.HasSuffix(req.Prefix, "x -") {
		tokens = []string{" 2"}
	}
	at := 0
	for _, tok := range tokens {
		if tok == " +" && req.OnDoubt != nil && req.DoubtBelow > 0.3 {
			req.OnDoubt(transport.Doubt{At: at, Token: tok, Prob: 0.3, Alternatives: []string{" -"}})
		}
		onDelta(tok)
		at += len(tok)
	}
	return transport.Result{Text: strings.Join(tokens, ""), FinishReason: "stop"}, nil
}

func (m *doubtingModel) Close() error { return nil }

func unsureEngine(m transport.Model, unsure string) *completion.Engine {
	cfg := config.Default().Completion
	cfg.Grace = time.Second
	cfg.Speculate = false
	cfg.Unsure = unsure
	return completion.NewEngine(completion.Options{Model: m, Config: cfg})
}

func TestUnsureShowShowsTheDoubtedText(t *testing.T) {
	m := &doubtingModel{}
	e := unsureEngine(m, config.UnsureShow)
	defer e.Close()
	if s, _ := e.Suggest(context.Background(), query(text.New(src), cursor)); s.Text != "x + 1" {
		t.Fatalf("suggestion %q, want the model's text whole", s.Text)
	}
	if n := m.requests.Load(); n != 1 {
		t.Fatalf("%d model requests, want 1 (no branch)", n)
	}
}

func TestUnsureTrimStopsBeforeTheDoubtAndShowsOnPastIt(t *testing.T) {
	m := &doubtingModel{}
	e := unsureEngine(m, config.UnsureTrim)
	defer e.Close()
	doc := text.New(src)
	if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "x " {
		t.Fatalf("suggestion %q, want %q: up to where the choice and the runner-up part", s.Text, "x ")
	}
	doc = typeAt(e, doc, cursor, "x ")
	if s, _ := e.Suggest(context.Background(), query(doc, cursor+2)); s.Text != "+ 1" || s.Source != completion.FromTypedAhead {
		t.Fatalf("at the doubt: %+v, want the model's choice from the same stream", s)
	}
	if n := m.requests.Load(); n != 1 {
		t.Fatalf("%d model requests, want 1 (trim does not branch)", n)
	}
}

func TestUnsureBranchServesTheRunnerUpWithoutARequest(t *testing.T) {
	m := &doubtingModel{}
	e := unsureEngine(m, config.UnsureBranch)
	defer e.Close()
	doc := text.New(src)
	if s, _ := e.Suggest(context.Background(), query(doc, cursor)); s.Text != "x " {
		t.Fatalf("suggestion %q, want %q", s.Text, "x ")
	}
	if n := e.Stats().ModelRequests; n != 2 {
		t.Fatalf("%d model requests, want 2: the suggestion and its branch", n)
	}
	doc = typeAt(e, doc, cursor, "x -")
	s, err := e.Suggest(context.Background(), query(doc, cursor+3))
	if err != nil || s.Text != " 2" {
		t.Fatalf("after the runner-up: %+v, %v; want \" 2\" from the branch", s, err)
	}
	if n := m.requests.Load(); n != 2 {
		t.Fatalf("%d model requests reached the model, want still 2", n)
	}
	if st := e.Stats(); st.Branches != 1 || st.BranchesUsed != 1 {
		t.Fatalf("stats %+v, want one branch, used", st)
	}
}

func TestUnsureBranchStopsWhenTheChoiceIsTyped(t *testing.T) {
	m := &doubtingModel{}
	e := unsureEngine(m, config.UnsureBranch)
	defer e.Close()
	doc := text.New(src)
	e.Suggest(context.Background(), query(doc, cursor))
	doc = typeAt(e, doc, cursor, "x +")
	if s, _ := e.Suggest(context.Background(), query(doc, cursor+3)); s.Text != " 1" {
		t.Fatalf("after the model's choice: %q, want \" 1\"", s.Text)
	}
	if st := e.Stats(); st.Branches != 1 || st.BranchesUsed != 0 || st.BranchWastedTokens > 1 {
		t.Fatalf("stats %+v, want one branch, unused, at most its token wasted", st)
	}
}
