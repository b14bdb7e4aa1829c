package workspace

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// Module is a workspace file as an import would name it.
type Module struct {
	// Path is the file.
	Path string
	// Spec is how fromPath would name it: a relative path for JavaScript
	// and TypeScript ("./crypto/Header.ts"), a relative module for Python
	// (".crypto.header"), the module name of a Rust "mod" ("header").
	Spec string
	// Names are its top-level definitions another file may import
	// (exported, public, or not private by convention), in source order.
	Names []string
}

// maxModuleNames bounds the names one Module carries.
const maxModuleNames = 8

// Unnamed returns up to max files that fromPath could name in an import
// and none of named (imports of fromPath) names: the files of its
// language in its folder and below (for Rust, the files its "mod"
// declarations may name), fromPath left out. They come in path order,
// from the file anchor names on, then from the first. anchor is the
// import being written: when it names its module, the list starts after
// that file (where a file names its neighbours in path order, the next is
// what comes next); when it names no module yet, only names, it starts
// at the file defining the first of them, which carries more of its
// names than the others. Go imports packages, not files: nil. It is what
// an index file, a "mod" list or an __init__.py being written is about
// to name.
func (ix *Index) Unnamed(fromPath string, named []syntax.Import, anchor syntax.Import, max int) []Module {
	if max <= 0 {
		return nil
	}
	fromPath = absPath(fromPath)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	from := ix.files[fromPath]
	if from == nil || from.Lang == "go" {
		return nil
	}
	dirs := []string{from.dir}
	if from.Lang == "rust" {
		// A crate root's or mod.rs's submodules sit beside it; another
		// file's in the folder named after it.
		dirs = slices.Compact([]string{rustModuleDir(from.Path), from.dir})
	}
	excluded := map[*file]bool{from: true}
	declared := map[string]bool{} // Rust's "mod x;", resolved or not
	for _, imp := range named {
		for _, f := range ix.importFiles(from, imp) {
			excluded[f] = true
		}
		if name, ok := strings.CutPrefix(imp.Path, "self::"); ok && from.Lang == "rust" {
			declared[name] = true
		}
	}
	// The file defining the anchor's first name, when it names no module.
	var definer *file
	if anchor.Path == "" && len(anchor.Names) > 0 {
		for _, r := range ix.byName[anchor.Names[0]] {
			if s := r.f.Symbols[r.i]; s.Parent == "" && r.f.Lang == from.Lang && r.f != from && (definer == nil || r.f.Path < definer.Path) {
				definer = r.f
			}
		}
	}
	type cand struct {
		f    *file
		spec string
	}
	var cands []cand
	for _, f := range ix.files {
		if excluded[f] && f != definer || f.Lang != from.Lang || f == from {
			continue
		}
		for _, dir := range dirs {
			if spec, ok := moduleSpec(from.Lang, dir, f.Path); ok && !declared[spec] {
				cands = append(cands, cand{f, spec})
				break
			}
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return strings.Compare(a.f.Path, b.f.Path) })
	at := ""
	switch {
	case definer != nil:
		at = definer.Path
	case anchor.Path != "":
		if after := ix.importFiles(from, anchor); len(after) > 0 {
			at = after[0].Path
		}
	}
	start, found := slices.BinarySearchFunc(cands, at, func(c cand, p string) int { return strings.Compare(c.f.Path, p) })
	if found && definer == nil {
		start++ // after the module named above
	}
	out := make([]Module, 0, min(max, len(cands)))
	for i := range min(max, len(cands)) {
		c := cands[(start+i)%len(cands)]
		n := maxModuleNames
		if c.f == definer {
			n *= 3
		}
		out = append(out, Module{Path: c.f.Path, Spec: c.spec, Names: exportedNames(c.f, n)})
	}
	return out
}

// moduleSpec returns how a file of lang in dir names path, and whether
// path lies where such a file may import it from.
func moduleSpec(lang, dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || startsWithDotDot(rel) {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	switch lang {
	case "javascript", "typescript", "tsx":
		return "./" + rel, true
	case "python":
		mod := strings.TrimSuffix(strings.TrimSuffix(rel, ".py"), "/__init__")
		if mod == "__init__" {
			return "", false
		}
		return "." + strings.ReplaceAll(mod, "/", "."), true
	case "rust":
		// Only the folder's own modules: x.rs or x/mod.rs.
		if name, ok := strings.CutSuffix(rel, "/mod.rs"); ok && !strings.Contains(name, "/") {
			return name, true
		}
		if name, ok := strings.CutSuffix(rel, ".rs"); ok && !strings.Contains(name, "/") && name != "lib" && name != "main" && name != "mod" {
			return name, true
		}
	}
	return "", false
}

// exportedNames returns the top-level names another file may import from
// f, at most max: TypeScript's and JavaScript's exported ones
// (all of a JavaScript file's when it exports none by keyword, as
// CommonJS does), Rust's pub items, Python's names without a leading
// underscore.
func exportedNames(f *file, max int) []string {
	var all, exported []string
	seen := map[string]bool{}
	for _, s := range f.Symbols {
		if s.Parent != "" || s.Name == "" || seen[s.Name] {
			continue
		}
		seen[s.Name] = true
		all = append(all, s.Name)
		switch f.Lang {
		case "javascript", "typescript", "tsx":
			if !strings.HasPrefix(s.Signature, "export") {
				continue
			}
		case "rust":
			if !strings.HasPrefix(s.Signature, "pub") {
				continue
			}
		case "python":
			if strings.HasPrefix(s.Name, "_") {
				continue
			}
		}
		exported = append(exported, s.Name)
	}
	if f.Lang == "javascript" && len(exported) == 0 {
		exported = all
	}
	return exported[:min(len(exported), max)]
}
