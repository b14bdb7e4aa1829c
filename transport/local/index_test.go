package local

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/transport"
)

func TestIndexDir(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, data []byte) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pkg/handlers.go", []byte(read(t, "handlers.go")))
	write("pkg/logo.png", append([]byte("\x89PNG\r\n\x1a\n\x00\x00"), make([]byte, 100)...))
	write("pkg/huge.go", []byte(strings.Repeat("x := 1\n", MaxFileBytes/7+1)))
	write(".git/config", []byte("[core]\n"))
	write("node_modules/a/index.js", []byte("module.exports = 1\n"))
	write("vendor/b/b.go", []byte("package b\n"))
	write("bad.txt", []byte("text\xff\xfe then binary"))

	e := New(Options{})
	if err := e.IndexDir(context.Background(), root, 0, 0); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range e.ws.docs {
		got = append(got, filepath.ToSlash(strings.TrimPrefix(d.path, root)))
	}
	if want := []string{"/pkg/handlers.go"}; !slices.Equal(got, want) {
		t.Fatalf("indexed %q, want %q", got, want)
	}

	// The workspace file serves completions for another file...
	req := transport.Request{Prefix: "package x\n\nfunc f(cfg *Config) {\n\tcfg.Port = ", Path: filepath.Join(root, "other.go")}
	if res, _ := complete(t, e, req); res.Text != `getenv("PORT")` {
		t.Errorf("from the workspace: %q", res.Text)
	}
	// ...but not for itself once open: the buffer shadows it.
	e.Observe(filepath.Join(root, "pkg/handlers.go"), "package api\n")
	req.Path = ""
	if res, _ := complete(t, e, req); res.Text != "" {
		t.Errorf("shadowed workspace file still used: %q", res.Text)
	}

	if err := e.IndexDir(context.Background(), filepath.Join(root, "missing"), 0, 0); err == nil {
		t.Error("IndexDir of a missing directory: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.IndexDir(ctx, root, 0, 0); err == nil {
		t.Error("IndexDir with a cancelled context: no error")
	}
	if len(e.ws.docs) != 1 {
		t.Error("a failed IndexDir replaced the index")
	}
}

func TestIndexDirLimits(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.go", "b.go", "c.go"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := New(Options{})
	if err := e.IndexDir(context.Background(), root, 2, 0); err != nil {
		t.Fatal(err)
	}
	if n := len(e.ws.docs); n != 2 {
		t.Errorf("maxFiles 2: indexed %d", n)
	}
	if err := e.IndexDir(context.Background(), root, 0, 15); err != nil {
		t.Fatal(err)
	}
	if n := len(e.ws.docs); n != 1 {
		t.Errorf("maxBytes 15: indexed %d", n)
	}
}

// Incremental re-tokenisation gives exactly the tokens of a fresh one.
func TestUpdateMatchesTokenize(t *testing.T) {
	base := read(t, "handlers.go") + read(t, "test_calc.py") + "a\r\nb\rc"
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"", "x", " ", "\n", "\r", "\r\n", "_", "(", "foo bar", "\t\t", "9", "é"}
	d := tokenize("f", base)
	text := base
	for i := range 2000 {
		a := r.IntN(len(text) + 1)
		b := min(len(text), a+r.IntN(8))
		text = text[:a] + pieces[r.IntN(len(pieces))] + text[b:]
		d = d.update(text)
		want := tokenize("f", text)
		if !slices.Equal(d.starts, want.starts) || !slices.Equal(d.ends, want.ends) ||
			!slices.Equal(d.exact, want.exact) || !slices.Equal(d.skel, want.skel) || !slices.Equal(d.kinds, want.kinds) {
			t.Fatalf("edit %d at %d..%d: incremental tokens differ from a fresh tokenisation", i, a, b)
		}
	}
}
