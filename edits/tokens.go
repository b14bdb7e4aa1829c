package edits

import (
	"unicode"
	"unicode/utf8"
)

// tokens splits s into the units Diff compares inside changed lines:
// identifier-like words (letters, digits, '_'), runs of spaces and tabs,
// line terminators ("\r\n" is one token), and single other characters. An
// invalid UTF-8 byte is a token of its own. offs holds each token's start
// plus a final len(s), so token i is s[offs[i]:offs[i+1]].
//
// Tokens end on character boundaries and never split "\r\n", so neither
// can an edit built from them.
func tokens(s string) (toks []string, offs []int) {
	toks = make([]string, 0, len(s)/3+1)
	offs = make([]int, 0, len(s)/3+2)
	for i := 0; i < len(s); {
		j := i + tokenLen(s[i:])
		toks = append(toks, s[i:j])
		offs = append(offs, i)
		i = j
	}
	return toks, append(offs, len(s))
}

// tokenLen returns the length in bytes of the token s starts with; s is not
// empty.
func tokenLen(s string) int {
	switch c := s[0]; {
	case c == '\r':
		if len(s) > 1 && s[1] == '\n' {
			return 2
		}
		return 1
	case c == ' ' || c == '\t':
		n := 1
		for n < len(s) && (s[n] == ' ' || s[n] == '\t') {
			n++
		}
		return n
	}
	r, size := utf8.DecodeRuneInString(s)
	if !isWord(r) || (r == utf8.RuneError && size == 1) {
		return size
	}
	n := size
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !isWord(r) || (r == utf8.RuneError && size == 1) {
			break
		}
		n += size
	}
	return n
}

// isWord reports whether r belongs in an identifier-like token.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
