package edits

import (
	"errors"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/text"
)

// rebaseFixture is a document, edits computed against it, and the edited
// result.
const rebaseFixture = "alpha\nbeta\ngamma\ndelta\n"

func TestRebaseShiftsOverDistantChanges(t *testing.T) {
	doc := text.New(rebaseFixture)
	edits := Diff(rebaseFixture, "alpha\nBETA\ngamma\ndelta\n") // line 2
	// The user types on line 1 and line 4 while the model works.
	d1, c1, err := doc.Replace(0, 0, "// ")
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(d1.String(), "delta")
	d2, c2, err := d1.Replace(at, at+5, "epsilon")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Rebase(edits, []text.Edit{c1, c2})
	if err != nil {
		t.Fatalf("Rebase: %v", err)
	}
	out, err := Apply(d2.String(), got)
	if err != nil {
		t.Fatal(err)
	}
	if want := "// alpha\nBETA\ngamma\nepsilon\n"; out != want {
		t.Errorf("rebased result = %q, want %q", out, want)
	}
}

func TestRebaseRefusesOverlap(t *testing.T) {
	doc := text.New(rebaseFixture)
	edits := Diff(rebaseFixture, "alpha\nBETA\ngamma\ndelta\n") // replaces "beta"
	b := strings.Index(rebaseFixture, "beta")
	for _, tc := range []struct {
		name       string
		start, end int
		s          string
	}{
		{"inside", b + 1, b + 2, "E"},
		{"typed right before", b, b, "x"},
		{"typed right after", b + 4, b + 4, "s"},
		{"spanning", 0, len(rebaseFixture), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c, err := doc.Replace(tc.start, tc.end, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Rebase(edits, []text.Edit{c})
			if !errors.Is(err, ErrConflict) {
				t.Fatalf("Rebase = %v, %v; want ErrConflict", got, err)
			}
			if !strings.Contains(err.Error(), "line") {
				t.Errorf("error %q does not name the lines", err)
			}
		})
	}
}

func TestRebaseConflictNamesLines(t *testing.T) {
	doc := text.New(rebaseFixture)
	edits := []Edit{{Start: 0, End: len(rebaseFixture), Text: "x"}}
	_, c, _ := doc.Replace(strings.Index(rebaseFixture, "beta"), strings.Index(rebaseFixture, "delta"), "")
	_, err := Rebase(edits, []text.Edit{c})
	if err == nil || !strings.Contains(err.Error(), "lines 2-4") {
		t.Errorf("Rebase error = %v, want it to name lines 2-4", err)
	}
}
