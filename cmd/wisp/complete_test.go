package main

import (
	"encoding/json"
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

// A cursor is reported on the line it was given on, whatever breaks the
// lines: a lone "\r" counts as a line break both ways.
func TestCompletePositionWithLoneCR(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{Text: "x"})
	dir := t.TempDir()
	for _, src := range []string{"a\rb\rc\n", "a\r\nb\nc\n", "a\nb\nc"} {
		p := writeFile(t, dir, "cr.txt", src, 0o644)
		for _, args := range [][]string{{"complete", p + ":3:1", "--json"}, {"context", p + ":3:1", "--json"}} {
			out, errOut, code := run(t, env, "", args...)
			if code != 0 {
				t.Fatalf("wisp %s on %q: exit %d: %s", args[0], src, code, errOut)
			}
			var res struct {
				Range  struct{ Start jsonPos } `json:"range"`
				Cursor *jsonPos                `json:"cursor"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			got := res.Range.Start
			if res.Cursor != nil {
				got = *res.Cursor
			}
			if got != (jsonPos{Line: 3, Col: 1}) {
				t.Errorf("wisp %s on %q at 3:1 reported %+v", args[0], src, got)
			}
		}
	}
}
