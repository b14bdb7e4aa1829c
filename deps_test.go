// Package wisp_test holds the tests of the module as a whole: the package
// map that keeps the design's dependency arrows true.
package wisp_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the import path every package here starts with.
const module = "github.com/wisp-lsp/wisp"

// arrows is the package map: for every package, the packages of this module
// and the outside modules it may import (the standard library is always
// allowed). It mirrors DESIGN.md's table, where the design's "completion"
// and "transport" rooms are split into their packages, and leaves that
// import nothing of ours (text, lang, config) may be imported where a row
// lists them. A package missing from the table fails the test: adding one
// means choosing its arrows here.
var arrows = map[string]struct {
	ours, outside []string
	cgo           bool // may hold cgo files (only syntax)
}{
	"text":   {},
	"lang":   {},
	"config": {outside: []string{"github.com/BurntSushi/toml"}},
	"syntax": {ours: []string{"text", "lang"}, outside: []string{"github.com/smacker/go-tree-sitter"}, cgo: true},

	"transport":               {outside: []string{"github.com/gorilla/websocket", "go.uber.org/zap"}},
	"transport/local":         {ours: []string{"transport", "lang"}},
	"transport/modelserver":   {ours: []string{"transport"}, outside: []string{"github.com/gorilla/websocket"}},
	"transport/transporttest": {},
	"transport/provider":      {ours: []string{"transport", "transport/local", "config"}, outside: []string{"go.uber.org/zap"}},

	"completion": {ours: []string{"completion/gather", "completion/history", "completion/shape",
		"syntax", "transport", "text", "lang", "config"}, outside: []string{"go.uber.org/zap"}},
	"completion/gather":  {ours: []string{"completion/history", "syntax", "transport", "workspace", "text", "lang"}},
	"completion/history": {ours: []string{"text"}},
	"completion/shape":   {ours: []string{"syntax", "text", "lang"}},

	"edits":     {ours: []string{"syntax", "transport", "text"}, outside: []string{"github.com/aymanbagabas/go-udiff", "golang.org/x/sync/errgroup"}},
	"workspace": {ours: []string{"syntax", "text", "lang"}},
	"nextedit":  {ours: []string{"edits", "syntax", "transport", "workspace", "text"}},

	"lsp": {ours: []string{"completion", "completion/history", "edits", "nextedit", "syntax", "transport",
		"workspace", "text", "lang", "config"}, outside: []string{"go.lsp.dev/", "go.uber.org/zap"}},
	"client":   {ours: []string{"text"}, outside: []string{"go.lsp.dev/jsonrpc2"}},
	"marker":   {outside: []string{"golang.org/x/tools/txtar"}},
	"cmd/wisp": {ours: []string{"*"}, outside: []string{"github.com/schollz/progressbar/v3", "go.uber.org/zap", "golang.org/x/term"}},

	"bench":         {ours: []string{"client", "transport/modelserver"}},
	"bench/context": {ours: []string{"completion", "completion/gather", "syntax", "transport", "workspace", "text", "config"}},
	"editors":       {},
}

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	CgoFiles   []string
}

// TestDependencies checks every package's imports against arrows, and
// that only syntax holds cgo.
func TestDependencies(t *testing.T) {
	pkgs := listPackages(t)
	for _, p := range pkgs {
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		t.Run(name, func(t *testing.T) {
			rule, ok := arrows[name]
			if !ok {
				t.Fatalf("package %s is not in the arrows table of deps_test.go: add it with the imports the design allows it", name)
			}
			if len(p.CgoFiles) > 0 && !rule.cgo {
				t.Errorf("%s uses cgo (%v); cgo belongs in syntax alone", name, p.CgoFiles)
			}
			for _, imp := range p.Imports {
				if imp == "C" {
					continue // cgo, checked above
				}
				if !allowed(rule.ours, rule.outside, imp) {
					t.Errorf("%s imports %s, which the arrows do not allow (DESIGN.md's package table)", name, imp)
				}
			}
		})
	}
	for name := range arrows {
		if !slices.ContainsFunc(pkgs, func(p pkg) bool { return strings.TrimPrefix(p.ImportPath, module+"/") == name }) {
			t.Errorf("the arrows table names %s, which is not a package", name)
		}
	}
}

// allowed reports whether imp is the standard library, one of ours, or
// under one of the outside module prefixes.
func allowed(ours, outside []string, imp string) bool {
	if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
		return slices.Contains(ours, "*") || slices.Contains(ours, rel)
	}
	first, _, _ := strings.Cut(imp, "/")
	if !strings.Contains(first, ".") {
		return true // the standard library
	}
	for _, o := range outside {
		if imp == o || strings.HasPrefix(imp, strings.TrimSuffix(o, "/")+"/") {
			return true
		}
	}
	return false
}

// listPackages returns every package of the module but this test's.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,CgoFiles", "./...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.ImportPath != module {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}
