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
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	c := gather.Gather(gather.Input{Buffer: buffer(t, "/ws/src/index.ts", src), Cursor: cursor, Budget: 1000,
		Workspace: barrel{&named, &anchor}})
	return c, named, anchor
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
	src := "package p\n\nfunc Bravo() {}\n\n‸\n"
	cursor := strings.Index(src, "‸")
	src = strings.Replace(src, "‸", "", 1)
	c := gather.Gather(gather.Input{Buffer: buffer(t, "/ws/p/p.go", src), Cursor: cursor, Budget: 1000, Workspace: expecting{}})
	p, ok := pieceOf(c, "expected")
	if want := "// Other files use from this one and it does not define: Alpha"; !ok || p.Text != want {
		t.Errorf("got %q, want %q\n%s", p.Text, want, showContext(c))
	}
}
