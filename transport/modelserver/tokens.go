package modelserver

import (
	"unicode"
	"unicode/utf8"
)

// maxTokenBytes is the longest run of letters or spaces one token holds,
// about what a code model's tokenizer averages.
const maxTokenBytes = 4

// Tokenize splits text into tokens shaped like a code model's: words in
// chunks of up to four bytes, runs of indentation in chunks of up to four,
// each newline and each punctuation mark on its own; a single space rides
// with the word or mark that follows it. Concatenating the tokens gives back text;
// multi-byte characters are never split.
func Tokenize(text string) []string {
	var toks []string
	for len(text) > 0 {
		n := tokenLen(text)
		toks = append(toks, text[:n])
		text = text[n:]
	}
	return toks
}

// tokenLen returns the byte length of the token that starts text; text is
// not empty and the result is at least 1.
func tokenLen(text string) int {
	r, size := utf8.DecodeRuneInString(text)
	switch {
	case r == ' ' && len(text) > 1 && isWordStart(text[1:]):
		return size + wordLen(text[size:])
	case r == ' ' && len(text) > 1 && isPunct(text[1:]):
		_, n := utf8.DecodeRuneInString(text[1:])
		return size + n
	case r == ' ' || r == '\t':
		n := size
		for n < len(text) && n < maxTokenBytes && text[n] == byte(r) {
			n++
		}
		return n
	case isWord(r):
		return wordLen(text)
	default:
		return size
	}
}

// wordLen returns the length of the leading chunk of word characters in
// text, at most maxTokenBytes unless one character is longer.
func wordLen(text string) int {
	n := 0
	for n < len(text) {
		r, size := utf8.DecodeRuneInString(text[n:])
		if !isWord(r) || (n > 0 && n+size > maxTokenBytes) {
			break
		}
		n += size
	}
	return n
}

func isWordStart(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return isWord(r)
}

// isPunct reports whether text starts with a mark that is neither a word
// character nor white space.
func isPunct(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return !isWord(r) && !unicode.IsSpace(r)
}

func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
