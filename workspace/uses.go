package workspace

import (
	"slices"
	"strings"

	"github.com/wisp-lsp/wisp/syntax"
)

// Uses returns, for each of qualifiers, the members used after it ("q.m",
// or Rust's "q::m") in fromPath, the files related to it (those Similar
// reads) and the nearest files that import a module fromPath imports
// under one of qualifiers' names, most used first, up to max each; a
// qualifier used with no member is left out. It is the API a name is
// used with in the code around: what "t." is followed by in the tests,
// which functions of "http" the project calls. Files are read as Similar
// reads them.
func (ix *Index) Uses(fromPath string, qualifiers []string, max int) map[string][]string {
	if max <= 0 || len(qualifiers) == 0 {
		return nil
	}
	fromPath = absPath(fromPath)
	paths := append([]string{fromPath}, ix.similarFiles(fromPath)...)
	for _, p := range ix.importersOf(fromPath, qualifiers) {
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	counts := ix.countUses(paths, qualifiers)
	out := make(map[string][]string, len(counts))
	for q, n := range counts {
		members := make([]string, 0, len(n))
		for m := range n {
			members = append(members, m)
		}
		slices.SortFunc(members, func(a, b string) int {
			if c := n[b] - n[a]; c != 0 {
				return c
			}
			return strings.Compare(a, b)
		})
		out[q] = members[:min(max, len(members))]
	}
	return out
}

// countUses counts the members used after each of qualifiers in paths.
func (ix *Index) countUses(paths, qualifiers []string) map[string]map[string]int {
	counts := make(map[string]map[string]int, len(qualifiers))
	for _, path := range paths {
		uses := ix.texts.uses(path)
		for _, q := range qualifiers {
			members := uses[q]
			if len(members) == 0 {
				continue
			}
			if counts[q] == nil {
				counts[q] = map[string]int{}
			}
			for m, n := range members {
				counts[q][m] += n
			}
		}
	}
	return counts
}

// qualifiedUses counts, in the code src, each identifier used right after
// another and a "." or "::": "q" → "m" → how often. Comments and string
// literals are not skipped (they are rare after "x.", and skipping them
// needs the language); a number before "." is no qualifier.
func qualifiedUses(src string) map[string]map[string]int {
	out := map[string]map[string]int{}
	prev, prevEnd := "", -1
	for i := 0; i < len(src); {
		c := src[i]
		if !isIdentByte(c) {
			i++
			continue
		}
		j := i
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		word := src[i:j]
		if c >= '0' && c <= '9' {
			prev, prevEnd = "", -1
			i = j
			continue
		}
		switch {
		case prevEnd < 0:
		case prevEnd == i-1 && src[i-1] == '.', prevEnd == i-2 && src[i-2:i] == "::":
			if out[prev] == nil {
				out[prev] = map[string]int{}
			}
			out[prev][word]++
		}
		prev, prevEnd = word, j
		i = j
	}
	return out
}

// maxImporterFiles bounds the files importersOf returns. Measured with
// bench/context at 1,024 tokens: recall 0.833 without them, 0.835 with
// 16 and 0.836 with 32 (Go 0.862, 0.875, 0.879: the tests' "t." and the
// standard library's packages, used the same way across a project);
// with what came after, 0.851 with either, so the cheaper.
const maxImporterFiles = 16

// importersOf returns the files of fromPath's language, at most
// maxImporterFiles, that import a module fromPath imports under one of
// qualifiers' names, those whose folders share the most with fromPath's
// first.
func (ix *Index) importersOf(fromPath string, qualifiers []string) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	from := ix.files[fromPath]
	if from == nil {
		return nil
	}
	type cand struct {
		path string
		near int
	}
	var cands []cand
	seen := map[*file]bool{from: true}
	for _, mine := range from.Imports {
		if !slices.Contains(qualifiers, mine.Name()) {
			continue
		}
		for _, f := range ix.importers[importBase(mine)] {
			if seen[f] || f.Lang != from.Lang || !slices.ContainsFunc(f.Imports, func(imp syntax.Import) bool { return imp.Path == mine.Path }) {
				continue
			}
			seen[f] = true
			cands = append(cands, cand{f.Path, sharedDirs(from.dir, f.dir)})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.near != b.near {
			return b.near - a.near
		}
		return strings.Compare(a.path, b.path)
	})
	paths := make([]string, 0, min(len(cands), maxImporterFiles))
	for _, c := range cands[:min(len(cands), maxImporterFiles)] {
		paths = append(paths, c.path)
	}
	return paths
}
