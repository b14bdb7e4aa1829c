package completion_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The engine packages work in byte offsets on text snapshots; only lsp
// speaks the protocol. This keeps the arrows pointing one way.
func TestNoProtocolImports(t *testing.T) {
	pkgs := []string{"completion/...", "edits", "syntax", "text", "transport/..."}
	for _, p := range pkgs {
		out, err := exec.Command("go", "list", "-deps", "github.com/wisp-lsp/wisp/"+p).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", p, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "go.lsp.dev/") || dep == "github.com/wisp-lsp/wisp/lsp" {
				t.Errorf("%s depends on %s", p, dep)
			}
		}
	}
}
