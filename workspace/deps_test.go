package workspace_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The index reads syntax; it never depends on the completion engine or
// the language server, which depend on it.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/wisp-lsp/wisp/workspace").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "go.lsp.dev/") || strings.HasPrefix(dep, "github.com/wisp-lsp/wisp/completion") ||
			dep == "github.com/wisp-lsp/wisp/lsp" || strings.HasPrefix(dep, "github.com/wisp-lsp/wisp/transport") {
			t.Errorf("workspace depends on %s", dep)
		}
	}
}
