package lsp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

type docState struct {
	Version   int32  `json:"version"`
	Text      string `json:"text"`
	Language  string `json:"language"`
	Tree      string `json:"tree"`
	OutOfSync bool   `json:"outOfSync"`
}

// fullChange sends a didChange that carries the whole text.
func (e *fakeEditor) fullChange(uri string, version int, s string) {
	e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": s}},
	})
}

// count returns how many notifications with method hold substr, after
// the server has handled everything sent before (wisp/stats is served in
// order, and notifications are sent before the answer that follows them).
func (e *fakeEditor) count(method, substr string) int {
	e.t.Helper()
	e.mustCall("wisp/stats", map[string]any{}, nil)
	n := 0
	for _, params := range e.Notifications(method) {
		if strings.Contains(string(params), substr) {
			n++
		}
	}
	return n
}

func (e *fakeEditor) document(uri string) docState {
	e.t.Helper()
	var st docState
	e.mustCall("wisp/document", map[string]any{"textDocument": map[string]any{"uri": uri}}, &st)
	return st
}

// change is one step of an editing session: a range in the client's
// encoding replaced by text, and the document the client then holds.
type step struct {
	sl, sc, el, ec int
	text           string
	want           string
}

// The server's text and tree follow the client's exactly through
// incremental changes in every encoding, with CRLF, multi-byte text and
// surrogate pairs.
func TestIncrementalChanges(t *testing.T) {
	cases := []struct {
		name, profile, lang, uri, initial string
		encodings                         []string
		steps                             []step
	}{
		{
			name: "utf-16 surrogate pairs and CRLF", profile: "initialize-vscode-1.100.3-code-server-languageclient-11.json",
			lang: "go", uri: "file:///tmp/s.go",
			initial: "package s\r\n\r\n// 😀 é\r\nfunc f() {}\r\n",
			steps: []step{
				// After "// 😀 " (😀 is two UTF-16 units): character 6.
				{2, 6, 2, 7, "è", "package s\r\n\r\n// 😀 è\r\nfunc f() {}\r\n"},
				{3, 10, 3, 10, "\r\n\treturn\r\n", "package s\r\n\r\n// 😀 è\r\nfunc f() {\r\n\treturn\r\n}\r\n"},
				{0, 8, 0, 9, "t", "package t\r\n\r\n// 😀 è\r\nfunc f() {\r\n\treturn\r\n}\r\n"},
			},
		},
		{
			name: "utf-8 byte columns", profile: "initialize-nvim-0.12.4.json",
			lang: "python", uri: "file:///tmp/u.py",
			initial: "s = 'ü'\nx = 1\n",
			steps: []step{
				// "s = 'ü" is 7 bytes: the quote after ü is at byte 7.
				{0, 7, 0, 7, "ber", "s = 'über'\nx = 1\n"},
				{1, 4, 1, 5, "42", "s = 'über'\nx = 42\n"},
				{1, 6, 1, 6, "\ndef f():\n    pass", "s = 'über'\nx = 42\ndef f():\n    pass\n"},
			},
		},
		{
			name: "utf-32 code points", profile: "initialize-emacs-28.2-lsp-mode-10.0.0.json",
			encodings: []string{"utf-32"}, lang: "rust", uri: "file:///tmp/r.rs",
			initial: "// 😀😀\nfn main() {}\n",
			steps: []step{
				{0, 4, 0, 5, "x", "// 😀x\nfn main() {}\n"}, // the 2nd emoji is code point 4
				{1, 11, 1, 11, " let a = 1; ", "// 😀x\nfn main() { let a = 1; }\n"},
			},
		},
		{
			name: "delete across lines", profile: "initialize-nvim-0.7.2.json",
			lang: "javascript", uri: "file:///tmp/j.js",
			initial: "a();\nb();\nc();\n",
			steps: []step{
				{0, 2, 2, 1, "", "a(();\n"},
				{0, 0, 1, 0, "", ""},
				{0, 0, 0, 0, "const x = 1;\n", "const x = 1;\n"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := startServer(t, echoModel{}, config.Default())
			e.initializeWith(c.profile, nil, c.encodings)
			e.open(c.uri, c.lang, c.initial)
			checkDoc(t, e, c.uri, c.lang, c.initial, 1)
			for i, s := range c.steps {
				e.change(c.uri, i+2, s.sl, s.sc, s.el, s.ec, s.text)
				checkDoc(t, e, c.uri, c.lang, s.want, int32(i+2))
			}
		})
	}
}

// checkDoc asserts the server holds want at version, and that its tree
// equals a fresh parse of want (the incremental reparse went right).
func checkDoc(t *testing.T, e *fakeEditor, uri, lang, want string, version int32) {
	t.Helper()
	got := e.document(uri)
	if got.Text != want || got.Version != version {
		t.Fatalf("server holds %q at version %d, want %q at %d", got.Text, got.Version, want, version)
	}
	l := syntax.Detect(lang, uri)
	if l == nil {
		t.Fatalf("no grammar for %s", lang)
	}
	fresh, err := syntax.Parse(t.Context(), l, text.New(want))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if got.Tree != fresh.String() {
		t.Fatalf("incremental tree differs from a fresh parse:\n got %s\nwant %s", got.Tree, fresh.String())
	}
}

// Bad changes are refused whole: the document keeps its last good text
// and version, goes out of sync, and later incremental changes are not
// applied to the old text; the server stays up.
func TestBadChangesKeepTheDocument(t *testing.T) {
	e := startServer(t, echoModel{}, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	uri := "file:///tmp/k.go"
	e.open(uri, "go", "package k\n")
	e.change(uri, 2, 0, 9, 0, 9, "ed")
	// A character past the end of a line means the line's end (LSP).
	e.change(uri, 3, 0, 99, 0, 99, " // ok")
	good := "package ked // ok\n"
	checkDoc(t, e, uri, "go", good, 3)

	v := 3
	for _, bad := range []struct{ sl, sc, el, ec int }{
		{7, 0, 7, 0}, // line past the end
		{0, 5, 0, 2}, // inverted range
	} {
		e.change(uri, v+1, bad.sl, bad.sc, bad.el, bad.ec, "x")
		e.change(uri, v+2, 0, 0, 0, 0, "// after\n") // not applied to the old text
		if got := e.document(uri); got.Text != good || got.Version != int32(v) || !got.OutOfSync {
			t.Fatalf("after a refused change: %q at version %d, out of sync %v; want %q at %d, out of sync", got.Text, got.Version, got.OutOfSync, good, v)
		}
		v += 3
		e.fullChange(uri, v, good)
		if got := e.document(uri); got.Text != good || got.Version != int32(v) || got.OutOfSync {
			t.Fatalf("after the full text: %q at version %d, out of sync %v", got.Text, got.Version, got.OutOfSync)
		}
	}
	// Each refusal told the client once, in its log.
	if n := e.count("window/logMessage", "out of sync"); n != 2 {
		t.Fatalf("%d out-of-sync log messages, want 2 (one per refusal)", n)
	}
}

// A version going backwards puts the document out of sync: the next
// change is not applied to the old text, no suggestion is made for it,
// and a full text (or reopening) brings it back.
func TestVersionBackwardsOutOfSync(t *testing.T) {
	e := startServer(t, echoModel{reply: "x"}, config.Default())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	uri := "file:///tmp/v.go"
	e.open(uri, "go", "package v\n")
	e.change(uri, 5, 0, 9, 0, 9, "2")
	if got, err := e.inline(context.Background(), uri, 0, 10); err != nil || got != "x" {
		t.Fatalf("in sync: suggestion %q, %v", got, err)
	}

	e.change(uri, 4, 0, 0, 0, 0, "// old\n") // version goes backwards: refused
	e.change(uri, 6, 0, 10, 0, 10, "3")      // the client's text is unknown now
	st := e.document(uri)
	if st.Text != "package v2\n" || st.Version != 5 || !st.OutOfSync {
		t.Fatalf("after a stale version: %q at %d, out of sync %v; want the version 5 text, out of sync", st.Text, st.Version, st.OutOfSync)
	}
	if got, err := e.inline(context.Background(), uri, 0, 11); err != nil || got != "" {
		t.Fatalf("out of sync: suggestion %q, %v; want none, no error", got, err)
	}
	if err := e.quickEdit(uri, 5, 0, "rename the package"); err == nil || !strings.Contains(err.Error(), "out of sync") {
		t.Fatalf("quick edit out of sync: %v, want an out-of-sync error", err)
	}
	e.waitFor("window/logMessage", func(p json.RawMessage) bool { return strings.Contains(string(p), "out of sync") })

	e.fullChange(uri, 7, "package v3\n")
	if st := e.document(uri); st.Text != "package v3\n" || st.Version != 7 || st.OutOfSync {
		t.Fatalf("after the full text: %+v", st)
	}
	if got, err := e.inline(context.Background(), uri, 0, 10); err != nil || got != "x" {
		t.Fatalf("back in sync: suggestion %q, %v", got, err)
	}

	// Reopening also resyncs.
	e.change(uri, 3, 0, 0, 0, 0, "//")
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	e.open(uri, "go", "package v4\n")
	if st := e.document(uri); st.Text != "package v4\n" || st.OutOfSync {
		t.Fatalf("after reopening: %+v", st)
	}
	if n := e.count("window/logMessage", "out of sync"); n != 2 {
		t.Fatalf("%d out-of-sync log messages, want 2", n)
	}
}

func TestPositionPastEndIsAnError(t *testing.T) {
	e := startServer(t, echoModel{reply: "x"}, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	e.open("file:///tmp/p.go", "go", "package p\n")
	err := e.call("textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": "file:///tmp/p.go"},
		"position":     map[string]any{"line": 40, "character": 0},
		"context":      map[string]any{"triggerKind": 1},
	}, nil)
	if err == nil || !strings.Contains(err.Error(), "line out of range") {
		t.Fatalf("got %v, want a clear out-of-range error", err)
	}
	err = e.call("textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": "file:///tmp/never-opened.go"},
		"position":     map[string]any{"line": 0, "character": 0},
		"context":      map[string]any{"triggerKind": 1},
	}, nil)
	if err == nil || !strings.Contains(err.Error(), "not open") {
		t.Fatalf("got %v, want a document-not-open error", err)
	}
}

// Large files, binary content and invalid UTF-8 are held exactly.
func TestLargeAndBinaryDocuments(t *testing.T) {
	e := startServer(t, echoModel{}, config.Default())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	big := strings.Repeat("func f() { return }\n", 200_000) // 4 MB
	e.open("file:///tmp/big.go", "go", big)
	e.change("file:///tmp/big.go", 2, 100_000, 0, 100_000, 0, "// here\n")
	if got := e.document("file:///tmp/big.go"); len(got.Text) != len(big)+8 || !strings.Contains(got.Text, "// here\nfunc") {
		t.Fatalf("big file: len %d", len(got.Text))
	}
	bin := "\x00\x01\u00ff\ufffe garbage \n\x00"
	e.open("file:///tmp/blob.bin", "plaintext", bin)
	e.change("file:///tmp/blob.bin", 2, 0, 2, 0, 3, "Z")
	want := "\x00\x01Z\ufffe garbage \n\x00"
	if got := e.document("file:///tmp/blob.bin"); got.Text != want {
		t.Fatalf("binary: %q, want %q", got.Text, want)
	}
	// Invalid UTF-8 inside a JSON string: refused or repaired, never fatal.
	body := "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file:///tmp/bad.txt\",\"languageId\":\"plaintext\",\"version\":1,\"text\":\"a\xc3\x28b\"}}}"
	if err := e.WriteFrame([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if got := e.document("file:///tmp/blob.bin"); got.Text != want {
		t.Fatalf("after invalid UTF-8: %q", got.Text)
	}
}
