package workspace

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// maxExpectingFiles bounds the importing files whose text Expected reads
// for the members they use after the module's name.
const maxExpectingFiles = 16

// Expected returns up to max names that other files of the workspace
// take from fromPath and that it does not define (for Go, that its
// package does not define), most taken first: the names their imports of
// it list (import {a} from "./f", from f import a, use crate::f::{A}) and
// the members they use after the name they import it under (f.a, Go's
// pkg.a). It is what the rest of the code expects of the file: the
// function a test calls before it is written, the constant a caller
// names, the export an index file re-exports.
func (ix *Index) Expected(fromPath string, max int) []string {
	if max <= 0 {
		return nil
	}
	fromPath = absPath(fromPath)
	count := map[string]int{}
	type qualified struct{ path, q string }
	var reads []qualified
	ix.mu.RLock()
	from := ix.files[fromPath]
	if from == nil {
		ix.mu.RUnlock()
		return nil
	}
	// own holds the paths whose definitions count as the file's: a Go
	// package's files; paths, not entries, as the index may replace an
	// entry between the two reads below.
	own := map[string]bool{from.Path: true}
	if from.Lang == "go" {
		for _, f := range ix.dirs[from.dir] {
			own[f.Path] = true
		}
	}
	for _, key := range moduleKeys(from) {
		for _, f := range ix.importers[key] {
			if own[f.Path] {
				continue
			}
			for _, imp := range f.Imports {
				if importBase(imp) != key || !slices.ContainsFunc(ix.importFiles(f, imp), func(g *file) bool { return own[g.Path] }) {
					continue
				}
				for _, n := range imp.Names {
					count[n]++
				}
				if q := imp.Name(); len(imp.Names) == 0 && q != "" && len(reads) < maxExpectingFiles {
					reads = append(reads, qualified{f.Path, q})
				}
			}
		}
	}
	ix.mu.RUnlock()
	for _, r := range reads {
		for m, n := range ix.texts.uses(r.path)[r.q] {
			count[m] += n
		}
	}
	var out []string
	ix.mu.RLock()
	for n := range count {
		defined := slices.ContainsFunc(ix.byName[n], func(r symRef) bool { return own[r.f.Path] })
		if !defined && n != "*" && n != "self" && n != "default" {
			out = append(out, n)
		}
	}
	ix.mu.RUnlock()
	slices.SortFunc(out, func(a, b string) int {
		if c := count[b] - count[a]; c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return out[:min(max, len(out))]
}

// moduleKeys returns the names other files' imports end in when they
// name f: its file name without extension, and for a folder's module
// file (index.ts, __init__.py, mod.rs, lib.rs) or a Go file, the
// folder's name.
func moduleKeys(f *file) []string {
	base := filepath.Base(f.Path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	switch {
	case f.Lang == "go":
		return []string{filepath.Base(f.dir)}
	case stem == "index" || stem == "__init__" || stem == "mod" || stem == "lib":
		return []string{stem, filepath.Base(f.dir)}
	}
	return []string{stem}
}

// importBases returns the importBase of each of f's imports, each once.
func importBases(f *file) []string {
	var out []string
	for _, imp := range f.Imports {
		if b := importBase(imp); b != "" && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// sourceExtensions are the file extensions an import path may end in.
var sourceExtensions = map[string]bool{".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true, ".py": true, ".rs": true, ".h": true}

// importBase returns the name of the module imp names, its file
// extension left out: "errors" for "./errors.js", "email.errors",
// "crate::errors" and "example.com/m/errors/v2".
func importBase(imp syntax.Import) string {
	p := imp.Path
	for sourceExtensions[path.Ext(p)] {
		p = strings.TrimSuffix(p, path.Ext(p))
	}
	return syntax.Import{Path: p}.Name()
}
