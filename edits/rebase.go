package edits

import (
	"fmt"
	"math"

	"github.com/wisp-lsp/wisp/text"
)

// Rebase moves edits, computed against a document, over changes made to
// that document since (applied in order, each against the text the previous
// one produced, as text.Text.Replace and Apply report them). An edit after
// a change shifts by the change's length difference; an edit before it
// stays put.
//
// When a change overlaps an edit or touches it (ends where the edit starts
// or starts where it ends, which includes typing right next to it), Rebase
// returns an error wrapping ErrConflict that names the changed lines, and
// no edits: the rebased edits would rewrite text the model never saw.
func Rebase(edits []Edit, changes []text.Edit) ([]Edit, error) {
	if err := validate(math.MaxInt, edits); err != nil {
		return nil, err
	}
	out := append([]Edit(nil), edits...)
	for i, c := range changes {
		if c.Start < 0 || c.OldEnd < c.Start || c.NewEnd < c.Start {
			return nil, fmt.Errorf("%w: change %d [%d,%d)→%d is malformed", ErrBadEdits, i, c.Start, c.OldEnd, c.NewEnd)
		}
		delta := c.NewEnd - c.OldEnd
		for j := range out {
			e := &out[j]
			switch {
			case c.OldEnd < e.Start:
				e.Start += delta
				e.End += delta
			case c.Start > e.End:
				// The change is wholly after the edit.
			default:
				return nil, fmt.Errorf("%w: %s changed while the edit was being made", ErrConflict, lines(c))
			}
		}
	}
	return out, nil
}

// lines names the 1-based lines a change replaced, as "line 12" or
// "lines 12-14".
func lines(c text.Edit) string {
	first, last := c.StartPoint.Row+1, c.OldEndPoint.Row+1
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}
