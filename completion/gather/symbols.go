package gather

import (
	"fmt"
	"slices"
	"sort"

	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Limits of the signature search: identifiers are taken from the lines
// just above the cursor; a name defined several times contributes at most
// maxDefsPerName signatures.
const (
	usageLines      = 20
	usageLinesAfter = 5
	maxUsageBytes   = 4 << 10
	maxDefsPerName  = 2
)

// use is an identifier seen near the cursor.
type use struct {
	name string
	line int // 0-based line of its use nearest to the cursor
}

// signatures returns the signatures of symbols used near the cursor and
// defined outside the visible windows, in this buffer or another, most
// recently used first; for one name, this buffer's definitions come before
// others'.
func (g *gatherer) signatures() []Piece {
	uses := identifiers(g.doc, g.cursor, usageLines, g.keywords)
	if len(uses) == 0 {
		return nil
	}
	byName := make(map[string]int, len(uses)) // name → index in uses
	// maybe is a cheap pre-filter for byName: bit len%64 of
	// maybe[first byte] is set when some used name has that first byte
	// and length. Most definitions fail it without hashing their name.
	var maybe [256]uint64
	for i, u := range uses {
		byName[u.name] = i
		maybe[u.name[0]] |= 1 << (len(u.name) % 64)
	}
	// found[i] holds the pieces for uses[i].
	found := make([][]Piece, len(uses))
	add := func(b Buffer, defs []syntax.Definition, here bool) {
		for _, d := range defs {
			if d.Name == "" || maybe[d.Name[0]]&(1<<(len(d.Name)%64)) == 0 {
				continue
			}
			i, ok := byName[d.Name]
			if !ok || len(found[i]) >= maxDefsPerName || d.Signature == "" {
				continue
			}
			if here && d.Span.Start < g.suffixEnd && d.Span.End > g.prefixStart {
				continue // already in view, or the definition being written
			}
			why := fmt.Sprintf("defines %s, used at line %d", qualified(d), uses[i].line+1)
			if !here {
				why = fmt.Sprintf("defines %s (%s), used at line %d", qualified(d), lineName(b.Text, d.Span.Start), uses[i].line+1)
			}
			found[i] = append(found[i], newPiece("signature", why, b.Path, d.Signature, d.Span))
		}
	}
	if !g.plain {
		add(g.in.Buffer, g.index.Defs, true)
	}
	for _, b := range g.in.Others {
		add(b, indexOf(b).Defs, false)
	}
	var out []Piece
	for _, ps := range found {
		out = append(out, ps...)
	}
	return out
}

func qualified(d syntax.Definition) string {
	if d.Parent != "" {
		return d.Parent + "." + d.Name
	}
	return d.Name
}

// identifiers returns the identifiers in the n lines up to the cursor
// and the few lines after it (the code the continuation runs into),
// keywords (of the buffer's language) and one-letter names left out,
// nearest to the cursor's line first.
func identifiers(doc *text.Text, cursor, n int, keywords map[string]bool) []use {
	line := doc.LineOf(cursor)
	first := max(0, line-n)
	from := max(doc.LineStart(first), cursor-maxUsageBytes)
	to := min(doc.LineEnd(min(line+usageLinesAfter, doc.LineCount()-1)), cursor+maxUsageBytes)
	s := doc.String()[from:to]
	dist := func(l int) int {
		if l < line {
			return line - l
		}
		return l - line
	}
	nearest := make(map[string]int) // name → its line nearest to the cursor's
	l := doc.LineOf(from)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			l++
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			if w := s[i:j]; j-i > 1 && !keywords[w] {
				if prev, ok := nearest[w]; !ok || dist(l) <= dist(prev) {
					nearest[w] = l
				}
			}
			i = j
		case c >= '0' && c <= '9':
			for i < len(s) && isIdentPart(s[i]) {
				i++
			}
		default:
			i++
		}
	}
	uses := make([]use, 0, len(nearest))
	for w, l := range nearest {
		uses = append(uses, use{w, l})
	}
	sort.Slice(uses, func(i, j int) bool {
		if di, dj := dist(uses[i].line), dist(uses[j].line); di != dj {
			return di < dj
		}
		return uses[i].name < uses[j].name
	})
	return uses
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// keywordSets holds, for each language of the language table, its
// reserved words and predeclared names, never looked up as symbols; the
// nil key, for text of no known language, holds every language's. Each
// language has its own: Python's str, format and type, or Go's nil and
// close, are names a TypeScript or Rust program defines and uses.
var keywordSets = func() map[*lang.Language]map[string]bool {
	sets := map[*lang.Language]map[string]bool{nil: {}}
	for _, l := range lang.All() {
		set := make(map[string]bool)
		for _, w := range append(slices.Clip(l.Keywords), l.Predeclared...) {
			set[w] = true
			sets[nil][w] = true
		}
		sets[l] = set
	}
	return sets
}()

// languageOf returns the buffer's language: its tree's, else the one its
// language ID or path names; nil for text of no known language.
func languageOf(tree *syntax.Tree, languageID, path string) *lang.Language {
	if tree != nil {
		return tree.Language().Facts()
	}
	return lang.Detect(languageID, path)
}

// keywordsOf returns the words of language l that are never looked up as
// symbols; every language's for nil or a language not in the table.
func keywordsOf(l *lang.Language) map[string]bool {
	if set, ok := keywordSets[l]; ok {
		return set
	}
	return keywordSets[nil]
}
