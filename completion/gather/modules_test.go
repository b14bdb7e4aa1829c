package gather_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/workspace"
)

// barrel is a ModuleLister that remembers what it was asked and offers
// two modules.
type barrel struct {
	named  *[]syntax.Import
	anchor *syntax.Import
}

func (barrel) Resolve(string, []string, int) []workspace.Symbol { return nil }

func (b barrel) Unnamed(from string, named []syntax.Import, anchor syntax.Import, max int) []workspace.Module {
	*b.named, *b.anchor = named, anchor
	return []workspace.Module{{Path: "/ws/src/b.ts", Spec: "./b.ts", Names: []string{"Bravo", "BravoOptions"}},
		{Path: "/ws/src/c.ts", Spec: "./c.ts", Names: []string{"Charlie"}}}
}

// gatherBarrel gathers at "‸" in src, a TypeScript file, with a barrel
// workspace, and returns the context with what the workspace was asked.
func gatherBarrel(t *testing.T, src string) (gather.Context, []syntax.Import, syntax.Import) {
	t.Helper()
	var named []syntax.Import
	var anchor syntax.Import
	c := gatherAt(t, "/ws/src/index.ts", src, barrel{&named, &anchor})
	return c, named, anchor
}

// gatherAt gathers a 1,000-token context at "‸" in src, the text of
// path, with the workspace ws.
func gatherAt(t *testing.T, path, src string, ws gather.Resolver) gather.Context {
	t.Helper()
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	return gather.Gather(gather.Input{Buffer: buffer(t, path, src), Cursor: cursor, Budget: 1000, Workspace: ws})
}

// pieceOf returns c's first piece of kind.
func pieceOf(c gather.Context, kind string) (gather.Piece, bool) {
	i := slices.IndexFunc(c.Pieces, func(p gather.Piece) bool { return p.Kind == kind })
	if i < 0 {
		return gather.Piece{}, false
	}
	return c.Pieces[i], true
}

// Among a file's re-exports, the files it does not name yet are listed
// with what they export, after the module named above the cursor; the
// re-exports already written are what the workspace leaves out.
func TestModulesAmongReExports(t *testing.T) {
	c, named, anchor := gatherBarrel(t, "export {Alpha} from \"./a\"\nimport {Zulu} from \"./z\"\nexport * from \"./y\"\n‸\n")
	p, ok := pieceOf(c, "modules")
	if !ok {
		t.Fatalf("no modules piece:\n%s", showContext(c))
	}
	if want := "// Not imported yet:\n// ./b.ts: Bravo, BravoOptions\n// ./c.ts: Charlie"; p.Text != want {
		t.Errorf("modules piece:\n%s\nwant:\n%s", p.Text, want)
	}
	if want := []syntax.Import{{Path: "./a"}, {Path: "./y"}}; !slices.EqualFunc(named, want, func(a, b syntax.Import) bool { return a.Path == b.Path }) {
		t.Errorf("named %v, want %v (./z is imported, not re-exported)", named, want)
	}
	if anchor.Path != "./y" {
		t.Errorf("anchor %+v, want ./y, the module named just above", anchor)
	}
}

// An export list still open names no module: the names it lists so far
// are the anchor.
func TestModulesOfAnOpenExportList(t *testing.T) {
	_, _, anchor := gatherBarrel(t, "export {Alpha} from \"./a\"\nexport {\n  Bravo,\n  BravoOptions,\n  ‸\n")
	if !slices.Equal(anchor.Names, []string{"Bravo", "BravoOptions"}) || anchor.Path != "" {
		t.Errorf("anchor %+v, want the names Bravo, BravoOptions and no module", anchor)
	}
}

// A file's ordinary imports name what its code uses, not its modules: no
// listing there.
func TestNoModulesAmongImports(t *testing.T) {
	c, _, _ := gatherBarrel(t, "import {Alpha} from \"./a\"\n‸\n\nexport function f() { return Alpha }\n")
	if p, ok := pieceOf(c, "modules"); ok {
		t.Errorf("a modules piece among plain imports:\n%s", p.Text)
	}
}

// expecting is an ExpectFinder whose other files take Alpha and Bravo
// from every file.
type expecting struct{}

func (expecting) Resolve(string, []string, int) []workspace.Symbol { return nil }
func (expecting) Expected(string, int) []string                    { return []string{"Alpha", "Bravo"} }

// What other files take from this one is named, less what its text
// names already (the index may have read it broken mid-edit).
func TestExpectedNames(t *testing.T) {
	c := gatherAt(t, "/ws/p/p.go", "package p\n\nfunc Bravo() {}\n\n‸\n", expecting{})
	p, ok := pieceOf(c, "expected")
	if want := "// Other files use from this one and it does not define: Alpha"; !ok || p.Text != want {
		t.Errorf("got %q, want %q\n%s", p.Text, want, showContext(c))
	}
}

// traits is a MemberResolver whose workspace defines the trait Visitor
// with three methods.
type traits struct{}

func (traits) Resolve(string, []string, int) []workspace.Symbol { return nil }
func (traits) Members(from, typeName string, max int) []workspace.Symbol {
	if typeName != "Visitor" {
		return nil
	}
	var out []workspace.Symbol
	for _, n := range []string{"visit_bool", "visit_i64", "visit_str"} {
		out = append(out, workspace.Symbol{Name: n, Kind: "method", Parent: "Visitor", Path: "/ws/src/de.rs",
			Signature: "fn " + n + "<E>(self, v: T) -> Result<Self::Value, E>"})
	}
	return out
}

// In an impl of a trait, the trait's members the impl does not define
// yet are named: what it is still to implement.
func TestBaseMembersNotDefined(t *testing.T) {
	src := "impl<'de> de::Visitor<'de> for BoolVisitor {\n    fn visit_bool<E>(self, v: bool) -> Result<bool, E> {\n        Ok(v)\n    }\n\n    ‸\n}\n"
	c := gatherAt(t, "/ws/src/b.rs", src, traits{})
	p, ok := pieceOf(c, "expected")
	if !ok || !strings.Contains(p.Text, "visit_i64") || !strings.Contains(p.Text, "visit_str") || strings.Contains(p.Text, "visit_bool") {
		t.Errorf("want visit_i64 and visit_str named, not visit_bool (defined):\n%s", showContext(c))
	}
}

// baseNames reads what a class header implements or extends.
func TestBaseNames(t *testing.T) {
	for _, tc := range []struct {
		lang, header string
		want         []string
	}{
		{"rust", "impl<'de, T: Deserialize<'de>> de::Visitor<'de> for SeqVisitor<T> ", []string{"Visitor"}},
		{"rust", "impl Point ", nil},
		{"python", "class Loop(events.AbstractEventLoop, Mixin, metaclass=ABCMeta):", []string{"AbstractEventLoop", "Mixin"}},
		{"python", "class Plain:", nil},
		{"typescript", "export class Client extends Base<Options, Map<string, number>> implements IClient, Disposable {", []string{"Base", "IClient", "Disposable"}},
	} {
		if got := gather.BaseNames(tc.lang, tc.header); !slices.Equal(got, tc.want) {
			t.Errorf("%s %q: %v, want %v", tc.lang, tc.header, got, tc.want)
		}
	}
}
