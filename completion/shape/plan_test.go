package shape_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/shape"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

func TestDecide(t *testing.T) {
	tests := []struct {
		file, src string
		reason    string
		indent    string
		unit      string
		blockEnd  string // text at Plan.BlockEnd, "" for none
	}{
		{"a.go", "package a\n\nfunc f() {\n\tx := g(‸)\n}\n", "inside brackets", "\t", "\t", ""},
		{"a.go", "package a\n\nfunc f() {‸\n}\n", "new block", "\t", "\t", "}\n"},
		{"a.go", "package a\n\nfunc f() {\n\t‸\n}\n", "empty body", "\t", "\t", "}\n"},
		// gofmt keeps a switch's and a select's case labels at their level.
		{"a.go", "package a\n\nfunc f() {\n\tswitch x {‸\n}\n", "new block", "\t", "\t", "}\n"},
		{"a.go", "package a\n\nfunc f() {\n\tselect {‸\n}\n", "new block", "\t", "\t", "}\n"},
		{"a.go", "package a\n\nfunc f() {\n\tselected {‸\n}\n", "new block", "\t\t", "\t", "}\n"},
		{"a.go", "package a\n\nfunc f() {\n\tx := 1\n\t‸\n\tg(x)\n}\n", "blank line", "\t", "\t", "}\n"},
		{"a.go", "package a\n\nfunc f() {\n\tx := y‸ + 1\n}\n", "mid-line", "\t", "\t", ""},
		{"a.go", "package a\n\n// Hello ‸\n", "in comment", "", "\t", ""},
		{"a.go", "package a\n\nvar s = \"ab‸\"\n", "in string", "", "\t", ""},
		{"a.py", "def f():\n  if x:‸\n", "new block", "    ", "  ", ""},
		{"a.py", "def f():\n    ‸\n", "empty body", "    ", "    ", ""},
		{"a.ts", "const f = () =>‸\n", "new block", "  ", "  ", ""},
		{"a.ts", "const f = g(() => ‸);\n", "inside brackets", "", "  ", ""},
		{"a.rs", "fn f() {‸}\n", "new block", "    ", "    ", "}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason+"/"+tt.file, func(t *testing.T) {
			doc, cursor := docAt(t, tt.src)
			tree := parse(t, tt.file, doc)
			p := shape.Decide(doc, tree, cursor)
			if p.Reason != tt.reason || p.Indent != tt.indent || p.Unit != tt.unit {
				t.Errorf("Decide = %+v, want reason %q indent %q unit %q", p, tt.reason, tt.indent, tt.unit)
			}
			if p.Multiline != (p.MaxLines > 1) {
				t.Errorf("Multiline %v with MaxLines %d", p.Multiline, p.MaxLines)
			}
			got := ""
			if p.BlockEnd >= 0 {
				got = doc.String()[p.BlockEnd:]
			}
			if tt.blockEnd != "" && got != tt.blockEnd || tt.blockEnd == "" && got != "" && !strings.HasPrefix(tt.file, "a.py") {
				t.Errorf("BlockEnd at %q, want %q", got, tt.blockEnd)
			}
		})
	}
}

// TestFitWithoutTree checks the plain-text fallback used when no tree is
// available.
func TestFitWithoutTree(t *testing.T) {
	doc, cursor := docAt(t, "func f() {\n\tfmt.Println(‸)\n}\n")
	p := shape.Decide(doc, nil, cursor)
	got, ok := shape.Fit(doc, nil, cursor, p, "x, y))\nmore")
	if !ok || got != "x, y" {
		t.Errorf("Fit = %q, %v; want \"x, y\"", got, ok)
	}
}

// A cursor outside the document plans and fits as the nearest end does:
// before the start, mid-line on "x := f("; past the end, on the blank
// line after it.
func TestFitClampsCursor(t *testing.T) {
	doc := text.New("x := f(\n")
	for _, tc := range []struct {
		cursor, clamped int
		reason, fit     string
	}{
		{-5, 0, "mid-line", "abc"},
		{100, doc.Len(), "blank line", "    abc)"},
	} {
		want := shape.Decide(doc, nil, tc.clamped)
		p := shape.Decide(doc, nil, tc.cursor)
		if !reflect.DeepEqual(p, want) || p.Reason != tc.reason {
			t.Errorf("Decide at %d = %+v; want the plan at %d (%s), %+v", tc.cursor, p, tc.clamped, tc.reason, want)
		}
		if got, ok := shape.Fit(doc, nil, tc.cursor, p, "abc)\n}"); !ok || got != tc.fit {
			t.Errorf("Fit at %d = %q, %v; want %q as at %d", tc.cursor, got, ok, tc.fit, tc.clamped)
		}
	}
}

func docAt(t testing.TB, src string) (*text.Text, int) {
	t.Helper()
	i := strings.Index(src, "‸")
	if i < 0 {
		t.Fatalf("no cursor in %q", src)
	}
	return text.New(strings.Replace(src, "‸", "", 1)), i
}

func parse(t testing.TB, file string, doc *text.Text) *syntax.Tree {
	t.Helper()
	lang := syntax.Detect("", file)
	if lang == nil {
		return nil
	}
	tree, err := syntax.Parse(context.Background(), lang, doc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return tree
}

// bigGo returns a Go file of about n lines of ordinary functions.
func bigGo(n int) string {
	var b strings.Builder
	b.WriteString("package big\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n")
	for i := 0; b.Len() < n*30; i++ {
		fmt.Fprintf(&b, "// F%d joins its arguments.\nfunc F%d(a, b string) string {\n\tif a == \"\" {\n\t\treturn b\n\t}\n\ts := strings.Join([]string{a, b}, \",\")\n\tfmt.Println(s)\n\treturn s\n}\n\n", i, i)
	}
	return b.String()
}

func BenchmarkDecide(b *testing.B) {
	src := bigGo(5000)
	cursor := strings.Index(src, "func F800(a, b string) string {") + len("func F800(a, b string) string {")
	doc := text.New(src)
	tree := parse(b, "big.go", doc)
	b.ResetTimer()
	for b.Loop() {
		shape.Decide(doc, tree, cursor)
	}
}

func BenchmarkFit(b *testing.B) {
	src := bigGo(5000)
	cursor := strings.Index(src, "func F800(a, b string) string {") + len("func F800(a, b string) string {")
	doc := text.New(src)
	tree := parse(b, "big.go", doc)
	p := shape.Decide(doc, tree, cursor)
	reply := "\n    if b == \"\" {\n        return a\n    }\n    return a + b\n}\n\nfunc G() {\n}\n"
	b.ResetTimer()
	for b.Loop() {
		if _, ok := shape.Fit(doc, tree, cursor, p, reply); !ok {
			b.Fatal("no completion")
		}
	}
}

// A new block the document does not close gets its closing brace after
// the body the model wrote (the model stops at that brace), except when
// the body was cut short at the plan's line bound: it is not finished.
func TestFitClosesANewBlock(t *testing.T) {
	doc, cursor := docAt(t, "package a\n\nfunc f() {‸\n")
	tree := parse(t, "a.go", doc)
	p := shape.Decide(doc, tree, cursor)
	if got, ok := shape.Fit(doc, tree, cursor, p, "\n\treturn\n"); !ok || got != "\n\treturn\n}" {
		t.Errorf("a short body: %q, %v; want it closed", got, ok)
	}
	var long strings.Builder
	for i := range p.MaxLines + 5 {
		fmt.Fprintf(&long, "\n\tx%d++", i)
	}
	if got, ok := shape.Fit(doc, tree, cursor, p, long.String()); !ok || strings.HasSuffix(got, "}") || strings.Count(got, "\n") < p.MaxLines-1 {
		t.Errorf("a body past %d lines: %q, %v; want it cut, not closed", p.MaxLines, got, ok)
	}
	closed, cursor := docAt(t, "package a\n\nfunc f() {‸\n}\n")
	tree = parse(t, "a.go", closed)
	p = shape.Decide(closed, tree, cursor)
	if got, ok := shape.Fit(closed, tree, cursor, p, "\n\treturn\n"); !ok || got != "\n\treturn" {
		t.Errorf("a body the document closes: %q, %v; want it as written", got, ok)
	}
}

// A reply still streaming is shown as the model has written it so far:
// no closing brace under a line it is still writing, no bracket closed
// that the next tokens close; its first line shows as it streams, a
// later line once what it opens is closed. The final text gets the
// closers (TestFitClosesANewBlock).
func TestFitPartialAddsNothing(t *testing.T) {
	doc, cursor := docAt(t, "package a\n\nfunc f(s string) {‸\n")
	tree := parse(t, "a.go", doc)
	p := shape.Decide(doc, tree, cursor)
	for _, tc := range []struct{ raw, want string }{
		{"\n\tr, size := utf8.DecodeRuneInString", "\n\tr, size := utf8.DecodeRuneInString"},
		{"\n\tr, size := utf8.DecodeRuneInString(s[i:", "\n\tr, size := utf8.DecodeRuneInString(s[i:"},
		{"\n\tn := 0\n\tfor i := 0; i < len(s); {\n\t\ti++", "\n\tn := 0"},
		{"\n\tn := 0\n\tm := 1\n\tfor i := 0; i < len(s); {\n\t\ti++", "\n\tn := 0\n\tm := 1"},
	} {
		got, ok := shape.FitPartial(doc, tree, cursor, p, tc.raw)
		if !ok || got != tc.want {
			t.Errorf("streaming %q: shown %q, %v; want %q", tc.raw, got, ok, tc.want)
		}
		if final, _ := shape.Fit(doc, tree, cursor, p, tc.raw); final == got {
			t.Errorf("final %q: %q as well; the case no longer shows what the final shaping adds", tc.raw, final)
		}
	}
	blank, cursor := docAt(t, "package a\n\nfunc f(s string) {\n\tn := 0\n‸\n\treturn\n}\n")
	tree = parse(t, "a.go", blank)
	p = shape.Decide(blank, tree, cursor)
	if got, _ := shape.FitPartial(blank, tree, cursor, p, "\tfor i := 0; i < len(s); {\n\t\ti++"); got != "\tfor i := 0; i < len(s); {" {
		t.Errorf("a block opening on a blank line, streaming: shown %q; want its first line", got)
	}
}
