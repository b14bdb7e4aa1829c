package workspace_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/workspace"
)

// specs returns each module's Spec.
func specs(ms []workspace.Module) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Spec)
	}
	return out
}

// Unnamed lists the files a file could name in an import and does not
// yet, in path order from the import being written on: after the module
// it names, or at the file defining the names it lists so far.
func TestUnnamed(t *testing.T) {
	ix, root := openFiles(t, map[string]string{
		"package.json": "{}\n",
		"src/index.ts": "export {A} from \"./a\"\nimport {B} from \"./b\"\n",
		"src/a.ts":     "export const A = 1\n",
		"src/b.ts":     "export const B = 1\nconst hidden = 2\nexport function B2() {}\n",
		"src/c.ts":     "export interface C {}\n",
		"src/sub/d.ts": "export class D {}\nexport type D2 = D\n",
		"other/e.ts":   "export const E = 1\n",
	})
	index := filepath.Join(root, "src", "index.ts")
	named := []syntax.Import{{Path: "./a"}}
	got := ix.Unnamed(index, named, syntax.Import{Path: "./b"}, 10)
	if want := []string{"./c.ts", "./sub/d.ts", "./b.ts"}; !slices.Equal(specs(got), want) {
		t.Errorf("after ./b: %v, want %v (a.ts is named; e.ts is outside the folder)", specs(got), want)
	}
	if len(got) == 3 && !slices.Equal(got[2].Names, []string{"B", "B2"}) {
		t.Errorf("b.ts exports %v, want [B B2] (hidden is not exported)", got[2].Names)
	}
	got = ix.Unnamed(index, named, syntax.Import{Names: []string{"D2"}}, 2)
	if want := []string{"./sub/d.ts", "./b.ts"}; !slices.Equal(specs(got), want) {
		t.Errorf("an export list naming D2: %v, want %v (the file defining D2 first)", specs(got), want)
	}
}

// A Rust module file's list holds the modules its "mod" declarations may
// name and do not: the folder's own x.rs and x/mod.rs, not deeper files.
func TestUnnamedRust(t *testing.T) {
	ix, root := openFiles(t, map[string]string{
		"Cargo.toml":      "[package]\nname = \"m\"\n",
		"src/lib.rs":      "mod a;\n",
		"src/a.rs":        "pub fn a() {}\n",
		"src/b.rs":        "pub fn b() {}\nfn private() {}\n",
		"src/c/mod.rs":    "pub mod deep;\n",
		"src/c/deep.rs":   "pub struct Deep;\n",
		"src/d/inner.rs":  "pub struct Inner;\n",
		"tests/t.rs":      "mod common;\n",
		"tests/common.rs": "pub fn setup() {}\n",
		"tests/other.rs":  "fn main() {}\n",
	})
	lib := filepath.Join(root, "src", "lib.rs")
	got := ix.Unnamed(lib, []syntax.Import{{Path: "self::a"}}, syntax.Import{Path: "self::a"}, 10)
	if want := []string{"b", "c"}; !slices.Equal(specs(got), want) {
		t.Errorf("lib.rs: %v, want %v", specs(got), want)
	}
	if len(got) > 0 && !slices.Equal(got[0].Names, []string{"b"}) {
		t.Errorf("b.rs: %v, want its pub items only, [b]", got[0].Names)
	}
	// An integration test is a crate root of its own: its modules sit
	// beside it, and one declared is left out even where the index does
	// not resolve the declaration to a file.
	test := filepath.Join(root, "tests", "t.rs")
	if got := ix.Unnamed(test, []syntax.Import{{Path: "self::common"}}, syntax.Import{}, 10); !slices.Equal(specs(got), []string{"other"}) {
		t.Errorf("tests/t.rs: %v, want [other]", specs(got))
	}
}
