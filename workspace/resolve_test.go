package workspace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/workspace"
)

// openFixture indexes testdata/<name> without a disk cache and waits for
// the build.
func openFixture(t *testing.T, name string) (*workspace.Index, string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return openIndex(t, root), root
}

// openFiles writes files (slash paths relative to a new folder, and
// their text) and indexes the folder as openFixture does.
func openFiles(t *testing.T, files map[string]string) (*workspace.Index, string) {
	t.Helper()
	root := t.TempDir()
	for rel, src := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openIndex(t, root), root
}

// openIndex indexes root without a disk cache and waits for the build.
func openIndex(t *testing.T, root string) *workspace.Index {
	t.Helper()
	ix := workspace.Open(root, workspace.Options{CacheDir: "-"})
	t.Cleanup(func() { ix.Close() })
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix
}

// find returns the first symbol named name (Parent.Name for members).
func find(syms []workspace.Symbol, name string) (workspace.Symbol, bool) {
	for _, s := range syms {
		q := s.Name
		if s.Parent != "" {
			q = s.Parent + "." + s.Name
		}
		if q == name {
			return s, true
		}
	}
	return workspace.Symbol{}, false
}

// Each language's imports resolve to the files they name: the definitions
// come from those files, marked as imported, ahead of same-named
// definitions elsewhere in the workspace.
func TestResolveImports(t *testing.T) {
	cases := []struct {
		fixture, from string
		names         []string
		// want maps a symbol to the file (relative to the fixture) that
		// must define it, as an import of from.
		want map[string]string
		// sig holds a substring each symbol's signature must contain.
		sig map[string]string
	}{
		{
			fixture: "gomod", from: "main.go",
			names: []string{"Add", "Item", "Total", "New"},
			want:  map[string]string{"Cart.Add": "cart/cart.go", "Item": "cart/item.go", "Cart.Total": "cart/cart.go", "New": "cart/cart.go"},
			sig:   map[string]string{"Item": "type Item struct { SKU string; Price int }", "Cart.Add": "func (c *Cart) Add(it Item)"},
		},
		{
			fixture: "py", from: "app/main.py",
			names: []string{"connect", "User", "slugify"},
			want:  map[string]string{"connect": "app/db/__init__.py", "User": "app/models.py", "slugify": "app/util/__init__.py"},
			sig:   map[string]string{"User": "self.name; self.email", "connect": "def connect(url: str, timeout: float = 5.0)"},
		},
		{
			fixture: "ts", from: "src/main.ts",
			names: []string{"Circle", "area", "log", "clamp"},
			want:  map[string]string{"Circle": "src/shapes.ts", "area": "src/shapes.ts", "log": "src/lib/index.ts", "clamp": "src/math.ts"},
			sig:   map[string]string{"Circle": "scale(k: number): Circle", "log": "function log(msg: unknown): void"},
		},
		{
			fixture: "rust", from: "src/net.rs",
			names: []string{"backoff"},
			want:  map[string]string{"backoff": "src/util/mod.rs"},
			sig:   map[string]string{"backoff": "pub fn backoff(n: u32) -> u32"},
		},
		{
			fixture: "rust", from: "src/lib.rs",
			names: []string{"Conn"},
			want:  map[string]string{"Conn": "src/net.rs"},
			sig:   map[string]string{"Conn": "pub struct Conn { pub addr: String; retries: u32 }"},
		},
	}
	for _, c := range cases {
		t.Run(c.fixture+"/"+c.from, func(t *testing.T) {
			ix, root := openFixture(t, c.fixture)
			from := filepath.Join(root, c.from)
			got := ix.Resolve(from, c.names, 20)
			for name, file := range c.want {
				s, ok := find(got, name)
				if !ok {
					t.Errorf("%s not resolved; got %v", name, got)
					continue
				}
				if s.Path != filepath.Join(root, file) || s.Reason != "imported by "+filepath.Base(from) {
					t.Errorf("%s from %s (%s), want %s imported", name, s.Path, s.Reason, file)
				}
				if want := c.sig[name]; want != "" && !strings.Contains(s.Signature, want) {
					t.Errorf("%s signature %q lacks %q", name, s.Signature, want)
				}
			}
		})
	}
}

// Names come in the order asked; for one name related files come first,
// and a name they define is not looked up elsewhere (other/other.go's
// Total is not cart's); names defined only elsewhere come from the rest
// of the workspace.
func TestResolveRanking(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	order := func(from string, names ...string) ([]workspace.Symbol, string) {
		got := ix.Resolve(filepath.Join(root, from), names, 10)
		var out []string
		for _, s := range got {
			rel, _ := filepath.Rel(root, s.Path)
			out = append(out, s.Name+"@"+filepath.ToSlash(rel)+"/"+strings.Fields(s.Reason)[0])
		}
		return got, strings.Join(out, " ")
	}
	got, o := order("main.go", "banner", "Total")
	if want := "banner@helpers.go/same Total@cart/cart.go/imported"; o != want {
		t.Fatalf("from main.go: %s, want %s", o, want)
	}
	if got[0].Reason != "same package" || got[0].Doc != "banner is printed first." {
		t.Errorf("first %+v", got[0])
	}
	if _, o := order("main.go", "Total", "banner"); o != "Total@cart/cart.go/imported banner@helpers.go/same" {
		t.Fatalf("from main.go, Total asked first: %s", o)
	}
	if _, o := order("other/other.go", "New", "banner", "Add"); o != "New@cart/cart.go/workspace banner@helpers.go/workspace Add@other/other.go/same" {
		t.Fatalf("from other/other.go: %s", o)
	}
	// A package's test helpers are its tests' business.
	if _, o := order("main.go", "fixture"); o != "fixture@main_test.go/workspace" {
		t.Errorf("from main.go: %s", o)
	}
	if _, o := order("helpers.go", "banner"); o != "banner@helpers.go/same" {
		t.Errorf("from helpers.go: %s", o)
	}
}

// Vendored, node_modules, .gitignored and generated files are skipped; a
// negated .gitignore pattern keeps its file.
func TestSkips(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	from := filepath.Join(root, "main.go")
	for _, name := range []string{"Vendored", "Ignored", "GitIgnoredGen", "Generated", "InNodeModules"} {
		if got := ix.Resolve(from, []string{name}, 5); len(got) > 0 {
			t.Errorf("%s indexed from %s", name, got[0].Path)
		}
	}
	if got := ix.Resolve(from, []string{"KeptGen"}, 5); len(got) != 1 {
		t.Errorf("KeptGen (re-included by !keep_gen.go) not indexed")
	}
	if st := ix.Stats(); st.Files != 7 || st.Symbols == 0 || st.Bytes == 0 {
		t.Errorf("stats %+v, want 7 files", st)
	}
}

// ResolvePrefix finds what the word being typed may complete to, in the
// related files only.
func TestResolvePrefix(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	got := ix.ResolvePrefix(filepath.Join(root, "main.go"), "Tot", 5)
	if len(got) != 1 || got[0].Parent != "Cart" || got[0].Reason != "imported by main.go" {
		t.Fatalf("Tot from main.go: %+v (other/other.go's Total is unrelated)", got)
	}
	if got := ix.ResolvePrefix(filepath.Join(root, "main.go"), "Total", 5); len(got) != 0 {
		t.Fatalf("a whole name is not a prefix to complete: %+v", got)
	}
	rix, rroot := openFixture(t, "rust")
	if got := rix.ResolvePrefix(filepath.Join(rroot, "src", "net.rs"), "back", 5); len(got) != 1 || got[0].Name != "backoff" {
		t.Fatalf("back from net.rs: %+v", got)
	}
}

// A qualified name means the definition in the module the qualifier
// names, in each language's way of naming one.
func TestResolveQualified(t *testing.T) {
	cases := []struct {
		fixture, from, name, want string
	}{
		{"gomod", "main.go", "cart.New", "cart/cart.go"},
		{"py", "app/main.py", "db.connect", "app/db/__init__.py"},
		{"gomod", "main.go", "cart.Add", ""}, // a method, not reachable through the package
	}
	for _, c := range cases {
		ix, root := openFixture(t, c.fixture)
		got := ix.Resolve(filepath.Join(root, c.from), []string{c.name}, 5)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s from %s: %+v, want nothing", c.name, c.from, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Path != filepath.Join(root, c.want) {
			t.Errorf("%s from %s: %+v, want one from %s", c.name, c.from, got, c.want)
		}
	}
	ix, root := openFixture(t, "py")
	if got := ix.Resolve(filepath.Join(root, "app/main.py"), []string{"other.connect"}, 5); len(got) != 0 {
		t.Errorf("an unimported qualifier resolved: %+v", got)
	}
}

// A name defined in more files than maxFilesElsewhere, none of them
// related to the asking file, is not guessed at: which one is meant
// cannot be told. One defined in fewer files is.
func TestResolveLeavesAmbiguousNamesOut(t *testing.T) {
	files := map[string]string{"main.py": "def run():\n    x.close()\n    y.flush()\n"}
	for i := range 5 {
		files[fmt.Sprintf("p%d/conn.py", i)] = "class Conn:\n    def close(self):\n        pass\n"
	}
	for i := range 3 {
		files[fmt.Sprintf("q%d/buf.py", i)] = "class Buf:\n    def flush(self):\n        pass\n"
	}
	ix, root := openFiles(t, files)
	got := ix.Resolve(filepath.Join(root, "main.py"), []string{"close", "flush"}, 10)
	var names []string
	for _, s := range got {
		names = append(names, s.Parent+"."+s.Name)
	}
	if len(got) != 2 || got[0].Name != "flush" || got[1].Name != "flush" {
		t.Errorf("resolved %q, want two definitions of flush and none of close (five files define it)", names)
	}
}
