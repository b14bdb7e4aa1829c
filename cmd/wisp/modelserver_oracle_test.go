package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// wisp model-server --workspace answers next-edit requests from the
// folder's files, the "after" versions, over the Responses WebSocket.
func TestModelServerNextEditOracle(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte("package calc\n\nvar sum = 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	line := runModelServerInProcess(t, "--listen", "127.0.0.1:0", "--workspace", dir)
	i := strings.Index(line, "ws://")
	if i < 0 {
		t.Fatalf("no address in %q", line)
	}
	endpoint := strings.TrimSpace(strings.TrimSuffix(line[i:], ")\n"))
	endpoint = strings.TrimSuffix(endpoint, ")")
	model, err := provider.Open(config.Model{Provider: "openai-ws", Endpoint: endpoint, Model: "test"}, func(string) string { return "" }, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	ne := transport.NextEdit{Path: "/home/u/calc.go", Above: "package calc\n\n"}
	res, err := model.Generate(ctx, transport.Request{Prefix: "var total = 0\n", Instruction: ne.Instruction(),
		System: transport.NextEditInstructions}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "```\nvar sum = 0\n```\n" {
		t.Fatalf("the oracle answered %q", res.Text)
	}
}

// runModelServerInProcess runs the model-server command in this process
// with args until the test ends (then checks it exited 0) and returns the
// first line it printed, the one that names its addresses.
func runModelServerInProcess(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runModelServer(ctx, args, w, io.Discard)
		w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("model-server exited %d", code)
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, out)
	return line
}
