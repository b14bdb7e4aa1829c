package main

import "strings"

// Byte classes of a source file, as the scorer sees them: identifiers are
// counted only in code, never in comments or string literals.
const (
	code byte = iota
	comment
	str
)

// classify returns, for each byte of src, whether it is code, comment or
// string literal in lang. It is a lexer, not a parser: good enough to keep
// comments and strings out of the identifier counts, and deliberately
// independent of wisp's own tree-sitter code so the benchmark cannot share
// its blind spots. Unterminated '…' and "…" strings end at the line's end.
func classify(lang, src string) []byte {
	m := make([]byte, len(src))
	mark := func(from, to int, c byte) int {
		to = min(to, len(src))
		for k := from; k < to; k++ {
			m[k] = c
		}
		return to
	}
	lineEnd := func(i int) int {
		for i < len(src) && src[i] != '\n' {
			i++
		}
		return i
	}
	// quoted ends a string opened at i by q, with backslash escapes.
	quoted := func(i int, q byte, multiline bool) int {
		j := i + 1
		for j < len(src) {
			switch c := src[j]; {
			case c == '\\':
				j += 2
				continue
			case c == q:
				return j + 1
			case c == '\n' && !multiline:
				return j
			}
			j++
		}
		return len(src)
	}
	blockEnd := func(i int, nested bool) int {
		depth := 0
		for j := i; j+1 < len(src); j++ {
			switch {
			case src[j] == '/' && src[j+1] == '*':
				depth++
				j++
			case src[j] == '*' && src[j+1] == '/':
				depth--
				j++
				if depth == 0 || !nested {
					return j + 1
				}
			}
		}
		return len(src)
	}
	hashComments := lang == "python"
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case hashComments && c == '#':
			i = mark(i, lineEnd(i), comment)
		case !hashComments && c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = mark(i, lineEnd(i), comment)
		case !hashComments && c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = mark(i, blockEnd(i, lang == "rust"), comment)
		case lang == "python" && (c == '"' || c == '\''):
			end := 0
			if i+2 < len(src) && src[i+1] == c && src[i+2] == c {
				end = tripleEnd(src, i, c)
			} else {
				end = quoted(i, c, false)
			}
			i = mark(i, end, str)
		case lang == "go" && c == '`':
			j := i + 1
			for j < len(src) && src[j] != '`' {
				j++
			}
			i = mark(i, j+1, str)
		case (lang == "typescript" || lang == "javascript") && c == '`':
			i = mark(i, quoted(i, '`', true), str)
		case lang == "rust" && c == 'r' && i+1 < len(src) && (src[i+1] == '#' || src[i+1] == '"') && (i == 0 || !isIdent(src[i-1])):
			i = mark(i, rawEnd(src, i), str)
		case lang == "rust" && c == '\'':
			// A char literal ('a', '\n', '\u{1F}'); otherwise a lifetime.
			if end, ok := rustChar(src, i); ok {
				i = mark(i, end, str)
			} else {
				i++
			}
		case c == '"' || c == '\'':
			i = mark(i, quoted(i, c, lang == "rust" && c == '"'), str)
		case isIdent(c):
			// Skip the whole word so a quote after it is seen at the
			// right place; a string prefix is part of its string.
			j := i
			for j < len(src) && isIdent(src[j]) {
				j++
			}
			quote := j < len(src) && (src[j] == '"' || src[j] == '\'')
			if quote && (lang == "python" && j-i <= 2 && strings.Trim(src[i:j], "rRbBuUfF") == "" || lang == "rust" && src[i:j] == "b") {
				mark(i, j, str) // a string prefix: f"…", rb'…', Rust's b'…'
			}
			i = j
		default:
			i++
		}
	}
	return m
}

// tripleEnd ends a Python triple-quoted string opened at i.
func tripleEnd(src string, i int, q byte) int {
	for j := i + 3; j+2 < len(src); j++ {
		if src[j] == '\\' {
			j++
			continue
		}
		if src[j] == q && src[j+1] == q && src[j+2] == q {
			return j + 3
		}
	}
	return len(src)
}

// rawEnd ends a Rust raw string r#"…"# opened at i.
func rawEnd(src string, i int) int {
	j := i + 1
	hashes := 0
	for j < len(src) && src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return j
	}
	for j++; j < len(src); j++ {
		if src[j] != '"' {
			continue
		}
		k := 0
		for k < hashes && j+1+k < len(src) && src[j+1+k] == '#' {
			k++
		}
		if k == hashes {
			return j + 1 + k
		}
	}
	return len(src)
}

// rustChar reports whether a char literal starts at i, and where it ends.
func rustChar(src string, i int) (int, bool) {
	j := i + 1
	if j >= len(src) {
		return 0, false
	}
	if src[j] == '\\' {
		for k := j + 1; k < len(src) && k < j+12; k++ {
			if src[k] == '\'' {
				return k + 1, true
			}
			if src[k] == '\n' {
				break
			}
		}
		return 0, false
	}
	// One UTF-8 character then a quote.
	k := j + 1
	for k < len(src) && src[k]&0xC0 == 0x80 {
		k++
	}
	if k < len(src) && src[k] == '\'' {
		return k + 1, true
	}
	return 0, false
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// word is one identifier occurrence.
type word struct {
	name       string
	start, end int
}

// words returns the identifiers of src[from:to] that lie in code according
// to mask (nil mask: every word). A word straddling from or to is cut.
func words(src string, mask []byte, from, to int) []word {
	var ws []word
	for i := from; i < to; {
		if !isIdent(src[i]) || (mask != nil && mask[i] != code) {
			i++
			continue
		}
		j := i
		for j < to && isIdent(src[j]) && (mask == nil || mask[j] == code) {
			j++
		}
		if !isDigit(src[i]) {
			ws = append(ws, word{src[i:j], i, j})
		}
		i = j
	}
	return ws
}
