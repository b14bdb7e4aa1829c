package modelserver

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
)

// Stats are the server's counters since it started or was last reset.
type Stats struct {
	// Connections counts new TCP connections (WebSocket or HTTP).
	Connections int64 `json:"connections"`
	// WebSockets counts WebSocket upgrades.
	WebSockets int64 `json:"websockets"`
	// Requests counts generations asked for, on every wire.
	Requests int64 `json:"requests"`
	// Tokens counts tokens sent to clients.
	Tokens int64 `json:"tokens"`
	// Cancels counts generations stopped by the client: a response.cancel,
	// or an HTTP stream the client closed.
	Cancels int64 `json:"cancels"`
	// TokensAfterCancel counts tokens a backend produced for a request after
	// its cancel arrived; it stays near zero when cancel stops the model.
	TokensAfterCancel int64 `json:"tokensAfterCancel"`
	// CancelsIgnored counts response.cancel events strict mode answered
	// with an error, as the real service does, without stopping anything.
	CancelsIgnored int64 `json:"cancelsIgnored"`
	// LimitErrors counts response.create events strict mode refused for
	// the service's per-connection limits.
	LimitErrors int64 `json:"limitErrors"`
	// Warmups counts prompt-cache warm-ups (generate: false, n_predict 0);
	// they are not Requests.
	Warmups int64 `json:"warmups"`
	// UncachedTokens counts prompt tokens read without the prompt cache's
	// help; counted only with the prompt-cache model on.
	UncachedTokens int64 `json:"uncachedTokens"`
}

// counters are the live counters behind Stats. Every counter is atomic
// and rings bell when it moves; New points them at bell.
type counters struct {
	connections, websockets, requests, tokens, cancels, tokensAfterCancel counter
	cancelsIgnored, limitErrors, warmups, uncachedTokens                  counter

	bell bell
}

// all lists every counter.
func (c *counters) all() []*counter {
	return []*counter{&c.connections, &c.websockets, &c.requests, &c.tokens,
		&c.cancels, &c.tokensAfterCancel, &c.cancelsIgnored, &c.limitErrors,
		&c.warmups, &c.uncachedTokens}
}

// init points every counter at the bell; call once, before any Add.
func (c *counters) init() {
	for _, v := range c.all() {
		v.bell = &c.bell
	}
}

func (c *counters) snapshot() Stats {
	return Stats{
		Connections:       c.connections.Load(),
		WebSockets:        c.websockets.Load(),
		Requests:          c.requests.Load(),
		Tokens:            c.tokens.Load(),
		Cancels:           c.cancels.Load(),
		TokensAfterCancel: c.tokensAfterCancel.Load(),
		CancelsIgnored:    c.cancelsIgnored.Load(),
		LimitErrors:       c.limitErrors.Load(),
		Warmups:           c.warmups.Load(),
		UncachedTokens:    c.uncachedTokens.Load(),
	}
}

func (c *counters) reset() {
	for _, v := range c.all() {
		v.Store(0)
	}
}

// counter is one atomic counter that rings its bell when it moves.
type counter struct {
	atomic.Int64
	bell *bell // shared by a server's counters; nil rings nothing
}

// Add adds n and wakes whoever waits on the counters.
func (c *counter) Add(n int64) int64 {
	v := c.Int64.Add(n)
	c.bell.ring()
	return v
}

// Store sets the counter and wakes whoever waits on the counters.
func (c *counter) Store(v int64) {
	c.Int64.Store(v)
	c.bell.ring()
}

// bell wakes every waiter when rung.
type bell struct {
	mu sync.Mutex
	ch chan struct{} // closed by the next ring; nil while nobody waits; guarded by mu
}

// ring wakes every current waiter. A nil bell rings nothing.
func (b *bell) ring() {
	if b == nil {
		return
	}
	b.mu.Lock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
	b.mu.Unlock()
}

// next returns a channel closed by the next ring.
func (b *bell) next() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

// Stats returns the counters.
func (s *Server) Stats() Stats { return s.counts.snapshot() }

// ResetStats zeroes the counters, including the request number that
// Fault.Nth counts against.
func (s *Server) ResetStats() { s.counts.reset() }

// WaitStats waits until cond accepts the counters or ctx is done, and
// returns the counters cond saw last (with ctx.Err() in the second case).
// cond is called again each time a counter moves. Tests wait on it for
// what the model server has seen instead of polling Stats.
func (s *Server) WaitStats(ctx context.Context, cond func(Stats) bool) (Stats, error) {
	for {
		rung := s.counts.bell.next() // before reading, so no move is missed
		st := s.Stats()
		if cond(st) {
			return st, nil
		}
		select {
		case <-rung:
		case <-ctx.Done():
			return st, ctx.Err()
		}
	}
}

// handleStats serves GET /stats.
func (s *Server) handleStats(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Stats())
}

// handleStatsReset serves POST /stats/reset.
func (s *Server) handleStatsReset(w http.ResponseWriter, _ *http.Request) {
	s.ResetStats()
	writeJSON(w, http.StatusOK, s.Stats())
}

// writeJSON writes v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client may be gone; nothing to do
}
