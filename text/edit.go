package text

import (
	"fmt"
	"strings"
)

// Change is one LSP content change: replace Range (counted in the
// document's encoding) with Text, or, when Range is nil, replace the whole
// document.
type Change struct {
	Range *Range
	Text  string
}

// Edit is a change resolved to bytes and points, as tree-sitter wants it:
// bytes [Start, OldEnd) of the old text became bytes [Start, NewEnd) of the
// new one. The points are computed from the text they belong to, never
// derived from one another.
type Edit struct {
	Start, OldEnd, NewEnd                int
	StartPoint, OldEndPoint, NewEndPoint Point
}

// Replace returns the text with bytes [start, end) replaced by s, and the Edit
// describing it.
func (t *Text) Replace(start, end int, s string) (*Text, Edit, error) {
	if start < 0 || end > len(t.s) || start > end {
		return nil, Edit{}, fmt.Errorf("%w: [%d,%d) in %d bytes", ErrOffsetOutOfRange, start, end, len(t.s))
	}
	n := &Text{s: t.s[:start] + s + t.s[end:]}
	n.lines = t.reindex(n.s, start, end, len(s))
	// A lone "\r" can only appear from inserted text or from a "\r" just
	// before the edit losing its "\n"; otherwise the old answer holds.
	if t.loneCR || strings.IndexByte(s, '\r') >= 0 || (start > 0 && t.s[start-1] == '\r') {
		n.loneCR = hasLoneCR(n.s)
	}
	e := Edit{
		Start: start, OldEnd: end, NewEnd: start + len(s),
		StartPoint:  t.Point(start),
		OldEndPoint: t.Point(end),
	}
	e.NewEndPoint = n.Point(e.NewEnd)
	return n, e, nil
}

// reindex builds the line index of ns, which is t's text with bytes
// [start, end) replaced by inserted bytes. Lines wholly before the edit and
// wholly after it are reused; only the neighbourhood of the edit is scanned.
func (t *Text) reindex(ns string, start, end, inserted int) []int {
	// Rescan from the start of the line before the edit (a "\r" ending it
	// may now pair with an inserted "\n") to the line after it.
	first := max(t.LineOf(start)-1, 0)
	lastOld := t.LineOf(end) + 2 // first old line start safely past the edit
	delta := inserted - (end - start)
	scanFrom := t.lines[first]
	scanTo := len(ns)
	if lastOld < len(t.lines) {
		scanTo = t.lines[lastOld] + delta
	}
	lines := make([]int, 0, len(t.lines)+8)
	lines = append(lines, t.lines[:first]...)
	mid := indexLines(ns[scanFrom:scanTo], nil)
	for _, off := range mid {
		lines = append(lines, scanFrom+off)
	}
	if lastOld < len(t.lines) {
		// indexLines reports a start at the end of the scanned window only
		// if the window ends with a terminator, which it does, since
		// scanTo is a line start; drop that duplicate.
		if lines[len(lines)-1] == scanTo {
			lines = lines[:len(lines)-1]
		}
		for _, off := range t.lines[lastOld:] {
			lines = append(lines, off+delta)
		}
	}
	return lines
}

// Apply applies LSP content changes in order, each against the text the
// previous one produced, and returns the final text and the Edits made. On
// error it returns the error and no text: the caller keeps the old text,
// so a bad change never leaves a half-applied document.
func (t *Text) Apply(changes []Change, enc Encoding) (*Text, []Edit, error) {
	cur := t
	edits := make([]Edit, 0, len(changes))
	for i, c := range changes {
		start, end := 0, cur.Len()
		if c.Range != nil {
			var err error
			start, end, err = cur.Span(*c.Range, enc)
			if err != nil {
				return nil, nil, fmt.Errorf("change %d: %w", i, err)
			}
		}
		next, e, err := cur.Replace(start, end, c.Text)
		if err != nil {
			return nil, nil, fmt.Errorf("change %d: %w", i, err)
		}
		cur = next
		edits = append(edits, e)
	}
	return cur, edits, nil
}

// Between returns the one Edit that turns before into after: everything
// between their common prefix and their common suffix replaced. A change
// sent as several edits, each in the coordinates the one before it left
// (an editor's accept that inserts, deletes and inserts again), comes to
// this one in before's and after's own coordinates.
func Between(before, after *Text) Edit {
	b, a := before.String(), after.String()
	p := 0
	for p < len(b) && p < len(a) && b[p] == a[p] {
		p++
	}
	s := 0
	for s < len(b)-p && s < len(a)-p && b[len(b)-1-s] == a[len(a)-1-s] {
		s++
	}
	return Edit{Start: p, OldEnd: len(b) - s, NewEnd: len(a) - s,
		StartPoint: before.Point(p), OldEndPoint: before.Point(len(b) - s), NewEndPoint: after.Point(len(a) - s)}
}
