package workspace

import (
	"slices"
	"strings"
)

// Uses returns, for each of qualifiers, the members used after it ("q.m",
// or Rust's "q::m") in fromPath and the files related to it (those
// Similar reads), most used first, up to max each; a qualifier used with
// no member is left out. It is the API a name is used with nearby: what
// "t." is followed by in the package's tests, which functions of "fmt"
// the package calls. Files are read as Similar reads them.
func (ix *Index) Uses(fromPath string, qualifiers []string, max int) map[string][]string {
	if max <= 0 || len(qualifiers) == 0 {
		return nil
	}
	fromPath = absPath(fromPath)
	want := make(map[string]map[string]int, len(qualifiers))
	for _, q := range qualifiers {
		want[q] = nil
	}
	for _, path := range append([]string{fromPath}, ix.similarFiles(fromPath)...) {
		for q, members := range ix.texts.uses(path) {
			if _, ok := want[q]; !ok {
				continue
			}
			if want[q] == nil {
				want[q] = map[string]int{}
			}
			for m, n := range members {
				want[q][m] += n
			}
		}
	}
	out := make(map[string][]string, len(want))
	for q, counts := range want {
		if len(counts) == 0 {
			continue
		}
		members := make([]string, 0, len(counts))
		for m := range counts {
			members = append(members, m)
		}
		slices.SortFunc(members, func(a, b string) int {
			if counts[a] != counts[b] {
				return counts[b] - counts[a]
			}
			return strings.Compare(a, b)
		})
		out[q] = members[:min(max, len(members))]
	}
	return out
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
