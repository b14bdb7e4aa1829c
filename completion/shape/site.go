package shape

import (
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// site is what Decide and Fit read around the cursor.
type site struct {
	doc    *text.Text
	s      string // doc.String()
	cursor int
	line   int // the cursor's line
	// before and rest are the cursor line's text before and after the
	// cursor.
	before, rest string
	d            *dialect
	// stack holds the brackets open at the cursor, outermost first.
	stack []byte
	// stackAt holds the offsets in the document of stack's brackets.
	stackAt []int
	// lx is the lexer's state at the cursor (in code, a string or a
	// comment).
	lx lexer
}

// newSite reads the neighbourhood of cursor (already clamped to doc).
func newSite(doc *text.Text, tree *syntax.Tree, cursor int, lang string) site {
	s := doc.String()
	line := doc.LineOf(cursor)
	st := site{
		doc: doc, s: s, cursor: cursor, line: line,
		before: s[doc.LineStart(line):cursor],
		rest:   s[cursor:doc.LineEnd(line)],
		d:      dialectOf(lang),
	}
	from := scanStart(doc, tree, cursor)
	st.stack, st.stackAt, st.lx = openStack(st.d, s[from:cursor])
	for i := range st.stackAt {
		st.stackAt[i] += from
	}
	return st
}

// scanStart returns an offset at or before cursor known to be in code:
// the start of the outermost definition enclosing the cursor, else the
// nearest earlier line that starts in column 0 with something other than
// a closing bracket (a top-level statement), else the start of the file.
func scanStart(doc *text.Text, tree *syntax.Tree, cursor int) int {
	if tree != nil {
		if scopes := tree.EnclosingScopes(cursor); len(scopes) > 0 {
			if start := scopes[len(scopes)-1].Span.Start; start <= cursor && cursor-start <= scanLimit {
				return start
			}
		}
	}
	line := doc.LineOf(cursor)
	floor := max(0, cursor-scanLimit)
	for l := line - 1; l >= 0 && doc.LineStart(l) >= floor; l-- {
		t := doc.Line(l)
		if t == "" {
			continue
		}
		switch t[0] {
		case ' ', '\t', ')', ']', '}', '\r':
			continue
		}
		return doc.LineStart(l)
	}
	return doc.LineStart(doc.LineOf(floor))
}

// providedClosers returns the closing brackets the text after the cursor
// already holds for brackets open at the cursor, innermost first, and
// whether it ends the string or comment the cursor is in (see provided).
// A closer counts only when it is on the cursor's line or indented like
// the line of the bracket it would close: a "}" at the function's
// indentation does not close an "if {" the user has just typed.
func (st site) providedClosers() (closers []byte, closesString bool) {
	suffix := st.s[st.cursor:min(len(st.s), st.cursor+scanLimit)]
	closers, offsets, closesString := provided(st.lx, suffix, len(st.stack))
	lineEnd := st.doc.LineEnd(st.line)
	for k, off := range offsets {
		off += st.cursor
		opener := st.stackAt[len(st.stack)-1-k]
		if off > lineEnd && st.indentAt(off) != st.indentAt(opener) {
			return closers[:k], closesString
		}
	}
	return closers, closesString
}

// indentAt returns the indentation of the line holding offset off.
func (st site) indentAt(off int) string {
	return leadingSpace(st.doc.Line(st.doc.LineOf(off)))
}

// detectUnit returns the file's indentation unit, judged from up to 300
// lines either side of line: "\t" when most indented lines start with a
// tab, else the most common step between consecutive space indents. def
// is used when no line is indented.
func detectUnit(doc *text.Text, line int, def string) string {
	tabs, spaces := 0, 0
	var steps [9]int
	prev := 0
	for l := max(0, line-300); l < min(doc.LineCount(), line+300); l++ {
		t := doc.Line(l)
		if strings.TrimSpace(t) == "" {
			continue
		}
		ind := leadingSpace(t)
		switch {
		case strings.HasPrefix(ind, "\t"):
			tabs++
			continue
		case ind != "":
			spaces++
		}
		if d := len(ind) - prev; d > 0 && d < len(steps) {
			steps[d]++
		}
		prev = len(ind)
	}
	if tabs == 0 && spaces == 0 {
		return def
	}
	if tabs >= spaces {
		return "\t"
	}
	best := 0
	for w := 1; w < len(steps); w++ {
		if steps[w] > steps[best] {
			best = w
		}
	}
	if best == 0 {
		return def
	}
	return strings.Repeat(" ", best)
}

// blockEnd returns the offset of the enclosing block's close: the first
// closing bracket after the cursor that closes a bracket opened before it,
// or for indentation-blocked languages the end of the innermost enclosing
// scope. -1 when there is none.
func (st site) blockEnd(tree *syntax.Tree) int {
	if st.d.IndentBlocks {
		if tree != nil {
			if scopes := tree.EnclosingScopes(st.cursor); len(scopes) > 0 {
				return scopes[0].Span.End
			}
		}
		return -1
	}
	suffix := st.s[st.cursor:min(len(st.s), st.cursor+scanLimit)]
	_, offsets, _ := provided(st.lx, suffix, 1)
	if len(offsets) == 0 {
		return -1
	}
	return st.cursor + offsets[0]
}
