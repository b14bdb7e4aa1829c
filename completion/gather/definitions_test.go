package gather_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/workspace"
)

// recorder is a Resolver that remembers the names it was asked for and
// answers one definition per name.
type recorder struct{ names []string }

func (r *recorder) Resolve(from string, names []string, max int) []workspace.Symbol {
	r.names = names
	var out []workspace.Symbol
	for _, n := range names {
		out = append(out, workspace.Symbol{Name: n, Kind: "func", Path: "/elsewhere/x.go", Signature: "func " + n + "()", Reason: "workspace"})
	}
	return out
}

// The names looked up are the objects before the "." at the cursor first,
// then the function's identifiers, most recent first; parameters, locals,
// keywords and the word being typed are not.
func TestDefinitionNames(t *testing.T) {
	src := "package p\n\nfunc handle(req *Request, srv *Server) error {\n\tconn := Dial(req.Addr)\n\t/* Pending */ defer conn.Close() // Later words\n\tlog(\"Nowhere \\\" Quoted\", `Raw`, 'Z')\n\tsrv.pool.Get‸\n}\n"
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	r := &recorder{}
	in := gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: 2000, Workspace: r}
	c := gather.Gather(in)
	want := []string{"pool", "srv", "log", "Close", "Addr", "Dial", "Server", "Request", "handle"}
	if !slices.Equal(r.names, want) {
		t.Fatalf("names %q, want %q", r.names, want)
	}
	var defs []string
	for _, p := range c.Pieces {
		if p.Kind == "definition" {
			defs = append(defs, p.Text)
		}
	}
	if len(defs) == 0 || defs[0] != "func pool()" {
		t.Fatalf("definition pieces %q", defs)
	}
}

// Keywords are the buffer's language's own: Go's nil and close, Rust's
// str and Some are names a TypeScript program defines and uses, and are
// looked up there; in Rust, str and Some are not.
func TestDefinitionNamesSkipOnlyTheLanguagesKeywords(t *testing.T) {
	for _, c := range []struct {
		path, src string
		want      []string
	}{
		{"gen.ts", "function emit(gen: Gen) {\n  gen.code(str`x`, nil, Some(close))\n  ‸\n}\n", []string{"Gen", "Some", "close", "code", "emit", "nil", "str"}},
		{"gen.rs", "fn emit(gen: Gen) {\n    code(str::from(nil), Some(close));\n    ‸\n}\n", []string{"Gen", "close", "code", "emit", "from", "nil"}},
	} {
		cursor := strings.Index(c.src, "‸")
		src := strings.Replace(c.src, "‸", "", 1)
		r := &recorder{}
		gather.Gather(gather.Input{Buffer: buffer(t, c.path, src), Cursor: cursor, Budget: 2000, Workspace: r})
		slices.Sort(r.names)
		if !slices.Equal(r.names, c.want) {
			t.Errorf("%s: names %q, want %q", c.path, r.names, c.want)
		}
	}
}

// With the real index, a definition from a file that is not open (and
// only imported) reaches the context, its doc line and fields included.
func TestDefinitionsFromIndex(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	path := filepath.Join(root, "main.go")
	src := readFile(t, path)
	cursor := strings.Index(src, "Price: 3") + len("Price: ")
	in := gather.Input{Buffer: buffer(t, path, src), Cursor: cursor, Budget: 1000, Workspace: ix}
	c := gather.Gather(in)
	var found bool
	for _, p := range c.Pieces {
		if p.Kind == "definition" && p.Path == filepath.Join(root, "cart", "item.go") &&
			p.Text == "// Item is one product line.\ntype Item struct { SKU string; Price int }" {
			found = true
		}
		if p.Kind == "definition" && p.Why == "" {
			t.Errorf("definition without a reason: %+v", p)
		}
	}
	if !found {
		t.Fatalf("no definition of cart.Item in %+v", c.Pieces)
	}
	if c.Tokens > c.Budget {
		t.Errorf("tokens %d over budget %d", c.Tokens, c.Budget)
	}
}

// The word being typed is completed from the related files: typing
// "backo" in net.rs shows backoff, which util/mod.rs defines.
func TestDefinitionsForWordBeingTyped(t *testing.T) {
	ix, root := openFixture(t, "rust")
	path := filepath.Join(root, "src", "net.rs")
	src := strings.Replace(readFile(t, path), "backoff(1)", "backo", 1)
	cursor := strings.Index(src, "backo") + len("backo")
	c := gather.Gather(gather.Input{Buffer: buffer(t, path, src), Cursor: cursor, Budget: 1000, Workspace: ix})
	for _, p := range c.Pieces {
		if p.Kind == "definition" && strings.Contains(p.Text, "pub fn backoff(n: u32) -> u32") {
			return
		}
	}
	t.Fatalf("no definition of backoff in %+v", c.Pieces)
}

// A name after "q." is also asked as "q.name", just before the bare
// name, so the index can resolve it in the module q names.
func TestDefinitionQualifiedNames(t *testing.T) {
	src := "package p\n\nfunc f() {\n\tval := store.Open(\"db\")\n\tval.Put‸\n}\n"
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	r := &recorder{}
	gather.Gather(gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: 2000, Workspace: r})
	want := []string{"val", "store.Open", "Open", "store"}
	if !slices.Equal(r.names, want) {
		t.Fatalf("names %q, want %q", r.names, want)
	}
}

// After "c." on a value of a type from another package, the context
// lists that type's members: its methods live apart from its
// declaration, and the continuation is one of them.
func TestDefinitionsListMembers(t *testing.T) {
	ix, root := openFixture(t, "gomod")
	path := filepath.Join(root, "main.go")
	src := "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/shop/cart\"\n)\n\nfunc main() {\n\tc := cart.New()\n\tfmt.Println(c.)\n}\n"
	cursor := strings.Index(src, "c.)") + len("c.")
	c := gather.Gather(gather.Input{Buffer: buffer(t, path, src), Cursor: cursor, Budget: 1000, Workspace: ix})
	for _, p := range c.Pieces {
		if p.Kind == "definition" && strings.Contains(p.Text, "Cart members:") {
			if !strings.Contains(p.Text, "func (c *Cart) Total() int") || strings.Contains(p.Text, "owner") {
				t.Errorf("Cart's listing shows %q, want its exported methods", p.Text)
			}
			return
		}
	}
	t.Fatalf("no listing of Cart's members in %+v", c.Pieces)
}

// openFixture indexes workspace/testdata/name without a disk cache and
// waits for the build.
func openFixture(t *testing.T, name string) (*workspace.Index, string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("../../workspace/testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	ix := workspace.Open(root, workspace.Options{CacheDir: "-"})
	t.Cleanup(func() { ix.Close() })
	if err := ix.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix, root
}

// readFile returns path's text.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// ownFile is a Resolver that finds every name defined in the file asked
// from, on line.
type ownFile struct{ line int }

func (r ownFile) Resolve(from string, names []string, max int) []workspace.Symbol {
	return []workspace.Symbol{{Name: "farAway", Kind: "func", Path: from, Line: r.line, Signature: "func farAway(x int) int"}}
}

// A definition in the cursor's own file, far below the window, is shown
// even when the window starts at the file's start; once the window shows
// its line, it is not shown twice.
func TestDefinitionInOwnFileBelowWindow(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nfunc main() {\n\tfarAway(1)\n}\n")
	for i := range 400 {
		fmt.Fprintf(&b, "func filler%d() { println(\"some filler text here\") }\n", i)
	}
	line := strings.Count(b.String(), "\n")
	b.WriteString("func farAway(x int) int { return x }\n")
	src := b.String()
	cursor := strings.Index(src, "farAway(1)") + len("farAway(1)")
	count := func(c gather.Context) int {
		n := 0
		for _, p := range c.Pieces {
			if p.Kind == "definition" && p.Text == "func farAway(x int) int" {
				n++
			}
		}
		return n
	}
	c := gather.Gather(gather.Input{Buffer: buffer(t, "/w/p.go", src), Cursor: cursor, Budget: 1000, Workspace: ownFile{line}})
	if c.PrefixStart != 0 || c.SuffixEnd >= strings.Index(src, "func farAway") {
		t.Fatalf("window [%d, %d) of %d: want it from the start, short of farAway", c.PrefixStart, c.SuffixEnd, len(src))
	}
	if count(c) != 1 {
		t.Fatalf("farAway's definition shown %d times in %+v, want once", count(c), c.Pieces)
	}
	c = gather.Gather(gather.Input{Buffer: buffer(t, "/w/p.go", src), Cursor: cursor, Budget: 20000, Workspace: ownFile{line}})
	if c.SuffixEnd != len(src) || count(c) != 0 {
		t.Fatalf("with the whole file in the window, farAway's definition shown %d times", count(c))
	}
}

// documented is a Resolver answering each name with a function whose doc
// line is long next to its signature.
type documented struct{}

func (documented) Resolve(from string, names []string, max int) []workspace.Symbol {
	var out []workspace.Symbol
	for _, n := range names {
		out = append(out, workspace.Symbol{Name: n, Kind: "func", Path: "/elsewhere/x.go", Signature: "func " + n + "(s string) error",
			Doc: n + " reports, at some length, what it does with the string it is handed and when it gives up on it.", Reason: "workspace"})
	}
	return out
}

// Signatures come before doc lines: when the definitions' share cannot
// hold every definition with its doc line, every signature is shown, and
// the doc lines of the first definitions take what they leave.
func TestDefinitionSignaturesBeforeDocs(t *testing.T) {
	src := "package p\n\nfunc run() {\n\tAlpha(\"a\")\n\tBravo(\"b\")\n\tCharlie(\"c\")\n\tDelta(\"d\")\n\tEcho(\"e\")\n\t‸\n}\n" + strings.Repeat("// Padding, so that the file is larger than the budget.\n", 300)
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	c := gather.Gather(gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: 700, Workspace: documented{}})
	var defs []string
	for _, p := range c.Pieces {
		if p.Kind == "definition" {
			defs = append(defs, p.Text)
		}
	}
	all := strings.Join(defs, "\n")
	for _, n := range []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo"} {
		if !strings.Contains(all, "func "+n+"(s string) error") {
			t.Errorf("no signature of %s in the definitions:\n%s", n, all)
		}
	}
	if !strings.Contains(all, "// Echo reports") {
		t.Errorf("the nearest definition has no doc line:\n%s", all)
	}
	if strings.Count(all, " reports, at some length") == len(defs) {
		t.Errorf("every definition shows its doc line: the budget was meant to be short of that:\n%s", all)
	}
}

// crowded is a Resolver whose definitions are long enough to fill any
// share, and whose workspace uses many members after "conn", a value
// whose members it does not define.
type crowded struct{ documented }

func (c crowded) Resolve(from string, names []string, max int) []workspace.Symbol {
	return c.documented.Resolve(from, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return strings.Contains(n, ".") }), max)
}

func (crowded) Uses(from string, qualifiers []string, max int) map[string][]string {
	return map[string][]string{"conn": {"WriteMessage", "ReadMessage", "SetWriteDeadline", "SetReadDeadline",
		"SetPongHandler", "SetPingHandler", "NextWriter", "NextReader", "CloseHandler", "EnableWriteCompression"}}
}

// The members used after a qualifier near the cursor are listed before
// the definitions take their share: what definitions leave is too little
// for the listing here.
func TestUsesBeforeDefinitions(t *testing.T) {
	mustListConn(t, "package p\n\nfunc run(conn *Conn) {\n\tAlpha(Bravo(Charlie(Delta(Echo(Foxtrot(Golf(Hotel(\"x\"))))))))\n\tdefer conn.Close()\n\t‸\n}\n", 300)
}

// A name near the cursor that the code there has not used with a "."
// yet (a parameter passed along, a value just declared) is listed too:
// the project names its values alike, and what its other code does with
// a conn is what this code may do with its own.
func TestUsesOfANameNotYetQualified(t *testing.T) {
	mustListConn(t, "package p\n\nfunc run(conn *Conn) {\n\thandle(conn)\n\t‸\n}\n", 600)
}

// mustListConn fails t unless a context of src (cut at "‸", padded past
// budget) lists the members crowded's workspace uses after "conn".
func mustListConn(t *testing.T, src string, budget int) {
	t.Helper()
	src += strings.Repeat("// Padding, so that the file is larger than the budget.\n", 300)
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	c := gather.Gather(gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: budget, Workspace: crowded{}})
	for _, p := range c.Pieces {
		if p.Kind == "uses" && strings.Contains(p.Text, "conn. is followed by: WriteMessage") {
			return
		}
	}
	t.Fatalf("no listing of conn's members:\n%s", showContext(c))
}

// module is a Resolver for a workspace module "store" whose functions
// have doc lines, and whose members the workspace uses after "store.".
type module struct{}

func (module) Resolve(from string, names []string, max int) []workspace.Symbol {
	var out []workspace.Symbol
	for _, n := range names {
		if m, ok := strings.CutPrefix(n, "store."); ok {
			out = append(out, workspace.Symbol{Name: m, Kind: "func", Path: "/ws/store/store.go", Signature: "func " + m + "(db *DB) error",
				Doc: m + " brings the schema up to date.", Reason: "workspace"})
		}
	}
	return out
}

func (module) Uses(from string, qualifiers []string, max int) map[string][]string {
	return map[string][]string{"store": {"Migrate", "Seed"}}
}

// The members a module is used with are shown by their signatures alone:
// the listing says what the code does with them.
func TestUsedMembersBySignatureAlone(t *testing.T) {
	src := "package p\n\nfunc run(db *DB) {\n\tstore.Open(db)\n\t‸\n}\n" + strings.Repeat("// Padding, so that the file is larger than the budget.\n", 300)
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	c := gather.Gather(gather.Input{Buffer: buffer(t, "p.go", src), Cursor: cursor, Budget: 600, Workspace: module{}})
	all := showContext(c)
	if !strings.Contains(all, "func Migrate(db *DB) error") || !strings.Contains(all, "func Seed(db *DB) error") {
		t.Fatalf("the members used after store are not shown by signature:\n%s", all)
	}
	if strings.Contains(all, "Migrate brings") || strings.Contains(all, "Seed brings") {
		t.Fatalf("a used member is shown with its doc line:\n%s", all)
	}
}
