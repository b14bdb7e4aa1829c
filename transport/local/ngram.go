package local

import "strings"

// The n-gram fallback predicts one token at a time from counts of what
// followed the last three tokens (a 4-gram model), backing off to two and
// then one token of context when a context was never seen. Counts come
// from the same corpus the retrieval uses: linear scans of the buffers and
// the workspace's n-gram index, so nothing is built beyond it. Workspace
// counts cover orders 3 and 4 only; the unigram-context backoff reads the
// buffers alone.
const (
	ngramOrder     = 3 // tokens of context (a 4-gram model)
	maxNgramTokens = 8 // the fallback guesses a few tokens, never a block
)

// next counts the tokens that followed a context.
type next struct {
	counts map[uint32]int
	first  map[uint32]tokRef // first occurrence seen, for its text and gap
	order  []uint32          // first-seen order, for deterministic ties
}

type tokRef struct {
	d *doc
	k int
}

func (nx *next) add(d *doc, k int) {
	h := d.exact[k]
	if _, ok := nx.counts[h]; !ok {
		nx.first[h] = tokRef{d, k}
		nx.order = append(nx.order, h)
	}
	nx.counts[h]++
}

// ngram extends the completion token by token from n-gram counts. A
// partial word is completed first: its candidates must extend it.
func (g *gen) ngram(srcs []source, ws *shard, shadowed map[string]bool) {
	q := g.q
	hist := append([]uint32(nil), q.exact...)
	partial := q.partial
	if partial != "" {
		hist = hist[:len(hist)-1]
	}
	for step := 0; step < maxNgramTokens; step++ {
		ref, ok := predictNext(hist, partial, srcs, ws, shadowed)
		if !ok {
			return
		}
		if ref.d.kinds[ref.k] == kindNewline {
			return // the fallback finishes a line at most
		}
		tok, gap := ref.d.tok(ref.k), ref.d.gap(ref.k)
		if partial != "" {
			tok, gap = tok[len(partial):], ""
			partial = ""
		}
		if !g.emit(gap, tok, ref.d.kinds[ref.k]) {
			return
		}
		hist = append(hist, ref.d.exact[ref.k])
	}
}

// predictNext returns the most frequent token after the longest context
// of hist that has been seen (ties: first seen), or false.
func predictNext(hist []uint32, partial string, srcs []source, ws *shard, shadowed map[string]bool) (tokRef, bool) {
	accept := func(d *doc, k int) bool {
		if partial == "" {
			return true
		}
		t := d.tok(k)
		return d.kinds[k] == kindWord && len(t) > len(partial) && strings.HasPrefix(t, partial)
	}
	minOrder := 2
	if partial != "" {
		minOrder = 0 // completing a word from the words seen is still useful
	}
	for o := min(ngramOrder, len(hist)); o >= minOrder; o-- {
		ctx := hist[len(hist)-o:]
		nx := &next{counts: map[uint32]int{}, first: map[uint32]tokRef{}}
		for _, src := range srcs {
			d := src.d
			for k := o; k < d.n(); k++ {
				if !matchesBefore(d, k, ctx) || !accept(d, k) {
					continue
				}
				if k-1 == src.self {
					continue // the text at the cursor itself
				}
				nx.add(d, k)
			}
		}
		if o >= ngramKey {
			ws.lookup(ws.gram, keyAt(ctx, o-1, ngramKey), maxGramPostings, func(di, j int) {
				d := ws.docs[di]
				if k := j + 1; !shadowed[d.path] && k < d.n() && matchesBefore(d, k, ctx) && accept(d, k) {
					nx.add(d, k)
				}
			})
		}
		if len(nx.order) == 0 {
			continue
		}
		best := nx.order[0]
		for _, h := range nx.order[1:] {
			if nx.counts[h] > nx.counts[best] {
				best = h
			}
		}
		return nx.first[best], true
	}
	return tokRef{}, false
}

// matchesBefore reports whether the tokens just before k are ctx.
func matchesBefore(d *doc, k int, ctx []uint32) bool {
	if k < len(ctx) {
		return false
	}
	for i := range ctx {
		if d.exact[k-len(ctx)+i] != ctx[i] {
			return false
		}
	}
	return true
}
