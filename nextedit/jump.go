package nextedit

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Target returns where the next edit is likely wanted: at, the place of
// the latest edit, unless what a recent edit changed still appears
// elsewhere, outside region (where the model already looks). A replaced
// word or phrase (a rename, one of several alike lines fixed) points to
// its nearest remaining occurrence; a changed definition header (a
// parameter added) to the nearest use of the definition's name. Hunks are
// tried newest first; places a newer hunk already changed (an accepted
// suggestion) are passed over. tree may be nil.
func Target(doc *text.Text, tree *syntax.Tree, hunks []Hunk, at int, region edits.Region) int {
	src := doc.String()
	for i := len(hunks) - 1; i >= 0; i-- {
		h := hunks[i]
		inRegion := func(off int) bool { return off >= region.Start && off < region.End }
		changed := func(off int) bool {
			line := doc.LineOf(off)
			for _, newer := range hunks[i:] {
				if line >= newer.Line && line < newer.Line+max(len(splitLines(newer.After)), 1) {
					return true
				}
			}
			return false
		}
		// Where s still waits: at, when the region holds it; else its
		// nearest occurrence.
		follow := func(s string) (int, bool) {
			locs := occurrences(src, s)
			if _, here := nearest(locs, at, func(off int) bool { return !inRegion(off) || changed(off) }); here {
				return at, true
			}
			return nearest(locs, at, func(off int) bool { return inRegion(off) || changed(off) })
		}
		if old, ok := replaced(h); ok {
			if off, found := follow(old); found {
				return off
			}
			continue
		}
		if tree == nil || h.Line >= doc.LineCount() {
			continue
		}
		for _, d := range tree.Definitions() {
			if d.Name == "" || doc.LineOf(d.Span.Start) != h.Line {
				continue
			}
			if off, found := follow(d.Name); found {
				return off
			}
		}
	}
	return at
}

// replaced returns the text a one-line hunk replaced, widened to whole
// words; ok is false for insertions, deletions and multi-line changes.
func replaced(h Hunk) (string, bool) {
	if strings.Count(h.Before, "\n") > 1 || strings.Count(h.After, "\n") > 1 {
		return "", false
	}
	b, a := h.Before, h.After
	pre := commonPrefix(b, a)
	suf := commonSuffix(b[pre:], a[pre:])
	// A change inside a word is a change of the word.
	first := func(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }
	last := func(s string) rune { r, _ := utf8.DecodeLastRuneInString(s); return r }
	if isWord(first(b[pre:])) || isWord(first(a[pre:])) {
		for pre > 0 && isWord(last(b[:pre])) {
			pre -= utf8.RuneLen(last(b[:pre]))
		}
	}
	if isWord(last(b[pre:len(b)-suf])) || isWord(last(a[pre:len(a)-suf])) {
		for suf > 0 && isWord(first(b[len(b)-suf:])) {
			suf -= utf8.RuneLen(first(b[len(b)-suf:]))
		}
	}
	old, now := b[pre:len(b)-suf], a[pre:len(a)-suf]
	if strings.TrimSpace(old) == "" || strings.TrimSpace(now) == "" || strings.Contains(old, "\n") {
		return "", false
	}
	return old, true
}

// occurrences returns where s occurs in src, as whole words at its ends.
func occurrences(src, s string) [][]int {
	pattern := regexp.QuoteMeta(s)
	if r, _ := utf8.DecodeRuneInString(s); isWord(r) {
		pattern = `\b` + pattern
	}
	if r, _ := utf8.DecodeLastRuneInString(s); isWord(r) {
		pattern += `\b`
	}
	return regexp.MustCompile(pattern).FindAllStringIndex(src, -1)
}

// nearest finds the occurrence among locs nearest to at, outside skip; of
// two as near, the first.
func nearest(locs [][]int, at int, skip func(int) bool) (int, bool) {
	best, found := 0, false
	for _, loc := range locs {
		if skip(loc[0]) {
			continue
		}
		if !found || distance(loc[0], at) < distance(best, at) {
			best, found = loc[0], true
		}
	}
	return best, found
}

func distance(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
