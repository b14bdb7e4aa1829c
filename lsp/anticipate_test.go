package lsp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// startOnChange opts a client in to starting generations at didChange.
var startOnChange = map[string]any{"streaming": true, "completion": map[string]any{"startOnChange": true}}

// afterR is the suggestion in add's body once "r" is typed there.
var afterR = modelserver.Reply{PrefixEndsWith: "int {\n\tr", Text: "eturn a + b"}

// With the opt-in, a typed key starts the generation as its didChange
// arrives, before any inlineCompletion request; the request that follows
// for the cursor the key left is answered from it, without a second model
// request.
func TestStartOnChangeBeforeTheRequest(t *testing.T) {
	ms, model := loopbackModel(t, modelserver.Options{}, afterR)
	e := startServer(t, model, countingConfig())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", startOnChange)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)

	e.change(uri, 2, 3, 1, 3, 1, "r")
	waitModel(t, ms, "the model request the key started", func(st modelserver.Stats) bool { return st.Requests == 1 })
	got, err := e.inline(context.Background(), uri, 3, 2)
	if err != nil || got != afterR.Text {
		t.Fatalf("the request after the key: %q, %v; want %q", got, err, afterR.Text)
	}
	if n := ms.Stats().Requests; n != 1 {
		t.Fatalf("model requests = %d, want 1 (the request joins the generation the key started)", n)
	}
	if st := e.engineStats(); st.Anticipated != 1 || st.AnticipatedUsed != 1 || st.AnticipatedCancelled != 0 {
		t.Fatalf("engine stats %+v: want one generation started at the change, used by the request", st)
	}
}

// A change that makes the generation a key started stale stops it at the
// model before any request came, and wisp/stats counts it.
func TestStartOnChangeStaleIsCancelledAtTheModel(t *testing.T) {
	held := heldScript(afterR)
	ms := modelserver.New(modelserver.Options{Backend: held})
	cfg := countingConfig()
	cfg.Completion.Grace = time.Hour // only the change may stop it
	cfg.Completion.FirstTokenTimeout = time.Hour
	e := startServer(t, serveModel(t, ms), cfg)
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", startOnChange)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)

	e.change(uri, 2, 3, 1, 3, 1, "r")
	held.waitStarted(t)              // the model is working on the key's generation
	e.change(uri, 3, 3, 1, 3, 2, "") // backspace: the cursor it was for is gone
	waitModel(t, ms, "the cancel at the model", func(st modelserver.Stats) bool { return st.Cancels == 1 })
	st := e.engineStats()
	if st.Anticipated != 1 || st.AnticipatedCancelled != 1 || st.AnticipatedUsed != 0 {
		t.Fatalf("engine stats %+v: want the generation started at the change cancelled, unused", st)
	}
	if n := ms.Stats().Requests; n != 1 {
		t.Fatalf("model requests = %d, want 1 (a deletion starts nothing)", n)
	}
}

// Clients that do not opt in (Neovim, Emacs, Helix) are asked for
// nothing until they request: the request makes the only generation.
func TestNoStartOnChangeWithoutOptIn(t *testing.T) {
	held := heldScript(afterR)
	ms := modelserver.New(modelserver.Options{Backend: held})
	e := startServer(t, serveModel(t, ms), countingConfig())
	e.initialize("initialize-nvim-0.12.4.json", map[string]any{"streaming": true})
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)

	e.change(uri, 2, 3, 1, 3, 1, "r")
	answer := make(chan string, 1)
	go func() {
		got, _ := e.inline(context.Background(), uri, 3, 2)
		answer <- got
	}()
	held.waitStarted(t)
	held.let(t)
	if got := <-answer; got != afterR.Text {
		t.Fatalf("suggestion %q, want %q", got, afterR.Text)
	}
	if st := e.engineStats(); st.Anticipated != 0 || st.ModelRequests != 1 {
		t.Fatalf("engine stats %+v: want no generation started at the change, one model request", st)
	}
}

// A key typed before the model said anything is not bet on: the
// generation the previous key started stops at the model and the new
// key's starts, for the prompt its request will have.
func TestStartOnChangeKeyBeforeFirstTokenStartsAfresh(t *testing.T) {
	held := heldScript(afterR, modelserver.Reply{PrefixEndsWith: "int {\n\tre", Text: "turn a + b"})
	ms := modelserver.New(modelserver.Options{Backend: held})
	cfg := countingConfig()
	cfg.Completion.Grace = time.Hour
	e := startServer(t, serveModel(t, ms), cfg)
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", startOnChange)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)

	e.change(uri, 2, 3, 1, 3, 1, "r")
	held.waitStarted(t)
	e.change(uri, 3, 3, 2, 3, 2, "e")
	if q := held.waitStarted(t); !strings.HasSuffix(q.Prefix, "\tre") {
		t.Fatalf("the second generation's prompt ends %q, want it to end at the second key", q.Prefix[max(0, len(q.Prefix)-10):])
	}
	waitModel(t, ms, "the first generation's cancel", func(st modelserver.Stats) bool { return st.Cancels == 1 })
	answer := make(chan string, 1)
	go func() {
		got, _ := e.inline(context.Background(), uri, 3, 3)
		answer <- got
	}()
	held.let(t)
	if got := <-answer; got != "turn a + b" {
		t.Fatalf("suggestion %q, want %q", got, "turn a + b")
	}
	if st := e.engineStats(); st.Anticipated != 2 || st.AnticipatedCancelled != 1 || st.AnticipatedUsed != 1 || st.ModelRequests != 2 {
		t.Fatalf("engine stats %+v: want two generations started at changes, the first cancelled, the second used", st)
	}
}

// When the editor closes a bracket as it is typed, the change inserts the
// pair and the cursor stays between them: the generation is started
// there, where the request asks.
func TestStartOnChangeBetweenAutoClosedBrackets(t *testing.T) {
	call := modelserver.Reply{PrefixEndsWith: "\tprintln(", Text: `"sum", a+b`}
	ms, model := loopbackModel(t, modelserver.Options{}, call)
	e := startServer(t, model, countingConfig())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", startOnChange)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", "package p\n\nfunc add(a, b int) {\n\tprintln\n}\n")

	e.change(uri, 2, 3, 8, 3, 8, "()")
	waitModel(t, ms, "the model request the key started", func(st modelserver.Stats) bool { return st.Requests == 1 })
	if got, err := e.inline(context.Background(), uri, 3, 9); err != nil || got != call.Text {
		t.Fatalf("suggestion %q, %v; want %q", got, err, call.Text)
	}
	if n := ms.Stats().Requests; n != 1 {
		t.Fatalf("model requests = %d, want 1 (started between the brackets)", n)
	}
}
