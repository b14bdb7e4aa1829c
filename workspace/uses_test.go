package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wisp-lsp/wisp/workspace"
)

// Uses lists, for each qualifier asked, the members used after it in the
// file and the files related to it, most used first; Rust's "::" counts
// as "."; a qualifier used with nothing is left out; an editor buffer
// given to Update counts as the file's text.
func TestUses(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("go.mod", "module example.com/m\n")
	a := write("a_test.go", "package m\n\nfunc TestA(t *T) {\n\tt.Fatalf(\"x\")\n\tt.Helper()\n}\n")
	write("b_test.go", "package m\n\nfunc TestB(t *T) {\n\tt.Fatalf(\"y\")\n\tt.Fatalf(\"z\")\n\tt.Run(\"s\", nil)\n\tfmt::format()\n\tx := 1.5\n}\n")
	ix := workspace.Open(root, workspace.Options{CacheDir: "-"})
	t.Cleanup(func() { ix.Close() })
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := ix.Uses(a, []string{"t", "fmt", "nobody"}, 2)
	if want := []string{"Fatalf", "Helper"}; !slices.Equal(got["t"], want) {
		t.Errorf("t: %v, want %v (Fatalf 3 times, then the names used once, in order, cut at 2)", got["t"], want)
	}
	if want := []string{"format"}; !slices.Equal(got["fmt"], want) {
		t.Errorf("fmt: %v, want %v", got["fmt"], want)
	}
	if _, ok := got["nobody"]; ok || len(got) != 2 {
		t.Errorf("Uses gave %v, want only t and fmt", got)
	}
	ix.Update(a, []byte("package m\n\nfunc TestA(t *T) {\n\tt.Skip()\n\tt.Skip()\n\tt.Skip()\n\tt.Skip()\n}\n"))
	if got := ix.Uses(a, []string{"t"}, 1)["t"]; !slices.Equal(got, []string{"Skip"}) {
		t.Errorf("after Update, t: %v, want [Skip] (the buffer's four)", got)
	}
}

// FuzzUses feeds any text as a related file: Uses never panics.
func FuzzUses(f *testing.F) {
	for _, s := range []string{"", ".", "a.", ".b", "::x", "a::", "1.5.x", "a.b.c::d", "é.ü", "x.\n.y"} {
		f.Add(s)
	}
	root := f.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	from := filepath.Join(root, "a.go")
	if err := os.WriteFile(from, []byte("package m\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	ix := workspace.Open(root, workspace.Options{CacheDir: "-"})
	f.Cleanup(func() { ix.Close() })
	if err := ix.Wait(context.Background()); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		ix.Update(from, []byte("package m\n"+src))
		ix.Uses(from, []string{"a", "x", "b"}, 4)
	})
}

// Uses also reads the files elsewhere in the workspace that import the
// module a qualifier names: what the project does with "http." in
// another package counts; a file that uses a name "http" without
// importing the module does not.
func TestUsesReadsTheModulesOtherImporters(t *testing.T) {
	ix, root := openFiles(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"a/a.go": "package a\n\nimport \"net/http\"\n\nvar _ http.Handler\n",
		"b/b.go": "package b\n\nimport \"net/http\"\n\nfunc f(w http.ResponseWriter) {\n\thttp.Error(w, \"no\", http.StatusNotFound)\n\thttp.Error(w, \"no\", http.StatusNotFound)\n}\n",
		"c/c.go": "package c\n\nimport \"fmt\"\n\ntype client struct{ Get func() }\n\nfunc g(http client) {\n\tfmt.Println()\n\thttp.Get()\n\thttp.Get()\n\thttp.Get()\n}\n",
	})
	got := ix.Uses(filepath.Join(root, "a", "a.go"), []string{"http"}, 3)["http"]
	if want := []string{"Error", "StatusNotFound", "Handler"}; !slices.Equal(got, want) {
		t.Errorf("http: %v, want %v (b.go imports net/http; c.go's http is a parameter)", got, want)
	}
}
