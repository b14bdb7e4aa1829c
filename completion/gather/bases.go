package gather

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// Class headers, as they name what the class implements or extends.
var (
	// Rust: "impl<T> fmt::Display for Point<T>" names Display.
	rustImplTrait = regexp.MustCompile(`^\s*(?:unsafe\s+)?impl\b(?:\s*<[^{]*?>)?\s+(?:[\w]+::)*(\w+)\s*(?:<[^{]*>)?\s+for\s`)
	// Python: "class Loop(events.AbstractEventLoop, Mixin):".
	pyClassBases = regexp.MustCompile(`^\s*class\s+\w+\s*\(([^)]*)\)`)
	// TypeScript, JavaScript: "class A extends B implements C, D {" is
	// split at its keywords.
	jsClassBases  = regexp.MustCompile(`\b(?:extends|implements)\b`)
	qualifiedName = regexp.MustCompile(`(?:[\w$]+\.)*([\w$]+)`)
)

// maxBaseMembers bounds the members of one base the listing reads.
const maxBaseMembers = 60

// bases returns, within tokens, for the class or Rust impl around the
// cursor, one piece naming the members of what it implements or extends
// (a trait, an interface, a base class) that the class does not define
// and the window does not show: what the class is still to implement
// or may call.
func (g *gatherer) bases(tokens int) []Piece {
	mr, ok := g.in.Workspace.(MemberResolver)
	if !ok || tokens <= 0 || g.lang == nil {
		return nil
	}
	for _, sc := range g.scopes {
		if sc.Kind != syntax.KindClass {
			continue
		}
		src := g.doc.String()
		header := src[max(0, min(sc.Header.Start, len(src))):max(0, min(sc.Header.End, len(src)))]
		body := src[max(0, min(sc.Span.Start, len(src))):max(0, min(sc.Span.End, len(src)))]
		window := src[g.prefixStart:g.suffixEnd]
		var lines []string
		comment := g.commentPrefix()
		sigTokens := tokens / 2 // signatures while they fit in half, then names
		for _, base := range baseNames(g.lang.Name, header) {
			head := comment + base + " members not defined here:"
			sigTokens -= Estimate(head) + 1
			var sigs, names []string
			for _, m := range mr.Members(g.in.Path, base, maxBaseMembers) {
				if containsWord(body, m.Name) || containsWord(window, m.Name) || slices.Contains(names, m.Name) || slices.Contains(sigs, m.Signature) {
					continue
				}
				if c := Estimate(m.Signature) + 1; len(names) == 0 && m.Signature != "" && c <= sigTokens {
					sigTokens -= c
					sigs = append(sigs, m.Signature)
					continue
				}
				names = append(names, m.Name)
			}
			if len(sigs)+len(names) == 0 {
				continue
			}
			lines = append(lines, head)
			lines = append(lines, sigs...)
			if len(names) > 0 {
				lines = append(lines, comment+"also: "+strings.Join(names, ", "))
			}
		}
		text := linesWithin(strings.Join(lines, "\n"), tokens)
		if text == "" {
			return nil
		}
		return []Piece{newPiece("expected", fmt.Sprintf("members of what %s implements or extends", nameOr(sc.Name, "the class")), g.in.Path, text, syntax.Span{})}
	}
	return nil
}

// baseNames returns the names of what a class header of lang implements
// or extends, without their qualifiers or type arguments.
func baseNames(lang, header string) []string {
	var list string
	switch lang {
	case "rust":
		if m := rustImplTrait.FindStringSubmatch(header); m != nil {
			return []string{m[1]}
		}
		return nil
	case "python":
		if m := pyClassBases.FindStringSubmatch(header); m != nil {
			list = m[1]
		}
	case "typescript", "javascript", "tsx":
		header, _, _ = strings.Cut(header, "{")
		if parts := jsClassBases.Split(header, -1); len(parts) > 1 {
			list = strings.Join(parts[1:], ",")
		}
	}
	var out []string
	depth := 0
	for _, part := range strings.FieldsFunc(list, func(r rune) bool {
		switch r {
		case '<', '[':
			depth++
		case '>', ']':
			depth--
		}
		return r == ',' && depth == 0
	}) {
		part = strings.TrimSpace(part)
		if strings.Contains(part, "=") {
			continue // Python's metaclass=…
		}
		if i := strings.IndexAny(part, "<["); i >= 0 {
			part = part[:i] // type arguments
		}
		if m := qualifiedName.FindStringSubmatch(part); m != nil && m[0] == strings.TrimSpace(part) && m[1] != "object" {
			out = append(out, m[1])
		}
	}
	return out
}
