package syntax

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/wisp-lsp/wisp/text"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar")

// TestGolden parses each testdata/<language>.txtar source and compares a
// report of every query (enclosing scopes and literals at each marker,
// imports, definitions) with the file's want section.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test cases: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			c := loadCase(t, file)
			lang := Detect("", c.path)
			if lang == nil || lang.Name()+".txtar" != filepath.Base(file) {
				t.Fatalf("Detect(%q) = %v", c.path, lang)
			}
			tree, err := Parse(context.Background(), lang, text.New(c.src))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			if tree.HasError() {
				t.Errorf("sample has syntax errors: %s", tree)
			}
			got := report(tree, c.marks)
			if *update {
				for i, f := range c.archive.Files {
					if f.Name == "want" {
						c.archive.Files[i].Data = []byte(got)
					}
				}
				if err := os.WriteFile(file, txtar.Format(c.archive), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != c.want {
				t.Errorf("report differs from want (run with -update to rewrite)\n--- got\n%s--- want\n%s", got, c.want)
			}
		})
	}
}

// report describes everything the queries say about tree.
func report(tree *Tree, marks []mark) string {
	src := tree.Text().String()
	var b strings.Builder
	for _, m := range marks {
		var scopes []string
		for _, s := range tree.EnclosingScopes(m.off) {
			scopes = append(scopes, fmt.Sprintf("%s %s(%s) header=%q", s.Kind, s.Name, s.NodeType,
				squeeze(src[s.Header.Start:s.Header.End])))
		}
		fmt.Fprintf(&b, "mark %s:\n", m.name)
		for _, s := range scopes {
			fmt.Fprintf(&b, "  scope %s\n", s)
		}
		inString, inComment := tree.InStringOrComment(m.off)
		typ, _ := tree.NodeAt(m.off)
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
