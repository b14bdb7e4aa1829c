package shape_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/wisp-lsp/wisp/completion/shape"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/completion/*.txtar")

// cursorMark marks the cursor in a case's file; it is removed before the
// file is parsed.
const cursorMark = "‸" // U+2038 CARET

// fitFunc is the post-processor under test; the harness's own test swaps
// in a broken one to prove the cases can fail.
type fitFunc func(doc *text.Text, tree *syntax.Tree, cursor int, plan shape.Plan, raw string) (string, bool)

// tcase is one parsed testdata/completion case.
type tcase struct {
	path    string
	ar      *txtar.Archive
	file    string // the document's name; its extension picks the language
	doc     *text.Text
	cursor  int
	reply   string
	want    string
	none    bool   // the case wants no completion
	plan    string // "single", "multi" or "" (unchecked)
	crlf    bool
	comment string
}

func TestCases(t *testing.T) {
	cases := loadCases(t)
	if len(cases) < 30 {
		t.Fatalf("found %d cases, want at least 30", len(cases))
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c.path), ".txtar"), func(t *testing.T) {
			got, ok, err := run(c, shape.Fit)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				c.rewrite(t, got, ok)
				return
			}
			if msg := c.check(got, ok); msg != "" {
				t.Errorf("%s\n%s", msg, c.show(got, ok))
			}
		})
	}
}

// TestCasesCatchRawReplies proves the cases can fail: passing the model's
// reply through untouched must break nearly all of them.
func TestCasesCatchRawReplies(t *testing.T) {
	raw := func(_ *text.Text, _ *syntax.Tree, _ int, _ shape.Plan, s string) (string, bool) { return s, true }
	cases := loadCases(t)
	failed := 0
	for _, c := range cases {
		got, ok, err := run(c, raw)
		if err != nil || c.check(got, ok) != "" {
			failed++
		}
	}
	if failed < len(cases)*9/10 {
		t.Errorf("only %d of %d cases fail when replies pass through raw", failed, len(cases))
	}
}

func loadCases(t *testing.T) []*tcase {
	t.Helper()
	paths, err := filepath.Glob("../../testdata/completion/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var cases []*tcase
	for _, p := range paths {
		c, err := parseCase(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cases = append(cases, c)
	}
	return cases
}

// parseCase reads one case. Sections: the file (any other name), "reply",
// and either "want" or "want-none". The last newline of reply and want is
// the archive's, not the text's. Comment lines "plan: single|multi" and
// "crlf" check the plan and turn the file's line breaks into CRLF.
func parseCase(path string) (*tcase, error) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		return nil, fmt.Errorf("read case: %w", err)
	}
	c := &tcase{path: path, ar: ar, comment: string(ar.Comment)}
	for _, l := range strings.Split(c.comment, "\n") {
		switch {
		case strings.HasPrefix(l, "plan: "):
			c.plan = strings.TrimPrefix(l, "plan: ")
		case l == "crlf":
			c.crlf = true
		}
	}
	hasReply, hasWant := false, false
	for _, f := range ar.Files {
		data := string(f.Data)
		switch f.Name {
		case "reply":
			c.reply, hasReply = strings.TrimSuffix(data, "\n"), true
		case "want":
			c.want, hasWant = strings.TrimSuffix(data, "\n"), true
		case "want-none":
			c.none, hasWant = true, true
		default:
			if c.file != "" {
				return nil, fmt.Errorf("two files, %s and %s", c.file, f.Name)
			}
			if strings.Count(data, cursorMark) != 1 {
				return nil, fmt.Errorf("%s: want exactly one cursor mark %s", f.Name, cursorMark)
			}
			c.file = f.Name
			c.cursor = strings.Index(data, cursorMark)
			data = strings.Replace(data, cursorMark, "", 1)
			if c.crlf {
				c.cursor += strings.Count(data[:c.cursor], "\n")
				data = strings.ReplaceAll(data, "\n", "\r\n")
			}
			c.doc = text.New(data)
		}
	}
	if c.file == "" || !hasReply || !hasWant && !*update {
		return nil, fmt.Errorf("need a file, a reply and a want or want-none section")
	}
	return c, nil
}

// run plans and fits c's reply with fit.
func run(c *tcase, fit fitFunc) (string, bool, error) {
	var tree *syntax.Tree
	if lang := syntax.Detect("", c.file); lang != nil {
		var err error
		if tree, err = syntax.Parse(context.Background(), lang, c.doc); err != nil {
			return "", false, err
		}
		defer tree.Close()
	}
	plan := shape.Decide(c.doc, tree, c.cursor)
	if c.plan != "" && (c.plan == "multi") != plan.Multiline {
		return "", false, fmt.Errorf("plan %+v, want %s", plan, c.plan)
	}
	got, ok := fit(c.doc, tree, c.cursor, plan, c.reply)
	if c.crlf && ok {
		if strings.Count(got, "\n") != strings.Count(got, "\r\n") {
			return "", false, fmt.Errorf("CRLF file got bare line feeds: %q", got)
		}
		got = strings.ReplaceAll(got, "\r\n", "\n")
	}
	return got, ok, nil
}

// check returns what is wrong with a result, "" when it is right.
func (c *tcase) check(got string, ok bool) string {
	switch {
	case c.none && ok:
		return fmt.Sprintf("got completion %q, want none", got)
	case !c.none && !ok:
		return fmt.Sprintf("got no completion, want %q", c.want)
	case !c.none && got != c.want:
		return fmt.Sprintf("got  %q\nwant %q", got, c.want)
	}
	return ""
}

// show renders the cursor's line with the completion inserted, for
// failure messages.
func (c *tcase) show(got string, ok bool) string {
	if !ok {
		return "(no completion)"
	}
	s := strings.ReplaceAll(c.doc.String(), "\r\n", "\n")
	cur := c.cursor - strings.Count(c.doc.String()[:c.cursor], "\r\n")
	start := strings.LastIndexByte(s[:cur], '\n') + 1
	end := strings.IndexByte(s[cur:], '\n')
	if end < 0 {
		end = len(s) - cur
	}
	return "document reads:\n" + s[start:cur] + "⟦" + got + "⟧" + s[cur:cur+end]
}

// rewrite stores the result as c's golden.
func (c *tcase) rewrite(t *testing.T, got string, ok bool) {
	var files []txtar.File
	for _, f := range c.ar.Files {
		if f.Name != "want" && f.Name != "want-none" {
			files = append(files, f)
		}
	}
	if ok {
		files = append(files, txtar.File{Name: "want", Data: []byte(got + "\n")})
	} else {
		files = append(files, txtar.File{Name: "want-none"})
	}
	c.ar.Files = files
	if err := os.WriteFile(c.path, txtar.Format(c.ar), 0o644); err != nil {
		t.Fatal(err)
	}
}
