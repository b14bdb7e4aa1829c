package gather

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/workspace"
)

// SimilarFinder is a Resolver that also finds code like the code at the
// cursor in the files related to it (*workspace.Index implements it).
type SimilarFinder interface {
	Similar(fromPath string, words []string, max int) []workspace.Snippet
}

// OwnSimilarFinder is a SimilarFinder that also finds code like the
// code at the cursor in the cursor's own file, outside lines [from, to]
// (*workspace.Index implements it).
type OwnSimilarFinder interface {
	SimilarWithin(path string, words []string, from, to, max int) []workspace.Snippet
}

// The workspace index serves every lookup the context builder makes.
var (
	_ Resolver         = (*workspace.Index)(nil)
	_ PrefixResolver   = (*workspace.Index)(nil)
	_ MemberResolver   = (*workspace.Index)(nil)
	_ SimilarFinder    = (*workspace.Index)(nil)
	_ OwnSimilarFinder = (*workspace.Index)(nil)
	_ ModuleResolver   = (*workspace.Index)(nil)
	_ UsageFinder      = (*workspace.Index)(nil)
	_ ModuleLister     = (*workspace.Index)(nil)
	_ ExpectFinder     = (*workspace.Index)(nil)
)

// Limits of the similar-code search.
const (
	// similarQueryLines are the lines around the cursor whose
	// identifiers the windows are compared with.
	similarQueryLines = 12
	// maxSimilar bounds the windows asked for.
	maxSimilar = 6
	// maxOwnSimilar bounds the windows of the cursor's own file. Measured
	// with bench/context at 1,024 tokens: one lifts recall from 0.814 to
	// 0.819 (presence 0.500 -> 0.499); two lift recall as much but take
	// the place of other files' code that shows definitions (presence
	// 0.491).
	maxOwnSimilar = 1
	// ownSimilarWeight discounts an own window's similarity against
	// other files' windows: the file's vocabulary is in the window
	// already, so the same likeness adds less. Measured as above: recall
	// 0.819 at 0.7, 0.85 and 1, presence 0.499, 0.498 and 0.495.
	ownSimilarWeight = 0.7
)

// similar returns, within tokens, windows of the files related to this
// one (its package, its imports, its folder) whose identifiers overlap
// those around the cursor the most, best first. Code that looks like the
// code being written (the sibling test, the other handler, the other
// call site) tends to hold what comes next.
func (g *gatherer) similar(tokens int) []Piece {
	sf, ok := g.in.Workspace.(SimilarFinder)
	if !ok || tokens <= 0 {
		return nil
	}
	var out []Piece
	for _, s := range g.similarSnippets(sf) {
		var span syntax.Span // none: another file's
		if sameFile(s.Path, g.in.Path) && s.Line < g.doc.LineCount() {
			// The file's own: dropped once the window shows it.
			start := g.doc.LineStart(s.Line)
			span = syntax.Span{Start: start, End: min(start+len(s.Text), g.doc.Len())}
		}
		p := newPiece("similar", fmt.Sprintf("code like the cursor's (similarity %.2f), %s line %d", s.Score, filepath.Base(s.Path), s.Line+1),
			s.Path, g.codeLines(s.Text), span)
		if p.Tokens > tokens {
			continue
		}
		tokens -= p.Tokens
		out = append(out, p)
	}
	return out
}

// codeLines returns s without its blank lines and the lines that are
// only a line comment of the buffer's language. Similar code is shown
// for the code: what it calls and how. Measured with bench/context at
// 1,024 tokens: recall 0.822 -> 0.824, definition presence 0.501 ->
// 0.504, the lines left out making room for more windows.
func (g *gatherer) codeLines(s string) string {
	if g.lang == nil || g.lang.LineComment == "" {
		return s
	}
	var kept []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && !g.lang.IsLineComment(l) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// similarSnippets returns the windows like the code at the cursor, best
// first, asking sf once per request.
func (g *gatherer) similarSnippets(sf SimilarFinder) []workspace.Snippet {
	if g.similarDone {
		return g.similarFound
	}
	g.similarDone = true
	var words []string
	for _, u := range identifiers(g.doc, g.cursor, similarQueryLines, g.keywords) {
		words = append(words, u.name)
	}
	g.similarFound = sf.Similar(g.in.Path, words, maxSimilar)
	if own, ok := sf.(OwnSimilarFinder); ok {
		// The file's own code, away from the window: the sibling
		// function, the other case, which the window does not reach.
		first, last := g.doc.LineOf(g.prefixStart), g.doc.LineOf(g.suffixEnd)
		for _, sn := range own.SimilarWithin(g.in.Path, words, first, last, maxOwnSimilar) {
			sn.Score *= ownSimilarWeight
			g.similarFound = append(g.similarFound, sn)
		}
		slices.SortStableFunc(g.similarFound, func(a, b workspace.Snippet) int { return cmp.Compare(b.Score, a.Score) })
	}
	return g.similarFound
}

// similarNames returns the identifiers of the best windows like the code
// at the cursor that the document does not use, in their order: what
// code like this calls that this file has not called yet, which the
// continuation may well call.
func (g *gatherer) similarNames(hash bool, modules map[string]bool) []string {
	sf, ok := g.in.Workspace.(SimilarFinder)
	if !ok {
		return nil
	}
	snippets := g.similarSnippets(sf)
	if len(snippets) > similarNameWindows {
		snippets = snippets[:similarNameWindows]
	}
	var words []string
	for _, sn := range snippets {
		if sn.Score < minNameSimilarity {
			break
		}
		for _, w := range orderedIdentifiers(sn.Text, hash, modules) {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	// Plain names are looked for in one pass; the few "q.name" forms as
	// they are written.
	src := g.doc.String()
	want := make(map[string]bool, len(words))
	for _, w := range words {
		if !strings.Contains(w, ".") {
			want[w] = true
		}
	}
	used := wordsIn(src, nil, want)
	return slices.DeleteFunc(words, func(w string) bool { return used[w] || !want[w] && containsWord(src, w) })
}

// similarNameWindows is how many of the best similar windows lend their
// names to the definition search.
const similarNameWindows = 2

// minNameSimilarity is the least similarity of a window whose names are
// looked up: a window that shares little with the cursor's code lends
// names it has no reason to use.
const minNameSimilarity = 0.15
