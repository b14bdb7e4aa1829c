package gather

import (
	"cmp"
	"slices"
)

// promptOrder sorts the extra pieces into the order the prompt shows
// them: what changes least between consecutive requests first, so that
// they share the longest exact prompt prefix (which is what model servers
// cache). The file's imports come first; then workspace definitions and
// other files' signatures; then the declarations around the cursor (the
// method's type, the enclosing headers), which hold while the user stays
// in one function; then this file's signatures, the uses of the names
// near the cursor, the modules not yet named and what other files expect
// of this one, which follow the names near the cursor and the edits;
// then recent edits, oldest first, so a new edit is appended rather than
// inserted. Within a group pieces go by file and position, never by rank,
// which moves with every keystroke.
func promptOrder(ps []Piece, path string) []Piece {
	type keyed struct {
		p         Piece
		rank, seq int
	}
	ks := make([]keyed, len(ps))
	for i, p := range ps {
		k := keyed{p: p, seq: i}
		switch {
		case p.Kind == "imports":
			k.rank = 0
		case p.Kind == "definition" || p.Kind == "similar" || p.Kind == "signature" && p.Path != path:
			k.rank = 1
		case p.Kind == "type" || p.Kind == "enclosing":
			k.rank = 2
		case p.Kind == "signature" || p.Kind == "uses" || p.Kind == "modules" || p.Kind == "expected":
			k.rank = 3
		default: // recent, newest first in ps
			k.rank, k.seq = 4, -i
		}
		ks[i] = k
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if a.rank == 4 {
			return cmp.Compare(a.seq, b.seq)
		}
		if c := cmp.Compare(a.p.Path, b.p.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.p.span.Start, b.p.span.Start)
	})
	out := make([]Piece, len(ks))
	for i, k := range ks {
		out[i] = k.p
	}
	return out
}
