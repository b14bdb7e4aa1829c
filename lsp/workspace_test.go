package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
)

// recordModel answers every completion with reply and keeps the requests
// it was sent.
type recordModel struct {
	reply string
	mu    sync.Mutex
	reqs  []transport.Request
}

func (m *recordModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	onDelta(m.reply)
	return transport.Result{Text: m.reply, FinishReason: "stop"}, nil
}

func (m *recordModel) Close() error { return nil }

func (m *recordModel) last() transport.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reqs[len(m.reqs)-1]
}

// writeTree writes files (slash paths → content) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// initializeAt initializes with a real client's params rooted at root.
func (e *fakeEditor) initializeAt(profile, root string) {
	e.t.Helper()
	params := e.clientParams(profile)
	u := string(uri.File(root))
	params["rootUri"], params["rootPath"] = u, root
	params["workspaceFolders"] = []any{map[string]any{"uri": u, "name": filepath.Base(root)}}
	e.mustCall("initialize", params, nil)
	e.notify("initialized", map[string]any{})
}

// indexStats polls wisp/index until ok accepts the first root's figures.
func (e *fakeEditor) indexStats(ok func(files, symbols int, ready bool) bool) {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var res []struct {
			Stats struct {
				Files, Symbols int
				Ready          bool
			} `json:"stats"`
		}
		e.mustCall("wisp/index", map[string]any{}, &res)
		if len(res) == 1 && ok(res[0].Stats.Files, res[0].Stats.Symbols, res[0].Stats.Ready) {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("wisp/index never satisfied the test: %+v", res)
		}
		// No event exists: the index builds and settles in the
		// background and tells the client nothing, so the test asks
		// again. The sleep spaces the questions; it times nothing.
		time.Sleep(10 * time.Millisecond)
	}
}

// waitRegistered waits until the server registered method.
func (e *fakeEditor) waitRegistered(method string) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := e.Await(ctx, func([]client.Message) bool {
		for _, r := range e.Requests("client/registerCapability") {
			if strings.Contains(string(r), method) {
				return true
			}
		}
		return false
	})
	if err != nil {
		e.t.Fatalf("the server never registered %s: %v", method, err)
	}
}

var storeRepo = map[string]string{
	"go.mod":  "module example.com/app\n\ngo 1.22\n",
	"main.go": "package main\n\nimport \"example.com/app/store\"\n\nfunc main() {\n\ts, err := store.Open(\"db\")\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\ts.\n}\n",
	"store/store.go": "package store\n\n// Store keeps records on disk.\ntype Store struct {\n\tPath string\n\tSize int\n}\n\n" +
		"// Open opens the store at path.\nfunc Open(path string) (*Store, error) {\n\treturn &Store{Path: path}, nil\n}\n\n" +
		"// Put saves a record.\nfunc (s *Store) Put(key string, value []byte) error {\n\treturn nil\n}\n",
}

// A completion in main.go shows the model the definitions main.go uses
// from store/store.go, which the editor never opened: the workspace index
// found them through main.go's import. The server registers its file
// watcher with a client that allows it, and a watched change reaches the
// index.
func TestWorkspaceDefinitionsInContext(t *testing.T) {
	root := writeTree(t, storeRepo)
	model := &recordModel{reply: "Put(\"k\", nil)"}
	e := startServer(t, model, config.Default())
	e.initializeAt("initialize-vscode-1.100.3-code-server-languageclient-11.json", root)
	// The client allows dynamic registration: the watcher is registered.
	// (Wait for it before calling: over an unbuffered pipe, a request each
	// way at once would block both read loops.)
	e.waitRegistered("workspace/didChangeWatchedFiles")
	e.indexStats(func(files, _ int, ready bool) bool { return ready && files == 2 })

	main := string(uri.File(filepath.Join(root, "main.go")))
	e.open(main, "go", storeRepo["main.go"])
	if _, err := e.inline(context.Background(), main, 9, 3); err != nil {
		t.Fatal(err)
	}
	storePath := filepath.Join(root, "store", "store.go")
	var got []string
	for _, s := range model.last().Context {
		if s.Path == storePath {
			got = append(got, s.Text)
		}
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"// Open opens the store at path.\nfunc Open(path string) (*Store, error)",
		"// Store keeps records on disk.\ntype Store struct { Path string; Size int }",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the request's context lacks %q; from store.go it has:\n%s", want, all)
		}
	}

	// A new file on disk, told through didChangeWatchedFiles, is indexed.
	fresh := filepath.Join(root, "store", "cache.go")
	if err := os.WriteFile(fresh, []byte("package store\n\n// Cache is new.\ntype Cache struct{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": string(uri.File(fresh)), "type": 1}}})
	e.indexStats(func(files, _ int, _ bool) bool { return files == 3 })

	// A saved file is read again: store.go loses Put.
	var symbols int
	e.indexStats(func(_, n int, _ bool) bool { symbols = n; return true })
	storeText := strings.Split(storeRepo["store/store.go"], "// Put")[0]
	if err := os.WriteFile(storePath, []byte(storeText), 0o644); err != nil {
		t.Fatal(err)
	}
	e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": string(uri.File(storePath))}})
	e.indexStats(func(_, n int, _ bool) bool { return n == symbols-1 })

	// An open buffer's edits reach the index once they settle.
	e.change(main, 2, 11, 0, 11, 0, "\n// Extra is typed in the editor.\nfunc Extra() {}\n")
	e.indexStats(func(_, n int, _ bool) bool { return n == symbols })
}
