package modelserver

import (
	"sync"
	"time"
)

// recentPrompts is how many prompts the prompt cache remembers, about what
// a hosted model keeps warm for one user.
const recentPrompts = 16

// promptCache models a model's prefix cache: a prompt's prefill is free up
// to the longest prefix it shares with a recent prompt, and costs
// Options.UncachedPer1K for every thousand tokens past it. A prompt is
// remembered from the moment it arrives, and, with a TTL, forgotten TTL
// after it was last sent or was the prefix a later prompt used.
type promptCache struct {
	mu     sync.Mutex
	recent []cached // the last prompts, oldest first; guarded by mu
}

// cached is one remembered prompt.
type cached struct {
	text string
	used time.Time // when it was last sent or shared from
}

// cachedPrompt is the text a query's prompt is cached by, in the order the
// wires send it: instructions first, then the prefix, then the suffix.
func cachedPrompt(q Query) string {
	return q.System + "\x00" + q.Instruction + "\x00" + q.Prefix + "\x00" + q.Suffix
}

// admit remembers q's prompt at now and returns how many of its tokens
// were not a prefix of a prompt remembered within ttl (0: forever).
func (c *promptCache) admit(q Query, now time.Time, ttl time.Duration) int {
	p := cachedPrompt(q)
	c.mu.Lock()
	live := c.recent[:0]
	for _, r := range c.recent {
		if ttl <= 0 || now.Sub(r.used) < ttl {
			live = append(live, r)
		}
	}
	c.recent = live
	shared, from := 0, -1
	for i, r := range c.recent {
		if n := commonPrefix(p, r.text); n > shared {
			shared, from = n, i
		}
	}
	if from >= 0 && shared*2 >= len(p) {
		c.recent[from].used = now // a hit keeps the entry warm
	}
	c.recent = append(c.recent, cached{text: p, used: now})
	if len(c.recent) > recentPrompts {
		c.recent = c.recent[1:]
	}
	c.mu.Unlock()
	return len(Tokenize(p[shared:]))
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// prefill returns how long the model takes to read q's prompt before its
// first token, beyond Options.TTFT, and remembers the prompt; it counts
// the prompt's tokens and the uncached ones. Zero without a prompt-cache
// model (Options.UncachedPer1K unset).
func (s *Server) prefill(q Query) time.Duration {
	if s.opts.UncachedPer1K <= 0 {
		return 0
	}
	uncached := s.prompts.admit(q, s.clock.Now(), s.opts.CacheTTL)
	s.counts.uncachedTokens.Add(int64(uncached))
	return time.Duration(int64(s.opts.UncachedPer1K) * int64(uncached) / 1000)
}
