package workspace_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// Expected names what other files take from a file and it does not
// define: what their imports of it list and what they use after the name
// they import it under, most taken first.
func TestExpected(t *testing.T) {
	ix, root := openFiles(t, map[string]string{
		"package.json":     "{}\n",
		"src/lib.ts":       "export function Foo() {}\n",
		"src/a.ts":         "import {Foo, Bar} from \"./lib\"\nFoo(); Bar()\n",
		"src/b.ts":         "import * as L from \"./lib.js\"\nL.Baz(); L.Baz(); L.Foo()\n",
		"src/c.ts":         "import {Other} from \"./other/lib\"\n",
		"src/other/lib.ts": "export const Other = 1\n",
	})
	got := ix.Expected(filepath.Join(root, "src", "lib.ts"), 10)
	if want := []string{"Baz", "Bar"}; !slices.Equal(got, want) {
		t.Errorf("Expected(lib.ts) = %v, want %v (Foo is defined; Other is another lib's)", got, want)
	}
}

// In Go what a package defines in any of its files is defined.
func TestExpectedGoPackage(t *testing.T) {
	ix, root := openFiles(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"p/x.go": "package p\n\nfunc X() {}\n",
		"p/y.go": "package p\n\nfunc Y() {}\n",
		"q/q.go": "package q\n\nimport \"example.com/m/p\"\n\nfunc f() {\n\tp.X()\n\tp.Y()\n\tp.Z()\n}\n",
	})
	if got := ix.Expected(filepath.Join(root, "p", "x.go"), 10); !slices.Equal(got, []string{"Z"}) {
		t.Errorf("Expected(p/x.go) = %v, want [Z] (Y is defined in y.go)", got)
	}
}
