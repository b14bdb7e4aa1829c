package marker_test

import (
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/marker"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestMarkers runs every case of testdata/markers through the real
// language server, over a pipe with LSP framing as an editor speaks it,
// answered by the loopback model server's script, once for an editor
// that speaks utf-8 positions and once for one that speaks only utf-16
// (VS Code): a completion case asks
// textDocument/inlineCompletion at its cursor and checks what the item
// inserts there; a quick-edit case runs workspace/executeCommand
// wisp.quickEdit on its cursor or selection and checks the region the
// model was sent, the workspace/applyEdit edits and the edited file.
// -update rewrites want, want-none, want-edits and want-error.
func TestMarkers(t *testing.T) {
	cases, err := marker.Glob("../testdata/markers/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 40 {
		t.Fatalf("found %d cases, want at least 40", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			for _, enc := range []string{"utf-8", "utf-16"} {
				t.Run(enc, func(t *testing.T) {
					if _, edit := c.Section("instruction"); edit {
						runEdit(t, c, enc)
					} else {
						runCompletion(t, c, enc)
					}
				})
			}
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func runCompletion(t *testing.T, c *marker.Case, enc string) {
	s := start(t, c, enc)
	f, _ := c.Doc()
	got, ok, err := s.complete(f.Start)
	switch {
	case err != nil:
		t.Fatal(err)
	case ok:
		err = c.Golden("want", got, marker.Fragment, "want-none")
	default:
		err = c.Golden("want-none", "", marker.Exact, "want")
	}
	if err != nil {
		t.Error(err)
	}
}

func runEdit(t *testing.T, c *marker.Case, enc string) {
	s := start(t, c, enc)
	f, _ := c.Doc()
	instruction, _ := c.Section("instruction")
	es, err := s.edit(f.Start, f.End, strings.TrimSpace(instruction))
	if q, ok := s.queries.edit(); ok {
		// Compared, not owned: the edits package's test rewrites it.
		if want, ok := c.Section("want-region"); ok && !*marker.Update {
			if got := strings.ReplaceAll(q.Prefix, "\r\n", "\n"); got != want {
				t.Errorf("the model was sent the region\n%q\nwant\n%q", got, want)
			}
		}
	}
	if err != nil {
		if err := c.Golden("want-error", err.Error()+"\n", marker.Exact, "want", "want-edits"); err != nil {
			t.Error(err)
		}
		return
	}
	applied := make([]edits.Edit, len(es))
	for i, e := range es {
		applied[i] = edits.Edit{Start: e.Start, End: e.End, Text: e.Text}
	}
	result, err := edits.Apply(f.Text, applied)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Golden("want-edits", marker.FormatEdits(f.Text, es), marker.Exact, "want-error"); err != nil {
		t.Error(err)
	}
	if err := c.Golden("want", result, marker.Text, "want-error"); err != nil {
		t.Error(err)
	}
}
