package lsp

import (
	"regexp"
	"strings"

	"github.com/wisp-lsp/wisp/lang"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// The function-level quick edits are offered where they have something to
// do: a doc comment for a definition without one, a body for one that is
// empty or a placeholder. Offered everywhere, they only answered "the
// quick edit changed nothing".

// documented reports whether the definition sc has a doc comment: a
// comment line right above it (past attribute and decorator lines), or,
// in Python, a string opening its body.
func documented(t *text.Text, sc syntax.Scope, l *lang.Language) bool {
	line := t.LineOf(sc.Span.Start)
	for above := line - 1; above >= 0; above-- {
		s := strings.TrimSpace(t.Line(above))
		switch {
		case strings.HasPrefix(s, "@") || strings.HasPrefix(s, "#["):
			continue // a decorator or an attribute: the comment is above it
		case s == "":
			return false
		}
		return isCommentLine(s, l)
	}
	if l != nil && l.Name == "python" {
		body := t.String()[min(sc.Header.End, t.Len()):min(sc.Span.End, t.Len())]
		// A string literal, prefixed (r, u, b, f…) or not: a docstring.
		first := strings.TrimLeft(strings.TrimSpace(body), "rRuUbBfF")
		return strings.HasPrefix(first, `"`) || strings.HasPrefix(first, `'`)
	}
	return false
}

// isCommentLine reports whether the trimmed line s is (part of) a comment:
// a line comment, or a line of a block comment ("/*", "* text", "*/").
// A statement that starts with "*" ("*p = v") is not.
func isCommentLine(s string, l *lang.Language) bool {
	return l.IsLineComment(s) || strings.HasPrefix(s, "/*") || s == "*" || strings.HasPrefix(s, "* ") || strings.HasSuffix(s, "*/")
}

// placeholder matches a statement that stands for code not written yet.
var placeholder = regexp.MustCompile(`^(pass|\.\.\.|todo!\(.*\)|unimplemented!\(.*\)|panic\("(?i:todo|not implemented|unimplemented)[^"]*"\)|throw new Error\(["'](?i:todo|not implemented)[^"']*["']\);?|raise NotImplementedError(\(.*\))?)$`)

// unfinished reports whether sc's body holds no code yet: nothing but
// brackets, comments, blank lines and placeholders (pass, ..., todo!(),
// panic("TODO"), raise NotImplementedError), or a TODO comment.
func unfinished(t *text.Text, sc syntax.Scope, l *lang.Language) bool {
	if sc.Body == (syntax.Span{}) {
		return true
	}
	body := t.String()[min(sc.Body.Start, t.Len()):min(sc.Body.End, t.Len())]
	for _, line := range strings.Split(body, "\n") {
		s := strings.Trim(strings.TrimSpace(line), "{}:")
		s = strings.TrimSpace(s)
		switch {
		case s == "":
		case isCommentLine(s, l):
			if strings.Contains(strings.ToUpper(s), "TODO") {
				return true
			}
		case placeholder.MatchString(s):
		default:
			return false
		}
	}
	return true
}
