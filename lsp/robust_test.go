package lsp_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lsp"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/transport"
)

// editPanicModel completes like echoModel and panics on quick edits: a
// panic inside a request handler, on the handler's own goroutine.
type editPanicModel struct{ echoModel }

func (m editPanicModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	if req.Instruction != "" {
		panic("injected: the edit model broke")
	}
	return m.echoModel.Generate(ctx, req, onDelta)
}

// A panic in a request handler answers that request with an internal
// error, is shown to the user once however often it happens, and the next
// requests are served.
func TestHandlerPanicReportedOnce(t *testing.T) {
	e, uri := sumSession(t, editPanicModel{echoModel{reply: "x"}})
	for range 3 {
		err := e.quickEdit(uri, 1, 5, "rename total to sum")
		var rpcErr *jsonrpc2.Error
		if !asRPCError(err, &rpcErr) || rpcErr.Code != jsonrpc2.InternalError || !strings.Contains(rpcErr.Message, "internal error") {
			t.Fatalf("panicking quick edit answered %v, want an internal error", err)
		}
	}
	if n := e.count("window/showMessage", "internal error"); n != 1 {
		t.Fatalf("the panic was shown %d times, want once", n)
	}
	if got, err := e.inline(context.Background(), uri, 5, 1); err != nil || got != "x" {
		t.Fatalf("after the panics: suggestion %q, %v", got, err)
	}
	e.change(uri, 2, 4, 1, 4, 1, "// note\n\t")
	if st := e.document(uri); st.Version != 2 || !strings.Contains(st.Text, "// note") {
		t.Fatalf("after the panics the document is %+v", st)
	}
}

func asRPCError(err error, target **jsonrpc2.Error) bool {
	return errors.As(err, target)
}

// Documents with very long lines are served as plain text (no tree), and
// inline completion answers without an error anywhere on them. The
// request path runs through completion/gather, whose windows must also
// hold on a line longer than the context budget (a gather fix; until it
// is in, this fails there with "slice bounds out of range" from
// gather's wholeLines, after the server part has passed).
func TestLongLinesComplete(t *testing.T) {
	goLong := "package long\n\nvar table = []byte(\"" + strings.Repeat("\\x00\\x01", 10_000/8) + "\")\n\nfunc f() {\n\t\n}\n"
	var js strings.Builder
	for i := 0; js.Len() < 14_000; i++ {
		js.WriteString("function a" + strings.Repeat("b", i%7) + "(c,d){return c+d*" + strings.Repeat("1", 1+i%5) + "};var e=a(1,2);")
	}
	cases := []struct {
		name, uri, lang, text string
		line                  int
	}{
		{"10 KB line of Go", "file:///tmp/long.go", "go", goLong, 2},
		{"14 KB minified JavaScript line", "file:///tmp/app.min.js", "javascript", "\"use strict\";" + js.String() + "\n", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := startServer(t, echoModel{reply: "x"}, config.Default())
			e.initialize("initialize-nvim-0.12.4.json", nil) // utf-8: characters are bytes
			e.open(c.uri, c.lang, c.text)
			if st := e.document(c.uri); st.Tree != "" {
				t.Fatalf("a document with a %d-byte line was parsed", len(strings.Split(c.text, "\n")[c.line]))
			}
			width := len(strings.Split(c.text, "\n")[c.line])
			for _, col := range []int{0, 1, 5000, width / 2, width - 1, width} {
				got, err := e.inline(context.Background(), c.uri, c.line, col)
				if err != nil {
					t.Fatalf("line %d column %d: %v", c.line, col, err)
				}
				if got != "x" {
					t.Fatalf("line %d column %d: suggestion %q, want the model's", c.line, col, got)
				}
			}
		})
	}
}

// A document past the parse limit is held and served as plain text.
func TestHugeDocumentIsPlainText(t *testing.T) {
	e := startServer(t, echoModel{reply: "x"}, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	uri := "file:///tmp/huge.go"
	e.open(uri, "go", bigGo(20<<20))
	e.change(uri, 2, 3, 1, 3, 1, "y")
	if got, err := e.inline(context.Background(), uri, 3, 2); err != nil || got != "x" {
		t.Fatalf("suggestion %q, %v", got, err)
	}
	var st docState
	e.mustCall("wisp/document", map[string]any{"textDocument": map[string]any{"uri": uri}}, &st)
	if st.Tree != "" || len(st.Text) < 20<<20 || !strings.Contains(st.Text, "\nfyunc f0(") {
		t.Fatalf("huge document: %d bytes, tree %.40q", len(st.Text), st.Tree)
	}
}

// While another document is being parsed (held here before its parse),
// changes and completions on other documents are served: the parse runs
// outside the store's lock, and a request never waits for another's
// parse of a context document.
func TestParseDoesNotBlockOtherDocuments(t *testing.T) {
	bigURI, smallURI := "file:///tmp/big.go", "file:///tmp/small.go"
	started, release := make(chan struct{}), make(chan struct{})
	var held atomic.Bool
	hook := func(u string) {
		if u == bigURI && held.CompareAndSwap(false, true) { // the first parse only
			close(started)
			<-release
		}
	}
	e := startServer(t, echoModel{reply: "x"}, config.Default(), func(s *lsp.Server) { lsp.SetParseHook(s, hook) })
	e.initialize("initialize-nvim-0.12.4.json", nil)
	e.open(bigURI, "go", bigGo(syntax.MaxParseBytes-4096))
	e.open(smallURI, "go", addGo)

	// big.go is parsed in the background once opened: that parse is
	// held.
	<-started
	var once sync.Once
	releaseParse := func() { once.Do(func() { close(release) }) }
	t.Cleanup(releaseParse) // on failure, let the held parse end

	// The change and the completions go out from a goroutine: over a
	// pipe, a server that stopped reading would block the writer itself.
	// The guard is not a timed assertion: a blocked server fails the
	// test instead of hanging it. The first completion in small.go
	// would index big.go for context; it does not wait for big.go's
	// parse, and uses no index of it.
	type answer struct {
		text string
		err  error
	}
	answers := make(chan answer, 2)
	go func() {
		got, err := e.inline(context.Background(), smallURI, 3, 1)
		answers <- answer{got, err}
		e.change(smallURI, 2, 3, 1, 3, 1, "r")
		got, err = e.inline(context.Background(), smallURI, 3, 2)
		answers <- answer{got, err}
	}()
	for i := range 2 {
		select {
		case a := <-answers:
			if a.err != nil || a.text != "x" {
				t.Fatalf("completion %d in small.go while big.go parses: %q, %v", i+1, a.text, a.err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("a change and a completion in small.go waited for big.go's parse")
		}
	}
	if st := e.document(smallURI); st.Version != 2 {
		t.Fatalf("small.go at version %d, want 2", st.Version)
	}
	releaseParse()
	// big.go's tree is there once its parse ends.
	var st docState
	e.mustCall("wisp/document", map[string]any{"textDocument": map[string]any{"uri": bigURI}}, &st)
	if !strings.HasPrefix(st.Tree, "(source_file") {
		t.Fatalf("big.go has no tree after its parse: %.60q", st.Tree)
	}
}

// Lua clients encode an empty params table as an empty list: a request
// with params [] is a request with no params, answered, not refused.
func TestEmptyListParamsAreNoParams(t *testing.T) {
	e, _ := sumSession(t, echoModel{reply: "x"})
	var st map[string]any
	if err := e.call("wisp/stats", []any{}, &st); err != nil || st == nil {
		t.Fatalf("wisp/stats with params []: %v, %v", st, err)
	}
	var rpcErr *jsonrpc2.Error
	if err := e.call("wisp/stats", []any{1}, &st); !asRPCError(err, &rpcErr) || rpcErr.Code != jsonrpc2.InvalidParams {
		t.Fatalf("wisp/stats with params [1] answered %v, want invalid params", err)
	}
}
