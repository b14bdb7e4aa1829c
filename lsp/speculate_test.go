package lsp_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// The replies of the speculation tests: the suggestion in add's empty
// body, and what follows it once it is taken and the line broken.
var (
	bodyReply = modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: "return a + b"}
	nextReply = modelserver.Reply{PrefixEndsWith: "return a + b\n", Text: "\tprintln(a, b)"}
)

// afterAccept is what add.go shows after the suggestion is taken and the
// line broken: the fitted nextReply, with the model's indentation, since
// nothing indented the new line (the changes insert only "\n"; see
// TestSpeculationShowsWhatAFreshRequestWould).
const afterAccept = "\tprintln(a, b)"

// engineStats asks wisp/stats.
func (e *fakeEditor) engineStats() completion.Stats {
	e.t.Helper()
	var st completion.Stats
	e.mustCall("wisp/stats", map[string]any{}, &st)
	return st
}

// promptLog answers from a script, except that prompts ending with stall
// get no answer until cancelled, and records every prompt's prefix.
type promptLog struct {
	script modelserver.ScriptBackend
	stall  string

	mu       sync.Mutex
	prefixes []string // guarded by mu
}

func (r *promptLog) Generate(ctx context.Context, q modelserver.Query, yield func(string) bool) error {
	r.mu.Lock()
	r.prefixes = append(r.prefixes, q.Prefix)
	r.mu.Unlock()
	if r.stall != "" && strings.HasSuffix(q.Prefix, r.stall) {
		<-ctx.Done()
		return nil
	}
	return r.script.Generate(ctx, q, yield)
}

// asked counts the prompts whose prefix ended with end.
func (r *promptLog) asked(end string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, p := range r.prefixes {
		if strings.HasSuffix(p, end) {
			n++
		}
	}
	return n
}

// speculating opens add.go, takes the first suggestion and waits until the
// speculative generation for the document after it has reached the model.
func speculating(t *testing.T, opts modelserver.Options, rec *promptLog) (*modelserver.Server, *fakeEditor, string) {
	t.Helper()
	opts.Backend = rec
	ms, model := loopbackModel(t, opts)
	cfg := config.Default()
	// Only the engine, not a deadline, may stop a stalled generation here.
	cfg.Completion.FirstTokenTimeout = time.Minute
	e := startServer(t, model, cfg)
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)
	if got, err := e.inline(context.Background(), uri, 3, 1); err != nil || got != "return a + b" {
		t.Fatalf("first suggestion %q, %v", got, err)
	}
	waitModel(t, ms, "the speculative request", func(st modelserver.Stats) bool { return st.Requests == 2 })
	return ms, e, uri
}

func scripted(replies ...modelserver.Reply) *promptLog {
	return &promptLog{script: modelserver.ScriptBackend{Script: &modelserver.Script{Replies: replies}}}
}

// Accepting the suggestion and pressing Enter is answered from the
// speculative generation: no new model request.
func TestAcceptedSuggestionServedBySpeculation(t *testing.T) {
	rec := scripted(bodyReply, nextReply)
	_, e, uri := speculating(t, modelserver.Options{}, rec)
	e.change(uri, 2, 3, 1, 3, 1, "return a + b") // the editor inserts the accepted suggestion
	e.change(uri, 3, 3, 13, 3, 13, "\n")
	got, err := e.inline(context.Background(), uri, 4, 0)
	if err != nil || got != afterAccept {
		t.Fatalf("after the accept: %q, %v; want %q", got, err, afterAccept)
	}
	// The model was asked at the new line once: the speculation. (It may
	// since have been asked ahead again, after the new suggestion.)
	if n := rec.asked("return a + b\n"); n != 1 {
		t.Fatalf("the model was asked %d times at the new line, want once (the speculation)", n)
	}
	st := e.engineStats()
	if st.Speculative < 1 || st.SpeculativeUsed != 1 {
		t.Fatalf("engine stats %+v: want the speculative generation used", st)
	}
}

// A speculation whose reply ends with the line that opens the next
// declaration (the model stopped there) shows that line once the comment
// above it is taken and the line broken, as Neovim's user sees it: no
// nothing, and no new request.
func TestSpeculationEndingWithAnOpenerIsShown(t *testing.T) {
	comment := modelserver.Reply{PrefixEndsWith: "}\n\n", Text: "// Pop takes the top value off."}
	opener := modelserver.Reply{PrefixEndsWith: "off.\n", Text: "func (s *Stack) Pop() (int, bool) {"}
	rec := scripted(comment, opener)
	ms, model := loopbackModel(t, modelserver.Options{Backend: rec})
	e := startServer(t, model, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", map[string]any{"streaming": true})
	uri := "file:///tmp/stack.go"
	e.open(uri, "go", "package main\n\n// Push puts v on top.\nfunc (s *Stack) Push(v int) {\n\ts.items = append(s.items, v)\n}\n\n\n")
	if got, err := e.inline(context.Background(), uri, 7, 0); err != nil || got != comment.Text {
		t.Fatalf("first suggestion %q, %v", got, err)
	}
	sent := len(modelserver.Tokenize(comment.Text)) + len(modelserver.Tokenize(opener.Text))
	waitModel(t, ms, "the speculation's reply", func(st modelserver.Stats) bool { return st.Tokens == int64(sent) })
	e.change(uri, 2, 7, 0, 7, 0, comment.Text)
	e.change(uri, 3, 7, 31, 7, 31, "\n")
	if got, err := e.inline(context.Background(), uri, 8, 0); err != nil || got != opener.Text {
		t.Fatalf("after the accept: %q, %v; want %q", got, err, opener.Text)
	}
	if n := rec.asked("off.\n"); n != 1 {
		t.Fatalf("the model was asked %d times at the new line, want once (the speculation)", n)
	}
	if st := e.engineStats(); st.SpeculativeUsed != 1 {
		t.Fatalf("engine stats %+v: want the speculative generation used", st)
	}
}

// Typing the suggestion through, key by key, takes it just as accepting
// does.
func TestTypedThroughSuggestionServedBySpeculation(t *testing.T) {
	rec := scripted(bodyReply, nextReply)
	_, e, uri := speculating(t, modelserver.Options{}, rec)
	for i, ch := range "return a + b\n" {
		e.change(uri, i+2, 3, 1+i, 3, 1+i, string(ch))
	}
	if got, err := e.inline(context.Background(), uri, 4, 0); err != nil || got != afterAccept {
		t.Fatalf("after typing it through: %q, %v; want %q", got, err, afterAccept)
	}
	if n := rec.asked("return a + b\n"); n != 1 {
		t.Fatalf("the model was asked %d times at the new line, want once", n)
	}
	if st := e.engineStats(); st.SpeculativeUsed != 1 {
		t.Fatalf("engine stats %+v: want the speculative generation used", st)
	}
}

// A keystroke that does not take the suggestion stops the speculative
// generation at the model.
func TestDivergentKeystrokeStopsSpeculation(t *testing.T) {
	long := nextReply
	long.Text = strings.Repeat("// a long speculative reply\n", 50)
	ms, e, uri := speculating(t, modelserver.Options{Rate: 50}, scripted(bodyReply, long))
	e.change(uri, 2, 3, 1, 3, 1, "x") // the suggestion starts with "r"
	waitModel(t, ms, "the cancel at the model", func(st modelserver.Stats) bool { return st.Cancels == 1 })
	if st := e.engineStats(); st.SpeculativeCancelled != 1 || st.SpeculativeUsed != 0 {
		t.Fatalf("engine stats %+v: want one speculative generation cancelled, none used", st)
	}
	if st := ms.Stats(); st.TokensAfterCancel >= 5 {
		t.Fatalf("model generated %d tokens after the cancel", st.TokensAfterCancel)
	}
}

// The user's own request never waits for a speculation: with the
// speculative generation stuck at the model, a request elsewhere is
// answered, and the speculation is stopped.
func TestSpeculationNeverDelaysTheUser(t *testing.T) {
	elsewhere := modelserver.Reply{PrefixEndsWith: "package p\n", Text: "import \"fmt\""}
	rec := scripted(bodyReply, elsewhere)
	rec.stall = "return a + b\n"
	ms, e, uri := speculating(t, modelserver.Options{}, rec)
	got, err := e.inline(context.Background(), uri, 1, 0)
	if err != nil || got != "import \"fmt\"" {
		t.Fatalf("request elsewhere: %q, %v", got, err)
	}
	waitModel(t, ms, "the cancel at the model", func(st modelserver.Stats) bool { return st.Cancels == 1 })
	if st := e.engineStats(); st.SpeculativeCancelled != 1 {
		t.Fatalf("engine stats %+v: want the stuck speculation cancelled", st)
	}
}

// What speculation shows is what a fresh request at the same place shows.
func TestSpeculationShowsWhatAFreshRequestWould(t *testing.T) {
	_, model := loopbackModel(t, modelserver.Options{}, nextReply)
	cfg := config.Default()
	cfg.Completion.Speculate = false
	e := startServer(t, model, cfg)
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", strings.Replace(addGo, "\t\n", "\treturn a + b\n\n", 1))
	if got, err := e.inline(context.Background(), uri, 4, 0); err != nil || got != afterAccept {
		t.Fatalf("fresh request: %q, %v; want %q", got, err, afterAccept)
	}
}

// A one-line suggestion's generation looks ahead past its line: the line
// shown is unchanged, and the next line is served from the look-ahead
// when the user takes the suggestion and breaks the line, without asking
// the model there.
func TestLookAheadServesTheNextLine(t *testing.T) {
	reply := modelserver.Reply{PrefixEndsWith: "s := a +", Text: " b\n\treturn s\n}\n"}
	rec := scripted(reply)
	ms, model := loopbackModel(t, modelserver.Options{Backend: rec})
	e := startServer(t, model, config.Default())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", "package p\n\nfunc add(a, b int) int {\n\ts := a +\n}\n")
	if got, err := e.inline(context.Background(), uri, 3, 9); err != nil || got != " b" {
		t.Fatalf("first suggestion %q, %v; want the line only", got, err)
	}
	waitModel(t, ms, "the look-ahead to be sent", func(st modelserver.Stats) bool {
		return st.Tokens == int64(len(modelserver.Tokenize(reply.Text)))
	})
	e.change(uri, 2, 3, 9, 3, 9, " b")
	e.change(uri, 3, 3, 11, 3, 11, "\n")
	if got, err := e.inline(context.Background(), uri, 4, 0); err != nil || got != "\treturn s" {
		t.Fatalf("next line %q, %v; want %q from the look-ahead", got, err, "\treturn s")
	}
	if n := rec.asked("s := a + b\n"); n != 0 {
		t.Fatalf("the model was asked %d times at the new line, want none", n)
	}
	if st := e.engineStats(); st.LookAheadUsed != 1 {
		t.Fatalf("engine stats %+v: want the look-ahead used", st)
	}
}
