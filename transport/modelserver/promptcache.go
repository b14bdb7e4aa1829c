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
// remembered from the moment it arrives.
type promptCache struct {
	mu     sync.Mutex
	recent []string // the last prompts, oldest first; guarded by mu
}

// cachedPrompt is the text a query's prompt is cached by, in the order the
// wires send it: instructions first, then the prefix, then the suffix.
func cachedPrompt(q Query) string {
	return q.System + "\x00" + q.Instruction + "\x00" + q.Prefix + "\x00" + q.Suffix
}

// admit remembers q's prompt and returns how many of its tokens were not a
// prefix of a recent prompt.
func (c *promptCache) admit(q Query) int {
	p := cachedPrompt(q)
	c.mu.Lock()
	shared := 0
	for _, r := range c.recent {
		shared = max(shared, commonPrefix(p, r))
	}
	c.recent = append(c.recent, p)
	if len(c.recent) > recentPrompts {
		c.recent = c.recent[1:]
	}
	c.mu.Unlock()
	return len(Tokenize(p[shared:]))
}

// reset forgets every prompt.
func (c *promptCache) reset() {
	c.mu.Lock()
	c.recent = nil
	c.mu.Unlock()
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
	uncached := s.prompts.admit(q)
	s.counts.uncachedTokens.Add(int64(uncached))
	return time.Duration(int64(s.opts.UncachedPer1K) * int64(uncached) / 1000)
}
