package syntax

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/text"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ id, path, want string }{
		{"go", "", "go"},
		{"python", "x.txt", "python"},
		{"javascriptreact", "", "javascript"},
		{"typescriptreact", "", "tsx"},
		{"TypeScript", "", "typescript"},
		{"", "/src/a.go", "go"},
		{"", "a.py", "python"},
		{"", "a.mjs", "javascript"},
		{"", "a.cjs", "javascript"},
		{"", "a.jsx", "javascript"},
		{"", "a.mts", "typescript"},
		{"", "a.cts", "typescript"},
		{"", "A.TSX", "tsx"},
		{"", "lib.rs", "rust"},
		{"", "x.h", "c"},
		{"", "X.java", "java"},
		{"plaintext", "notes.txt", ""},
		{"", "Makefile", ""},
		{"cobol", "", ""},
		{"", "", ""},
	} {
		got := Detect(tc.id, tc.path)
		name := ""
		if got != nil {
			name = got.Name()
		}
		if name != tc.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", tc.id, tc.path, name, tc.want)
		}
	}
	var names []string
	for _, l := range Languages() {
		names = append(names, l.Name())
	}
	if want := []string{"go", "python", "javascript", "typescript", "tsx", "rust", "c", "java"}; !slices.Equal(names, want) {
		t.Errorf("Languages() = %v, want %v", names, want)
	}
}

// TestCopyConcurrent queries copies of one tree from several goroutines;
// run with -race.
func TestCopyConcurrent(t *testing.T) {
	src := text.New(sampleFor(t, langGo))
	tree, err := Parse(context.Background(), langGo, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	want := report(tree, nil)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		c := tree.Copy()
		wg.Go(func() {
			defer c.Close()
			for off := 0; off < src.Len(); off += 7 {
				c.EnclosingScopes(off)
				c.InStringOrComment(off)
			}
			// Reparse from the copy, too: parsers come from the pool.
			next, err := c.Reparse(context.Background(), src, nil)
			if err != nil {
				errs <- err.Error()
				return
			}
			defer next.Close()
			if got := report(next, nil); got != want {
				errs <- got
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestBadInput feeds out-of-range offsets, binary text, a closed tree and
// a nil text; nothing may panic.
func TestBadInput(t *testing.T) {
	for _, lang := range Languages() {
		for _, s := range []string{"", "\xff\xfe\x00\x01{{{((\"", "\x00", "}\n\r\r\n)" + string(rune(0x10FFFF))} {
			tree, err := Parse(context.Background(), lang, text.New(s))
			if err != nil {
				t.Fatal(err)
			}
			for _, off := range []int{-5, 0, 1, len(s), len(s) + 10} {
				tree.EnclosingScopes(off)
				tree.Enclosing(off, KindFunction)
				tree.NodeAt(off)
				tree.InStringOrComment(off)
			}
			tree.Imports()
			tree.Definitions()
			tree.Close()
			tree.Close()
			if tree.String() != "" || tree.HasError() || tree.EnclosingScopes(0) != nil || tree.Definitions() != nil {
				t.Errorf("%s: closed tree still answers", lang.Name())
			}
			c := tree.Copy()
			if _, err := c.Reparse(context.Background(), text.New("x"), nil); err != nil {
				t.Errorf("%s: reparse of closed tree's copy: %v", lang.Name(), err)
			}
		}
		tree, err := Parse(context.Background(), lang, nil)
		if err != nil || tree.Text().Len() != 0 {
			t.Fatalf("%s: Parse(nil text) = %v, %v", lang.Name(), tree, err)
		}
		tree.Close()
	}
}

// TestEnclosingKinds checks the kind filter and the Python end-of-line rule.
func TestEnclosingKinds(t *testing.T) {
	src := "class A:\n    def f(self):\n        if x:\n            pass\n"
	tree, err := Parse(context.Background(), langPython, text.New(src))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	off := len(src) - 1 // end of "pass", before the final newline
	if s, ok := tree.Enclosing(off); !ok || s.Kind != KindBlock || s.NodeType != "if_statement" {
		t.Errorf("Enclosing(any) = %+v, %v", s, ok)
	}
	if s, ok := tree.Enclosing(off, KindMethod, KindFunction); !ok || s.Name != "f" || s.Kind != KindMethod {
		t.Errorf("Enclosing(method) = %+v, %v", s, ok)
	}
	if s, ok := tree.Enclosing(off, KindClass); !ok || s.Name != "A" || src[s.Body.Start:s.Body.Start+3] != "def" {
		t.Errorf("Enclosing(class) = %+v, %v", s, ok)
	}
	if _, ok := tree.Enclosing(len(src), KindClass); ok {
		t.Errorf("offset after the final newline is still in the class")
	}
}

// Every row of the language table has a grammar, and each language knows
// its row.
func TestEveryTableRowParses(t *testing.T) {
	for _, row := range lang.All() {
		l := Detect(row.IDs[0], "")
		if l == nil || l.Facts() != row || l.Name() != row.Name {
			t.Errorf("%s: no grammar, or not this row's (%v)", row.Name, l)
		}
	}
}
