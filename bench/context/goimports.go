package main

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// modulePath returns the module path of the Go tree at root ("" when it has
// no go.mod).
func modulePath(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	if m := goModuleLine.FindStringSubmatch(string(data)); m != nil {
		return m[1]
	}
	return ""
}

var (
	goModuleLine = regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)"?`)
	// goImportSpec is one import: an optional name, then the quoted path,
	// alone on an "import" line or inside an import ( … ) group.
	goImportSpec  = regexp.MustCompile(`^\s*(?:import\s+)?([\w.]+\s+)?"([^"]+)"`)
	goImportGroup = regexp.MustCompile(`^import\s*\(`)
	goVersionPart = regexp.MustCompile(`^v[0-9]+$`)
)

// goExternalPackages returns the names a Go file's imports bind to
// packages outside module (the standard library's and other modules'):
// a name qualified by one of them ("net.Conn") can never mean a
// definition of the tree.
func goExternalPackages(src, module string) map[string]bool {
	out := make(map[string]bool)
	group := false
	for _, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case group && strings.HasPrefix(trimmed, ")"):
			group = false
			continue
		case goImportGroup.MatchString(trimmed):
			group = true
			continue
		case !group && !strings.HasPrefix(trimmed, "import "):
			continue
		}
		m := goImportSpec.FindStringSubmatch(trimmed)
		if m == nil {
			continue
		}
		p := m[2]
		if module != "" && (p == module || strings.HasPrefix(p, module+"/")) {
			continue
		}
		name := strings.TrimSpace(m[1])
		if name == "" {
			name = goPackageName(p)
		}
		if name != "_" && name != "." {
			out[name] = true
		}
	}
	return out
}

// goPackageName guesses the name a package path binds by default: its
// last element, skipping a major-version element ("…/v2"), less a
// ".vN" suffix and a "go-" prefix (gopkg.in/yaml.v3, go-udiff).
func goPackageName(p string) string {
	name := path.Base(p)
	if goVersionPart.MatchString(name) && path.Dir(p) != "." {
		name = path.Base(path.Dir(p))
	}
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "go-")
	return strings.ReplaceAll(name, "-", "")
}
