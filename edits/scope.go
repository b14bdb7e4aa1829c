package edits

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Region is the part of a document a quick edit rewrites: bytes
// [Start, End), always whole lines (Start is a line start; End is a line
// start or the end of the text).
type Region struct {
	Start, End int
}

// Scope returns the region to rewrite for a selection [start, end) of doc.
//
// A selection is widened to the whole lines it touches; a selection that
// ends at the start of a line does not take that line. With no selection
// (start == end) the region is the smallest function, method or class
// around the cursor, else the smallest block, according to tree; when tree
// is nil (plain text, or a language wisp cannot parse) or finds nothing, it
// is the paragraph around the cursor: the run of non-blank lines holding
// it. A cursor on a blank line outside any scope is an error wrapping
// ErrEmptyRegion.
//
// tree, when not nil, must have been parsed from doc.
func Scope(doc *text.Text, tree *syntax.Tree, start, end int) (Region, error) {
	if start < 0 || end > doc.Len() || start > end {
		return Region{}, fmt.Errorf("scope [%d,%d) in %d bytes: %w", start, end, doc.Len(), text.ErrOffsetOutOfRange)
	}
	if tree != nil && tree.Text().String() != doc.String() {
		return Region{}, errors.New("scope: the syntax tree was parsed from another text")
	}
	if start != end {
		return wholeLines(doc, start, end), nil
	}
	if tree != nil {
		if s, ok := tree.Enclosing(start, syntax.KindFunction, syntax.KindMethod, syntax.KindClass); ok {
			return wholeLines(doc, s.Span.Start, s.Span.End), nil
		}
		if s, ok := tree.Enclosing(start, syntax.KindBlock); ok {
			return wholeLines(doc, s.Span.Start, s.Span.End), nil
		}
	}
	return paragraph(doc, start)
}

// wholeLines widens [start, end) to whole lines of doc.
func wholeLines(doc *text.Text, start, end int) Region {
	r := Region{Start: doc.LineStart(doc.LineOf(start)), End: end}
	last := doc.LineOf(end)
	if end > start && doc.LineStart(last) == end {
		return r // ends at a line start: that line is not selected
	}
	if last+1 < doc.LineCount() {
		r.End = doc.LineStart(last + 1)
	} else {
		r.End = doc.Len()
	}
	return r
}

// paragraph returns the run of non-blank lines around off.
func paragraph(doc *text.Text, off int) (Region, error) {
	line := doc.LineOf(off)
	if isBlank(doc.Line(line)) {
		return Region{}, fmt.Errorf("%w: line %d is blank; select the code to edit", ErrEmptyRegion, line+1)
	}
	first, last := line, line
	for first > 0 && !isBlank(doc.Line(first-1)) {
		first--
	}
	for last+1 < doc.LineCount() && !isBlank(doc.Line(last+1)) {
		last++
	}
	return wholeLines(doc, doc.LineStart(first), doc.LineEnd(last)), nil
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }
