package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeRepo is a small Go module: main.go uses the store package, which
// no editor has open.
var storeRepo = map[string]string{
	"go.mod":  "module example.com/app\n\ngo 1.22\n",
	"main.go": "package main\n\nimport \"example.com/app/store\"\n\nfunc main() {\n\ts, err := store.Open(\"db\")\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\ts.\n}\n",
	"store/store.go": "package store\n\n// Store keeps records on disk.\ntype Store struct {\n\tPath string\n\tSize int\n}\n\n" +
		"// Open opens the store at path.\nfunc Open(path string) (*Store, error) {\n\treturn &Store{Path: path}, nil\n}\n",
}

type contextOutput struct {
	Context struct {
		Pieces []struct {
			Kind, Path, Text string
		} `json:"pieces"`
	} `json:"context"`
	Index struct {
		Root      string `json:"root"`
		Files     int    `json:"files"`
		FromCache int    `json:"fromCache"`
	} `json:"index"`
}

// `wisp context` run inside a repository shows the definitions the code
// at the cursor uses from a file nobody opened, found through the import;
// the second run reads the index from the disk cache.
func TestContextUsesWorkspaceIndex(t *testing.T) {
	root := t.TempDir()
	for name, content := range storeRepo {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Dir(p), filepath.Base(p), content, 0o644)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	runContext := func() (contextOutput, string) {
		t.Helper()
		out, errOut, code := run(t, env, "", "context", filepath.Join(root, "main.go")+":10:4", "--budget", "600", "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var res contextOutput
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return res, errOut
	}

	first, errOut := runContext()
	var defs []string
	for _, p := range first.Context.Pieces {
		if p.Kind == "definition" && p.Path == "store/store.go" {
			defs = append(defs, p.Text)
		}
	}
	all := strings.Join(defs, "\n")
	for _, want := range []string{"// Open opens the store at path.\nfunc Open(path string) (*Store, error)",
		"type Store struct { Path string; Size int }"} {
		if !strings.Contains(all, want) {
			t.Errorf("no definition %q from store.go; got %q", want, defs)
		}
	}
	if first.Index.Root != root || first.Index.Files != 2 || first.Index.FromCache != 0 {
		t.Errorf("first run's index %+v, want 2 files parsed under %s", first.Index, root)
	}
	if !strings.Contains(errOut, "2 files, 0 from the cache") {
		t.Errorf("stderr does not report the index: %q", errOut)
	}

	second, errOut := runContext()
	if second.Index.FromCache != 2 {
		t.Errorf("second run's index %+v, want both files from the disk cache", second.Index)
	}
	if !strings.Contains(errOut, "2 files, 2 from the cache") {
		t.Errorf("stderr does not report the warm index: %q", errOut)
	}
}
