package edits

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoProtocolImports keeps the package free of LSP protocol types: it
// works in byte offsets, and only the lsp package converts.
func TestNoProtocolImports(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "go.lsp.dev/") || strings.HasSuffix(dep, "/wisp/lsp") {
			t.Errorf("edits depends on %s", dep)
		}
	}
}
