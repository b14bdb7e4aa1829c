package edits

import (
	"fmt"
	"strings"

	// go-udiff is the exported copy of gopls' own diff package: the same
	// Myers LCS with a bounded search (so a wholesale rewrite cannot stall
	// an edit), byte-offset edits, and the unified-diff printer "wisp edit"
	// prints. Its lcs package diffs any []string, which lets us diff lines
	// first and then tokens inside changed lines without a second library.
	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"
)

// Edit replaces bytes [Start, End) of the text it was computed against with
// Text. Slices of Edits from this package are sorted by Start and never
// overlap.
type Edit struct {
	Start, End int
	Text       string
}

// String shows the edit for test failures and logs.
func (e Edit) String() string { return fmt.Sprintf("[%d,%d)%q", e.Start, e.End, e.Text) }

// Diff returns the minimal edits that turn old into new, as byte offsets
// into old, sorted and non-overlapping.
//
// It diffs lines first, then tokens (identifiers, numbers, runs of blanks,
// single symbols, line terminators) inside each block of changed lines, so
// renaming an identifier replaces just that identifier. Edits separated
// only by a run of blanks on one line are merged, so "a + b" → "x * y" is
// one edit rather than three. Edit boundaries never split a UTF-8 sequence
// or a "\r\n" pair.
func Diff(old, new string) []Edit {
	if old == new {
		return nil
	}
	var out []Edit
	for _, le := range udiff.Lines(old, new) {
		ob := old[le.Start:le.End]
		if ob == "" || le.New == "" {
			// Whole lines inserted or deleted: nothing finer to find.
			out = append(out, Edit{Start: le.Start, End: le.End, Text: le.New})
			continue
		}
		out = appendTokenEdits(out, le.Start, ob, le.New)
	}
	return merge(old, out)
}

// appendTokenEdits appends to out the token-level edits that turn ob, which
// starts at byte base of the old text, into nb.
func appendTokenEdits(out []Edit, base int, ob, nb string) []Edit {
	ta, oa := tokens(ob)
	tb, offb := tokens(nb)
	for _, d := range lcs.DiffLines(ta, tb) {
		out = append(out, Edit{
			Start: base + oa[d.Start],
			End:   base + oa[d.End],
			Text:  nb[offb[d.ReplStart]:offb[d.ReplEnd]],
		})
	}
	return out
}

// merge joins edits that touch or are separated only by blanks within one
// line of old.
func merge(old string, edits []Edit) []Edit {
	if len(edits) < 2 {
		return edits
	}
	out := edits[:1]
	for _, e := range edits[1:] {
		last := &out[len(out)-1]
		gap := old[last.End:e.Start]
		if strings.Trim(gap, " \t") == "" {
			last.Text += gap + e.Text
			last.End = e.End
			continue
		}
		out = append(out, e)
	}
	return out
}

// Apply applies edits, computed against old, and returns the new text. The
// edits must be sorted, non-overlapping and within old; otherwise Apply
// returns an error wrapping ErrBadEdits and no text.
func Apply(old string, edits []Edit) (string, error) {
	if err := validate(len(old), edits); err != nil {
		return "", err
	}
	var b strings.Builder
	size := len(old)
	for _, e := range edits {
		size += len(e.Text) - (e.End - e.Start)
	}
	b.Grow(size)
	last := 0
	for _, e := range edits {
		b.WriteString(old[last:e.Start])
		b.WriteString(e.Text)
		last = e.End
	}
	b.WriteString(old[last:])
	return b.String(), nil
}

// validate checks that edits are sorted, non-overlapping and within a text
// of n bytes.
func validate(n int, edits []Edit) error {
	last := 0
	for i, e := range edits {
		switch {
		case e.Start < 0 || e.End > n || e.Start > e.End:
			return fmt.Errorf("%w: edit %d %v is outside a text of %d bytes", ErrBadEdits, i, e, n)
		case e.Start < last:
			return fmt.Errorf("%w: edit %d %v overlaps or precedes the edit before it", ErrBadEdits, i, e)
		}
		last = e.End
	}
	return nil
}

// Shift returns edits moved by delta bytes, for edits computed against a
// region that starts delta bytes into its document.
func Shift(edits []Edit, delta int) []Edit {
	out := make([]Edit, len(edits))
	for i, e := range edits {
		out[i] = Edit{Start: e.Start + delta, End: e.End + delta, Text: e.Text}
	}
	return out
}
