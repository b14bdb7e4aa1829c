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
// ties going to the prefix; a line the window leaves out (elided) costs
// nothing. Code after the cursor is what the
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
// fit, and the next call carries on from there. It counts in thousandths
// of a token (cost), keeping back one token for each side's rounding.
// Costs add up: the window's two sides are estimated apart, and a piece
// joined to a side never costs more than it did alone (a word or number
// joined to another only gets cheaper).
func (g *gatherer) grow(tokens int) {
	left := (tokens - 2) * milliPerToken
	if left <= 0 {
		return
	}
	doc, s := g.doc, g.doc.String()
	if g.prefixStart == g.cursor && g.suffixEnd == g.cursor {
		l := doc.LineOf(g.cursor)
		// A cursor between a line's "\r" and "\n" is past LineEnd.
		start, end := doc.LineStart(l), max(doc.LineEnd(l), g.cursor)
		if c := cost(s[start:g.cursor], left) + cost(s[g.cursor:end], left); end-start <= maxLineBytes && c <= left {
			g.prefixStart, g.suffixEnd = start, end
			left -= c
		} else {
			g.prefixCut, g.suffixCut = g.cursor > start, g.cursor < end
		}
	}
	if left = g.growCuts(left); left <= 0 {
		return
	}
	cl := doc.LineOf(g.cursor)
	upAt, upCost, downAt, downCost := -1, 0, -1, 0 // the next lines' costs, kept while they wait
	for left > 0 {
		up, down := g.nextAbove(), g.nextBelow()
		if up >= 0 && up != upAt {
			upAt, upCost = up, 0
			if !g.elided(doc.LineOf(up)) {
				upCost = cost(s[up:g.prefixStart], left)
			}
		}
		if down >= 0 && down != downAt {
			downAt, downCost = down, 0
			if !g.elided(doc.LineOf(down)) {
				downCost = cost(s[g.suffixEnd:down], left)
			}
		}
		upOK := up >= 0 && upCost <= left
		downOK := down >= 0 && downCost <= left
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
			left -= upCost
			g.prefixStart = up
		} else {
			left -= downCost
			g.suffixEnd = down
		}
	}
}

// growCuts grows the sides of the window that end inside a line within
// that line, by at most left (in thousandths of a token), three quarters
// before the cursor and the rest after, either side giving the other what
// it cannot use. A side that reaches its line's end is no longer cut. It
// returns what is left.
func (g *gatherer) growCuts(left int) int {
	if !g.prefixCut && !g.suffixCut {
		return left
	}
	doc, s := g.doc, g.doc.String()
	lineStart, lineEnd := doc.LineStart(doc.LineOf(g.prefixStart)), doc.LineEnd(doc.LineOf(g.suffixEnd))
	before, after := "", ""
	if g.prefixCut {
		before = s[lineStart:g.prefixStart]
	}
	if g.suffixCut {
		// A side may end between a line's "\r" and "\n", past where
		// LineEnd puts the line's end: nothing of it is left to take.
		after = s[g.suffixEnd:max(lineEnd, g.suffixEnd)]
	}
	from, to := g.prefixStart-len(before), g.suffixEnd+len(after)
	start, cb := tailWithin(s, from, g.prefixStart, left*3/4)
	end, ca := headWithin(s, g.suffixEnd, to, left-cb)
	if end == to {
		start, cb = tailWithin(s, from, g.prefixStart, left-ca)
	}
	g.prefixStart, g.suffixEnd = start, end
	g.prefixCut = g.prefixCut && start > lineStart
	g.suffixCut = g.suffixCut && end < lineEnd
	return left - cb - ca
}

// tailWithin returns where the longest run of whole characters ending at
// to (and starting at from or later) begins whose cost is at most limit,
// and its cost; to when none fits. A run fit measured may start inside a
// character, and the whole characters left when its first bytes are
// dropped can cost more (bytes that began a word swallowing the digits
// after it leave a number, dearer a byte): what is taken is measured
// again, and cut again while it does not fit.
func tailWithin(s string, from, to, limit int) (int, int) {
	for try := 0; try < 4 && from < to; try++ {
		n, _ := fitTail(s[from:to], limit)
		start := runeStart(s, to-n, to)
		if c := cost(s[start:to], limit); c <= limit {
			return start, c
		}
		from = start
	}
	return to, 0
}

// headWithin is tailWithin for the run of whole characters starting at
// from and ending at to or before: it returns where it ends, and its cost.
func headWithin(s string, from, to, limit int) (int, int) {
	for try := 0; try < 4 && from < to; try++ {
		n, _ := fitHead(s[from:to], limit)
		end := runeEnd(s, from+n, from)
		if c := cost(s[from:end], limit); c <= limit {
			return end, c
		}
		to = end
	}
	return from, 0
}

// fitTail returns how many of s's last bytes fit within limit, and their
// cost; fitHead the same for s's first bytes. They search by halving, each
// probe reading at most what limit allows.
func fitTail(s string, limit int) (n, c int) {
	return fit(len(s), limit, func(n int) int { return cost(s[len(s)-n:], limit) })
}

func fitHead(s string, limit int) (n, c int) {
	return fit(len(s), limit, func(n int) int { return cost(s[:n], limit) })
}

// fit returns the largest n <= size with costOf(n) <= limit, and that
// cost.
func fit(size, limit int, costOf func(n int) int) (n, c int) {
	if limit <= 0 || size == 0 {
		return 0, 0
	}
	if c := costOf(size); c <= limit {
		return size, c
	}
	lo, hi := 0, size // costOf(lo) <= limit < costOf(hi)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if costOf(mid) <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, costOf(lo)
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

// cutLines spends what is left (in thousandths of a token) on the tail of
// the line above the window, else on the head of the line below; that
// side then ends inside its line.
func (g *gatherer) cutLines(left int) {
	s := g.doc.String()
	if up := g.nextAbove(); up >= 0 {
		if start, _ := tailWithin(s, up, g.prefixStart, left); start < g.prefixStart {
			g.prefixStart, g.prefixCut = start, true
			return
		}
	}
	if down := g.nextBelow(); down >= 0 {
		if end, _ := headWithin(s, g.suffixEnd, down, left); end > g.suffixEnd {
			g.suffixEnd, g.suffixCut = end, true
		}
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
