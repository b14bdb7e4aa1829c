package completion

import (
	"container/list"
	"hash/maphash"

	"github.com/wisp-lsp/wisp/text"
)

// cacheWindow is how much text before the cursor identifies a position.
const cacheWindow = 512

// lookBack is how far back on the line the cache looks for a suggestion
// that the text typed since then still matches (backspace and retype).
const lookBack = 48

// cache is a small LRU of finished suggestions, keyed by the text before
// the position and the rest of its line. It serves backspace-and-retype
// and revisits without asking the model. Not safe for concurrent use; the
// Engine guards it.
type cache struct {
	seed  maphash.Seed
	max   int
	order *list.List // of *cacheEntry, most recent first
	byKey map[uint64]*list.Element
}

type cacheEntry struct {
	key  uint64
	text string
}

func newCache(max int) *cache {
	return &cache{seed: maphash.MakeSeed(), max: max, order: list.New(), byKey: map[uint64]*list.Element{}}
}

// key identifies a position by the text before offset at and the rest of
// the line from offset rest (the cursor; at <= rest).
func (c *cache) key(doc *text.Text, at, rest int) uint64 {
	s := doc.String()
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(s[max(0, at-cacheWindow):at])
	h.WriteByte(0)
	h.WriteString(s[rest:doc.LineEnd(doc.LineOf(rest))])
	return h.Sum64()
}

// put remembers suggestion for offset off in doc.
func (c *cache) put(doc *text.Text, off int, suggestion string) {
	if suggestion == "" {
		return
	}
	k := c.key(doc, off, off)
	if el, ok := c.byKey[k]; ok {
		el.Value.(*cacheEntry).text = suggestion
		c.order.MoveToFront(el)
		return
	}
	c.byKey[k] = c.order.PushFront(&cacheEntry{key: k, text: suggestion})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}

// get returns the rest of a cached suggestion for offset off: one stored
// at off itself, or at an earlier offset on the same line whose suggestion
// begins with the text typed since.
func (c *cache) get(doc *text.Text, off int) (string, bool) {
	s := doc.String()
	lineStart := doc.LineStart(doc.LineOf(off))
	for back := 0; back <= lookBack && off-back >= lineStart; back++ {
		at := off - back
		el, ok := c.byKey[c.key(doc, at, off)]
		if !ok {
			continue
		}
		typed := s[at:off]
		full := el.Value.(*cacheEntry).text
		if len(full) > len(typed) && full[:len(typed)] == typed {
			c.order.MoveToFront(el)
			return full[len(typed):], true
		}
	}
	return "", false
}
