package shape

import (
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Fit turns the model's raw reply for the completion at cursor into the
// text to insert there. plan must come from Decide for the same doc and
// cursor; tree may be nil. ok is false when nothing worth showing is left:
// the reply was empty or whitespace, only repeated what is already there,
// or only repeated the line above.
//
// Fit never returns text that duplicates what follows the cursor: a tail
// equal to the rest of the line is dropped, and so is everything from the
// point where the reply starts repeating the next lines. Brackets and
// quotes are balanced against the suffix (closers the suffix provides are
// dropped), a multi-line reply is re-indented to the file's style and the
// cursor's level and ends at the enclosing block's end, and line breaks
// follow the file's (CRLF files get CRLF).
func Fit(doc *text.Text, tree *syntax.Tree, cursor int, plan Plan, raw string) (insert string, ok bool) {
	return fit(doc, tree, cursor, plan, raw, false)
}

// FitPartial is Fit for the part of a reply streamed so far: it adds
// nothing the model has not written (no closing brackets, quotes or block
// closer, which the rest of the reply usually brings, a little further
// on). Its first line shows as it streams, open brackets and all; further
// lines show once what they open is closed. What it returns is shown
// while the reply streams: it does not vanish when a bracket opens, nor
// show a brace under a line the model is still writing.
func FitPartial(doc *text.Text, tree *syntax.Tree, cursor int, plan Plan, raw string) (insert string, ok bool) {
	return fit(doc, tree, cursor, plan, raw, true)
}

func fit(doc *text.Text, tree *syntax.Tree, cursor int, plan Plan, raw string, partial bool) (insert string, ok bool) {
	cursor = max(0, min(cursor, doc.Len()))
	st := newSite(doc, tree, cursor, plan.Language)
	s := strings.ReplaceAll(raw, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if !plan.Multiline {
		s, _, _ = strings.Cut(s, "\n")
	} else {
		s = firstLines(s, plan.MaxLines+1)
	}
	blank := strings.TrimSpace(st.before) == ""
	if !blank && strings.ContainsAny(st.before[len(st.before)-1:], " \t") {
		// The document already has the separating space.
		s = strings.TrimLeft(s, " \t")
	}

	s = st.stripRest(s)
	s = st.balance(s, plan.Multiline, partial)
	if plan.Multiline {
		prev, _ := neighbours(doc, st.line)
		s = reindent(s, st.before, prev, plan)
		if st.d.IndentBlocks {
			s = cutDedent(s, plan.Indent)
		}
		s = strings.TrimRight(s, " \t\n")
		s = cutRepeats(s, nextLines(doc, st.line, 3), blank)
	}
	s = st.stripRest(s)
	if strings.TrimSpace(s) == "" || st.repeatsLineAbove(s, blank) {
		return "", false
	}
	if plan.Multiline || strings.TrimSpace(st.rest) == "" || strings.HasPrefix(st.rest, " ") {
		s = strings.TrimRight(s, " \t")
	}
	if partial {
		if plan.CRLF {
			s = strings.ReplaceAll(s, "\n", "\r\n")
		}
		return s, true
	}
	if plan.Reason == "new block" && !st.d.IndentBlocks {
		s = closeBlock(s, doc, st, plan)
	}
	if plan.Multiline && strings.Contains(s, "\n") && strings.TrimSpace(st.rest) != "" {
		// The line's closing brackets follow the block on a line of
		// their own, at the opener's indentation.
		s += "\n" + leadingSpace(st.before+st.rest)
	}
	if plan.CRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s, true
}

// Settled reports whether raw, a reply streamed so far, already holds all
// of the reply that Fit reads for plan: the first line of a single-line
// plan, the first MaxLines+1 lines of a multi-line one. From then on, Fit
// of raw and of any longer reply starting with raw are the same: what the
// model writes after cannot change what is shown.
func Settled(plan Plan, raw string) bool {
	if !plan.Multiline {
		return strings.Contains(raw, "\n")
	}
	return strings.Count(raw, "\n") > plan.MaxLines
}

// firstLines returns s cut to at most n lines.
func firstLines(s string, n int) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			if n--; n == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// nextLines returns up to n non-blank lines after line, trimmed.
func nextLines(doc *text.Text, line, n int) []string {
	var out []string
	for l := line + 1; l < doc.LineCount() && len(out) < n && l-line <= 50; l++ {
		if t := strings.TrimSpace(doc.Line(l)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// trivial reports whether a trimmed line carries no word: brackets,
// punctuation or nothing. Such lines legitimately repeat.
func trivial(t string) bool {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80 {
			return false
		}
	}
	return true
}

// cutRepeats cuts s where it starts repeating next, the document's next
// non-blank lines, or repeats its own previous line. fromFirst says the
// reply's first line is a whole line (the cursor's line was blank).
func cutRepeats(s string, next []string, fromFirst bool) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if (i == 0 && !fromFirst) || trivial(t) {
			continue
		}
		if len(next) > 0 && t == next[0] {
			return strings.Join(lines[:i], "\n")
		}
		if i > 0 && t == strings.TrimSpace(lines[i-1]) {
			return strings.Join(lines[:i], "\n")
		}
	}
	return s
}

// repeatsLineAbove reports whether the completed text's first line of
// code is a copy of the nearest non-blank line above it.
func (st site) repeatsLineAbove(s string, blank bool) bool {
	first, _, multi := strings.Cut(s, "\n")
	var line string
	above := st.line - 1
	switch {
	case !blank:
		line = st.before + first
		if !multi {
			line += st.rest
		}
	case strings.TrimSpace(first) != "":
		line = first
	default:
		// The reply opens a new line; compare its first line of code
		// with the cursor's own line.
		for _, l := range strings.Split(s, "\n")[1:] {
			if strings.TrimSpace(l) != "" {
				line = l
				break
			}
		}
		above = st.line
	}
	t := strings.TrimSpace(line)
	if trivial(t) {
		return false
	}
	for l := above; l >= 0 && st.line-l <= 50; l-- {
		if p := strings.TrimSpace(st.doc.Line(l)); p != "" {
			return p == t
		}
	}
	return false
}

// stripRest drops the tail of s's last line that repeats the start of the
// rest of the cursor's line: all of it, or a run of punctuation, and only
// when dropping it leaves no bracket of s's own unclosed.
func (st site) stripRest(s string) string {
	r := strings.TrimRight(st.rest, " \t")
	if r == "" {
		return s
	}
	open := st.ownOpen(s)
	for k := len(r); k > 0; k-- {
		tail := r[:k]
		if k < len(r) && !trivial(tail) {
			continue
		}
		if strings.HasSuffix(s, tail) {
			cut := s[:len(s)-len(tail)]
			if st.ownOpen(cut) <= open {
				return cut
			}
		}
	}
	return s
}

// ownOpen counts the brackets s opens and leaves open, lexing from the
// cursor's state.
func (st site) ownOpen(s string) int {
	lx := st.lx
	depth := 0
	for i := 0; i < len(s); {
		k, next := lx.step(s, i)
		switch k {
		case tokOpen:
			depth++
		case tokClose:
			depth = max(0, depth-1)
		}
		i = next
	}
	return depth
}

// closeBlock ends s, the body of a block the cursor's line opens with "{",
// with the block's closing brace at the opener's indentation when the
// document has none for it and s does not close it: the model stops at
// that brace (it is the plan's stop string), so without this a block typed
// without its closer would be accepted still open. A body cut short by
// plan.MaxLines, or ending with a block of its own still open (the first
// line of a loop too long to show), is left as it is.
func closeBlock(s string, doc *text.Text, st site, plan Plan) string {
	opener := strings.TrimRight(st.before, " \t")
	if !strings.HasSuffix(opener, "{") || strings.TrimSpace(st.rest) != "" || s == "" {
		return s
	}
	lines := strings.Split(s, "\n")
	if len(lines) >= plan.MaxLines || st.d.endsOpen(s) {
		return s
	}
	indent := leadingSpace(st.before)
	closer := indent + "}"
	last := lines[len(lines)-1]
	if strings.HasPrefix(last, closer) && len(leadingSpace(last)) == len(indent) {
		return s
	}
	for l := st.line + 1; l < doc.LineCount() && l-st.line <= 2000; l++ {
		t := strings.TrimRight(doc.Line(l), "\r")
		if strings.TrimSpace(t) == "" || len(leadingSpace(t)) > len(indent) {
			continue
		}
		if strings.HasPrefix(t, closer) && len(leadingSpace(t)) == len(indent) {
			return s // the document closes it
		}
		break
	}
	return s + "\n" + closer
}
