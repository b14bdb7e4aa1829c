package modelserver

import (
	"encoding/json"
	"net/http"
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

// counters are the live counters behind Stats; every field is atomic.
type counters struct {
	connections, websockets, requests, tokens, cancels, tokensAfterCancel atomic.Int64
	cancelsIgnored, limitErrors, warmups, uncachedTokens                  atomic.Int64
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
	for _, v := range []*atomic.Int64{&c.connections, &c.websockets, &c.requests,
		&c.tokens, &c.cancels, &c.tokensAfterCancel, &c.cancelsIgnored, &c.limitErrors,
		&c.warmups, &c.uncachedTokens} {
		v.Store(0)
	}
}

// Stats returns the counters.
func (s *Server) Stats() Stats { return s.counts.snapshot() }

// ResetStats zeroes the counters, including the request number that
// Fault.Nth counts against.
func (s *Server) ResetStats() { s.counts.reset() }

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
