package nextedit

import (
	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Region returns the editable region around off: radius lines either side
// of off's line, snapped to syntax. When the function (method, class)
// around off is no longer than twice the window it is the region whole;
// otherwise the window stays inside it, and a block cut by the window's
// edge is taken whole when that adds at most radius lines. tree may be
// nil; then the region is the plain window. The region is whole lines
// (edits.Region's contract) and never empty in a non-empty text.
func Region(doc *text.Text, tree *syntax.Tree, off, radius int) edits.Region {
	off = min(max(off, 0), doc.Len())
	line := doc.LineOf(off)
	first, last := max(line-radius, 0), min(line+radius, doc.LineCount()-1)
	if tree != nil {
		if sc, ok := tree.Enclosing(off, syntax.KindFunction, syntax.KindMethod, syntax.KindClass); ok {
			sf, sl := doc.LineOf(sc.Span.Start), doc.LineOf(max(sc.Span.End-1, sc.Span.Start))
			if sl-sf+1 <= 2*(2*radius+1) {
				first, last = sf, sl
			} else {
				first, last = max(first, sf), min(last, sl)
			}
		}
		first, last = snapBlocks(doc, tree, first, last, radius)
	}
	return edits.Region{Start: doc.LineStart(first), End: linesEnd(doc, last)}
}

// linesEnd returns the offset just past line last and its line break:
// the next line's start, or the end of doc after its last line.
func linesEnd(doc *text.Text, last int) int {
	if last+1 < doc.LineCount() {
		return doc.LineStart(last + 1)
	}
	return doc.Len()
}

// snapBlocks widens [first, last] to the blocks its edges cut, when each
// costs at most radius more lines.
func snapBlocks(doc *text.Text, tree *syntax.Tree, first, last, radius int) (int, int) {
	for _, sc := range tree.EnclosingScopes(doc.LineStart(first)) {
		sf := doc.LineOf(sc.Span.Start)
		if sc.Kind == syntax.KindBlock && sf < first && first-sf <= radius {
			first = sf
		}
	}
	end := doc.LineEnd(last)
	for _, sc := range tree.EnclosingScopes(max(end-1, doc.LineStart(last))) {
		sl := doc.LineOf(max(sc.Span.End-1, sc.Span.Start))
		if sc.Kind == syntax.KindBlock && sl > last && sl-last <= radius {
			last = sl
		}
	}
	return first, last
}
