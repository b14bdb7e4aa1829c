package gather

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/wisp-lsp/wisp/completion/history"
	"github.com/wisp-lsp/wisp/syntax"
)

// recentCandidates is how many of the newest edits recent chooses from.
const recentCandidates = 8

// recent returns up to maxRecentEdits of the user's newest edits as
// diffs, newest first. Among the newest recentCandidates, edits near the
// cursor's file (in it, or in its folder) are preferred to edits
// elsewhere. Edits of this file that the window already shows are left
// out (the typing at the cursor among them: it would only repeat the
// window and change the prompt on every keystroke).
func (g *gatherer) recent() []Piece {
	first, last := g.doc.LineOf(g.prefixStart), g.doc.LineOf(g.suffixEnd)
	dir := filepath.Dir(g.in.Path)
	var near, far []int // indexes into History
	for i, e := range g.in.History[:min(len(g.in.History), recentCandidates)] {
		switch {
		case e.Diff == "" || e.Path == g.in.Path && e.Line <= last && e.Line+e.Lines >= first:
		case filepath.Dir(e.Path) == dir:
			near = append(near, i)
		default:
			far = append(far, i)
		}
	}
	chosen := append(near, far...)
	chosen = chosen[:min(len(chosen), maxRecentEdits)]
	slices.Sort(chosen) // newest first again
	out := make([]Piece, 0, len(chosen))
	for _, i := range chosen {
		out = append(out, recentPiece(g.in.History[i]))
	}
	return out
}

func recentPiece(e history.Edit) Piece {
	why := fmt.Sprintf("edited recently, line %d", e.Line+1)
	if e.Lines > 1 {
		why = fmt.Sprintf("edited recently, lines %d-%d", e.Line+1, e.Line+e.Lines)
	}
	return newPiece("recent", why, e.Path, e.Diff, syntax.Span{Start: e.Line, End: e.Line + e.Lines})
}
