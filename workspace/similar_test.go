package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/workspace"
)

// Similar finds, in the files related to the cursor's, the windows whose
// identifiers overlap the query's most; never in the cursor's own file,
// and from an editor's buffer text once Update gave it.
func TestSimilar(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	from := filepath.Join(root, "cart", "cart.go")
	got := ix.Similar(from, []string{"Item", "SKU", "Price"}, 3)
	if len(got) == 0 || got[0].Path != filepath.Join(root, "cart", "item.go") || !strings.Contains(got[0].Text, "Price int") {
		t.Fatalf("Similar gave %+v, want item.go's Item first", got)
	}
	for _, s := range got {
		if s.Path == from {
			t.Errorf("Similar returned the cursor's own file: %+v", s)
		}
		if s.Score <= 0 || s.Score > 1 {
			t.Errorf("score %v out of (0, 1]", s.Score)
		}
	}
	item := filepath.Join(root, "cart", "item.go")
	ix.Update(item, []byte("package cart\n\n// Discount is off the price.\nfunc Discount(pct int) int { return pct }\n"))
	got = ix.Similar(from, []string{"Discount", "pct"}, 3)
	if len(got) == 0 || !strings.Contains(got[0].Text, "func Discount") {
		t.Fatalf("after Update, Similar gave %+v, want the buffer's Discount", got)
	}
	if got := ix.Similar(from, []string{"nothingLikeThis"}, 3); len(got) != 0 {
		t.Errorf("a query nothing shares gave %+v", got)
	}
}

// A related file changed on disk without the index being told (a client
// that does not watch files) is read again, not served from the cache.
func TestSimilarRereadsChangedFile(t *testing.T) {
	root := copyTree(t, "gomod")
	ix := workspace.Open(root, workspace.Options{CacheDir: "-"})
	t.Cleanup(func() { ix.Close() })
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	from, item := filepath.Join(root, "cart", "cart.go"), filepath.Join(root, "cart", "item.go")
	if got := ix.Similar(from, []string{"Item", "SKU", "Price"}, 3); len(got) == 0 || got[0].Path != item {
		t.Fatalf("Similar gave %+v, want item.go first", got)
	}
	if err := os.WriteFile(item, []byte("package cart\n\n// Refund returns the amount.\nfunc Refund(amount int) int { return amount }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := ix.Similar(from, []string{"Refund", "amount"}, 3)
	if len(got) == 0 || !strings.Contains(got[0].Text, "func Refund") {
		t.Fatalf("after the disk change, Similar gave %+v, want item.go's new Refund", got)
	}
}

// Similar reads a large folder's files in path order, whatever order the
// build's workers or the editor's updates indexed them in: with more
// files than it reads and equal scores, the same ones every run.
func TestSimilarFolderOrder(t *testing.T) {
	root := t.TempDir()
	var paths []string
	for i := range 20 {
		p := filepath.Join(root, fmt.Sprintf("m%02d.py", i))
		if err := os.WriteFile(p, []byte("def shared_name():\n    return other_name()\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	ix := workspace.Open(root, workspace.Options{CacheDir: "-"})
	defer ix.Close()
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := len(paths) - 1; i >= 0; i-- { // re-indexed newest path first
		ix.Update(paths[i], []byte("def shared_name():\n    return other_name()\n"))
	}
	got := ix.Similar(paths[0], []string{"shared_name", "other_name"}, 3)
	var names []string
	for _, s := range got {
		names = append(names, filepath.Base(s.Path))
	}
	if want := []string{"m01.py", "m02.py", "m03.py"}; !slices.Equal(names, want) {
		t.Errorf("Similar read %v, want the folder's first files %v", names, want)
	}
}

// SimilarWithin finds the windows of the cursor's own file like the
// query, leaving out those that reach into the lines the caller shows.
func TestSimilarWithin(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	path := filepath.Join(root, "cart", "cart.go")
	var b strings.Builder
	b.WriteString("package cart\n\n")
	b.WriteString("func addApple(c *Cart) { c.Put(appleSKU, applePrice, freshness) }\n")
	for i := range 40 {
		fmt.Fprintf(&b, "var filler%d = %d\n", i, i)
	}
	b.WriteString("func addPear(c *Cart) { c.Put(pearSKU, pearPrice, freshness) }\n")
	src := b.String()
	ix.Update(path, []byte(src))
	query := []string{"Cart", "Put", "freshness"}
	appleLine, pearLine := 2, 43
	got := ix.SimilarWithin(path, query, 0, 10, 3)
	if len(got) == 0 || !strings.Contains(got[0].Text, "addPear") {
		t.Fatalf("SimilarWithin(lines 0-10 shown) gave %+v, want the window with addPear", got)
	}
	for _, s := range got {
		if s.Path != path || s.Line <= 10 || strings.Contains(s.Text, "addApple") {
			t.Errorf("window at line %d of %s reaches the shown lines 0-10 or another file", s.Line, s.Path)
		}
	}
	got = ix.SimilarWithin(path, query, pearLine-3, pearLine, 3)
	if len(got) == 0 || !strings.Contains(got[0].Text, "addApple") || got[0].Line > appleLine {
		t.Fatalf("SimilarWithin(lines around addPear shown) gave %+v, want the window with addApple", got)
	}
}
