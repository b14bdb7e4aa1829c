package workspace

import (
	"slices"
	"strings"
)

// ResolvePrefix returns up to max definitions whose names start with
// prefix (the word being typed), from the files related to fromPath only:
// the same file, the same Go package and the files it imports; best
// first, as Resolve orders them. The rest of the workspace is not
// searched: a prefix matches too much there to be worth the tokens.
func (ix *Index) ResolvePrefix(fromPath, prefix string, max int) []Symbol {
	if max <= 0 || prefix == "" {
		return nil
	}
	fromPath = absPath(fromPath)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var cands []candidateSym
	for f, tier := range ix.relatedTiers(fromPath) {
		for i, s := range f.Symbols {
			if len(s.Name) > len(prefix) && strings.HasPrefix(s.Name, prefix) {
				cands = append(cands, candidateSym{ref: symRef{f, i}, tier: tier})
			}
		}
	}
	slices.SortFunc(cands, compareCandidates)
	out := make([]Symbol, 0, min(max, len(cands)))
	for _, c := range cands[:min(max, len(cands))] {
		s := c.ref.f.Symbols[c.ref.i]
		s.Reason = reason(c.tier, fromPath)
		out = append(out, s)
	}
	return out
}
