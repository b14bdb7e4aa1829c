package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// corpus is one workspace of real code the benchmark cuts holes in: a
// whole module, package or crate, as a user would have it checked out.
type corpus struct {
	// Lang is the language key: go, python, typescript, javascript, rust.
	Lang string
	// Name says which tree it is; Quick marks the -quick subset.
	Name  string
	Quick bool
	// Locate returns the workspace root, or an error saying what to
	// install when the tree is not on this machine.
	Locate func() (string, error)
	// Sub, when set, narrows the files holes are cut in to this folder of
	// the workspace (definitions are still read from the whole of it).
	Sub string
}

// corpora is the fixed benchmark set. Every tree is offline on a machine
// that builds wisp: the Go modules wisp depends on (module cache), the
// Python standard library, the VS Code extension's node_modules
// (editors/install/install.sh runs npm ci there) and Rust crates from
// Debian's librust-*-dev packages. Changing this list changes every
// figure: record it in BENCHMARKS.md when you do.
var corpora = []corpus{
	{Lang: "go", Name: "github.com/gorilla/websocket", Quick: true, Locate: goModule("github.com/gorilla/websocket")},
	{Lang: "go", Name: "github.com/BurntSushi/toml", Quick: true, Locate: goModule("github.com/BurntSushi/toml")},
	{Lang: "go", Name: "go.uber.org/zap", Locate: goModule("go.uber.org/zap")},
	{Lang: "go", Name: "github.com/aymanbagabas/go-udiff", Locate: goModule("github.com/aymanbagabas/go-udiff")},
	{Lang: "go", Name: "golang.org/x/tools (holes in go/)", Locate: goModule("golang.org/x/tools"), Sub: "go"},
	{Lang: "python", Name: "json", Quick: true, Locate: pythonPackage("json")},
	{Lang: "python", Name: "email", Quick: true, Locate: pythonPackage("email")},
	{Lang: "python", Name: "asyncio", Locate: pythonPackage("asyncio")},
	{Lang: "python", Name: "logging", Locate: pythonPackage("logging")},
	{Lang: "python", Name: "http", Locate: pythonPackage("http")},
	{Lang: "python", Name: "importlib", Locate: pythonPackage("importlib")},
	{Lang: "python", Name: "unittest", Locate: pythonPackage("unittest")},
	{Lang: "typescript", Name: "ajv (lib/*.ts)", Quick: true, Locate: nodePackage("ajv"), Sub: "lib"},
	{Lang: "typescript", Name: "@azure/msal-common (src/*.ts)", Locate: nodePackage("@azure/msal-common"), Sub: "src"},
	{Lang: "javascript", Name: "semver", Quick: true, Locate: nodePackage("semver")},
	{Lang: "javascript", Name: "commander", Locate: nodePackage("commander")},
	{Lang: "javascript", Name: "yauzl", Locate: nodePackage("yauzl")},
	{Lang: "javascript", Name: "yazl", Locate: nodePackage("yazl")},
	{Lang: "javascript", Name: "sax", Locate: nodePackage("sax")},
	{Lang: "rust", Name: "regex", Quick: true, Locate: rustCrate("regex")},
	{Lang: "rust", Name: "serde", Locate: rustCrate("serde")},
	{Lang: "rust", Name: "regex-syntax", Locate: rustCrate("regex-syntax")},
	{Lang: "rust", Name: "anyhow", Locate: rustCrate("anyhow")},
}

// languages lists the language keys in table order.
var languages = []string{"go", "python", "typescript", "javascript", "rust"}

// extensions are the source files of each language.
var extensions = map[string][]string{
	"go": {".go"}, "python": {".py"}, "typescript": {".ts"}, "javascript": {".js", ".mjs", ".cjs"}, "rust": {".rs"},
}

// Limits on the files holes are cut in.
const (
	maxFileBytes = 256 << 10
	minFileLines = 20
)

// goModule locates a module of wisp's go.mod in the module cache; it
// downloads it through the module proxy when it is not there yet.
func goModule(path string) func() (string, error) {
	return func() (string, error) {
		out, err := exec.Command("go", "mod", "download", "-json", path).Output()
		var m struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &m); jerr != nil || m.Dir == "" {
			return "", fmt.Errorf("module %s is not in the module cache (go mod download %s: %v %s)", path, path, err, m.Error)
		}
		return m.Dir, nil
	}
}

// pythonPackage locates a package of the newest installed Python 3
// standard library.
func pythonPackage(name string) func() (string, error) {
	return func() (string, error) {
		dirs, _ := filepath.Glob("/usr/lib/python3.*/" + name)
		if len(dirs) == 0 {
			return "", fmt.Errorf("python package %s not found under /usr/lib/python3.* (apt-get install python3)", name)
		}
		sort.Strings(dirs)
		return dirs[len(dirs)-1], nil
	}
}

// nodePackage locates a package in the VS Code extension's node_modules.
func nodePackage(name string) func() (string, error) {
	return func() (string, error) {
		root, err := repoRoot()
		if err != nil {
			return "", err
		}
		dir := filepath.Join(root, "editors", "vscode", "node_modules", filepath.FromSlash(name))
		if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
			return "", fmt.Errorf("%s is not installed (run npm ci in editors/vscode)", name)
		}
		return dir, nil
	}
}

// rustCrate locates a crate that Debian's librust-NAME-dev installs.
func rustCrate(name string) func() (string, error) {
	return func() (string, error) {
		dirs, _ := filepath.Glob("/usr/share/cargo/registry/" + name + "-[0-9]*")
		if len(dirs) == 0 {
			return "", fmt.Errorf("crate %s not found (apt-get install librust-%s-dev)", name, name)
		}
		sort.Strings(dirs)
		return dirs[len(dirs)-1], nil
	}
}

// repoRoot returns the directory of wisp's go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.Contains(data, []byte("module github.com/wisp-lsp/wisp\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the wisp repository")
		}
		dir = parent
	}
}

// sourceFiles returns the workspace's files of lang under dir, sorted,
// relative to dir: no tests data, vendored or generated code, declaration
// files, minified bundles, nor files over maxFileBytes.
func sourceFiles(dir, lang string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || name == "vendor" || name == "node_modules" || name == "__pycache__" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !hasExt(name, lang) || strings.HasSuffix(name, ".d.ts") || strings.HasSuffix(name, ".min.js") {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxFileBytes {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(files)
	return files, err
}

func hasExt(name, lang string) bool {
	for _, e := range extensions[lang] {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// generated reports whether src says it is generated code.
func generated(src string) bool {
	head := src[:min(len(src), 2048)]
	return strings.Contains(head, "Code generated") || strings.Contains(head, "@generated") || strings.Contains(head, "DO NOT EDIT")
}
