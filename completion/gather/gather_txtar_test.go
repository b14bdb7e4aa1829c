package gather_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/marker"
	"github.com/wisp-lsp/wisp/workspace"
)

// TestContextCases runs the selection rules in testdata/context: each
// case is a document with a cursor, optional other buffers, a budget and
// the facts the chosen context must show (see testdata/context/README.md).
func TestContextCases(t *testing.T) {
	cases, err := marker.Glob("../../testdata/context/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 8 {
		t.Fatalf("found %d context cases, want at least 8", len(cases))
	}
	for _, mc := range cases {
		t.Run(mc.Name, func(t *testing.T) {
			in, want := loadContextCase(t, mc)
			c := gather.Gather(in)
			for _, w := range want {
				if msg := w.check(in, c); msg != "" {
					t.Errorf("%s: %s", w.line, msg)
				}
			}
			if t.Failed() {
				t.Logf("context (%d of %d tokens):\n%s", c.Tokens, c.Budget, showContext(c))
			}
		})
	}
}

// TestContextCasesCatchAnEmptyContext proves the cases can fail: a
// context that holds nothing must break every one of them.
func TestContextCasesCatchAnEmptyContext(t *testing.T) {
	cases, err := marker.Glob("../../testdata/context/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, mc := range cases {
		in, want := loadContextCase(t, mc)
		empty := gather.Context{Budget: max(in.Budget, 1)}
		failed := false
		for _, w := range want {
			failed = failed || w.check(in, empty) != ""
		}
		if !failed {
			t.Errorf("%s: an empty context passes every check", mc.Name)
		}
	}
}

// loadContextCase reads a loaded case: the comment's "budget: N" directive,
// the document (the file with the cursor), other buffers (the other
// files) and the want section's checks.
func loadContextCase(t *testing.T, c *marker.Case) (gather.Input, []contextCheck) {
	t.Helper()
	var in gather.Input
	var err error
	if v, ok := c.Directive("budget"); ok {
		if in.Budget, err = strconv.Atoi(v); err != nil {
			t.Fatalf("budget: %v", err)
		}
	}
	doc, err := c.Doc()
	if err != nil {
		t.Fatal(err)
	}
	// "workspace: disk": the files are a workspace on disk, indexed as
	// the server indexes a folder it opens; the document is the one open
	// buffer. Otherwise the other files are open buffers.
	onDisk := ""
	if v, _ := c.Directive("workspace"); v == "disk" {
		onDisk = t.TempDir()
		for _, f := range c.Files {
			p := filepath.Join(onDisk, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(f.Text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ix := workspace.Open(onDisk, workspace.Options{CacheDir: "-"})
		t.Cleanup(func() { ix.Close() })
		if err := ix.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		in.Workspace = ix
	}
	for i := range c.Files {
		switch f := &c.Files[i]; {
		case f == doc && onDisk != "":
			in.Buffer = buffer(t, filepath.Join(onDisk, filepath.FromSlash(f.Name)), f.Text)
			in.Cursor = f.Start
		case f == doc:
			in.Buffer = buffer(t, f.Name, f.Text)
			in.Cursor = f.Start
		case onDisk == "":
			in.Others = append(in.Others, buffer(t, f.Name, f.Text))
		}
	}
	var want []contextCheck
	checks, _ := c.Section("want")
	for _, l := range strings.Split(strings.TrimSpace(checks), "\n") {
		if l != "" {
			want = append(want, parseCheck(t, l))
		}
	}
	if len(want) == 0 {
		t.Fatal("no want section")
	}
	return in, want
}

// contextCheck is one line of a want section:
//
//	KIND has: TEXT    a piece of KIND (prefix, suffix, imports, …, or any) holds TEXT
//	KIND lacks: TEXT  no piece of KIND holds TEXT
//	used: N%          at least N% of the budget is used (never more than all)
//	window: cursor line   prefix and suffix lie within the cursor's line
//
// TEXT may hold \t and \n.
type contextCheck struct {
	line, kind, verb, text string
	used                   int
}

func parseCheck(t *testing.T, l string) contextCheck {
	c := contextCheck{line: l}
	switch {
	case strings.HasPrefix(l, "used: "):
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(l, "used: "), "%"))
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		c.verb, c.used = "used", n
	case l == "window: cursor line":
		c.verb = "window"
	default:
		head, text, ok := strings.Cut(l, ": ")
		kind, verb, ok2 := strings.Cut(head, " ")
		if !ok || !ok2 || verb != "has" && verb != "lacks" {
			t.Fatalf("bad check %q", l)
		}
		c.kind, c.verb = kind, verb
		c.text = strings.NewReplacer(`\t`, "\t", `\n`, "\n").Replace(text)
	}
	return c
}

// check returns what is wrong with c for this check, or "".
func (w contextCheck) check(in gather.Input, c gather.Context) string {
	switch w.verb {
	case "used":
		if c.Tokens > c.Budget || c.Tokens*100 < c.Budget*w.used {
			return fmt.Sprintf("%d of %d tokens used", c.Tokens, c.Budget)
		}
		return ""
	case "window":
		doc := in.Text
		l := doc.LineOf(in.Cursor)
		if c.PrefixStart < doc.LineStart(l) || c.SuffixEnd > doc.LineEnd(l) {
			return fmt.Sprintf("window %d..%d leaves the cursor line %d..%d", c.PrefixStart, c.SuffixEnd, doc.LineStart(l), doc.LineEnd(l))
		}
		return ""
	}
	found := false
	for _, p := range c.Pieces {
		if (w.kind == "any" || p.Kind == w.kind) && strings.Contains(p.Text, w.text) {
			found = true
		}
	}
	switch {
	case w.verb == "has" && !found:
		return "not found"
	case w.verb == "lacks" && found:
		return "found"
	}
	return ""
}

func showContext(c gather.Context) string {
	var b strings.Builder
	for _, p := range c.Pieces {
		text := p.Text
		if len(text) > 300 {
			text = text[:150] + " … " + text[len(text)-150:]
		}
		fmt.Fprintf(&b, "-- %s %s (%d tokens): %s\n%s\n", p.Kind, p.Path, p.Tokens, p.Why, text)
	}
	return b.String()
}
