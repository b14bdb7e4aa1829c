package local

import "sort"

// doc is one tokenised text: a buffer, a workspace file, a context
// snippet, or the request itself. A doc is immutable once built, so
// generations may read it without locks while a newer version is built.
type doc struct {
	path string
	text string
	// Parallel arrays, one entry per token, in text order.
	starts, ends []uint32 // byte offsets into text
	exact        []uint32 // hash of the token text
	skel         []uint32 // skeleton hash (names and numbers abstracted)
	kinds        []tokKind
}

// maxDocBytes bounds the text one doc may hold: offsets are uint32 and a
// bigger text would only slow matching down.
const maxDocBytes = 1 << 30

func tokenize(path, text string) *doc {
	if len(text) > maxDocBytes {
		text = text[:maxDocBytes]
	}
	d := &doc{path: path, text: text}
	n := len(text)/5 + 1
	d.grow(n)
	d.lex(0)
	return d
}

func (d *doc) grow(n int) {
	d.starts = make([]uint32, 0, n)
	d.ends = make([]uint32, 0, n)
	d.exact = make([]uint32, 0, n)
	d.skel = make([]uint32, 0, n)
	d.kinds = make([]tokKind, 0, n)
}

// lex appends the tokens of d.text from byte pos to the end.
func (d *doc) lex(pos int) {
	for {
		s, e, k, ok := nextToken(d.text, pos)
		if !ok {
			return
		}
		d.push(s, e, k)
		pos = e
	}
}

func (d *doc) push(s, e int, k tokKind) {
	t := d.text[s:e]
	h := hashString(t)
	d.starts = append(d.starts, uint32(s))
	d.ends = append(d.ends, uint32(e))
	d.exact = append(d.exact, h)
	d.skel = append(d.skel, skeletonOf(t, k, h))
	d.kinds = append(d.kinds, k)
}

func (d *doc) n() int { return len(d.exact) }

// tok returns the text of token i.
func (d *doc) tok(i int) string { return d.text[d.starts[i]:d.ends[i]] }

// gap returns the whitespace before token i (after token i-1).
func (d *doc) gap(i int) string {
	from := uint32(0)
	if i > 0 {
		from = d.ends[i-1]
	}
	return d.text[from:d.starts[i]]
}

// firstEndingAtOrAfter returns the index of the first token whose end is
// at or after off (d.n() when there is none).
func (d *doc) firstEndingAtOrAfter(off int) int {
	return sort.Search(len(d.ends), func(i int) bool { return int(d.ends[i]) >= off })
}

// update returns a doc for text that reuses d's tokens outside the changed
// region: only the tokens touching the change are lexed again, and the
// tokens after it are shifted. d itself is left unchanged.
func (d *doc) update(text string) *doc {
	if len(text) > maxDocBytes {
		text = text[:maxDocBytes]
	}
	if text == d.text {
		return d
	}
	old := d.text
	p := commonPrefix(old, text)
	s := commonSuffix(old[p:], text[p:])
	oldEnd, newEnd := len(old)-s, len(text)-s
	delta := len(text) - len(old)

	// Re-lex from the start of the token before the first token touching
	// the change: an edit next to a token may merge with it.
	a := d.firstEndingAtOrAfter(p)
	if a > 0 {
		a--
	}
	from := p // lexing may start in the gap before a token, never inside one
	if a < d.n() {
		from = min(from, int(d.starts[a]))
	}
	// b is the first old token wholly after the change.
	b := sort.Search(d.n(), func(i int) bool { return int(d.starts[i]) >= oldEnd })

	nd := &doc{path: d.path, text: text}
	nd.grow(d.n() + 16)
	nd.starts = append(nd.starts, d.starts[:a]...)
	nd.ends = append(nd.ends, d.ends[:a]...)
	nd.exact = append(nd.exact, d.exact[:a]...)
	nd.skel = append(nd.skel, d.skel[:a]...)
	nd.kinds = append(nd.kinds, d.kinds[:a]...)
	pos := from
	for {
		st, e, k, ok := nextToken(text, pos)
		if !ok {
			return nd
		}
		if st >= newEnd {
			// In the unchanged tail: once a new token starts where an old
			// one did, the rest lexes identically.
			for b < d.n() && int(d.starts[b])+delta < st {
				b++
			}
			if b < d.n() && int(d.starts[b])+delta == st {
				nd.appendShifted(d, b, delta)
				return nd
			}
		}
		nd.push(st, e, k)
		pos = e
	}
}

// appendShifted appends old tokens from index b on, moved by delta bytes.
func (nd *doc) appendShifted(d *doc, b, delta int) {
	for i := b; i < d.n(); i++ {
		nd.starts = append(nd.starts, uint32(int(d.starts[i])+delta))
		nd.ends = append(nd.ends, uint32(int(d.ends[i])+delta))
	}
	nd.exact = append(nd.exact, d.exact[b:]...)
	nd.skel = append(nd.skel, d.skel[b:]...)
	nd.kinds = append(nd.kinds, d.kinds[b:]...)
}

// commonPrefix returns the length of the longest common prefix of a and b,
// comparing in blocks first (string equality is vectorised).
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	const block = 256
	for i+block <= n && a[i:i+block] == b[i:i+block] {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	const block = 256
	for i+block <= n && a[len(a)-i-block:len(a)-i] == b[len(b)-i-block:len(b)-i] {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
