package workspace

import (
	"bufio"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// skipDirs are folders never indexed: version control, dependencies
// vendored or installed into the tree, and caches.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "vendor": true,
	"third_party": true, "__pycache__": true, "target": true, "dist": true, "build": true,
	".venv": true, "venv": true, ".tox": true, ".mypy_cache": true,
}

// maxWalkEntries bounds the folder entries one walk visits, so a root
// like a home folder, full of things that are not sources, stays cheap.
const maxWalkEntries = 200_000

// candidate is a source file the walk found.
type candidate struct {
	path  string
	size  int64
	mtime int64 // modification time, Unix nanoseconds
}

// walkResult is what a walk of the root found.
type walkResult struct {
	files []candidate
	// goModules maps folders holding a go.mod to its module path.
	goModules map[string]string
	// crates holds the folders holding a Cargo.toml.
	crates map[string]bool
	// truncated: MaxFiles stopped the walk early.
	truncated bool
}

// walk lists the indexable source files under root: files of a language
// wisp parses, not excluded by .gitignore, not in skipDirs or a hidden
// folder, at most maxBytes each, and at most maxFiles in all, looking at
// no more than maxWalkEntries entries.
func walk(ctx context.Context, root string, maxFiles int, maxBytes int64) walkResult {
	res := walkResult{goModules: map[string]string{}, crates: map[string]bool{}}
	var ig ignorer
	ig.load(filepath.Join(root, ".gitignore"), "")
	ig.load(filepath.Join(root, ".git", "info", "exclude"), "")
	visited := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if visited++; visited > maxWalkEntries {
			res.truncated = true
			return fs.SkipAll
		}
		if err != nil {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir // unreadable folder: skip it, keep walking
			}
			return nil
		}
		if ctx.Err() != nil {
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			if p == root {
				return nil
			}
			if skipDirs[name] || strings.HasPrefix(name, ".") || ig.ignored(rel, true) {
				return fs.SkipDir
			}
			ig.load(filepath.Join(p, ".gitignore"), rel)
			return nil
		}
		if name == "Cargo.toml" {
			res.crates[filepath.Dir(p)] = true
			return nil
		}
		if name == "go.mod" {
			if mod := goModulePath(p); mod != "" {
				res.goModules[filepath.Dir(p)] = mod
			}
			return nil
		}
		if !d.Type().IsRegular() || syntax.Detect("", name) == nil || ig.ignored(rel, false) {
			return nil
		}
		if strings.HasSuffix(name, ".min.js") {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > maxBytes {
			return nil
		}
		if len(res.files) >= maxFiles {
			res.truncated = true
			return fs.SkipAll
		}
		res.files = append(res.files, candidate{path: p, size: info.Size(), mtime: info.ModTime().UnixNano()})
		return nil
	})
	return res
}

// goModulePath returns the module path a go.mod declares, or "".
func goModulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
