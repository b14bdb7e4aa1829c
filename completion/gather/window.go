package gather

import (
	"fmt"
	"unicode/utf8"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Window growth. The window around the cursor grows one whole line at a
// time on the side whose next line ranks first: a line d lines above the
// cursor ranks d, a line d lines below ranks d*suffixWeight/weightScale,
// ties going to the prefix. Code after the cursor is what the
// continuation runs into (the rest of the block, the calls it must agree
// with, the names it reuses), so it is worth as much as code before: the
// weights are equal. The split adapts by itself: near the end of a file
// the prefix takes what the suffix cannot use, and the other way round
// near the top. No side ever stops at a scope end: while the user types,
// braces are unbalanced and the tree's scopes end wherever the parser
// gave up.
const (
	suffixWeight = 10
	weightScale  = 10
	// maxLineBytes is the longest line read as code: a longer line (a
	// minified bundle, a data literal) is read as plain text, and a window
	// that meets it takes only the bytes that fit.
	maxLineBytes = 1000
)

// longLine reports whether the cursor's line is too long to read as code.
func (g *gatherer) longLine() bool {
	l := g.doc.LineOf(g.cursor)
	return g.doc.LineEnd(l)-g.doc.LineStart(l) > maxLineBytes
}

// grow widens the window by at most tokens. It first takes the cursor's
// own line, or, when that line is too long to read as code, a window of
// its bytes; a side that ends inside a line first grows to the whole
// line; then whole lines are added in rank order; when the next line on
// both sides is too long to fit, the rest goes to as many of its bytes as
// fit, and the next call carries on from there.
func (g *gatherer) grow(tokens int) {
	left := bytesFor(tokens) - 7 // two pieces may each round up a token
	if left <= 0 {
		return
	}
	doc := g.doc
	if g.prefixStart == g.cursor && g.suffixEnd == g.cursor {
		l := doc.LineOf(g.cursor)
		start, end := doc.LineStart(l), doc.LineEnd(l)
		if end-start <= left && end-start <= maxLineBytes {
			g.prefixStart, g.suffixEnd = start, end
			left -= end - start
		} else {
			g.prefixCut, g.suffixCut = g.cursor > start, g.cursor < end
		}
	}
	if left = g.growCuts(left); left <= 0 {
		return
	}
	cl := doc.LineOf(g.cursor)
	for left > 0 {
		up, down := g.nextAbove(), g.nextBelow()
		upOK := up >= 0 && g.prefixStart-up <= left
		downOK := down >= 0 && down-g.suffixEnd <= left
		switch {
		case upOK && downOK:
			if (cl-doc.LineOf(up))*weightScale <= (doc.LineOf(down)-cl)*suffixWeight {
				downOK = false
			} else {
				upOK = false
			}
		case !upOK && !downOK:
			g.cutLines(left)
			return
		}
		if upOK {
			left -= g.prefixStart - up
			g.prefixStart = up
		} else {
			left -= down - g.suffixEnd
			g.suffixEnd = down
		}
	}
}

// growCuts grows the sides of the window that end inside a line within
// that line, by at most left bytes, three quarters before the cursor and
// the rest after, either side giving the other what it cannot use. A
// side that reaches its line's end is no longer cut. It returns the bytes
// left.
func (g *gatherer) growCuts(left int) int {
	if !g.prefixCut && !g.suffixCut {
		return left
	}
	doc, s := g.doc, g.doc.String()
	lineStart, lineEnd := doc.LineStart(doc.LineOf(g.prefixStart)), doc.LineEnd(doc.LineOf(g.suffixEnd))
	roomBefore, roomAfter := 0, 0
	if g.prefixCut {
		roomBefore = g.prefixStart - lineStart
	}
	if g.suffixCut {
		roomAfter = lineEnd - g.suffixEnd
	}
	before := min(roomBefore, left*3/4)
	after := min(roomAfter, left-before)
	before = min(roomBefore, left-after)
	start := runeStart(s, g.prefixStart-before, g.prefixStart)
	end := runeEnd(s, g.suffixEnd+after, g.suffixEnd)
	left -= g.prefixStart - start + end - g.suffixEnd
	g.prefixStart, g.suffixEnd = start, end
	g.prefixCut = g.prefixCut && start > lineStart
	g.suffixCut = g.suffixCut && end < lineEnd
	return left
}

// nextAbove returns where the window would start with one more line
// above, or -1 when it cannot grow upwards.
func (g *gatherer) nextAbove() int {
	if g.prefixCut || g.prefixStart == 0 {
		return -1
	}
	return g.doc.LineStart(g.doc.LineOf(g.prefixStart - 1))
}

// nextBelow returns where the window would end with one more line below,
// or -1 when it cannot grow downwards.
func (g *gatherer) nextBelow() int {
	if g.suffixCut || g.suffixEnd == g.doc.Len() {
		return -1
	}
	return g.doc.LineEnd(g.doc.LineOf(g.suffixEnd) + 1)
}

// cutLines spends the last left bytes on the tail of the line above the
// window, else on the head of the line below, and ends the growth there.
func (g *gatherer) cutLines(left int) {
	s := g.doc.String()
	switch {
	case g.nextAbove() >= 0:
		g.prefixStart = runeStart(s, g.prefixStart-left, g.prefixStart)
		g.prefixCut = true
	case g.nextBelow() >= 0:
		g.suffixEnd = runeEnd(s, g.suffixEnd+left, g.suffixEnd)
		g.suffixCut = true
	}
}

// runeStart moves off, clamped to [0, limit], forward to the start of a
// UTF-8 character.
func runeStart(s string, off, limit int) int {
	off = max(0, min(off, limit))
	for off < limit && !utf8.RuneStart(s[off]) {
		off++
	}
	return off
}

// runeEnd moves off, clamped to [limit, len(s)], back to the start of a
// UTF-8 character, so that s[:off] ends with a whole character.
func runeEnd(s string, off, limit int) int {
	off = max(limit, min(off, len(s)))
	for off > limit && off < len(s) && !utf8.RuneStart(s[off]) {
		off--
	}
	return off
}

// scopesAt returns the non-block scopes enclosing off, innermost first.
func scopesAt(tree *syntax.Tree, off int) []syntax.Scope {
	if tree == nil {
		return nil
	}
	var out []syntax.Scope
	for _, s := range tree.EnclosingScopes(off) {
		if s.Kind != syntax.KindBlock {
			out = append(out, s)
		}
	}
	return out
}

// lineName names the 1-based line holding off, for Why texts.
func lineName(doc *text.Text, off int) string {
	return fmt.Sprintf("line %d", doc.LineOf(off)+1)
}
