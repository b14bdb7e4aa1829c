package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/wisp-lsp/wisp/text"
)

// span is one edit resolved against the texts before and after a batch of
// edits: bytes [start, oldEnd) of the old text became [start, newEnd) of
// the new one.
type span struct{ start, oldEnd, newEnd int }

// coalesce folds edits, applied in order to a text of oldLen bytes, into
// one edit that covers all of them, and reports whether the edits are
// well-formed and produce a text of newLen bytes. The covering edit can be
// larger than the sum of its parts (two far-apart edits cover the text
// between them); tree-sitter then re-lexes a little more.
//
// Coalescing lets tree-sitter points be computed from the two texts that
// are at hand, never from intermediate texts Reparse does not have.
func coalesce(oldLen, newLen int, edits []text.Edit) (span, bool) {
	if len(edits) == 0 {
		return span{}, oldLen == newLen
	}
	n := oldLen // current text length
	// Invariant: the current text's bytes [c.start, c.newEnd) replaced the
	// old text's bytes [c.start, c.oldEnd); outside them the texts agree.
	c := span{start: edits[0].Start, oldEnd: edits[0].Start, newEnd: edits[0].Start}
	for _, e := range edits {
		if e.Start < 0 || e.Start > e.OldEnd || e.Start > e.NewEnd || e.OldEnd > n {
			return span{}, false
		}
		end := max(c.newEnd, e.OldEnd)
		c.oldEnd += end - c.newEnd
		c.newEnd = end + e.NewEnd - e.OldEnd
		c.start = min(c.start, e.Start)
		n += e.NewEnd - e.OldEnd
	}
	return c, n == newLen
}

// editTree tells tr that old became new by the change c, as tree-sitter
// requires before an incremental parse.
//
// The binding's Tree.Edit passes the old end point as the new one; that
// is harmless because the parse re-lexes the edited region and recomputes
// every position after it (TestReparseRandomEdits compares points with a
// fresh parse), but it means the points below only need to be right where
// tree-sitter reads them: start and old end.
func editTree(tr *sitter.Tree, old, new *text.Text, c span) {
	tr.Edit(sitter.EditInput{
		StartIndex:  uint32(c.start),
		OldEndIndex: uint32(c.oldEnd),
		NewEndIndex: uint32(c.newEnd),
		StartPoint:  tsPoint(old, c.start),
		OldEndPoint: tsPoint(old, c.oldEnd),
		NewEndPoint: tsPoint(new, c.newEnd),
	})
}

// tsPoint returns the tree-sitter point of byte off in t. Tree-sitter
// counts rows by "\n" alone, as text.Point does unless the text holds a
// lone "\r" (an old Mac line break, which LSP and text.Point count as a
// line break); only then is the point computed here, by scanning.
func tsPoint(t *text.Text, off int) sitter.Point {
	s := t.String()
	off = max(0, min(off, len(s)))
	if !hasLoneCR(s) {
		p := t.Point(off)
		return sitter.Point{Row: uint32(p.Row), Column: uint32(p.Column)}
	}
	row := strings.Count(s[:off], "\n")
	col := off - (strings.LastIndexByte(s[:off], '\n') + 1)
	return sitter.Point{Row: uint32(row), Column: uint32(col)}
}

// hasLoneCR reports whether s holds a "\r" not followed by "\n".
func hasLoneCR(s string) bool {
	for {
		i := strings.IndexByte(s, '\r')
		if i < 0 {
			return false
		}
		if i+1 == len(s) || s[i+1] != '\n' {
			return true
		}
		s = s[i+2:]
	}
}
