package lsp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/goleak"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// echoModel answers every completion with a fixed reply, streamed in
// small pieces.
type echoModel struct{ reply string }

func (m echoModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	for i := 0; i < len(m.reply); i += 3 {
		if err := ctx.Err(); err != nil {
			return transport.Result{}, &transport.Error{Kind: transport.KindCancelled, Err: err}
		}
		onDelta(m.reply[i:min(i+3, len(m.reply))])
	}
	return transport.Result{Text: m.reply, FinishReason: "stop"}, nil
}

func (echoModel) Close() error { return nil }

// Every real client's initialize gets the capabilities DESIGN.md lists and
// the position encoding it should.
func TestInitializeRealClients(t *testing.T) {
	want := map[string]string{
		"initialize-emacs-28.2-eglot-1.9.json":                         "utf-16",
		"initialize-emacs-28.2-lsp-mode-10.0.0.json":                   "utf-8",
		"initialize-helix-FROM-SOURCE.json":                            "utf-16",
		"initialize-node-vscode-jsonrpc-10-lsp-client.json":            "utf-16",
		"initialize-nvim-0.12.4.json":                                  "utf-8",
		"initialize-nvim-0.7.2.json":                                   "utf-16",
		"initialize-vim-9.0-ale-3.3.0.json":                            "utf-16",
		"initialize-vscode-1.100.3-code-server-languageclient-11.json": "utf-16",
	}
	// The clients whose initialize says they show inline completions
	// (lsp-mode's says "inlineCompletion": null).
	showsInline := map[string]bool{
		"initialize-node-vscode-jsonrpc-10-lsp-client.json":            true,
		"initialize-nvim-0.12.4.json":                                  true,
		"initialize-vscode-1.100.3-code-server-languageclient-11.json": true,
	}
	entries, err := os.ReadDir("../testdata/clients")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Fatalf("%d client profiles, want %d", len(entries), len(want))
	}
	for profile, enc := range want {
		t.Run(profile, func(t *testing.T) {
			e := startServer(t, echoModel{}, config.Default())
			res := e.initialize(profile, nil)
			caps := res["capabilities"].(map[string]any)
			if got := caps["positionEncoding"]; got != enc {
				t.Errorf("positionEncoding = %v, want %s", got, enc)
			}
			for _, k := range []string{"inlineCompletionProvider", "codeActionProvider", "executeCommandProvider"} {
				if caps[k] == nil {
					t.Errorf("capability %s missing", k)
				}
			}
			// A client that shows inline completions gets no completion
			// list besides (it would take Enter and Tab); the others get
			// one.
			_, list := caps["completionProvider"]
			if inline := showsInline[profile]; list == inline {
				t.Errorf("completionProvider offered: %v, want %v (the client shows inline completions: %v)", list, !inline, inline)
			}
			sync := caps["textDocumentSync"].(map[string]any)
			if sync["change"] != float64(2) {
				t.Errorf("textDocumentSync.change = %v, want 2 (incremental)", sync["change"])
			}
			if cp, ok := caps["completionProvider"].(map[string]any); ok && cp["triggerCharacters"] != nil {
				t.Errorf("completionProvider has trigger characters %v; they make Helix ask every server", cp["triggerCharacters"])
			}
		})
	}
}

func TestShutdownExitCodes(t *testing.T) {
	for _, shutdown := range []bool{true, false} {
		t.Run(fmt.Sprint("shutdown=", shutdown), func(t *testing.T) {
			e := startServer(t, echoModel{}, config.Default())
			e.initialize("initialize-nvim-0.12.4.json", nil)
			if shutdown {
				e.mustCall("shutdown", nil, nil)
				// After shutdown, requests are refused.
				err := e.call("textDocument/inlineCompletion", map[string]any{}, nil)
				if !isCode(err, jsonrpc2.InvalidRequest) {
					t.Errorf("request after shutdown: %v, want InvalidRequest", err)
				}
			}
			e.notify("exit", nil)
			code := <-e.done
			e.done <- code // for the cleanup
			want := 1
			if shutdown {
				want = 0
			}
			if code != want {
				t.Errorf("exit code %d, want %d", code, want)
			}
		})
	}
}

// blockingModel starts every generation, reports it on started, and ends
// it only when its context ends, as a stalled model does.
type blockingModel struct{ started chan struct{} }

func (m blockingModel) Generate(ctx context.Context, _ transport.Request, _ func(string)) (transport.Result, error) {
	m.started <- struct{}{}
	<-ctx.Done()
	return transport.Result{}, &transport.Error{Kind: transport.KindCancelled, Err: ctx.Err()}
}

func (blockingModel) Close() error { return nil }

// When Serve's context ends (a signal, in the command) the server stops at
// once, though a completion waits on a stalled model and the client holds
// the connection open: the generation is cancelled and Serve returns 1, as
// there was no shutdown.
func TestServeStopsWhenContextEnds(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	model := blockingModel{started: make(chan struct{}, 1)}
	e := startServerCtx(t, ctx, model, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	uri := "file:///tmp/stall.go"
	e.open(uri, "go", "package s\n\nfunc f() int {\n\treturn \n}\n")
	answered := make(chan error, 1)
	go func() {
		answered <- e.call("textDocument/inlineCompletion", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"position":     map[string]any{"line": 3, "character": 8},
			"context":      map[string]any{"triggerKind": 1},
		}, nil)
	}()
	select {
	case <-model.started:
	case err := <-answered:
		t.Fatalf("the completion ended before reaching the model: %v", err)
	}
	stop()
	select {
	case code := <-e.done:
		e.done <- code // for the cleanup
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
	case <-time.After(hangGuard):
		t.Fatal("Serve did not return after its context ended")
	}
	<-answered
}

// hangGuard bounds waits for what must happen at once; it guards the test
// run against a hang and measures nothing.
const hangGuard = 30 * time.Second

func TestRequestBeforeInitialize(t *testing.T) {
	e := startServer(t, echoModel{}, config.Default())
	err := e.call("textDocument/inlineCompletion", map[string]any{}, nil)
	if !isCode(err, -32002) {
		t.Fatalf("got %v, want ServerNotInitialized (-32002)", err)
	}
	// The server is still up and initializes normally.
	e.initialize("initialize-nvim-0.12.4.json", nil)
}

func TestUnknownMethodAndBadParams(t *testing.T) {
	e := startServer(t, echoModel{}, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	if err := e.call("wisp/noSuchMethod", map[string]any{}, nil); !isCode(err, jsonrpc2.MethodNotFound) {
		t.Errorf("unknown method: %v, want MethodNotFound", err)
	}
	if err := e.call("textDocument/inlineCompletion", map[string]any{"position": "here"}, nil); !isCode(err, jsonrpc2.InvalidParams) {
		t.Errorf("bad params: %v, want InvalidParams", err)
	}
	e.notify("wisp/unknownNotification", map[string]any{"x": 1})
	e.notify("textDocument/didChange", map[string]any{"textDocument": 7}) // malformed
	// Still serving.
	e.open("file:///tmp/a.go", "go", "package a\n")
	if got := e.document("file:///tmp/a.go").Text; got != "package a\n" {
		t.Fatalf("text = %q", got)
	}
}

func TestMalformedJSONGetsParseErrorAndServerStaysUp(t *testing.T) {
	e := startServer(t, echoModel{}, config.Default())
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{` // cut short
	if err := e.WriteFrame([]byte(body)); err != nil {
		t.Fatal(err)
	}
	// The parse error reply has a null id and reaches no call waiter; the
	// connection must survive it and serve the next message.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if r, err := e.AwaitResponse(ctx, nil); err != nil || !isCode(r.Err, jsonrpc2.ParseError) {
		t.Fatalf("answer to a cut-short message: %+v, %v; want a ParseError under the null id", r, err)
	}
	e.initialize("initialize-nvim-0.12.4.json", nil)
	e.open("file:///tmp/b.py", "python", "x = 1\n")
	if got := e.document("file:///tmp/b.py"); got.Language != "python" || !strings.Contains(got.Tree, "module") {
		t.Fatalf("after a malformed message: %+v", got)
	}
}

func isCode(err error, code jsonrpc2.Code) bool {
	var e *jsonrpc2.Error
	return errors.As(err, &e) && e.Code == code
}
