package lsp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// eglot 1.9 takes a completion candidate with one didChange of three
// edits, each in the coordinates the one before it left: the candidate's
// label inserted, the label deleted, the text inserted. With a live
// generation whose suggestion that takes, and a label longer than the
// text, the engine once read the inserted text at the first edit's place
// in the final document, past its end: the change handler panicked with
// the change lock held, and wisp answered nothing after. The change must
// land, the suggestion count as taken, and the server answer on.
func TestAcceptAsThreeEditsInOneChange(t *testing.T) {
	const body = "return a + b\n}"
	_, model := loopbackModel(t, modelserver.Options{}, modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: body})
	e := startServer(t, model, config.Default())
	e.initialize("initialize-emacs-28.2-eglot-1.9.json", nil)
	uri := "file:///tmp/add.go"
	src := "package p\n\nfunc add(a, b int) int {\n\t\n" // the suggestion ends the file
	e.open(uri, "go", src)
	got, err := e.inline(context.Background(), uri, 3, 1)
	if err != nil || got == "" {
		t.Fatalf("no suggestion to take: %q, %v", got, err)
	}
	label := strings.ReplaceAll(got, "\n", " ") + " …" // longer than the text, as eglot's labels are
	at := map[string]any{"line": 3, "character": 1}
	labelEnd := map[string]any{"line": 3, "character": 1 + len(label)}
	e.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{
			map[string]any{"range": map[string]any{"start": at, "end": at}, "text": label},
			map[string]any{"range": map[string]any{"start": at, "end": labelEnd}, "text": ""},
			map[string]any{"range": map[string]any{"start": at, "end": at}, "text": got},
		},
	})
	// It answers on: the next change is applied and the next request
	// served.
	e.change(uri, 3, 0, 0, 0, 0, "// p adds.\n")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := e.inline(ctx, uri, 4, 1); err != nil || ctx.Err() != nil {
		t.Fatalf("a request after the accept: %v, %v", err, ctx.Err())
	}
	want := "// p adds.\n" + strings.Replace(src, "int {\n\t\n", "int {\n\t"+got+"\n", 1)
	if doc := e.document(uri); doc.Text != want {
		t.Fatalf("after the accept the document reads\n%q\nwant\n%q", doc.Text, want)
	}
	if n := e.count("window/showMessage", "internal error"); n != 0 {
		t.Fatalf("the server reported %d internal errors", n)
	}
}
