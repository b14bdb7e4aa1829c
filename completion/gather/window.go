package gather

import (
	"fmt"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// prefixWindow returns where a prefix of at most tokens should start. The
// start is snapped to the start of a top-level definition (with the
// comment lines above it) when that wastes less than half the window,
// else to the next line start; the cursor's own line is always whole.
func (g *gatherer) prefixWindow(tokens int) int {
	lo := g.cursor - bytesFor(tokens)
	if lo <= 0 {
		return 0
	}
	line := g.doc.LineOf(lo)
	start := g.doc.LineStart(line)
	if start < lo {
		start = g.doc.LineStart(min(line+1, g.doc.LineOf(g.cursor)))
	}
	if start > g.cursor {
		start = g.doc.LineStart(g.doc.LineOf(g.cursor))
	}
	if def, ok := g.firstTopLevel(lo); ok && def-lo < (g.cursor-lo)/2 {
		return withComments(g.doc, def, lo)
	}
	return start
}

// firstTopLevel returns the start of the first top-level definition that
// starts in [lo, cursor].
func (g *gatherer) firstTopLevel(lo int) (int, bool) {
	for _, d := range g.index.Defs {
		if d.Span.Start >= lo && d.Span.Start <= g.cursor && atColumnZero(g.doc, d.Span.Start) {
			return d.Span.Start, true
		}
		if d.Span.Start > g.cursor {
			break
		}
	}
	return 0, false
}

// withComments extends a definition starting at off upwards over the
// comment lines right above it, not past lo.
func withComments(doc *text.Text, off, lo int) int {
	for l := doc.LineOf(off) - 1; l >= 0 && doc.LineStart(l) >= lo; l-- {
		if !isComment(doc.Line(l)) {
			break
		}
		off = doc.LineStart(l)
	}
	return off
}

// isComment reports whether a line is a comment line in any supported
// language.
func isComment(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"//", "#", "/*", "*", "--"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func atColumnZero(doc *text.Text, off int) bool {
	return doc.LineStart(doc.LineOf(off)) == off
}

// suffixWindow returns where a suffix of at most tokens should end: at the
// end of the innermost enclosing function or class when that fits, else at
// the last line end that fits (at least the cursor's line, cut at the
// budget when that line alone is too long).
func (g *gatherer) suffixWindow(tokens int) int {
	hi := min(g.doc.Len(), g.cursor+bytesFor(tokens))
	for _, s := range g.scopes {
		if s.Kind != syntax.KindBlock && s.Span.End <= hi && s.Span.End >= g.cursor {
			return g.doc.LineEnd(g.doc.LineOf(s.Span.End))
		}
	}
	if hi == g.doc.Len() {
		return hi
	}
	line := g.doc.LineOf(hi)
	end := g.doc.LineEnd(line)
	if end > hi {
		end = g.doc.LineEnd(max(0, line-1))
	}
	if end < g.cursor {
		end = min(g.doc.LineEnd(g.doc.LineOf(g.cursor)), hi)
	}
	return max(end, g.cursor)
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
