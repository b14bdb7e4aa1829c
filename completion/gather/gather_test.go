package gather_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/workspace"
)

// filler returns n small functions, to push things out of the window.
func filler(prefix string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "// %s%d does nothing much.\nfunc %s%d(a, b int) int {\n\tc := a * b\n\treturn c + %d\n}\n\n", prefix, i, prefix, i, i)
	}
	return b.String()
}

const mainHead = `package main

import (
	"fmt"
	"path/filepath"
	"os"
)

// Open opens the named thing.
func Open(name string, flags int) (*os.File, error) {
	return os.Open(name)
}

`

// mainBody is a long function; the cursor sits near its end.
var mainBody = "func process(names []string) error {\n" +
	strings.Repeat("\tfmt.Println(\"working on a long function body line\")\n", 60) +
	"\tf, err := Open(names[0], 0)\n\tremote := Dial(names[1])\n\t‸\n\treturn nil\n}\n\nfunc after() {}\n"

func buffer(t testing.TB, path, src string) gather.Buffer {
	t.Helper()
	doc := text.New(src)
	b := gather.Buffer{Path: path, LanguageID: "go", Text: doc}
	if lang := syntax.Detect("", path); lang != nil {
		tree, err := syntax.Parse(context.Background(), lang, doc)
		if errors.Is(err, syntax.ErrTooLarge) {
			return b // as the server has it: plain text only
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(tree.Close)
		b.Tree = tree
	}
	return b
}

func input(t testing.TB, budget int) (gather.Input, string) {
	src := mainHead + filler("Helper", 30) + mainBody
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	other := "package main\n\n" + filler("Other", 5) + "// Dial connects.\nfunc Dial(addr string) *Conn {\n\treturn nil\n}\n"
	o := buffer(t, "net.go", other)
	in := gather.Input{Buffer: buffer(t, "main.go", src), Cursor: cursor, Budget: budget}
	in.History = []history.Edit{{Path: "net.go", Line: 13, Lines: 1, Diff: "@@ -14,1 +14,1 @@\n-func Other2(a, b int) int {\n+func Other3(a, b int) int {"}}
	in.Others = []gather.Buffer{o}
	return in, src
}

func TestGatherPieces(t *testing.T) {
	in, src := input(t, 800)
	c := gather.Gather(in)

	if !showsWindow(src[c.PrefixStart:in.Cursor], c.Prefix) || !showsWindow(src[in.Cursor:c.SuffixEnd], c.Suffix) {
		t.Fatalf("windows do not match offsets %d..%d", c.PrefixStart, c.SuffixEnd)
	}
	if !strings.HasSuffix(c.Suffix, "func after() {}\n") {
		t.Errorf("suffix should run past the enclosing function to the end of the file, got %q", c.Suffix)
	}
	if c.Tokens > c.Budget || c.Tokens < c.Budget*95/100 {
		t.Errorf("tokens %d of budget %d: want at least 95%% used, never more than all", c.Tokens, c.Budget)
	}
	want := map[string]string{
		"enclosing":         "func process(names []string) error",
		"imports":           "\"fmt\"",
		"signature/main.go": "func Open(name string, flags int) (*os.File, error)",
		"signature/net.go":  "func Dial(addr string) *Conn",
		"recent":            "func Other3(a, b int) int {",
	}
	got := map[string]bool{}
	for _, p := range c.Pieces {
		if p.Why == "" || p.Tokens != gather.Estimate(p.Text) {
			t.Errorf("piece %s: why %q, tokens %d for %d bytes", p.Kind, p.Why, p.Tokens, len(p.Text))
		}
		for k, w := range want {
			kind, path, _ := strings.Cut(k, "/")
			if p.Kind == kind && (path == "" || p.Path == path) && strings.Contains(p.Text, w) {
				got[k] = true
			}
		}
		if p.Kind == "signature" && strings.Contains(p.Text, "Helper") && strings.Contains(p.Why, "used at") {
			t.Errorf("signature of an unused helper: %q", p.Text)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("no %s piece holding %q in %+v", k, want[k], c.Pieces)
		}
	}
}

func TestGatherSmallFileWhole(t *testing.T) {
	src := "package a\n\nfunc f() {\n\tx := 1\n}\n"
	b := buffer(t, "a.go", src)
	c := gather.Gather(gather.Input{Buffer: b, Cursor: strings.Index(src, "x :=")})
	if c.PrefixStart != 0 || c.SuffixEnd != len(src) || c.Budget != gather.DefaultBudget {
		t.Errorf("small file: prefix from %d, suffix to %d of %d, budget %d", c.PrefixStart, c.SuffixEnd, len(src), c.Budget)
	}
}

func TestGatherWithoutTree(t *testing.T) {
	src := strings.Repeat("some plain text line\n", 500)
	for _, cur := range []int{-3, 0, 5000, len(src), len(src) + 9} {
		c := gather.Gather(gather.Input{Buffer: gather.Buffer{Path: "a.txt", Text: text.New(src)}, Cursor: cur, Budget: 200})
		if c.Tokens > c.Budget || c.PrefixStart > c.SuffixEnd {
			t.Errorf("cursor %d: tokens %d budget %d, window %d..%d", cur, c.Tokens, c.Budget, c.PrefixStart, c.SuffixEnd)
		}
	}
}

func TestContextJSONAndRequest(t *testing.T) {
	in, _ := input(t, 800)
	c := gather.Gather(in)
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"kind":"prefix"`, `"why":`, `"tokens":`, `"budget":800`} {
		if !strings.Contains(string(data), k) {
			t.Errorf("JSON lacks %s: %s", k, data)
		}
	}
	req := c.Request("main.go", "go")
	if req.Prefix != c.Prefix || req.Suffix != c.Suffix || req.Language != "go" || req.Path != "main.go" {
		t.Errorf("request %+v does not carry the windows", req)
	}
	// Prompt order: what changes least first (the imports), other files'
	// signatures, this file's enclosing header, then its signatures (one
	// snippet: the same file), recent edits last (a diff joins no code).
	var order []string
	for _, s := range req.Context {
		order = append(order, strings.SplitN(s.Text, "\n", 2)[0])
	}
	want := []string{"import (", "func Dial(addr string) *Conn", "func process(names []string) error", "@@ -14,1 +14,1 @@"}
	if !slices.Equal(order, want) {
		t.Errorf("snippets in order %q, want %q", order, want)
	}
	for _, s := range req.Context {
		if s.Path == "" || s.Text == "" {
			t.Errorf("empty snippet %+v", s)
		}
	}
	if s := req.Context[2].Text; !strings.Contains(s, "\nfunc Open(name string, flags int) (*os.File, error)") {
		t.Errorf("this file's header and signature are not one snippet: %q", s)
	}
}

// TestEstimate compares the estimate with real token counts of o200k_base
// (counted once with bench/context/tokenizer): each within a third, all
// together within a tenth. (The fit itself is measured on 1,600 chunks;
// see tokens.go.)
func TestEstimate(t *testing.T) {
	if gather.Estimate("") != 0 || gather.Estimate("a") != 1 {
		t.Errorf("Estimate of nothing and of one letter: %d, %d", gather.Estimate(""), gather.Estimate("a"))
	}
	total, real := 0, 0
	for _, tt := range []struct {
		s    string
		real int
	}{
		{"func (s *Server) Open(ctx context.Context, name string) (*File, error) {\n\tif err := s.check(name); err != nil {\n\t\treturn nil, fmt.Errorf(\"open %s: %w\", name, err)\n\t}\n\treturn s.files[name], nil\n}\n", 59},
		{"    def put(self, key, value):\n        self._items[key] = (value, time.monotonic())\n        self._items.move_to_end(key)\n        while len(self._items) > self.capacity:\n            self._items.popitem(last=False)\n", 53},
		{"impl Parser {\n    pub fn expr(&mut self) -> Result<f64, String> {\n        let mut acc = self.primary()?;\n        while let Some(Token::Op(op)) = self.peek().cloned() {\n            self.pos += 1;\n        }\n        Ok(acc)\n    }\n}\n", 61},
		{"export function debounce<T extends (...args: any[]) => void>(fn: T, ms = 300): T {\n  let timer: ReturnType<typeof setTimeout> | undefined;\n  return ((...args) => {\n    clearTimeout(timer);\n    timer = setTimeout(() => fn(...args), ms);\n  }) as T;\n}\n", 69},
		{"var table = []int{1024, 2048, 4096, 65536, 1000000}\n", 26},
		{"// Überprüft die Größe der Datei und gibt einen Fehler zurück.\n", 14},
	} {
		got := gather.Estimate(tt.s)
		if got*3 < tt.real*2 || got*3 > tt.real*4 {
			t.Errorf("Estimate = %d, real %d tokens: %q", got, tt.real, tt.s)
		}
		total += got
		real += tt.real
	}
	if total*10 < real*9 || total*10 > real*11 {
		t.Errorf("all together: estimate %d, real %d", total, real)
	}
}

// Recent edits: of the newest, those near the cursor's file win over
// those elsewhere, and the prompt shows them oldest first.
func TestRecentEditsNearTheFile(t *testing.T) {
	in, _ := input(t, 4000)
	in.Path = "/w/app/main.go"
	in.Others = nil
	edit := func(path string, n int) history.Edit {
		return history.Edit{Path: path, Line: n, Lines: 1, Diff: fmt.Sprintf("@@ -%d,1 +%d,1 @@\n-old%d\n+new%d", n+1, n+1, n, n)}
	}
	in.History = []history.Edit{ // newest first
		edit("/w/lib/a.go", 1), edit("/w/lib/c.go", 3), edit("/w/lib/e.go", 5),
		edit("/w/lib/f.go", 6), edit("/w/app/b.go", 2), edit("/w/app/d.go", 4),
	}
	var got []string
	for _, p := range gather.Gather(in).Pieces {
		if p.Kind == "recent" {
			got = append(got, p.Path)
		}
	}
	want := []string{"/w/app/d.go", "/w/app/b.go", "/w/lib/c.go", "/w/lib/a.go"}
	if !slices.Equal(got, want) {
		t.Errorf("recent edits %q, want %q", got, want)
	}
}

// rootedResolver is a workspace that knows its root and resolves nothing.
type rootedResolver string

func (rootedResolver) Resolve(string, []string, int) []workspace.Symbol { return nil }
func (r rootedResolver) Root() string                                   { return string(r) }

// The model is shown paths relative to the workspace root (none of the
// user's folders), others as given; the prompt's own lines count in
// Tokens as Frame, and the budget still holds.
func TestRequestPathsAndFrame(t *testing.T) {
	in, _ := input(t, 800)
	root := filepath.Join(t.TempDir(), "proj")
	in.Path = filepath.Join(root, "cmd", "main.go")
	in.Others[0].Path = filepath.Join(root, "net", "net.go")
	in.History[0].Path = in.Others[0].Path
	in.Workspace = rootedResolver(root)
	c := gather.Gather(in)
	req := c.Request(in.Path, "go")
	if req.Path != "cmd/main.go" || c.Root != root {
		t.Errorf("request path %q (root %q), want cmd/main.go under %s", req.Path, c.Root, root)
	}
	paths := map[string]bool{}
	for _, s := range req.Context {
		paths[s.Path] = true
	}
	if !paths["net/net.go"] || !paths["cmd/main.go"] || len(paths) != 2 {
		t.Errorf("snippet paths %v, want net/net.go and cmd/main.go", paths)
	}
	sum := 0
	for _, p := range c.Pieces {
		sum += p.Tokens
	}
	if c.Frame <= 0 || c.Tokens != sum+c.Frame || c.Tokens > c.Budget {
		t.Errorf("tokens %d = pieces %d + frame %d, budget %d", c.Tokens, sum, c.Frame, c.Budget)
	}
	// Frame is the file's lines (27 tokens and its path) and one
	// "Context from PATH:" line (4 tokens and its path) per snippet the
	// request shows, a path counting a token per four bytes.
	pathTokens := func(p string) int { return (len(p) + 3) / 4 }
	frame := 27 + pathTokens(req.Path)
	for _, s := range req.Context {
		frame += 4 + pathTokens(s.Path)
	}
	if len(req.Context) < 3 || c.Frame != frame {
		t.Errorf("frame %d, want %d for the file and %d snippets", c.Frame, frame, len(req.Context))
	}
	// Outside the root, a path is shown as given.
	in.Workspace = rootedResolver(filepath.Join(t.TempDir(), "elsewhere"))
	if got := gather.Gather(in).Request(in.Path, "go").Path; got != in.Path {
		t.Errorf("outside the root: %q, want %q", got, in.Path)
	}
}

// The prefix piece says which comment lines the window left out, so that
// `wisp context` explains a doc comment missing from the prompt.
func TestWindowNamesTheLinesItLeftOut(t *testing.T) {
	src := "package p\n\n// Sum adds.\n// It adds all of xs.\nfunc Sum(xs []int) int {\n\ttotal := 0\n" +
		strings.Repeat("\ttotal += 0\n", 10) + "\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n\n// Mean averages.\n" +
		"func Mean(xs []int) int {\n\treturn Sum(xs) / len(xs)\n}\n\nfunc Max(xs []int) int {\n\t‸\n}\n" +
		strings.Repeat("\nfunc Min(xs []int) int {\n\treturn xs[0]\n}\n", 200)
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	c := gather.Gather(gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: 500})
	prefix := c.Pieces[len(c.Pieces)-2]
	if prefix.Kind != "prefix" || !strings.HasSuffix(prefix.Why, "; comment lines 3-4 left out") || strings.Contains(c.Prefix, "It adds all") {
		t.Errorf("prefix %q: %s\n%s", prefix.Kind, prefix.Why, c.Prefix)
	}
}

// When the window holds the whole file, left-out comment runs come back
// nearest first, and of two as near, the one above: the same prompt
// every time, whatever budget leaves room for one of them only.
func TestCommentsComeBackInAFixedOrder(t *testing.T) {
	above := "// Above is one run.\n// It takes two lines.\n"
	below := "// Below is one run.\n// It takes two lines.\n"
	code := strings.Repeat("\tx++\n", 10)
	// Neither run documents f: a line of code stands between its header
	// and the first.
	src := "package p\n\nfunc f(x int) {\n\tx--\n" + above + code + "\t‸\n" + code + below + "}\n"
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	one := 0
	for budget := 60; budget <= 200; budget += 2 {
		var first string
		for i := range 20 {
			c := gather.Gather(gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: budget})
			shown := c.Prefix + c.Suffix
			if i == 0 {
				first = shown
			} else if shown != first {
				t.Fatalf("budget %d: the prompt changed from one call to the next:\n%s\n---\n%s", budget, first, shown)
			}
			if c.PrefixStart != 0 || c.SuffixEnd != len(src) {
				break
			}
			if a, b := strings.Contains(shown, "Above is"), strings.Contains(shown, "Below is"); a != b {
				one++
				if b {
					t.Fatalf("budget %d: the run below came back, not the one above", budget)
				}
			}
		}
	}
	if one == 0 {
		t.Fatal("no budget left room for one run only: the case tests nothing")
	}
}
