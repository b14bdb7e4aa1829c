package workspace

import (
	"os"
	"path/filepath"
)

// rootMarkers are the files and folders that mark a project's root.
var rootMarkers = []string{".git", "go.mod", "package.json", "Cargo.toml", "pyproject.toml", "setup.py"}

// FindRoot returns the nearest ancestor folder of file (file's own folder
// first) holding .git, go.mod, package.json, Cargo.toml, pyproject.toml or
// setup.py; when none does, file's folder. The result is absolute when
// file's absolute path can be known.
func FindRoot(file string) string {
	file = absPath(file)
	start := filepath.Dir(file)
	for dir := start; ; {
		for _, m := range rootMarkers {
			if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return start
		}
		dir = parent
	}
}

// absPath returns path made absolute, or path itself when it cannot be.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
