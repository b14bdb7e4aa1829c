package edits

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

const scopeGo = `package p

import (
	"fmt"
	"strings"
)

type Box struct{ n int }

func (b *Box) Show() string {
	if b.n > 0 {
		return fmt.Sprint(b.n)
	}

	return ""
}

func Upper(s string) string { return strings.ToUpper(s) }

var answer = 42
`

// parse parses src as the language of path.
func parse(t *testing.T, path, src string) (*text.Text, *syntax.Tree) {
	t.Helper()
	doc := text.New(src)
	tree, err := syntax.Parse(context.Background(), syntax.Detect("", path), doc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return doc, tree
}

// at returns the byte offset of the first occurrence of s in src.
func at(t *testing.T, src, s string) int {
	t.Helper()
	i := strings.Index(src, s)
	if i < 0 {
		t.Fatalf("%q not in source", s)
	}
	return i
}

func TestScope(t *testing.T) {
	doc, tree := parse(t, "p.go", scopeGo)
	for _, tc := range []struct {
		name       string
		start, end int
		want       string
	}{
		{"cursor in method", at(t, scopeGo, "Sprint"), at(t, scopeGo, "Sprint"),
			"func (b *Box) Show() string {\n\tif b.n > 0 {\n\t\treturn fmt.Sprint(b.n)\n\t}\n\n\treturn \"\"\n}\n"},
		{"cursor in one-line function", at(t, scopeGo, "ToUpper"), at(t, scopeGo, "ToUpper"),
			"func Upper(s string) string { return strings.ToUpper(s) }\n"},
		{"cursor in top-level var: paragraph", at(t, scopeGo, "42"), at(t, scopeGo, "42"), "var answer = 42\n"},
		{"selection widened to lines", at(t, scopeGo, "n > 0"), at(t, scopeGo, "Sprint"),
			"\tif b.n > 0 {\n\t\treturn fmt.Sprint(b.n)\n"},
		{"selection ending at a line start", at(t, scopeGo, "type Box"), at(t, scopeGo, "\nfunc (b") + 1,
			"type Box struct{ n int }\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Scope(doc, tree, tc.start, tc.end)
			if err != nil {
				t.Fatal(err)
			}
			if got := scopeGo[r.Start:r.End]; got != tc.want {
				t.Errorf("region = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestScopeErrors(t *testing.T) {
	doc, tree := parse(t, "p.go", scopeGo)
	blank := at(t, scopeGo, "\n\nfunc Upper") + 1
	if _, err := Scope(doc, tree, blank, blank); !errors.Is(err, ErrEmptyRegion) {
		t.Errorf("Scope on a blank line = %v, want ErrEmptyRegion", err)
	}
	if _, err := Scope(doc, tree, 5, 2); err == nil {
		t.Error("Scope of an inverted range succeeded")
	}
	if _, err := Scope(doc, tree, 0, doc.Len()+1); err == nil {
		t.Error("Scope past the end succeeded")
	}
	if _, err := Scope(text.New("other"), tree, 0, 0); err == nil {
		t.Error("Scope with a tree of another text succeeded")
	}
}

func TestScopePlainText(t *testing.T) {
	src := "first para\nstill first\n\nsecond para\nmore\n"
	doc := text.New(src)
	r, err := Scope(doc, nil, at(t, src, "more"), at(t, src, "more"))
	if err != nil {
		t.Fatal(err)
	}
	if got := src[r.Start:r.End]; got != "second para\nmore\n" {
		t.Errorf("region = %q", got)
	}
}

func TestBuildRequest(t *testing.T) {
	doc, tree := parse(t, "p.go", scopeGo)
	off := at(t, scopeGo, "return fmt")
	r, err := Scope(doc, tree, off, off+len("return fmt.Sprint(b.n)"))
	if err != nil {
		t.Fatal(err)
	}
	req := BuildRequest(doc, tree, r, "use strconv", "p.go", "")
	if req.Prefix != "\t\treturn fmt.Sprint(b.n)\n" || req.Instruction != "use strconv" || req.Language != "go" || req.Path != "p.go" {
		t.Errorf("request = %+v", req)
	}
	var ctx []string
	for _, s := range req.Context {
		if s.Path != "p.go" {
			t.Errorf("snippet path %q", s.Path)
		}
		ctx = append(ctx, s.Text)
	}
	all := strings.Join(ctx, "\n---\n")
	for _, want := range []string{
		"import (\n\t\"fmt\"\n\t\"strings\"\n)", // imports
		"func (b *Box) Show() string",           // the enclosing header
		"func Upper(s string) string",           // a neighbouring signature
	} {
		if !strings.Contains(all, want) {
			t.Errorf("context lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "fmt.Sprint(b.n)") {
		t.Errorf("context repeats the region:\n%s", all)
	}
	if len(req.Context) == 0 || !strings.Contains(req.Context[0].Text, "import") {
		t.Errorf("imports do not come first: %q", ctx)
	}
}

func TestBuildRequestWithoutTree(t *testing.T) {
	doc := text.New("a\nb\n")
	req := BuildRequest(doc, nil, Region{Start: 2, End: 4}, "x", "f.txt", "plaintext")
	if req.Prefix != "b\n" || len(req.Context) != 0 || req.Language != "plaintext" {
		t.Errorf("request = %+v", req)
	}
}

func TestScopeFallsBackToBlock(t *testing.T) {
	src := "const ready = true;\nif (ready) {\n  start();\n\n  report();\n}\n"
	doc, tree := parse(t, "main.js", src)
	off := at(t, src, "report")
	r, err := Scope(doc, tree, off, off)
	if err != nil {
		t.Fatal(err)
	}
	if got := src[r.Start:r.End]; got != "if (ready) {\n  start();\n\n  report();\n}\n" {
		t.Errorf("region = %q, want the if statement", got)
	}
}
