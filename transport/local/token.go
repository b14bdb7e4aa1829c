package local

import "github.com/wisp-lsp/wisp/lang"

// Tokens are the unit the engine matches and predicts: identifiers and
// numbers (runs of word bytes), one token per line break, and single
// punctuation bytes. Horizontal whitespace is not a token: it is the gap
// before the next token, kept verbatim so copied text keeps its layout.
// The lexer is stateless, so tokenising from any token start yields the
// same tokens as tokenising from the start of the text.

type tokKind uint8

const (
	kindPunct tokKind = iota
	kindWord
	kindNum
	kindNewline
)

// nextToken returns the first token at or after pos; ok is false at the end
// of s.
func nextToken(s string, pos int) (start, end int, kind tokKind, ok bool) {
	for pos < len(s) && isSpace(s[pos]) {
		pos++
	}
	if pos >= len(s) {
		return pos, pos, kindPunct, false
	}
	c := s[pos]
	switch {
	case c == '\n':
		return pos, pos + 1, kindNewline, true
	case c == '\r':
		if pos+1 < len(s) && s[pos+1] == '\n' {
			return pos, pos + 2, kindNewline, true
		}
		return pos, pos + 1, kindNewline, true
	case isWordByte(c):
		end := pos + 1
		for end < len(s) && isWordByte(s[end]) {
			end++
		}
		if c >= '0' && c <= '9' {
			return pos, end, kindNum, true
		}
		return pos, end, kindWord, true
	}
	return pos, pos + 1, kindPunct, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// hashString is 32-bit FNV-1a. Collisions between distinct tokens only
// blur a heuristic score; they never make the output depend on anything
// but the inputs.
func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// Skeleton classes: the shape of code with names and numbers abstracted,
// so that "a.X = b.X" and "a.Y = b.Y" look alike.
var (
	classIdent = hashString("\x00ident")
	classNum   = hashString("\x00num")
)

// keywords keep their own identity in the skeleton: they carry structure.
// They are every language's in the language table, since the engine does
// not know a buffer's language. The set is keyed by hash, which skeletonOf
// has already computed.
var keywords = func() map[uint32]bool {
	m := map[uint32]bool{}
	for _, l := range lang.All() {
		for _, k := range l.Keywords {
			m[hashString(k)] = true
		}
	}
	return m
}()

// skeletonOf is the skeleton hash of a token whose exact hash is h.
func skeletonOf(text string, kind tokKind, h uint32) uint32 {
	switch kind {
	case kindWord:
		if len(text) <= 9 && keywords[h] {
			return h
		}
		return classIdent
	case kindNum:
		return classNum
	}
	return h
}

// mix combines hashes into a key for a run of tokens.
func mix(h, x uint32) uint32 {
	h ^= x + 0x9e3779b9 + (h << 6) + (h >> 2)
	return h
}
