package syntax

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/marker"
	"github.com/wisp-lsp/wisp/text"
)

// TestGolden parses each testdata/<language>.txtar source and compares a
// report of every query (enclosing scopes and literals at each ⟨mark⟩,
// imports, definitions) with the case's want section; -update rewrites it.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test cases: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, c := loadSample(t, file)
			lang := Detect("", src.Name)
			if lang == nil || lang.Name()+".txtar" != filepath.Base(file) {
				t.Fatalf("Detect(%q) = %v", src.Name, lang)
			}
			tree, err := Parse(context.Background(), lang, text.New(src.Text))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			if tree.HasError() {
				t.Errorf("sample has syntax errors: %s", tree)
			}
			if err := c.Golden("want", report(tree, src.Marks), marker.Exact); err != nil {
				t.Error(err)
			}
			if err := c.Save(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// report describes everything the queries say about tree.
func report(tree *Tree, marks []marker.Mark) string {
	src := tree.Text().String()
	var b strings.Builder
	for _, m := range marks {
		var scopes []string
		for _, s := range tree.EnclosingScopes(m.Offset) {
			scopes = append(scopes, fmt.Sprintf("%s %s(%s) header=%q", s.Kind, s.Name, s.NodeType,
				squeeze(src[s.Header.Start:s.Header.End])))
		}
		fmt.Fprintf(&b, "mark %s:\n", m.Name)
		for _, s := range scopes {
			fmt.Fprintf(&b, "  scope %s\n", s)
		}
		inString, inComment := tree.InStringOrComment(m.Offset)
		typ, _ := tree.NodeAt(m.Offset)
		fmt.Fprintf(&b, "  node=%s string=%v comment=%v\n", typ, inString, inComment)
	}
	for _, s := range tree.Imports() {
		fmt.Fprintf(&b, "imports %q\n", src[s.Start:s.End])
	}
	for _, d := range tree.Definitions() {
		parent := ""
		if d.Parent != "" {
			parent = d.Parent + "."
		}
		fmt.Fprintf(&b, "def %s %s%s: %s\n", d.Kind, parent, d.Name, d.Signature)
	}
	return b.String()
}
