package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/workspace"
)

// copyTree copies testdata/<name> to a temporary folder.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func build(t *testing.T, root, cache string) (*workspace.Index, workspace.Stats) {
	t.Helper()
	ix := workspace.Open(root, workspace.Options{CacheDir: cache})
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix, ix.Stats()
}

// The second Open of a root reads every unchanged file from the disk
// cache; a file changed in between is parsed again, and its new
// definitions are the ones resolved.
func TestDiskCache(t *testing.T) {
	root, cache := copyTree(t, "gomod"), t.TempDir()
	ix, first := build(t, root, cache)
	if first.FromCache != 0 || first.Files == 0 {
		t.Fatalf("first build %+v", first)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix, second := build(t, root, cache)
	if second.FromCache != first.Files || second.Files != first.Files || second.Symbols != first.Symbols {
		t.Fatalf("second build %+v, want all %d files from the cache", second, first.Files)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	item := filepath.Join(root, "cart", "item.go")
	old, err := os.ReadFile(item)
	if err != nil {
		t.Fatal(err)
	}
	// The same size: only the modification time tells the change.
	changed := "package cart\n\n// Item is renamed.\ntype Product struct{ SKU string }\n"
	changed += "//" + strings.Repeat("x", len(old)-len(changed)-3) + "\n"
	if err := os.WriteFile(item, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour) // a different mtime even on coarse clocks
	if err := os.Chtimes(item, later, later); err != nil {
		t.Fatal(err)
	}
	ix, third := build(t, root, cache)
	defer ix.Close()
	if third.FromCache != first.Files-1 {
		t.Errorf("third build read %d files from the cache, want %d", third.FromCache, first.Files-1)
	}
	from := filepath.Join(root, "main.go")
	if got := ix.Resolve(from, []string{"Product"}, 5); len(got) != 1 {
		t.Errorf("the changed file's new type is not indexed: %v", got)
	}
	if got := ix.Resolve(from, []string{"Item"}, 5); len(got) != 0 {
		t.Errorf("the changed file's old type is still indexed: %v", got)
	}
}

// A corrupt cache is ignored: the build parses everything and rewrites it.
func TestCorruptCache(t *testing.T) {
	root, cache := copyTree(t, "gomod"), t.TempDir()
	ix, _ := build(t, root, cache)
	ix.Close()
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 {
		t.Fatalf("cache folder holds %d files, want 1", len(entries))
	}
	if err := os.WriteFile(filepath.Join(cache, entries[0].Name()), []byte("not a cache"), 0o600); err != nil {
		t.Fatal(err)
	}
	ix, st := build(t, root, cache)
	ix.Close()
	if st.FromCache != 0 || st.Files == 0 {
		t.Fatalf("build over a corrupt cache %+v", st)
	}
	ix, st = build(t, root, cache)
	ix.Close()
	if st.FromCache != st.Files {
		t.Fatalf("the corrupt cache was not rewritten: %+v", st)
	}
}

// Update replaces a file's definitions at once; Remove drops them.
func TestUpdateRemove(t *testing.T) {
	root := copyTree(t, "gomod")
	ix, _ := build(t, root, "-")
	defer ix.Close()
	from := filepath.Join(root, "main.go")
	item := filepath.Join(root, "cart", "item.go")
	ix.Update(item, []byte("package cart\n\n// Widget is new.\ntype Widget struct{ ID int }\n"))
	got := ix.Resolve(from, []string{"Widget", "Item"}, 5)
	if len(got) != 1 || got[0].Name != "Widget" || got[0].Doc != "Widget is new." || got[0].Reason != "imported by "+filepath.Base(from) {
		t.Fatalf("after Update: %+v", got)
	}
	ix.Remove(item)
	if got := ix.Resolve(from, []string{"Widget"}, 5); len(got) != 0 {
		t.Fatalf("after Remove: %+v", got)
	}
}
