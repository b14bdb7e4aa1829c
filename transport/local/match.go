package local

import "strings"

// Match scoring. A candidate is a corpus token aligned with the last query
// token; walking back, tokens must keep the same skeleton; each identical
// token scores (names more than punctuation) and a differing name is a
// mismatch, of which a few are tolerated: they become renamings.
const (
	maxBack       = 32 // tokens walked back from a candidate
	maxMismatches = 3
	minScore      = 4 // below this a candidate is not worth copying
	scoreWord     = 2
	scoreOther    = 1
)

// cand is a scored candidate position.
type cand struct {
	src   source
	j     int // token in src.d aligned with the query's last token
	score int
	dist  uint64 // tie-break within a tier: smaller is better
}

func (c cand) better(o cand) bool {
	if c.score != o.score {
		return c.score > o.score
	}
	if c.src.tier != o.src.tier {
		return c.src.tier < o.src.tier
	}
	return c.dist < o.dist
}

// score rates d's token j as the counterpart of the query's last token.
// strict requires a partial word to be a prefix of the candidate token.
// What matches on the cursor's own line ranks first; the whole match
// breaks ties. Zero means no match worth copying.
func (q *query) score(d *doc, j int, strict bool) int {
	n := q.n()
	matched, score, mis := 0, 0, 0
	line := -1 // score on the cursor's line, once the walk leaves it
	for i := 0; i < n && i <= j && i < maxBack; i++ {
		qi, dj := n-1-i, j-i
		if i > 0 && line < 0 && q.kinds[qi] == kindNewline {
			line = score
		}
		if i == 0 && q.partial != "" {
			if d.kinds[dj] == kindWord && strings.HasPrefix(d.tok(dj), q.partial) {
				matched++
				score += scoreWord
				continue
			}
			if strict {
				return 0
			}
		}
		if d.skel[dj] != q.skel[qi] {
			break
		}
		if d.exact[dj] == q.exact[qi] {
			matched++
			if d.kinds[dj] == kindWord && d.skel[dj] == classIdent {
				score += scoreWord
			} else {
				score += scoreOther
			}
			continue
		}
		if mis++; mis > maxMismatches {
			break
		}
		matched++
	}
	if matched < min(retrievalKey, n) || score < minScore {
		return 0
	}
	if line < 0 {
		line = score
	}
	return line<<8 | score
}

// best finds the best candidate over the sources and the workspace.
func (q *query) best(srcs []source, ws *shard, shadowed map[string]bool, strict bool) (cand, bool) {
	var top cand
	found := false
	consider := func(src source, j int) {
		d := src.d
		if j == src.self {
			return // the cursor itself
		}
		if j+1 >= d.n() && !(q.partial != "" && len(d.tok(j)) > len(q.partial)) {
			return // nothing follows
		}
		s := q.score(d, j, strict)
		if s == 0 {
			return
		}
		c := cand{src: src, j: j, score: s, dist: uint64(src.order)<<32 | uint64(j)}
		if src.cursor >= 0 {
			if e := int(d.ends[j]); e <= src.cursor {
				c.dist = uint64(src.cursor - e)
			} else {
				c.dist = 1<<40 + uint64(e)
			}
		}
		if !found || c.better(top) {
			top, found = c, true
		}
	}
	n := q.n()
	if n == 0 {
		return top, false
	}
	for _, src := range srcs {
		d := src.d
		if q.partial != "" {
			if n < 2 {
				for j := 0; j < d.n(); j++ {
					if d.kinds[j] == kindWord {
						consider(src, j)
					}
				}
				continue
			}
			want := q.skel[n-2]
			for j := 1; j < d.n(); j++ {
				if d.skel[j-1] == want && d.kinds[j] == kindWord {
					consider(src, j)
				}
			}
			continue
		}
		want := q.skel[n-1]
		for j := 0; j < d.n(); j++ {
			if d.skel[j] == want {
				consider(src, j)
			}
		}
	}
	// The workspace is indexed by the skeleton of retrievalKey tokens; a
	// partial word is left out of the key (its skeleton is not yet known).
	end := n
	if q.partial != "" {
		end = n - 1
	}
	if end >= retrievalKey {
		key := keyAt(q.skel[:end], end-1, retrievalKey)
		ws.lookup(ws.retr, key, maxPostings, func(di, j int) {
			d := ws.docs[di]
			if shadowed[d.path] {
				return
			}
			if q.partial != "" {
				j++
				if j >= d.n() || d.kinds[j] != kindWord {
					return
				}
			}
			consider(newSource(d, 2, di, -1), j)
		})
	}
	return top, found
}

// renames returns the name substitutions (corpus name → query name) a
// candidate implies: the names that differ between the matched runs, and
// the differing middles of names that share a prefix or suffix (test_sub
// → test_mul also renames sub → mul).
func (q *query) renames(c cand) map[string]string {
	d, n := c.src.d, q.n()
	m := map[string]string{}
	for i := 0; i < n && i <= c.j && i < maxBack; i++ {
		qi, dj := n-1-i, c.j-i
		if i == 0 && q.partial != "" {
			continue
		}
		if d.skel[dj] != q.skel[qi] {
			break
		}
		if d.exact[dj] == q.exact[qi] || d.kinds[dj] != kindWord {
			continue
		}
		from, to := d.tok(dj), q.toks[qi]
		if _, ok := m[from]; ok {
			continue // the nearer occurrence decides
		}
		m[from] = to
		for _, r := range subRenames(from, to) {
			if _, ok := m[r[0]]; !ok {
				m[r[0]] = r[1]
			}
		}
	}
	return m
}

// subRenames returns the renamings of name parts implied by renaming from
// to to: after a shared leading part (handleUpdate → handleDelete renames
// Update → Delete) and before a shared trailing part (userID → groupID
// renames user → group). Parts split at underscores and lower-to-upper
// case changes only.
func subRenames(from, to string) [][2]string {
	var out [][2]string
	p := commonPrefix(from, to)
	for p > 0 && !(isBoundary(from, p) && isBoundary(to, p)) {
		p--
	}
	if p > 0 && len(from)-p >= 2 && len(to)-p >= 2 {
		out = append(out, [2]string{from[p:], to[p:]})
	}
	s := commonSuffix(from, to)
	for s > 0 && !(isBoundary(from, len(from)-s) && isBoundary(to, len(to)-s)) {
		s--
	}
	if s > 0 && len(from)-s >= 2 && len(to)-s >= 2 {
		out = append(out, [2]string{from[:len(from)-s], to[:len(to)-s]})
	}
	return out
}

// isBoundary reports whether a name part starts at byte i of name.
func isBoundary(name string, i int) bool {
	if i <= 0 || i >= len(name) {
		return false
	}
	a, b := name[i-1], name[i]
	return a == '_' || b == '_' || (a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z')
}
