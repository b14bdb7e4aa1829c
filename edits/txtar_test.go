package edits

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/edits/*.txtar")

// TestCases runs each testdata/edits/*.txtar case through the quick-edit
// pipeline: Scope → BuildRequest → a model answering the canned reply →
// ExtractCode → Conform → Diff → Apply.
//
// Sections: "file" (the document), "range" (a selection "L:C-L:C", a
// cursor "L" or "L:C", 1-based with byte columns), "instruction", "reply",
// and the goldens "want-region" (the region sent), "want-edits" (one edit
// per line as "L:C-L:C \"text\"", positions in the file), "want" (the
// edited file) or "want-error" (the error's message). The comment names
// the file ("name: sum.go"), and "crlf" turns the file's and the goldens'
// line endings into "\r\n".
func TestCases(t *testing.T) {
	paths, err := filepath.Glob("../testdata/edits/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runCase(t, path)
		})
	}
}

func runCase(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name, crlf := "file.txt", false
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, "name: "); ok {
			name = strings.TrimSpace(v)
		}
		crlf = crlf || strings.TrimSpace(line) == "crlf"
	}
	sec := map[string]string{}
	for _, f := range ar.Files {
		sec[f.Name] = string(f.Data)
	}
	lineEnds := func(s string) string {
		if crlf {
			return strings.ReplaceAll(s, "\n", "\r\n")
		}
		return s
	}
	doc := text.New(lineEnds(sec["file"]))
	target, err := ParseTarget(name + ":" + strings.TrimSpace(sec["range"]))
	if err != nil {
		t.Fatal(err)
	}
	start, end, err := target.Offsets(doc)
	if err != nil {
		t.Fatal(err)
	}
	var tree *syntax.Tree
	if lang := syntax.Detect("", name); lang != nil {
		if tree, err = syntax.Parse(context.Background(), lang, doc); err != nil {
			t.Fatal(err)
		}
		defer tree.Close()
	}

	got := map[string]string{}
	edits, result, err := pipeline(doc, tree, start, end, strings.TrimSpace(sec["instruction"]), name, sec["reply"], got)
	if err != nil {
		got["want-error"] = err.Error() + "\n"
	} else {
		got["want-edits"] = formatEdits(doc, edits)
		got["want"] = result
	}
	if *update {
		writeGoldens(t, path, ar, got, crlf)
		return
	}
	for _, k := range []string{"want-region", "want-edits", "want", "want-error"} {
		want, ok := sec[k]
		if _, produced := got[k]; !ok && !produced {
			continue
		}
		if k != "want-edits" && k != "want-error" {
			want = lineEnds(want)
		}
		if got[k] != want {
			t.Errorf("%s:\n got: %q\nwant: %q", k, got[k], want)
		}
	}
}

// pipeline runs one quick edit the way the LSP server and Run do, and
// records the region it sent in got["want-region"].
func pipeline(doc *text.Text, tree *syntax.Tree, start, end int, instruction, name, reply string, got map[string]string) ([]Edit, string, error) {
	region, err := Scope(doc, tree, start, end)
	if err != nil {
		return nil, "", err
	}
	got["want-region"] = doc.String()[region.Start:region.End]
	edits, err := Rewrite(context.Background(), &fakeModel{reply: reply}, Quick{
		Doc: doc, Tree: tree, Region: region, Instruction: instruction, Path: name,
	})
	if err != nil {
		return nil, "", err
	}
	out, err := Apply(doc.String(), edits)
	return edits, out, err
}

// formatEdits renders edits as "L:C-L:C \"text\"" lines, 1-based, byte
// columns, positions in doc.
func formatEdits(doc *text.Text, edits []Edit) string {
	var b strings.Builder
	for _, e := range edits {
		s, en := doc.Point(e.Start), doc.Point(e.End)
		fmt.Fprintf(&b, "%d:%d-%d:%d %q\n", s.Row+1, s.Column+1, en.Row+1, en.Column+1, e.Text)
	}
	return b.String()
}

// writeGoldens rewrites the golden sections of the case at path.
func writeGoldens(t *testing.T, path string, ar *txtar.Archive, got map[string]string, crlf bool) {
	t.Helper()
	var files []txtar.File
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "want") {
			files = append(files, f)
		}
	}
	for _, k := range []string{"want-region", "want-edits", "want", "want-error"} {
		v, ok := got[k]
		if !ok {
			continue
		}
		if crlf && k != "want-edits" && k != "want-error" {
			v = strings.ReplaceAll(v, "\r\n", "\n")
		}
		files = append(files, txtar.File{Name: k, Data: []byte(v)})
	}
	ar.Files = files
	data := txtar.Format(ar)
	if old, _ := os.ReadFile(path); !bytes.Equal(old, data) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
