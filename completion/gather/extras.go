package gather

import (
	"fmt"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Shares of the extras budget, in percent: imports may take at most
// importShare of it, signatures at most signatureShare of what is left
// after them, so recent edits elsewhere keep some room.
const (
	importShare    = 40
	signatureShare = 60
	// definitionShare of what imports leave goes to workspace
	// definitions, ahead of other buffers' signatures.
	definitionShare = 60
	// maxHeaderBytes bounds one enclosing header (long parameter lists).
	maxHeaderBytes = 400
	// recentContextLines are the lines kept either side of a recent edit;
	// maxRecentPerBuffer bounds the edits taken from one buffer.
	recentContextLines = 2
	maxRecentPerBuffer = 2
)

// extras chooses the pieces beyond the windows, most important first,
// within tokens.
func (g *gatherer) extras(tokens int) []Piece {
	var out []Piece
	take := func(p Piece) bool {
		if p.Text == "" || p.Tokens > tokens {
			return false
		}
		tokens -= p.Tokens
		out = append(out, p)
		return true
	}
	for _, p := range g.enclosing() {
		take(p)
	}
	if p, ok := g.imports(tokens * importShare / 100); ok {
		take(p)
	}
	for _, p := range g.definitions(tokens * definitionShare / 100) {
		take(p)
	}
	sigBudget := tokens * signatureShare / 100
	for _, p := range g.signatures() {
		if p.Tokens <= sigBudget && !coveredByDefinition(out, p) && take(p) {
			sigBudget -= p.Tokens
		}
	}
	for _, p := range g.recent(tokens) {
		take(p)
	}
	return out
}

// enclosing returns the headers of the functions and classes around the
// cursor that start before the prefix, outermost first.
func (g *gatherer) enclosing() []Piece {
	var out []Piece
	for i := len(g.scopes) - 1; i >= 0; i-- {
		s := g.scopes[i]
		if s.Header.Start >= g.prefixStart {
			continue
		}
		h := g.doc.String()[s.Header.Start:min(s.Header.End, g.prefixStart)]
		if len(h) > maxHeaderBytes {
			h = h[:maxHeaderBytes]
		}
		h = strings.TrimRight(h, " \t\r\n")
		why := fmt.Sprintf("%s %s encloses the cursor, from %s", s.Kind, nameOr(s.Name, "(anonymous)"), lineName(g.doc, s.Span.Start))
		out = append(out, newPiece("enclosing", why, g.in.Path, h, syntax.Span{Start: s.Header.Start, End: s.Header.Start + len(h)}))
	}
	return out
}

// imports returns the import section lying before the prefix, cut to
// whole lines within tokens.
func (g *gatherer) imports(tokens int) (Piece, bool) {
	var b strings.Builder
	first := -1
	for _, sp := range g.index.Imports {
		if sp.Start >= g.prefixStart {
			break
		}
		if first < 0 {
			first = sp.Start
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(g.doc.String()[sp.Start:min(sp.End, g.prefixStart)])
	}
	s := wholeLines(strings.TrimRight(b.String(), " \t\r\n"), bytesFor(tokens))
	if s == "" {
		return Piece{}, false
	}
	return newPiece("imports", "the file's imports, above the prefix", g.in.Path, s, syntax.Span{Start: first, End: first + len(s)}), true
}

// wholeLines returns the longest run of s's first lines within n bytes.
func wholeLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return s[:i]
	}
	return ""
}

// recent returns the recently edited regions of the other buffers, with a
// little context, at most maxRecentPerBuffer per buffer, as many as fit in
// tokens.
func (g *gatherer) recent(tokens int) []Piece {
	var out []Piece
	for _, b := range g.in.Others {
		for i, sp := range b.Recent {
			if i == maxRecentPerBuffer {
				break
			}
			start, end, ok := aroundLines(b.Text, sp, recentContextLines)
			if !ok || Estimate(b.Text.String()[start:end]) > tokens {
				continue
			}
			tokens -= Estimate(b.Text.String()[start:end])
			why := "edited recently, " + lineName(b.Text, sp.Start)
			if first, last := b.Text.LineOf(sp.Start), b.Text.LineOf(sp.End); last > first {
				why = fmt.Sprintf("edited recently, lines %d-%d", first+1, last+1)
			}
			out = append(out, newPiece("recent", why, b.Path, b.Text.String()[start:end], syntax.Span{Start: start, End: end}))
		}
	}
	return out
}

// aroundLines widens sp to whole lines plus n lines either side. ok is
// false when sp does not fit the text.
func aroundLines(t *text.Text, sp syntax.Span, n int) (start, end int, ok bool) {
	if sp.Start < 0 || sp.End > t.Len() || sp.Start > sp.End {
		return 0, 0, false
	}
	first := max(0, t.LineOf(sp.Start)-n)
	last := min(t.LineCount()-1, t.LineOf(sp.End)+n)
	return t.LineStart(first), t.LineEnd(last), true
}

func nameOr(name, def string) string {
	if name == "" {
		return def
	}
	return name
}
