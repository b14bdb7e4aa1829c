package shape_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/completion/shape"
	"github.com/wisp-lsp/wisp/marker"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// fitFunc is the post-processor under test; the harness's own test swaps
// in a broken one to prove the cases can fail.
type fitFunc func(doc *text.Text, tree *syntax.Tree, cursor int, plan shape.Plan, raw string) (string, bool)

// TestCases runs the completion cases of testdata/markers through
// shape.Decide and shape.Fit alone, and checks the plan their "plan:"
// directive names. The marker package's tests run the same cases through
// the real server, which owns their goldens (go test ./marker -update):
// a case that passes there and fails here has a bug between the engine
// and shape, and the reverse a bug between the server and the engine.
func TestCases(t *testing.T) {
	cases := completionCases(t)
	if len(cases) < 30 {
		t.Fatalf("found %d cases, want at least 30", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, ok, err := run(c, shape.Fit)
			if err != nil {
				t.Fatal(err)
			}
			if err := check(c, got, ok); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestCasesCatchRawReplies proves the cases can fail: passing the model's
// reply through untouched must break nearly all of them.
func TestCasesCatchRawReplies(t *testing.T) {
	raw := func(_ *text.Text, _ *syntax.Tree, _ int, _ shape.Plan, s string) (string, bool) { return s, true }
	cases := completionCases(t)
	failed := 0
	for _, c := range cases {
		got, ok, err := run(c, raw)
		if err != nil || check(c, got, ok) != nil {
			failed++
		}
	}
	if failed < len(cases)*9/10 {
		t.Errorf("only %d of %d cases fail when replies pass through raw", failed, len(cases))
	}
}

// completionCases loads the cases without an instruction.
func completionCases(t *testing.T) []*marker.Case {
	t.Helper()
	all, err := marker.Glob("../../testdata/markers/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var cases []*marker.Case
	for _, c := range all {
		if _, edit := c.Section("instruction"); !edit {
			cases = append(cases, c)
		}
	}
	return cases
}

// fitting is a case as Fit sees it.
type fitting struct {
	doc    *text.Text
	tree   *syntax.Tree // nil for a file without a grammar
	cursor int
	plan   shape.Plan
	reply  string
}

// load parses c's document and plans its completion; the caller closes
// the tree.
func load(c *marker.Case) (fitting, error) {
	f, err := c.Doc()
	if err != nil {
		return fitting{}, err
	}
	in := fitting{doc: text.New(f.Text), cursor: f.Start}
	if lang := syntax.Detect("", f.Name); lang != nil {
		if in.tree, err = syntax.Parse(context.Background(), lang, in.doc); err != nil {
			return fitting{}, err
		}
	}
	in.plan = shape.Decide(in.doc, in.tree, f.Start)
	in.reply, _ = c.Fragment("reply")
	return in, nil
}

// run plans and fits c's reply with fit.
func run(c *marker.Case, fit fitFunc) (string, bool, error) {
	in, err := load(c)
	if err != nil {
		return "", false, err
	}
	if in.tree != nil {
		defer in.tree.Close()
	}
	if want, ok := c.Directive("plan"); ok && (want == "multi") != in.plan.Multiline {
		return "", false, fmt.Errorf("plan %+v, want %s", in.plan, want)
	}
	got, ok := fit(in.doc, in.tree, in.cursor, in.plan, in.reply)
	return got, ok, nil
}

// check compares a result with c's goldens, which it never rewrites.
func check(c *marker.Case, got string, ok bool) error {
	if !ok {
		if _, none := c.Section("want-none"); !none {
			want, _ := c.Fragment("want")
			return fmt.Errorf("got no completion, want %q", want)
		}
		return nil
	}
	if *marker.Update {
		return nil // the server's runner owns the goldens
	}
	if err := c.Golden("want", got, marker.Fragment, "want-none"); err != nil {
		f, _ := c.Doc()
		return fmt.Errorf("%w\n%s", err, show(f, got))
	}
	return nil
}

// show renders the cursor's line with the completion inserted, for
// failure messages.
func show(f *marker.File, got string) string {
	s := f.Text
	line := strings.LastIndexByte(s[:f.Start], '\n') + 1
	end := strings.IndexByte(s[f.Start:], '\n')
	if end < 0 {
		end = len(s) - f.Start
	}
	return "document reads: " + strings.TrimRight(s[line:f.Start], "\r") + "⟦" + got + "⟧" + strings.TrimRight(s[f.Start:f.Start+end], "\r")
}

// Settled's contract: once a reply is settled for its plan, Fit gives
// the same text for it and for any longer reply. Every case's reply is
// run on with lines that close blocks, open others and repeat, and each
// settled prefix of it is fitted against the whole.
func TestSettledReplyChangesNoMore(t *testing.T) {
	tails := []string{
		strings.Repeat("\tvalue := compute(1)\n", 30),
		strings.Repeat("    value = compute(1)\n", 30),
		strings.Repeat("x = 1\n}\n)\n    return y\n\nfunc g() {\n\tz := 2\n", 5),
	}
	settled := 0
	for _, c := range completionCases(t) {
		in, err := load(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, tail := range tails {
			whole := in.reply + "\n" + tail
			want, wantOK := shape.Fit(in.doc, in.tree, in.cursor, in.plan, whole)
			for k := 1; k < len(whole); k++ {
				if !shape.Settled(in.plan, whole[:k]) {
					continue
				}
				settled++
				if got, ok := shape.Fit(in.doc, in.tree, in.cursor, in.plan, whole[:k]); got != want || ok != wantOK {
					t.Errorf("%s: settled after %q, Fit gives %q, %v; of the whole reply %q, %v", c.Name, whole[:k], got, ok, want, wantOK)
					break
				}
			}
		}
		if in.tree != nil {
			in.tree.Close()
		}
	}
	if settled == 0 {
		t.Fatal("no prefix was settled")
	}
}
