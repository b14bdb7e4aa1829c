package workspace

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// importedFiles returns the indexed files f imports, in import order,
// each once. The caller holds mu for reading.
func (ix *Index) importedFiles(f *file) []*file {
	var out []*file
	seen := map[*file]bool{f: true}
	for _, imp := range f.Imports {
		for _, g := range ix.importFiles(f, imp) {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// importFiles returns the indexed files one import of f names. The
// caller holds mu for reading.
func (ix *Index) importFiles(f *file, imp syntax.Import) []*file {
	var out []*file
	add := func(path string) bool {
		if g := ix.files[path]; g != nil && g != f {
			out = append(out, g)
			return true
		}
		return false
	}
	switch f.Lang {
	case "go":
		if dir, ok := ix.goPackageDir(imp.Path); ok {
			for _, g := range ix.dirs[dir] {
				if g.Lang == "go" && !strings.HasSuffix(g.Path, "_test.go") {
					out = append(out, g)
				}
			}
		}
	case "python":
		for _, p := range ix.pythonCandidates(f.Path, imp.Path, imp.Names) {
			add(p)
		}
	case "javascript", "typescript", "tsx":
		for _, p := range jsCandidates(f.Path, imp.Path) {
			if add(p) {
				break
			}
		}
	case "rust":
		for _, p := range ix.rustCandidates(f.Path, imp.Path, imp.Names) {
			add(p)
		}
	case "c":
		add(filepath.Join(filepath.Dir(f.Path), filepath.FromSlash(imp.Path)))
	}
	return out
}

// qualifiedFiles returns the files a qualifier names as seen from f: the
// module an import binds to q ("store" in store.Open, an alias, a Python
// module or a JavaScript namespace). The caller holds mu for reading.
func (ix *Index) qualifiedFiles(f *file, q string) []*file {
	var out []*file
	for _, imp := range f.Imports {
		switch {
		case imp.Name() == q:
			if f.Lang == "python" {
				imp.Names = nil // the module itself, not what it lists
			}
			out = append(out, ix.importFiles(f, imp)...)
		case f.Lang == "python" && slices.Contains(imp.Names, q): // from pkg import q
			out = append(out, ix.importFiles(f, syntax.Import{Path: strings.TrimSuffix(imp.Path, ".") + "." + q})...)
		}
	}
	return out
}

// goPackageDir returns the folder of the Go package with import path
// importPath, when a go.mod in the workspace declares its module.
func (ix *Index) goPackageDir(importPath string) (string, bool) {
	best, bestDir := "", ""
	for dir, mod := range ix.goModules {
		if (importPath == mod || strings.HasPrefix(importPath, mod+"/")) && len(mod) > len(best) {
			best, bestDir = mod, dir
		}
	}
	if best == "" {
		return "", false
	}
	return filepath.Join(bestDir, filepath.FromSlash(strings.TrimPrefix(importPath[len(best):], "/"))), true
}

// pythonCandidates returns the files a Python import may name: the
// module's file or package __init__, and for "from M import a" the
// submodules M.a. Relative imports start at from's package; absolute ones
// at the root, its src folder, and the folders between from and the root.
func (ix *Index) pythonCandidates(from, module string, names []string) []string {
	var bases []string
	rest := module
	if strings.HasPrefix(module, ".") {
		dots := len(module) - len(strings.TrimLeft(module, "."))
		base := filepath.Dir(from)
		for range dots - 1 {
			base = filepath.Dir(base)
		}
		bases, rest = []string{base}, module[dots:]
	} else {
		bases = []string{ix.root, filepath.Join(ix.root, "src")}
		for d := filepath.Dir(from); ix.contains(d) && d != ix.root; d = filepath.Dir(d) {
			bases = append(bases, d)
		}
	}
	var out []string
	for _, base := range bases {
		dir := base
		if rest != "" {
			dir = filepath.Join(base, filepath.FromSlash(strings.ReplaceAll(rest, ".", "/")))
			out = append(out, dir+".py", filepath.Join(dir, "__init__.py"))
		}
		for _, n := range names {
			out = append(out, filepath.Join(dir, n+".py"), filepath.Join(dir, n, "__init__.py"))
		}
	}
	return out
}

// jsExtensions are tried, in order, for an import without one.
var jsExtensions = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs"}

// jsCandidates returns the files a relative JavaScript or TypeScript
// import may name, most likely first: the path as written, with each
// extension, a TypeScript source for a ".js" specifier, and the folder's
// index file. Bare (package) specifiers name nothing in the workspace.
func jsCandidates(from, spec string) []string {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return nil
	}
	p := filepath.Join(filepath.Dir(from), filepath.FromSlash(spec))
	out := []string{p}
	if ext := filepath.Ext(p); ext == ".js" || ext == ".jsx" || ext == ".mjs" {
		stem := strings.TrimSuffix(p, ext)
		out = append(out, stem+".ts", stem+".tsx")
	}
	for _, ext := range jsExtensions {
		out = append(out, p+ext)
	}
	for _, ext := range jsExtensions {
		out = append(out, filepath.Join(p, "index"+ext))
	}
	return out
}

// rustCandidates returns the module files a Rust use path (or "mod"
// declaration) names: for crate::a::b, src/a/b.rs or src/a/b/mod.rs and
// src/a.rs or src/a/mod.rs (b may be an item of a), plus the listed names
// as submodules.
func (ix *Index) rustCandidates(from, path string, names []string) []string {
	segs := strings.Split(path, "::")
	var dir string
	switch segs[0] {
	case "crate":
		dir = ix.rustCrateRoot(from)
	case "self":
		dir = rustModuleDir(from)
	case "super":
		dir = filepath.Dir(rustModuleDir(from))
		for len(segs) > 1 && segs[1] == "super" {
			dir, segs = filepath.Dir(dir), segs[1:]
		}
	default:
		return nil // another crate
	}
	if dir == "" {
		return nil
	}
	segs = segs[1:]
	var out []string
	modFiles := func(d string) []string {
		return []string{d + ".rs", filepath.Join(d, "mod.rs")}
	}
	for i := len(segs); i >= 1; i-- {
		out = append(out, modFiles(filepath.Join(dir, filepath.Join(segs[:i]...)))...)
	}
	full := filepath.Join(append([]string{dir}, segs...)...)
	for _, n := range names {
		if n != "self" {
			out = append(out, modFiles(filepath.Join(full, n))...)
		}
	}
	if len(segs) == 0 { // crate::{a, b} or a bare "crate": the crate root's files
		out = append(out, filepath.Join(dir, "lib.rs"), filepath.Join(dir, "main.rs"))
	}
	return out
}

// rustCrateRoot returns the src folder of the crate holding from: the
// nearest folder above it with a Cargo.toml, plus "src".
func (ix *Index) rustCrateRoot(from string) string {
	for d := filepath.Dir(from); ix.contains(d); d = filepath.Dir(d) {
		if ix.crates[d] {
			return filepath.Join(d, "src")
		}
		if d == ix.root {
			break
		}
	}
	return ""
}

// rustModuleDir returns the folder holding the submodules of the module
// file from: its own folder for lib.rs, main.rs and mod.rs, else a folder
// named after it.
func rustModuleDir(from string) string {
	switch filepath.Base(from) {
	case "lib.rs", "main.rs", "mod.rs":
		return filepath.Dir(from)
	}
	return strings.TrimSuffix(from, ".rs")
}

// ModuleSymbols returns up to max top-level definitions of the module imp
// names as seen from fromPath (a Python "from M import", a TypeScript
// "import {…} from './m'", a Rust "use crate::m::{…}"), in the order its
// files define them: what the import being written may bring. For Python,
// imp names the module itself. It answers from what is indexed and never
// waits for a build; nil when fromPath is not indexed or the module is
// not in the workspace.
func (ix *Index) ModuleSymbols(fromPath string, imp syntax.Import, max int) []Symbol {
	if max <= 0 || imp.Path == "" {
		return nil
	}
	fromPath = absPath(fromPath)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	from := ix.files[fromPath]
	if from == nil {
		return nil
	}
	if from.Lang == "python" {
		imp.Names = nil
	}
	var out []Symbol
	for _, f := range ix.importFiles(from, imp) {
		for _, s := range f.Symbols {
			if len(out) == max {
				return out
			}
			if s.Parent == "" && s.Signature != "" {
				s.Reason = "imported by " + filepath.Base(fromPath)
				out = append(out, s)
			}
		}
	}
	return out
}
