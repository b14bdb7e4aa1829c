package local

import (
	"sort"
	"strings"

	"github.com/wisp-lsp/wisp/transport"
)

// Query and corpus bounds.
const (
	queryTailBytes = 4 << 10  // the prefix tail the query is lexed from
	maxQueryTokens = 48       // tokens of context a match can use
	adhocPrefix    = 64 << 10 // request text lexed when no buffer holds it
	adhocSuffix    = 16 << 10
	snippetBytes   = 64 << 10 // request Context text used, in all
	locateTail     = 512      // prefix bytes used to find the cursor in a buffer
	locateHead     = 128      // suffix bytes used likewise
)

// query is the code just before the cursor, as tokens.
type query struct {
	toks  []string
	exact []uint32
	skel  []uint32
	kinds []tokKind
	// partial is the last token when it is a word that ends at the cursor:
	// the user may still be typing it. Empty otherwise.
	partial string
	// ws is the horizontal whitespace between the last token and the cursor.
	ws string
}

func newQuery(prefix string) *query {
	tail := prefix
	if len(tail) > queryTailBytes {
		tail = tail[len(tail)-queryTailBytes:]
		if i := strings.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i:]
		}
	}
	d := tokenize("", tail)
	from := max(0, d.n()-maxQueryTokens)
	q := &query{exact: d.exact[from:], skel: d.skel[from:], kinds: d.kinds[from:]}
	for i := from; i < d.n(); i++ {
		q.toks = append(q.toks, d.tok(i))
	}
	end := 0
	if d.n() > 0 {
		end = int(d.ends[d.n()-1])
	}
	q.ws = tail[end:]
	if n := len(q.toks); n > 0 && q.ws == "" && q.kinds[n-1] == kindWord {
		q.partial = q.toks[n-1]
	}
	return q
}

func (q *query) n() int { return len(q.exact) }

// source is one doc a generation may copy from.
type source struct {
	d     *doc
	tier  int // 0 the cursor's doc, 1 other buffers and snippets, 2 workspace
	order int // rank of d within its tier, for tie-breaks
	// cursor is the cursor's byte offset when d is the cursor's doc, else -1.
	cursor int
	// self is the last token starting before the cursor (the query's own
	// last token) in the cursor's doc, else -1.
	self int
}

func newSource(d *doc, tier, order, cursor int) source {
	s := source{d: d, tier: tier, order: order, cursor: cursor, self: -1}
	if cursor >= 0 {
		s.self = sort.Search(d.n(), func(i int) bool { return int(d.starts[i]) >= cursor }) - 1
	}
	return s
}

// gatherSources returns the cursor's doc first, then the other buffers
// and the request's snippets, and the workspace paths that buffers
// shadow.
func gatherSources(snap snapshot, req transport.Request) (srcs []source, shadowed map[string]bool) {
	shadowed = map[string]bool{req.Path: true}
	for _, d := range snap.bufs {
		shadowed[d.path] = true
	}
	cur, off := locate(snap.bufs, req)
	if cur == nil {
		p := req.Prefix
		if len(p) > adhocPrefix {
			p = p[len(p)-adhocPrefix:]
			if i := strings.IndexByte(p, '\n'); i >= 0 {
				p = p[i:]
			}
		}
		s := req.Suffix[:min(len(req.Suffix), adhocSuffix)]
		cur, off = tokenize(req.Path, p+s), len(p)
	}
	srcs = append(srcs, newSource(cur, 0, 0, off))
	for _, d := range snap.bufs {
		// A buffer at the request's path that does not hold the request's
		// text is a stale copy of it: its text at the cursor is not news.
		if d == cur || d.path == req.Path {
			continue
		}
		srcs = append(srcs, newSource(d, 1, len(srcs), -1))
	}
	budget := snippetBytes
	for _, sn := range req.Context {
		if len(sn.Text) > budget {
			break
		}
		budget -= len(sn.Text)
		srcs = append(srcs, newSource(tokenize(sn.Path, sn.Text), 1, len(srcs), -1))
	}
	return srcs, shadowed
}

// locate finds the buffer holding the request's text and the cursor's
// offset in it, by path first and then by text, so a caller need not pass
// the exact path. It returns nil when no buffer holds the text.
func locate(bufs []*doc, req transport.Request) (*doc, int) {
	head := req.Suffix[:min(len(req.Suffix), locateHead)]
	holds := func(d *doc) int {
		if strings.HasPrefix(d.text, req.Prefix) && strings.HasPrefix(d.text[len(req.Prefix):], head) {
			return len(req.Prefix)
		}
		// A prompt may leave out lines far from the cursor (comments,
		// in completion/gather): shorter tails are tried, each only
		// where it occurs once. A prefix shorter than a tail is tried
		// whole, once.
		for n := locateTail; n >= locateTail/8; n /= 2 {
			if n < locateTail && n >= len(req.Prefix) {
				continue
			}
			tail := req.Prefix[len(req.Prefix)-min(len(req.Prefix), n):]
			i := strings.Index(d.text, tail+head)
			if tail == "" || i < 0 {
				continue
			}
			if n == locateTail || strings.LastIndex(d.text, tail+head) == i {
				return i + len(tail)
			}
		}
		return -1
	}
	for _, d := range bufs {
		if d.path == req.Path && req.Path != "" {
			if off := holds(d); off >= 0 {
				return d, off
			}
		}
	}
	for _, d := range bufs {
		if d.path != req.Path {
			if off := holds(d); off >= 0 {
				return d, off
			}
		}
	}
	return nil, 0
}
