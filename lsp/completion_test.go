package lsp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// loopbackModel starts the loopback model server with a script and returns
// it with a WebSocket model connected to it.
func loopbackModel(t *testing.T, opts modelserver.Options, replies ...modelserver.Reply) (*modelserver.Server, transport.Model) {
	t.Helper()
	opts.Script = &modelserver.Script{Replies: replies}
	ms := modelserver.New(opts)
	return ms, serveModel(t, ms)
}

// countingConfig is the default configuration without speculation, for
// tests that count model requests.
func countingConfig() config.Config {
	c := config.Default()
	c.Completion.Speculate = false
	return c
}

const addGo = "package p\n\nfunc add(a, b int) int {\n\t\n}\n"

// inline asks for the inline completion at line:char under ctx, sending
// $/cancelRequest if ctx ends first, as VS Code does.
func (e *fakeEditor) inline(ctx context.Context, uri string, line, char int) (string, error) {
	var res struct {
		Items []struct {
			InsertText string `json:"insertText"`
		} `json:"items"`
	}
	err := e.Call(ctx, "textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"position":     map[string]any{"line": line, "character": char},
		"context":      map[string]any{"triggerKind": 2},
	}, &res)
	if err != nil || len(res.Items) == 0 {
		return "", err
	}
	return res.Items[0].InsertText, nil
}

// Typing what the ghost text shows is served by the same generation: no
// new model request, the remainder every time, even though each keystroke
// cancels the pending request first, as VS Code does.
func TestTypedAheadReuseSurvivesCancelRequest(t *testing.T) {
	ms, model := loopbackModel(t, modelserver.Options{}, modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: "return a + b"})
	e := startServer(t, model, countingConfig())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)

	got, err := e.inline(context.Background(), uri, 3, 1)
	if err != nil || got != "return a + b" {
		t.Fatalf("first suggestion %q, %v", got, err)
	}
	typed := ""
	for i, ch := range "return a" {
		// A request is pending when the key comes; the editor cancels it.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.inline(ctx, uri, 3, 1+len(typed))
		}()
		cancel()
		<-done
		e.change(uri, i+2, 3, 1+len(typed), 3, 1+len(typed), string(ch))
		typed += string(ch)
		got, err := e.inline(context.Background(), uri, 3, 1+len(typed))
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.TrimPrefix("return a + b", typed); got != want {
			t.Fatalf("after typing %q: suggestion %q, want %q", typed, got, want)
		}
	}
	if n := ms.Stats().Requests; n != 1 {
		t.Fatalf("model requests = %d, want 1 (typed-ahead reuse)", n)
	}
}

// A keystroke that diverges from the suggestion stops the generation at
// the model, and the request it superseded answers an empty list.
func TestDivergentKeystrokeCancelsAtTheModel(t *testing.T) {
	ms, model := loopbackModel(t, modelserver.Options{Rate: 20},
		modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: strings.Repeat("return a + b // and a long explanation ", 10)})
	e := startServer(t, model, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", map[string]any{"streaming": true})
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)

	type answer struct {
		text string
		err  error
	}
	first := make(chan answer, 1)
	go func() {
		s, err := e.inline(context.Background(), uri, 3, 1)
		first <- answer{s, err}
	}()
	// Wait until the model is streaming (a partial reached the client).
	e.waitFor("wisp/inlineCompletionPartial", func(p json.RawMessage) bool { return true })
	e.change(uri, 2, 3, 1, 3, 1, "x") // the suggestion starts with "r"
	a := <-first
	if a.err != nil || a.text != "" {
		t.Fatalf("superseded request answered %q, %v; want an empty list, no error", a.text, a.err)
	}
	st := waitModel(t, ms, "the cancel at the model", func(st modelserver.Stats) bool { return st.Cancels > 0 })
	if st.Cancels != 1 {
		t.Fatalf("model saw %d cancels, want 1", st.Cancels)
	}
	if st.TokensAfterCancel >= 5 {
		t.Fatalf("model generated %d tokens after the cancel", st.TokensAfterCancel)
	}
}

// textDocument/completion answers within its budget while the model is
// slow — with an empty complete list, never an empty incomplete one — and
// the next request is served from the finished generation.
func TestCompletionItemBudgetThenCache(t *testing.T) {
	held := heldScript(modelserver.Reply{PrefixEndsWith: "int {\n\tret", Text: "urn a + b"})
	ms := modelserver.New(modelserver.Options{Backend: held})
	cfg := config.Default()
	cfg.Completion.ItemBudget = 50 * time.Millisecond // the model is held past it, however long it is
	cfg.Completion.Speculate = false                  // counts model requests
	e := startServer(t, serveModel(t, ms), cfg)
	e.initialize("initialize-helix-FROM-SOURCE.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", strings.Replace(addGo, "\t\n", "\tret\n", 1))

	type list struct {
		IsIncomplete bool `json:"isIncomplete"`
		Items        []struct {
			Label      string `json:"label"`
			FilterText string `json:"filterText"`
			Format     int    `json:"insertTextFormat"`
			TextEdit   struct {
				NewText string         `json:"newText"`
				Range   protocol.Range `json:"range"`
			} `json:"textEdit"`
		} `json:"items"`
	}
	params := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 3, "character": 4},
		"context": map[string]any{"triggerKind": 1}}
	var first list
	e.mustCall("textDocument/completion", params, &first)
	if first.IsIncomplete || len(first.Items) != 0 {
		t.Fatalf("slow model: got %+v, want an empty complete list", first)
	}
	// The generation carries on into the cache: once the model answers,
	// an inline request at the cursor (which waits for the generation
	// rather than for a budget) sees it end.
	held.waitStarted(t)
	held.let(t)
	if got, err := e.inline(context.Background(), uri, 3, 4); err != nil || got != "urn a + b" {
		t.Fatalf("inline completion after the model answered: %q, %v", got, err)
	}
	var second list
	e.mustCall("textDocument/completion", params, &second)
	if len(second.Items) != 1 {
		t.Fatalf("no item after the model finished: %+v", second)
	}
	it := second.Items[0]
	if it.TextEdit.NewText != "return a + b" || !strings.HasPrefix(it.FilterText, "ret") || it.Format != 1 {
		t.Fatalf("item %+v: want textEdit from the word start with newText %q, filterText starting with the word, plain text", it, "return a + b")
	}
	if it.TextEdit.Range.Start.Character != 1 || it.TextEdit.Range.End.Character != 4 {
		t.Fatalf("textEdit range %+v, want the word before the cursor (1..4)", it.TextEdit.Range)
	}
	if n := ms.Stats().Requests; n != 1 {
		t.Fatalf("model requests = %d, want 1", n)
	}
}

// Cancelling a request while its suggestion streams leaves the server
// responsive: the next change and request are served (a regression: the
// cancelled request once kept the engine's lock).
func TestCancelWhileStreamingKeepsServing(t *testing.T) {
	ms, model := loopbackModel(t, modelserver.Options{Rate: 25},
		modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: "return a + b // with a longer tail to stream"})
	cfg := countingConfig()
	// The generation must outlive the moment no request wants it however
	// slowly the next key arrives: the grace period is not under test.
	cfg.Completion.Grace = time.Minute
	e := startServer(t, model, cfg)
	e.initialize("initialize-nvim-0.7.2.json", map[string]any{"streaming": true})
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.inline(ctx, uri, 3, 1)
	}()
	e.waitFor("wisp/inlineCompletionPartial", func(json.RawMessage) bool { return true })
	cancel()
	<-done
	e.change(uri, 2, 3, 1, 3, 1, "r")
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	got, err := e.inline(ctx2, uri, 3, 2)
	if err != nil || !strings.HasPrefix(got, "eturn a + b") {
		t.Fatalf("after a cancel mid-stream: %q, %v", got, err)
	}
	// The cancelled request did not end the generation: the next one was
	// served by the same stream, as VS Code's cancel-per-keystroke needs.
	if n := ms.Stats().Requests; n != 1 {
		t.Fatalf("model requests = %d, want 1", n)
	}
}
