package gather

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// UsageFinder is a Resolver that also says which members the code near a
// file uses after a name (*workspace.Index implements it).
type UsageFinder interface {
	Uses(fromPath string, qualifiers []string, max int) map[string][]string
}

// Limits of the usage listing.
const (
	// maxQualifiers bounds the names whose uses are listed.
	maxQualifiers = 8
	// maxUses bounds the members listed for one name.
	maxUses = 10
	// maxClassUses bounds the members listed for self or this, read from
	// the class around the cursor. Measured with bench/context at 1,024
	// tokens: recall 0.819 with the files' uses of any self, 0.820 with
	// the class's ten, 0.822 with twenty (Python 0.785 -> 0.793), the
	// same with forty.
	maxClassUses = 20
	// maxClassScanBytes bounds how far before and after the cursor
	// classUses reads the class.
	maxClassScanBytes = 32 << 10
)

// uses returns, within tokens, one piece listing for the names used
// before a "." around the cursor (a receiver, a module) the members this
// file and the files related to it use after them, most used first,
// those the window shows left out: "// t. is followed by: Fatalf,
// Errorf, Run". It is the API a value is used with nearby, which the
// continuation often calls next, at a few tokens a name, for names whose
// definitions are outside the workspace (the standard library's) as
// well.
func (g *gatherer) uses(tokens int) []Piece {
	uf, ok := g.in.Workspace.(UsageFinder)
	if !ok || tokens <= 0 {
		return nil
	}
	qs := g.cursorNames().qualifiers
	if len(qs) == 0 {
		return nil
	}
	qs = qs[:min(maxQualifiers, len(qs))]
	found := uf.Uses(g.in.Path, qs, maxUses)
	for _, q := range qs {
		if q == "self" || q == "this" {
			// The object the method belongs to: its class's own uses,
			// not those of every class in the files around.
			if own := g.classUses(q); own != nil {
				found[q] = own
			}
		}
	}
	window := g.doc.String()[g.prefixStart:g.suffixEnd]
	comment := g.commentPrefix()
	// What the window does not show, by qualifier.
	unseen := map[string][]string{}
	var qualified []string
	for _, q := range qs {
		for _, m := range found[q] {
			if !containsWord(window, m) {
				unseen[q] = append(unseen[q], m)
				qualified = append(qualified, q+"."+m)
			}
		}
	}
	// A member of a module the workspace defines is shown by its
	// signature alone, what the model needs to call it, while signatures
	// fit in three quarters of the tokens; the others by name. No doc
	// line: the listing says what the code does with the member, and
	// without them more members fit (measured with bench/context at 1,024
	// tokens: recall 0.809 -> 0.811, other-file definitions 0.369 -> 0.370).
	var out []Piece
	defined := map[string]bool{}
	if len(qualified) > 0 {
		budget := tokens * 3 / 4
		for _, s := range g.in.Workspace.Resolve(g.in.Path, qualified, len(qualified)) {
			if s.Parent != "" || s.Signature == "" || defined[s.Name] {
				continue
			}
			p := newPiece("definition", definitionWhy(s), s.Path, s.Signature, g.placeOf(s))
			cost := p.Tokens
			if !slices.ContainsFunc(out, func(o Piece) bool { return o.Path == s.Path }) {
				cost += headerTokens + pathTokens(g.display(s.Path))
			}
			if cost > budget {
				continue
			}
			budget -= cost
			tokens -= cost
			defined[s.Name] = true
			out = append(out, p)
		}
	}
	var b strings.Builder
	var listed []string
	for _, q := range qs {
		var members []string
		for _, m := range unseen[q] {
			if !defined[m] {
				members = append(members, m)
			}
		}
		if len(members) == 0 {
			continue
		}
		line := comment + q + ". is followed by: " + strings.Join(members, ", ")
		if b.Len() > 0 {
			line = "\n" + line
		}
		if Estimate(b.String()+line) > tokens {
			break
		}
		b.WriteString(line)
		listed = append(listed, q)
	}
	if b.Len() == 0 {
		return out
	}
	return append(out, newPiece("uses", fmt.Sprintf("what %s and the files near it use after %s", filepath.Base(g.in.Path), strings.Join(listed, ", ")),
		g.in.Path, b.String(), syntax.Span{}))
}

// classUses returns the members the class around the cursor uses after
// q ("self", "this"), most used first, at most maxClassUses; nil outside
// a class.
func (g *gatherer) classUses(q string) []string {
	for _, sc := range g.scopes {
		if sc.Kind != syntax.KindClass {
			continue
		}
		// A class thousands of lines long is read near the cursor only:
		// this runs on every request.
		src := g.doc.String()
		start := max(0, min(sc.Span.Start, len(src)), g.cursor-maxClassScanBytes)
		end := max(0, min(sc.Span.End, len(src), g.cursor+maxClassScanBytes))
		count := map[string]int{}
		var order []string
		prefix := q + "."
		eachIdentifier(src[start:max(start, end)], g.commentPrefix() == "# ", nil, func(w string, _ int) {
			if m, ok := strings.CutPrefix(w, prefix); ok {
				if count[m] == 0 {
					order = append(order, m)
				}
				count[m]++
			}
		})
		slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
		return order[:min(len(order), maxClassUses)]
	}
	return nil
}
