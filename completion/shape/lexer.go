package shape

import "strings"

// dialect is what the bracket lexer needs to know about a language.
type dialect struct {
	// hashComments: "#" starts a line comment (Python).
	hashComments bool
	// tripleQuotes: """ and ''' open multi-line strings (Python).
	tripleQuotes bool
	// lifetimes: a lone ' is a Rust lifetime, not a quote, unless it
	// closes a one-character literal.
	lifetimes bool
	// indentBlocks: blocks end by dedenting, not with a closing bracket.
	indentBlocks bool
	// unit is the indentation unit used when the file shows none.
	unit string
	// flatCases: a switch or select body's case labels sit at the
	// switch's own level (gofmt), not one deeper.
	flatCases bool
}

// dialectOf returns the dialect for a syntax language name ("" when the
// language is unknown: C-like comments and quotes, four-space indents).
func dialectOf(lang string) dialect {
	switch lang {
	case "go":
		return dialect{unit: "\t", flatCases: true}
	case "python":
		return dialect{hashComments: true, tripleQuotes: true, indentBlocks: true, unit: "    "}
	case "rust":
		return dialect{lifetimes: true, unit: "    "}
	case "typescript", "tsx", "javascript":
		return dialect{unit: "  "}
	}
	return dialect{unit: "    "}
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
	d    dialect
	mode mode
	// quote is the delimiter that ends the current string; set only in
	// inString mode.
	quote string
}

// tokKind is what one lexer step found.
type tokKind int

const (
	tokOther      tokKind = iota
	tokOpen               // ( [ {
	tokClose              // ) ] }
	tokStringEnd          // the quote that closes a string
	tokCommentEnd         // */ closing a block comment
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
		if c == '*' && i+1 < len(s) && s[i+1] == '/' {
			lx.mode = inCode
			return tokCommentEnd, i + 2
		}
		return tokOther, i + 1
	}
	switch c {
	case '(', '[', '{':
		return tokOpen, i + 1
	case ')', ']', '}':
		return tokClose, i + 1
	case '/':
		if i+1 < len(s) && s[i+1] == '/' {
			lx.mode = inLineComment
			return tokOther, i + 2
		}
		if i+1 < len(s) && s[i+1] == '*' {
			lx.mode = inBlockComment
			return tokOther, i + 2
		}
	case '#':
		if lx.d.hashComments {
			lx.mode = inLineComment
			return tokOther, i + 1
		}
	case '"', '\'', '`':
		if lx.d.tripleQuotes && i+2 < len(s) && s[i+1] == c && s[i+2] == c {
			lx.mode, lx.quote = inString, s[i:i+3]
			return tokOther, i + 3
		}
		if c == '\'' && lx.d.lifetimes && !charLiteral(s[i:]) {
			return tokOther, i + 1
		}
		lx.mode, lx.quote = inString, s[i:i+1]
		return tokOther, i + 1
	}
	return tokOther, i + 1
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

// closerOf returns the bracket that closes open.
func closerOf(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// openStack scans s from a point known to be in code and returns the
// brackets still open at its end (outermost first), their offsets in s,
// and the lexer state there.
func openStack(d dialect, s string) ([]byte, []int, lexer) {
	lx := lexer{d: d}
	var stack []byte
	var at []int
	for i := 0; i < len(s); {
		k, next := lx.step(s, i)
		switch k {
		case tokOpen:
			stack = append(stack, s[i])
			at = append(at, i)
		case tokClose:
			if n := len(stack); n > 0 && closerOf(stack[n-1]) == s[i] {
				stack, at = stack[:n-1], at[:n-1]
			}
		}
		i = next
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
