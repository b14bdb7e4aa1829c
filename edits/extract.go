package edits

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ExtractCode returns the code in a model's reply to an edit request.
//
// A reply with fenced code blocks (``` or ~~~) yields the largest block
// (the first of equal ones), whatever prose surrounds it; a fence the reply
// never closes (a truncated generation) runs to the end. A reply without
// fences is taken as code once leading chatter ("Sure! Here is the code:")
// is dropped. A reply that is empty, a refusal ("I'm sorry, I can't…") or
// nothing but prose returns an error wrapping ErrNotCode.
//
// The code is returned as the model wrote it; Conform fits its line
// endings to the region it replaces.
func ExtractCode(reply string) (string, error) {
	if strings.TrimSpace(reply) == "" {
		return "", fmt.Errorf("%w: the reply is empty", ErrNotCode)
	}
	if code, ok := largestFence(reply); ok {
		if strings.TrimSpace(code) == "" {
			return "", fmt.Errorf("%w: the reply's code block is empty", ErrNotCode)
		}
		return code, nil
	}
	if refusal(reply) {
		return "", fmt.Errorf("%w: the reply is a refusal: %q", ErrNotCode, firstLine(reply))
	}
	lines := strings.SplitAfter(reply, "\n")
	for len(lines) > 0 && (blank(lines[0]) || chatter(lines[0])) {
		lines = lines[1:]
	}
	code := strings.Join(lines, "")
	if allProse(code) {
		return "", fmt.Errorf("%w: the reply is prose: %q", ErrNotCode, firstLine(reply))
	}
	return code, nil
}

// largestFence returns the content of the largest fenced block in s (the
// first of equal ones). found is false when s has no fence.
func largestFence(s string) (code string, found bool) {
	lines := strings.SplitAfter(s, "\n")
	for i := 0; i < len(lines); i++ {
		fence, ok := fenceOpen(lines[i])
		if !ok {
			continue
		}
		j := i + 1
		for j < len(lines) && !fenceClose(lines[j], fence) {
			j++
		}
		if block := strings.Join(lines[i+1:j], ""); !found || len(block) > len(code) {
			code = block
		}
		found = true
		i = j
	}
	return code, found
}

// fenceOpen reports whether line opens a fenced block, and the fence
// (a run of three or more backticks or tildes) that will close it.
func fenceOpen(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if len(line)-len(t) > 3 {
		return "", false
	}
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 && !(c == '`' && strings.ContainsRune(t[n:], '`')) {
			return t[:n], true
		}
	}
	return "", false
}

// fenceClose reports whether line closes a block opened by fence.
func fenceClose(line, fence string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == ""
}

// refusalOpenings start replies in which the model declines.
var refusalOpenings = []string{
	"i'm sorry", "i’m sorry", "i am sorry", "sorry,", "sorry!", "sorry.",
	"i can't", "i can’t", "i cannot", "i won't", "i am unable", "i'm unable",
	"as an ai", "unfortunately,",
}

// refusal reports whether reply opens with a refusal.
func refusal(reply string) bool {
	head := strings.ToLower(strings.TrimSpace(reply))
	for _, p := range refusalOpenings {
		if strings.HasPrefix(head, p) {
			return true
		}
	}
	return false
}

// chatter reports whether line is an introduction to code rather than code:
// a sentence ending in a colon, or a bare "Sure!"/"Certainly.".
func chatter(line string) bool {
	t := strings.TrimSpace(line)
	if !prose(t) {
		return false
	}
	if strings.HasSuffix(t, ":") {
		return true
	}
	switch strings.ToLower(strings.TrimRight(t, "!.")) {
	case "sure", "certainly", "of course", "okay", "ok", "done":
		return true
	}
	return false
}

// allProse reports whether every non-blank line of s reads as prose.
func allProse(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !(prose(t) && (sentenceEnd(t) || words(t) >= 8)) {
			return false
		}
	}
	return true
}

// prose reports whether a trimmed line reads as a sentence: it starts with
// a letter, ends like a sentence or has no code punctuation, and is almost
// all letters and spaces.
func prose(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	if !unicode.IsLetter(r) || strings.ContainsAny(t, "{}();=[]<>\"`#|&") {
		return false
	}
	letters := 0
	for _, r := range t {
		if unicode.IsLetter(r) || r == ' ' || r == '\'' || r == '’' || r == ',' {
			letters++
		}
	}
	return letters*10 >= utf8.RuneCountInString(t)*8
}

// sentenceEnd reports whether t ends like a sentence.
func sentenceEnd(t string) bool { return strings.ContainsAny(t[len(t)-1:], ".!?:") }

// words counts the space-separated words of t.
func words(t string) int { return len(strings.Fields(t)) }

func blank(line string) bool { return strings.TrimSpace(line) == "" }

// firstLine returns s's first non-blank line, cut to 60 bytes, for error
// messages.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
