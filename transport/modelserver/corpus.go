package modelserver

import (
	"index/suffixarray"
	"slices"
	"strings"
)

// corpus is the text of a Continuation's files, indexed once so that
// finding a string costs O(len(s) · log(size)) plus the matches returned,
// however many files there are, instead of a scan of every file.
//
// The files are joined in order, each followed by sep, a byte that valid
// UTF-8 never holds: a string without it can only match inside one file.
type corpus struct {
	text  string             // the files joined, each followed by sep; immutable
	ends  []int              // where each file ends in text (its sep), increasing; immutable
	index *suffixarray.Index // over text; immutable
}

// sep follows each file in corpus.text.
const sep = "\xff"

// newCorpus joins and indexes files, in their order. Indexing takes time
// linear in their size, and memory about six times it.
func newCorpus(files []string) *corpus {
	var b strings.Builder
	c := &corpus{ends: make([]int, 0, len(files))}
	for _, f := range files {
		b.WriteString(f)
		c.ends = append(c.ends, b.Len())
		b.WriteString(sep)
	}
	c.text = b.String()
	c.index = suffixarray.New([]byte(c.text))
	return c
}

// find returns up to limit (all if limit < 0) offsets in text at which s
// occurs inside one file, in no particular order.
func (c *corpus) find(s string, limit int) []int {
	if !strings.Contains(s, sep) {
		return c.index.Lookup([]byte(s), limit)
	}
	// Matches holding a sep run across files: keep those within one.
	var within []int
	for _, at := range c.index.Lookup([]byte(s), -1) {
		if at+len(s) <= c.fileEnd(at) && (limit < 0 || len(within) < limit) {
			within = append(within, at)
		}
	}
	return within
}

// first returns the offset at which s first occurs inside a file (the
// earliest in the first file holding it); s must occur there. A string
// with few matches takes the least of them; one with many (a short
// prompt, a cursor near the top of a file) is found by a scan that stops
// at the first, which such a string rarely leaves far behind.
func (c *corpus) first(s string) int {
	if strings.Contains(s, sep) {
		return slices.Min(c.find(s, -1))
	}
	if at := c.find(s, manyMatches); len(at) < manyMatches {
		return slices.Min(at)
	}
	return strings.Index(c.text, s) // without sep, it matches only inside a file
}

// manyMatches is how many matches first takes the least of before it
// scans instead.
const manyMatches = 64

// rest returns the text from offset at (inside a file, or at its end) to
// the end of that file.
func (c *corpus) rest(at int) string {
	return c.text[at:c.fileEnd(at)]
}

// fileEnd returns the end of the file holding offset at, or, for the
// offset of a sep, that sep's file.
func (c *corpus) fileEnd(at int) int {
	i, _ := slices.BinarySearch(c.ends, at)
	return c.ends[i]
}
