package main

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/wisp-lsp/wisp/text"
)

// file is one source file of a workspace, read once.
type file struct {
	// Rel is the workspace-relative path, with forward slashes.
	Rel  string
	Src  string
	Mask []byte // classify(lang, Src)
	// lines indexes Src's lines, as the server's documents do.
	lines *text.Text
	// external holds, for a Go file, the names its imports bind to
	// packages outside the tree's module (goExternalPackages).
	external map[string]bool
	// bound holds the names the file binds in its code (boundLocally).
	bound map[string]bool
}

func newFile(lang, rel, src string) *file {
	f := &file{Rel: rel, Src: src, Mask: classify(lang, src), lines: text.New(src)}
	f.bound = boundLocally(lang, src, f.Mask)
	return f
}

// hole is one benchmark case: a cursor in a file and the true continuation
// the model must write there.
type hole struct {
	File *file
	// Cursor and End bound the continuation in File.Src: the rest of the
	// cursor's line and the next continuationLines lines.
	Cursor, End int
	// Kind is "line-start" (the cursor is at the start of a line's code)
	// or "mid-line" (just after an identifier, '.' or '(').
	Kind string
	// Targets are the continuation's identifiers that recall counts: in
	// code, not language vocabulary, not in the beforeLines lines before
	// the cursor (nor the cursor line's prefix). Sorted, unique, never
	// empty.
	Targets []string
	// Selected holds the targets the continuation uses after "." or "::"
	// (a member or a qualified name).
	Selected map[string]bool
	// External holds the targets that the continuation uses only
	// qualified by a package from outside the tree (Go's "net.Conn"):
	// no definition of the tree is meant.
	External map[string]bool
}

// Doc returns the document as the user has it while typing at the
// cursor: the continuation is not written yet.
func (h hole) Doc() string { return h.File.Src[:h.Cursor] + h.File.Src[h.End:] }

// The continuation and the lines whose identifiers do not count.
const (
	continuationLines = 2
	beforeLines       = 3
)

// holes cuts up to n holes in f, reproducibly: the choice depends only on
// seed and f.Rel. Cursors lie on lines with code, half at the start of the
// line's code and half just after an identifier, '.' or '(' in code.
func holes(lang string, f *file, seed uint64, n int) []hole {
	h := fnv.New64a()
	h.Write([]byte(f.Rel))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	var candidates []int // lines whose first non-blank byte is code
	for l := range f.lines.LineCount() {
		start, end := f.lines.LineStart(l), f.lines.LineEnd(l)
		i := start
		for i < end && (f.Src[i] == ' ' || f.Src[i] == '\t') {
			i++
		}
		if i < end && f.Mask[i] == code && strings.ContainsFunc(f.Src[i:end], isLetter) {
			candidates = append(candidates, l)
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	var out []hole
	seen := make(map[int]bool)
	for try := 0; try < 8*n && len(out) < n; try++ {
		l := candidates[rng.IntN(len(candidates))]
		start, end := f.lines.LineStart(l), f.lines.LineEnd(l)
		content := start
		for content < end && (f.Src[content] == ' ' || f.Src[content] == '\t') {
			content++
		}
		kind, cursor := "line-start", content
		if len(out)%2 == 1 {
			var mids []int
			for p := content + 1; p < end; p++ {
				prev := f.Src[p-1]
				if f.Mask[p-1] == code && f.Mask[p] == code && !isIdent(f.Src[p]) && (isIdent(prev) || prev == '.' || prev == '(') ||
					f.Mask[p-1] == code && (prev == '.' || prev == '(') {
					mids = append(mids, p)
				}
			}
			if len(mids) == 0 {
				continue
			}
			kind, cursor = "mid-line", mids[rng.IntN(len(mids))]
		}
		if seen[cursor] {
			continue
		}
		seen[cursor] = true
		if hl := cut(lang, f, cursor, kind); len(hl.Targets) > 0 {
			out = append(out, hl)
		}
	}
	return out
}

// cut makes the hole at cursor: the continuation is the rest of its line
// and the next continuationLines lines. Its Targets may be empty.
func cut(lang string, f *file, cursor int, kind string) hole {
	l := f.lines.LineOf(cursor)
	hl := hole{File: f, Cursor: cursor, End: f.lines.LineEnd(min(l+continuationLines, f.lines.LineCount()-1)), Kind: kind}
	hl.Targets = targets(lang, f, hl.Cursor, hl.End, f.lines.LineStart(max(0, l-beforeLines)))
	hl.Selected = make(map[string]bool)
	hl.External = make(map[string]bool)
	internal := make(map[string]bool) // used at least once not so qualified
	for _, w := range words(f.Src, f.Mask, hl.Cursor, hl.End) {
		if w.start > 0 && f.Src[w.start-1] == '.' || w.start > 1 && f.Src[w.start-2:w.start] == "::" {
			hl.Selected[w.name] = true
		}
		if f.external[qualifier(f.Src, w.start)] {
			hl.External[w.name] = true
		} else {
			internal[w.name] = true
		}
	}
	for n := range internal {
		delete(hl.External, n)
	}
	return hl
}

// targets returns the identifiers recall counts in f.Src[cursor:end]:
// words in code, minus lang's vocabulary, minus every word of
// f.Src[before:cursor].
func targets(lang string, f *file, cursor, end, before int) []string {
	near := make(map[string]bool)
	for _, w := range words(f.Src, nil, before, cursor) {
		near[w.name] = true
	}
	seen := make(map[string]bool)
	var out []string
	for _, w := range words(f.Src, f.Mask, cursor, end) {
		if near[w.name] || vocabulary[lang][w.name] || seen[w.name] || w.name == "_" {
			continue
		}
		seen[w.name] = true
		out = append(out, w.name)
	}
	sortStrings(out)
	return out
}

// qualifier returns the identifier before the "." that precedes the word
// starting at start, or "".
func qualifier(src string, start int) string {
	if start == 0 || src[start-1] != '.' {
		return ""
	}
	i := start - 1
	for i > 0 && isIdent(src[i-1]) {
		i--
	}
	return src[i : start-1]
}

func isLetter(r rune) bool { return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
