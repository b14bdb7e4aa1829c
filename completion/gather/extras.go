package gather

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// Shares of the extras budget, in percent, each of what is left after
// the pieces before it: imports may take at most importShare, recent
// edits recentShare, the files not yet named moduleShare, what other
// files expect of this one expectedShare (and so may the members the
// class around the cursor inherits and does not define: Rust 0.781 ->
// 0.784), the members used after the names near the cursor usesShare,
// workspace definitions definitionShare, code like the cursor's from
// related files similarShare (all that is left: measured with
// bench/context at 1,024 tokens, recall and definition presence both
// fall when similar code gets less, 0.810 and 0.466 at 80% against 0.800
// and 0.447 at 40%, and both rise at 100%, to 0.812 and 0.476, since
// similar code of related files shows their definitions in use); then
// come the declaration of the type the cursor's method belongs to and
// the signatures of what the code near the cursor uses, and the file's
// other signatures (its outline) may take outlineShare of what remains.
// usesShare was 30 until the listing took the names not yet used with a
// "." and the module's other importers: then 45 measured recall 0.836 ->
// 0.837 and other-file definitions 0.509 -> 0.515 (the listing shows a
// workspace module's members by signature), 60 0.838 and 0.505.
const (
	importShare     = 40
	recentShare     = 30
	definitionShare = 60
	usesShare       = 45
	// moduleShare bounds the listing of the files not yet named, among
	// re-exports and module declarations. Measured with bench/context at
	// 1,024 tokens: recall 0.840 at 25%, 0.841 at 40%, 0.838 at 60%.
	moduleShare = 40
	// expectedShare bounds the names other files take from this one and
	// it does not define. Measured with bench/context at 1,024 tokens:
	// recall 0.841 -> 0.850 (TypeScript 0.847 -> 0.880), the same at 8%
	// and 25%: the list is short, and empty for a file that defines all
	// that is asked of it.
	expectedShare = 15
	similarShare  = 100
	outlineShare  = 50
	// maxHeaderBytes bounds one enclosing header (long parameter lists).
	maxHeaderBytes = 400
	// maxRecentEdits bounds the recent edits shown.
	maxRecentEdits = 4
)

// extras chooses the pieces beyond the window, within tokens.
func (g *gatherer) extras(tokens int) []Piece {
	var out []Piece
	// key names what a piece shows: a recent edit, or the code starting
	// at an offset of a file (a signature and a type declaration of one
	// definition are the same thing twice); a piece with no place in a
	// buffer (a workspace definition, similar code) is named by its text.
	type key struct {
		recent bool
		path   string
		start  int
		text   string
	}
	seen := make(map[key]bool)
	headed := make(map[string]bool) // files whose snippet header is paid for
	take := func(ps []Piece, limit int) {
		for _, p := range ps {
			k := key{p.Kind == "recent", p.Path, p.span.Start, ""}
			if !p.placed() {
				k.text = p.Text
			}
			cost := p.Tokens
			if !headed[p.Path] {
				cost += headerTokens + pathTokens(g.display(p.Path))
			}
			if p.Text == "" || cost > tokens || cost > limit || seen[k] || p.Kind == "signature" && coveredByDefinition(out, p) {
				continue
			}
			seen[k] = true
			headed[p.Path] = true
			tokens -= cost
			limit -= cost
			out = append(out, p)
		}
	}
	if tokens <= 0 {
		return nil
	}
	take(g.enclosing(), tokens)
	if p, ok := g.imports(tokens * importShare / 100); ok {
		take([]Piece{p}, tokens)
	}
	take(g.recent(), tokens*recentShare/100)
	take(g.modules(tokens*moduleShare/100), tokens*moduleShare/100)
	take(g.expected(tokens*expectedShare/100), tokens*expectedShare/100)
	take(g.bases(tokens*expectedShare/100), tokens*expectedShare/100)
	// The members listing comes before the definitions: a name a line
	// costs little, and the continuation often calls the next member of
	// what it just used. The definitions are chosen after it, with the
	// tokens it leaves: chosen before, the last of them found no room
	// and were left out (measured with bench/context at 1,024 tokens:
	// recall 0.829 -> 0.830, other-file definitions 0.508 -> 0.514).
	take(g.uses(tokens*usesShare/100), tokens*usesShare/100)
	take(g.definitions(tokens*definitionShare/100), tokens*definitionShare/100)
	take(g.similar(tokens*similarShare/100), tokens*similarShare/100)
	take(g.typeOf(), tokens)
	take(g.signatures(), tokens)
	take(g.outline(tokens*outlineShare/100, func(sp syntax.Span) bool { return seen[key{false, g.in.Path, sp.Start, ""}] }), tokens)
	return out
}

// enclosing returns the headers of the functions and classes around the
// cursor that start before the window, outermost first.
func (g *gatherer) enclosing() []Piece {
	var out []Piece
	s := g.doc.String()
	for i := len(g.scopes) - 1; i >= 0; i-- {
		sc := g.scopes[i]
		start := max(0, min(sc.Header.Start, g.doc.Len()))
		if start >= g.prefixStart {
			continue
		}
		h := g.signatureAt(start)
		if h == "" {
			end := runeEnd(s, max(start, min(sc.Header.End, g.prefixStart, start+maxHeaderBytes)), start)
			h = strings.TrimRight(s[start:end], " \t\r\n")
		}
		why := fmt.Sprintf("%s %s encloses the cursor, from %s", sc.Kind, nameOr(sc.Name, "(anonymous)"), lineName(g.doc, start))
		out = append(out, newPiece("enclosing", why, g.in.Path, h, syntax.Span{Start: start, End: start + len(h)}))
	}
	return out
}

// signatureAt returns the signature of this file's definition starting
// at off, or "" when the index has none there. A header read from the
// text may run on over the comments above the body; the signature never
// does.
func (g *gatherer) signatureAt(off int) string {
	defs := g.index.Defs
	i, ok := slices.BinarySearchFunc(defs, off, func(d syntax.Definition, off int) int { return cmp.Compare(d.Span.Start, off) })
	for ; ok && i < len(defs) && defs[i].Span.Start == off; i++ {
		if defs[i].Signature != "" {
			return defs[i].Signature
		}
	}
	return ""
}

// imports returns the import section lying before the window, cut to
// whole lines within tokens.
func (g *gatherer) imports(tokens int) (Piece, bool) {
	var b strings.Builder
	first := -1
	s := g.doc.String()
	for _, sp := range g.index.Imports {
		start, end := max(0, min(sp.Start, g.doc.Len())), max(0, min(sp.End, g.prefixStart))
		if start >= g.prefixStart || end <= start {
			break
		}
		if first < 0 {
			first = start
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s[start:end])
	}
	text := linesWithin(strings.TrimRight(b.String(), " \t\r\n"), tokens)
	if text == "" {
		return Piece{}, false
	}
	return newPiece("imports", "the file's imports, above the window", g.in.Path, text, syntax.Span{Start: first, End: first + len(text)}), true
}

// linesWithin returns the longest run of s's first lines whose estimate
// is at most tokens.
func linesWithin(s string, tokens int) string {
	limit := tokens * milliPerToken
	if cost(s, limit) <= limit {
		return s
	}
	end, c := 0, 0
	for end < len(s) {
		next := len(s)
		if i := strings.IndexByte(s[end:], '\n'); i >= 0 {
			next = end + i + 1
		}
		if c += cost(s[end:next], limit); c > limit {
			break
		}
		end = next
	}
	return strings.TrimRight(s[:end], "\r\n")
}

// wholeLines returns the longest run of s's first lines within n bytes;
// "" when not even the first line fits (or n <= 0).
func wholeLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return s[:i]
	}
	return ""
}

func nameOr(name, def string) string {
	if name == "" {
		return def
	}
	return name
}
