package shape

import (
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/lang"
)

// dialect is a language's row in the language table (comments, brackets,
// quotes, indentation) with what the lexer precomputes from it.
type dialect struct {
	*lang.Language
	// starts marks the bytes that may begin a bracket, a quote or a
	// comment in code; any other byte is plain code. Immutable.
	starts [256]bool
	// openers are the comment markers and quotes longer than one byte
	// ("//", "/*", `"""`), longest first. Immutable.
	openers []string
}

// dialects holds the dialect of every row, by name, and of lang.Plain
// under ""; immutable after initialisation.
var dialects = func() map[string]*dialect {
	m := map[string]*dialect{}
	for _, l := range append(lang.All(), lang.Plain) {
		d := &dialect{Language: l}
		for i := 0; i < len(l.Brackets); i++ {
			d.starts[l.Brackets[i]] = true
		}
		for _, q := range l.Quotes {
			d.starts[q[0]] = true
		}
		if l.LineComment != "" {
			d.starts[l.LineComment[0]] = true
		}
		if l.BlockComment[0] != "" {
			d.starts[l.BlockComment[0][0]] = true
		}
		for _, o := range append([]string{l.LineComment, l.BlockComment[0]}, l.Quotes...) {
			if len(o) > 1 {
				d.openers = append(d.openers, o)
			}
		}
		slices.SortStableFunc(d.openers, func(a, b string) int { return len(b) - len(a) })
		m[l.Name] = d
	}
	return m
}()

// dialectOf returns the dialect for a syntax language name; an unknown
// language gets lang.Plain's (C-like comments and quotes, four-space
// indents).
func dialectOf(name string) *dialect {
	if d, ok := dialects[name]; ok {
		return d
	}
	return dialects[""]
}

// mode is where the lexer stands: in code, a string or a comment.
type mode int

const (
	inCode mode = iota
	inString
	inLineComment
	inBlockComment
)

// lexer is a forgiving bracket and quote tracker. It does not tokenise a
// language; it only knows enough to keep brackets inside strings and
// comments from counting. The zero value (plus a dialect) starts in code.
type lexer struct {
	d    *dialect // never nil
	mode mode
	// quote is the delimiter that ends the current string; set only in
	// inString mode.
	quote string
	// pending, in code, is the start of a comment marker or quote that
	// the text scanned so far ends with ("/" of "//"): the next text
	// scanned from this state is read as following it, so a "/" before
	// the cursor and a "/" after it make a comment. The first step
	// clears it.
	pending string
}

// tokKind is what one lexer step found.
type tokKind int

const (
	tokOther      tokKind = iota
	tokOpen               // an opening bracket
	tokClose              // a closing bracket
	tokStringEnd          // the quote that closes a string
	tokCommentEnd         // the end of a block comment
)

// step consumes at least one byte of s at i and returns what it found and
// the index after it.
func (lx *lexer) step(s string, i int) (tokKind, int) {
	c := s[i]
	switch lx.mode {
	case inString:
		if c == '\\' {
			return tokOther, min(i+2, len(s))
		}
		if c == '\n' && len(lx.quote) == 1 && lx.quote != "`" {
			lx.mode = inCode // unterminated one-line string: forgive
			return tokOther, i + 1
		}
		if strings.HasPrefix(s[i:], lx.quote) {
			lx.mode = inCode
			return tokStringEnd, i + len(lx.quote)
		}
		return tokOther, i + 1
	case inLineComment:
		if c == '\n' {
			lx.mode = inCode
		}
		return tokOther, i + 1
	case inBlockComment:
		if end := lx.d.BlockComment[1]; strings.HasPrefix(s[i:], end) {
			lx.mode = inCode
			return tokCommentEnd, i + len(end)
		}
		return tokOther, i + 1
	}
	if p := lx.pending; p != "" {
		lx.pending = ""
		if next, ok := lx.finishOpener(p, s, i); ok {
			return tokOther, next
		}
	}
	if !lx.d.starts[c] {
		return tokOther, i + 1
	}
	if _, ok := lx.d.Closer(c); ok {
		return tokOpen, i + 1
	}
	if lx.d.IsCloser(c) {
		return tokClose, i + 1
	}
	if lc := lx.d.LineComment; lc != "" && strings.HasPrefix(s[i:], lc) {
		lx.mode = inLineComment
		return tokOther, i + len(lc)
	}
	if bc := lx.d.BlockComment[0]; bc != "" && strings.HasPrefix(s[i:], bc) {
		lx.mode = inBlockComment
		return tokOther, i + len(bc)
	}
	for _, q := range lx.d.Quotes {
		if !strings.HasPrefix(s[i:], q) {
			continue
		}
		if q == "'" && lx.d.Lifetimes && !charLiteral(s[i:]) {
			return tokOther, i + 1
		}
		lx.mode, lx.quote = inString, q
		return tokOther, i + len(q)
	}
	return tokOther, i + 1
}

// finishOpener reads s from i as the rest of a comment marker or quote
// that p, the end of the text before, begins, and returns the index after
// it; ok is false when s does not finish one.
func (lx *lexer) finishOpener(p, s string, i int) (next int, ok bool) {
	for _, o := range lx.d.openers {
		rest, found := strings.CutPrefix(o, p)
		if !found || rest == "" || !strings.HasPrefix(s[i:], rest) {
			continue
		}
		switch o {
		case lx.d.LineComment:
			lx.mode = inLineComment
		case lx.d.BlockComment[0]:
			lx.mode = inBlockComment
		default:
			lx.mode, lx.quote = inString, o
		}
		return i + len(rest), true
	}
	return i, false
}

// openerStart returns the longest end of s that begins one of d's
// multi-byte comment markers or quotes without being all of it; "" when
// s ends with none.
func (d *dialect) openerStart(s string) string {
	best := ""
	for _, o := range d.openers {
		for n := min(len(o)-1, len(s)); n > len(best); n-- {
			if strings.HasSuffix(s, o[:n]) {
				best = o[:n]
				break
			}
		}
	}
	return best
}

// charLiteral reports whether s, which starts with a quote, starts a Rust
// character literal ('x', '\n', '\u{..}') rather than a lifetime ('a).
func charLiteral(s string) bool {
	if len(s) >= 2 && s[1] == '\\' {
		return true
	}
	// One character (possibly multi-byte) and a closing quote.
	for j := 2; j < len(s) && j <= 5; j++ {
		if s[j] == '\'' {
			return true
		}
	}
	return false
}

// openStack scans s from a point known to be in code and returns the
// brackets still open at its end (outermost first), their offsets in s,
// and the lexer state there.
func openStack(d *dialect, s string) ([]byte, []int, lexer) {
	lx := lexer{d: d}
	var stack []byte
	var at []int
	code := 0 // where the code after the last string or comment begins
	for i := 0; i < len(s); {
		was := lx.mode
		k, next := lx.step(s, i)
		if was != inCode && lx.mode == inCode {
			code = next
		}
		switch k {
		case tokOpen:
			stack = append(stack, s[i])
			at = append(at, i)
		case tokClose:
			if n := len(stack); n > 0 && closerOf(d, stack[n-1]) == s[i] {
				stack, at = stack[:n-1], at[:n-1]
			}
		}
		i = next
	}
	if lx.mode == inCode {
		// A quote that just ended a string starts no other.
		lx.pending = d.openerStart(s[code:])
	}
	return stack, at, lx
}

// provided scans the text after the cursor, starting in lexer state lx,
// and returns the closing brackets it holds that close brackets opened
// before the cursor, in the order they appear (innermost first), at most
// want of them. closesString reports whether the text closes the string
// or block comment the cursor is in, on the cursor's line.
func provided(lx lexer, s string, want int) (closers []byte, offsets []int, closesString bool) {
	open := lx.mode == inString || lx.mode == inBlockComment
	depth := 0
	for i := 0; i < len(s) && (len(closers) < want || open); {
		if open && lx.mode == inCode {
			open = false // a one-line string left unterminated at the line end
		}
		k, next := lx.step(s, i)
		switch k {
		case tokStringEnd, tokCommentEnd:
			if open {
				closesString, open = true, false
			}
		case tokOpen:
			depth++
		case tokClose:
			if depth > 0 {
				depth--
			} else if len(closers) < want {
				closers = append(closers, s[i])
				offsets = append(offsets, i)
			}
		}
		i = next
	}
	return closers, offsets, closesString
}

// closerOf returns the bracket that closes open in d.
func closerOf(d *dialect, open byte) byte {
	c, _ := d.Closer(open)
	return c
}
