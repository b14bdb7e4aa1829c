package edits

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/marker"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// TestCases runs the quick-edit cases of testdata/markers (the cases with
// an instruction) through this package's pipeline alone: Scope →
// BuildRequest → a model answering the canned reply → ExtractCode →
// Conform → Diff → Apply. It owns the "want-region" golden (the region
// sent to the model, rewritten by -update here); the other goldens belong
// to the marker package's tests, which run the same cases through the
// real server.
func TestCases(t *testing.T) {
	all, err := marker.Glob("../testdata/markers/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range all {
		if _, edit := c.Section("instruction"); !edit {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			runCase(t, c)
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
		})
	}
	if n < 9 {
		t.Fatalf("found %d quick-edit cases, want at least 9", n)
	}
}

func runCase(t *testing.T, c *marker.Case) {
	f, err := c.Doc()
	if err != nil {
		t.Fatal(err)
	}
	doc := text.New(f.Text)
	var tree *syntax.Tree
	if lang := syntax.Detect("", f.Name); lang != nil {
		if tree, err = syntax.Parse(context.Background(), lang, doc); err != nil {
			t.Fatal(err)
		}
		defer tree.Close()
	}
	instruction, _ := c.Section("instruction")
	reply, _ := c.Section("reply")
	region, edits, result, err := pipeline(doc, tree, f.Start, f.End, strings.TrimSpace(instruction), f.Name, reply)
	if region != "" {
		if err := c.Golden("want-region", region, marker.Text); err != nil {
			t.Error(err)
		}
	}
	if *marker.Update {
		return // the server's runner owns the other goldens
	}
	if err != nil {
		err = c.Golden("want-error", err.Error()+"\n", marker.Exact, "want", "want-edits")
	} else if err = c.Golden("want-edits", formatEdits(doc, edits), marker.Exact, "want-error"); err == nil {
		err = c.Golden("want", result, marker.Text, "want-error")
	}
	if err != nil {
		t.Error(err)
	}
}

// pipeline runs one quick edit the way the LSP server and Run do, and
// returns the region the model was sent.
func pipeline(doc *text.Text, tree *syntax.Tree, start, end int, instruction, name, reply string) (string, []Edit, string, error) {
	region, err := Scope(doc, tree, start, end)
	if err != nil {
		return "", nil, "", err
	}
	m := &fakeModel{reply: reply}
	edits, err := Rewrite(context.Background(), m, Quick{
		Doc: doc, Tree: tree, Region: region, Instruction: instruction, Path: name,
	})
	if len(m.reqs) != 1 {
		return "", nil, "", fmt.Errorf("the model was asked %d times, want once", len(m.reqs))
	}
	// What the model was sent, not the region's text: the golden checks
	// the request.
	sent := m.reqs[0].Prefix
	if err != nil {
		return sent, nil, "", err
	}
	out, err := Apply(doc.String(), edits)
	return sent, edits, out, err
}

// formatEdits renders edits as the want-edits golden.
func formatEdits(doc *text.Text, edits []Edit) string {
	out := make([]marker.Edit, len(edits))
	for i, e := range edits {
		out[i] = marker.Edit{Start: e.Start, End: e.End, Text: e.Text}
	}
	return marker.FormatEdits(doc.String(), out)
}
