package syntax

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/text"
)

// Texts past the limits are refused before any parsing, by Parse and by
// Reparse alike, and say which limit they pass; texts at the limits parse.
func TestParseLimits(t *testing.T) {
	ctx := context.Background()
	atLimit := "package p\n\nvar s = \"" + strings.Repeat("x", MaxLineBytes-10) + "\"\n"
	cases := []struct {
		name, src string
		refused   string // "" when the text parses
	}{
		{"line at the limit", atLimit, ""},
		{"long line", "package p\n\nvar s = \"" + strings.Repeat("x", 10_000) + "\"\n", "line 3 is"},
		{"large file", strings.Repeat("func f() {}\n", MaxParseBytes/12+1), "bytes, the limit"},
		{"long last line without newline", "package p\n" + strings.Repeat("y", MaxLineBytes+1), "line 2 is"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := Parse(ctx, langGo, text.New(c.src))
			if c.refused == "" {
				if err != nil {
					t.Fatalf("refused a text within the limits: %v", err)
				}
				tr.Close()
				return
			}
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), c.refused) {
				t.Fatalf("Parse: %v, want ErrTooLarge saying %q", err, c.refused)
			}
		})
	}

	// An edit that makes a line too long drops the tree on reparse.
	old := text.New("package p\n\nvar s = 1\n")
	tr, err := Parse(ctx, langGo, old)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	next, e, err := old.Replace(19, 20, strings.Repeat("9", MaxLineBytes))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Reparse(ctx, next, []text.Edit{e}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Reparse past the line limit: %v, want ErrTooLarge", err)
	}
}
