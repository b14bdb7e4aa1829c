package gather

import (
	"fmt"

	"github.com/wisp-lsp/wisp/syntax"
)

// recent returns the user's most recent edits as diffs, newest first, at
// most maxRecentEdits, leaving out edits of this file that the window
// already shows (the typing at the cursor among them: it would only
// repeat the window and change the prompt on every keystroke).
func (g *gatherer) recent() []Piece {
	var out []Piece
	first, last := g.doc.LineOf(g.prefixStart), g.doc.LineOf(g.suffixEnd)
	for _, e := range g.in.History {
		if len(out) == maxRecentEdits {
			break
		}
		if e.Diff == "" || e.Path == g.in.Path && e.Line <= last && e.Line+e.Lines >= first {
			continue
		}
		why := fmt.Sprintf("edited recently, line %d", e.Line+1)
		if e.Lines > 1 {
			why = fmt.Sprintf("edited recently, lines %d-%d", e.Line+1, e.Line+e.Lines)
		}
		out = append(out, newPiece("recent", why, e.Path, e.Diff, syntax.Span{Start: e.Line, End: e.Line + e.Lines}))
	}
	return out
}
