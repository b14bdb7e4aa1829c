package lsp

import (
	"context"
	"sync"
)

// statusLine is what the client last heard through wisp/status, so that a
// state is told once per change however many components report it (the
// engine, and the engine that replaces it after a configuration change).
type statusLine struct {
	mu   sync.Mutex // held while sending, so notifications go out in order
	last statusParams
	sent bool
}

// setStatus sends wisp/status unless it is what the client already has.
func (s *Server) setStatus(ctx context.Context, state, msg string) {
	next := statusParams{State: state, Message: msg}
	s.status.mu.Lock()
	defer s.status.mu.Unlock()
	if s.status.sent && s.status.last == next {
		return
	}
	s.status.last, s.status.sent = next, true
	s.notify(ctx, "wisp/status", next)
}
