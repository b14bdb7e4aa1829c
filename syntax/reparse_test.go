package syntax

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/wisp-lsp/wisp/text"
)

// fragments are what random edits insert: tokens that open and close
// strings, comments and blocks, line breaks of every kind, multi-byte and
// invalid UTF-8.
var fragments = []string{
	"", "x", "foo", " ", "\n", "\r\n", "\r", "\t", "{", "}", "(", ")", "[", "]",
	"\"", "'", "`", "/*", "*/", "//", "#", ":", ";", ",", ".", "=", "->", "=>",
	"if x {\n", "func f() {}\n", "def g(a):\n    return a\n", "class C:\n    pass\n",
	"é", "日本", "😀", "\xff", "\x00", "${", "fn ", "struct S { a: i32 }", "#include <a.h>\n",
	"import x\n", "    ", "\"\"\"",
}

// randomEdit replaces a random range of src, at most a few bytes long, with
// a random fragment.
func randomEdit(rng *rand.Rand, src *text.Text) (*text.Text, text.Edit) {
	start := rng.IntN(src.Len() + 1)
	end := min(src.Len(), start+rng.IntN(4))
	if rng.IntN(3) == 0 {
		end = start // pure insertion
	}
	next, e, err := src.Replace(start, end, fragments[rng.IntN(len(fragments))])
	if err != nil {
		panic(err) // offsets are in range by construction
	}
	return next, e
}

// checkSame fails unless got has the same shape, byte spans and points as
// a fresh parse of its text. Where the text has syntax errors, tree-sitter's
// error recovery depends on which old subtrees it could reuse, so the two
// trees may place ERROR nodes differently; that is allowed only when the
// fresh parse has errors too, and unless exact is set.
func checkSame(t testing.TB, got *Tree, exact bool, step string) {
	t.Helper()
	want, err := Parse(context.Background(), got.Language(), got.Text())
	if err != nil {
		t.Fatalf("%s: fresh parse: %v", step, err)
	}
	defer want.Close()
	if !exact && want.HasError() {
		if !got.HasError() {
			t.Fatalf("%s: incremental tree lost the errors of %q: %s", step, got.Text(), got)
		}
		return
	}
	g, w := got.String(), want.String()
	if !exact && g != w && typeArgumentsAmbiguity(got, g, w) {
		// Both readings parse the text without error; which one the
		// parser keeps depends on the subtrees it reused.
		return
	}
	if g != w {
		t.Fatalf("%s: incremental tree differs from fresh parse of %q\n got: %s\nwant: %s", step, got.Text(), g, w)
	}
	if d := diffNodes(got.root(), want.root()); d != "" {
		t.Fatalf("%s: incremental tree differs from fresh parse of %q: %s", step, got.Text(), d)
	}
}

// typeArgumentsAmbiguity reports whether got and want, two error-free
// parses of one TypeScript or JavaScript text (as S-expressions g and w),
// differ in reading a "<" as type arguments in one and a comparison in the
// other: "a<b.c>\n0" is an instantiation and a number, or (a < b.c) > 0.
// tree-sitter's grammars for them are ambiguous there, and an incremental
// parse may keep the other reading than a fresh one.
func typeArgumentsAmbiguity(got *Tree, g, w string) bool {
	switch got.Language().Name() {
	case "typescript", "tsx", "javascript":
	default:
		return false
	}
	return !got.HasError() && strings.Contains(g, "type_arguments") != strings.Contains(w, "type_arguments")
}

// restore returns the edit that turns cur back into orig: the bytes
// between their common prefix and suffix (text.Between).
func restore(cur, orig *text.Text) (*text.Text, text.Edit) {
	d := text.Between(cur, orig)
	next, e, err := cur.Replace(d.Start, d.OldEnd, orig.String()[d.Start:d.NewEnd])
	if err != nil {
		panic(err) // offsets are in range by construction
	}
	return next, e
}

// diffNodes compares two trees' named nodes, positions included.
// (Anonymous tokens can differ: an incremental parse may fold a final
// newline into the padding where a fresh parse makes it a token.)
func diffNodes(a, b *sitter.Node) string {
	if a.Type() != b.Type() || a.StartByte() != b.StartByte() || a.EndByte() != b.EndByte() {
		return fmt.Sprintf("node %s[%d,%d] vs %s[%d,%d]", a.Type(), a.StartByte(), a.EndByte(), b.Type(), b.StartByte(), b.EndByte())
	}
	if a.StartPoint() != b.StartPoint() || a.EndPoint() != b.EndPoint() {
		return fmt.Sprintf("node %s[%d,%d] points %v-%v vs %v-%v", a.Type(), a.StartByte(), a.EndByte(),
			a.StartPoint(), a.EndPoint(), b.StartPoint(), b.EndPoint())
	}
	if a.NamedChildCount() != b.NamedChildCount() {
		return fmt.Sprintf("node %s[%d,%d]: %d named children vs %d:\n%s\n%s", a.Type(), a.StartByte(), a.EndByte(),
			a.NamedChildCount(), b.NamedChildCount(), children(a), children(b))
	}
	for i := 0; i < int(a.NamedChildCount()); i++ {
		if d := diffNodes(a.NamedChild(i), b.NamedChild(i)); d != "" {
			return d
		}
	}
	return ""
}

// TestReparseRandomEdits mutates every language's sample with batches of
// one to three random edits, then edits it back to the sample, and checks
// each incremental reparse against a fresh parse: exactly when the text is
// the (error-free) sample again, and wherever the fresh parse has no errors.
func TestReparseRandomEdits(t *testing.T) {
	for _, lang := range Languages() {
		t.Run(lang.Name(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(lang.Name()))))
			orig := text.New(sampleFor(t, lang))
			src := orig
			tree, err := Parse(context.Background(), lang, src)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { tree.Close() }()
			reparse := func(edits []text.Edit, exact bool, step string) {
				next, err := tree.Reparse(context.Background(), src, edits)
				if err != nil {
					t.Fatal(err)
				}
				checkSame(t, next, exact, step)
				tree.Close()
				tree = next
			}
			for step := range 200 {
				var edits []text.Edit
				for range 1 + rng.IntN(3) {
					var e text.Edit
					src, e = randomEdit(rng, src)
					edits = append(edits, e)
				}
				reparse(edits, false, fmt.Sprintf("step %d", step))
				if rng.IntN(3) == 0 {
					var e text.Edit
					src, e = restore(src, orig)
					reparse([]text.Edit{e}, true, fmt.Sprintf("step %d restored", step))
				}
			}
		})
	}
}

// TestReparseTyping types each sample one byte at a time, reparsing after
// every keystroke, and checks the final tree against a fresh parse.
func TestReparseTyping(t *testing.T) {
	for _, lang := range Languages() {
		sample := sampleFor(t, lang)
		src := text.New("")
		tree, err := Parse(context.Background(), lang, src)
		if err != nil {
			t.Fatal(err)
		}
		for i := range len(sample) {
			var e text.Edit
			src, e, err = src.Replace(i, i, sample[i:i+1])
			if err != nil {
				t.Fatal(err)
			}
			next, err := tree.Reparse(context.Background(), src, []text.Edit{e})
			if err != nil {
				t.Fatal(err)
			}
			tree.Close()
			tree = next
		}
		checkSame(t, tree, true, lang.Name()+" typed")
		tree.Close()
	}
}

// TestReparseLeavesOldTree checks that Reparse does not change the tree it
// starts from.
func TestReparseLeavesOldTree(t *testing.T) {
	src := text.New("package p\n\nfunc f() {}\n")
	tree, err := Parse(context.Background(), langGo, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	before := tree.String()
	src2, e, err := src.Replace(10, 10, "func g() { return }\n")
	if err != nil {
		t.Fatal(err)
	}
	next, err := tree.Reparse(context.Background(), src2, []text.Edit{e})
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if tree.String() != before || tree.Text() != src {
		t.Errorf("old tree changed: %s", tree.String())
	}
	if !strings.Contains(next.String(), "(function_declaration name: (identifier) parameters: (parameter_list) body: (block (return_statement)))") {
		t.Errorf("new tree lacks g: %s", next.String())
	}
	checkSame(t, next, true, "reparse")
}

// TestReparseBadEdits checks that edits that do not fit the texts fall
// back to a full parse instead of corrupting the tree.
func TestReparseBadEdits(t *testing.T) {
	src := text.New("package p\n\nfunc f() {}\n")
	tree, err := Parse(context.Background(), langGo, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	src2 := text.New("package p\n\nvar x = 1\n")
	for _, edits := range [][]text.Edit{
		nil,
		{{Start: 5, OldEnd: 2, NewEnd: 9}},
		{{Start: 0, OldEnd: 1000, NewEnd: 0}},
		{{Start: -1, OldEnd: 0, NewEnd: 0}},
	} {
		next, err := tree.Reparse(context.Background(), src2, edits)
		if err != nil {
			t.Fatal(err)
		}
		checkSame(t, next, true, fmt.Sprint(edits))
		next.Close()
	}
}

// TestParseCancelled checks that a done context stops Parse and Reparse
// with the context's error, and that the pool still works afterwards.
func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := text.New("package p\n")
	if _, err := Parse(ctx, langGo, src); err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Fatalf("Parse with cancelled ctx: err = %v", err)
	}
	tree, err := Parse(context.Background(), langGo, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	if _, err := tree.Reparse(ctx, src, nil); err == nil {
		t.Fatal("Reparse with cancelled ctx succeeded")
	}
	if _, err := Parse(context.Background(), nil, src); err != ErrNoLanguage {
		t.Fatalf("Parse(nil language): err = %v", err)
	}
}

// children lists n's children, for failure messages.
func children(n *sitter.Node) string {
	var b strings.Builder
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		fmt.Fprintf(&b, " %q[%d,%d]", c.Type(), c.StartByte(), c.EndByte())
	}
	return b.String()
}
