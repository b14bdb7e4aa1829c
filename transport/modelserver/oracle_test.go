package modelserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/transport"
)

// The oracle finds the region in the after file by its surroundings and
// answers that part, including lines the after file adds at its edges,
// even when lines around the region changed too.
func TestRewrite(t *testing.T) {
	above := "package p\n\nfunc f(a int) {\n"
	region := "\tx := a\n\tuse(x)\n"
	below := "\tuse(x)\n}\n"
	cases := []struct{ name, after, want string }{
		{"unchanged", above + region + below, region},
		{"renamed in and below", "package p\n\nfunc f(a int) {\n\ty := a\n\tuse(y)\n\tuse(y)\n}\n", "\ty := a\n\tuse(y)\n"},
		{"line added at the end", above + region + "\tcheck(x)\n" + below, region + "\tcheck(x)\n"},
		{"line added at the start", above + "\t// x is a\n" + region + below, "\t// x is a\n" + region},
		{"above changed", "package p\n\nfunc f(a, b int) {\n" + "\tx := a + b\n\tuse(x)\n" + below, "\tx := a + b\n\tuse(x)\n"},
		{"lines deleted across the start", "package p\n\n\tuse(x)\n\tuse(x)\n}\n", "\tuse(x)\n"},
		{"more code around", "// header\n" + above + region + below + "\nfunc g() {}\n", region},
	}
	for _, c := range cases {
		if got := Rewrite(above, region, below, c.after); got != c.want {
			t.Errorf("%s: rewrite %q, want %q", c.name, got, c.want)
		}
	}
	// At the start and end of the file the edges are the file's.
	if got := Rewrite("", "a\n", "", "z\na\nb\n"); got != "z\na\nb\n" {
		t.Errorf("whole file: %q", got)
	}
}

// A next-edit request is answered from the after version of the file
// its path names; anything else goes to the fallback.
func TestOracleBackend(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pkg"), 0o755)
	os.WriteFile(filepath.Join(dir, "pkg", "a.go"), []byte("package p\n\nvar y = 1\n"), 0o644)
	o := Oracle{Root: dir, Fallback: TextBackend("fallback")}
	gen := func(q Query) string {
		var b strings.Builder
		if err := o.Generate(context.Background(), q, func(tok string) bool { b.WriteString(tok); return true }); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	ne := transport.NextEdit{Path: "/home/u/src/proj/pkg/a.go", Above: "package p\n\n"}
	if got := gen(Query{Prefix: "var x = 1\n", Instruction: ne.Instruction()}); got != "```\nvar y = 1\n```\n" {
		t.Errorf("next edit answered %q", got)
	}
	ne.Path = "/elsewhere/b.go"
	if got := gen(Query{Prefix: "var x = 1\n", Instruction: ne.Instruction()}); got != "```\nvar x = 1\n```\n" {
		t.Errorf("a file without an after version answered %q, want the region unchanged", got)
	}
	if got := gen(Query{Prefix: "func main() {"}); got != "fallback" {
		t.Errorf("a completion answered %q, want the fallback's", got)
	}
}
