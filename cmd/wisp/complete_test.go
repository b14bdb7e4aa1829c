package main

import (
	"os"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// complete and context refuse a file that is not text, as edit does,
// rather than sending its bytes to the model.
func TestCompleteRefusesBinary(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{Text: "garbage"})
	elf, err := os.ReadFile(wispBin)
	if err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, t.TempDir(), "bin.go", string(elf[:4096]), 0o644)
	for _, args := range [][]string{{"complete", p + ":3:1"}, {"context", p + ":3:1", "--json"}, {"edit", p, "-m", "x"}} {
		out, errOut, code := run(t, env, "", args...)
		if code == 0 || out != "" || !strings.Contains(errOut, "bin.go: not a text file: NUL byte at offset 7") {
			t.Errorf("wisp %s: exit %d, stdout %q, stderr %q; want a refusal naming the NUL byte", args[0], code, out, errOut)
		}
	}
}
