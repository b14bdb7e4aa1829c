package lsp

import (
	"context"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/wisp-lsp/wisp/completion"
)

// statusLine is what the client last heard of the model's state, so that a
// state is told once per change however many components report it (the
// engine, and the engine that replaces it after a configuration change).
type statusLine struct {
	mu   sync.Mutex // held while sending, so notifications go out in order
	last statusParams
	sent bool
}

// setStatus tells the client the model's state unless it already has it.
// A client that asked for wisp/status (initializationOptions.status, as
// wisp's plugins do) gets each new state and message there, for its status
// line. Any other client (Helix, a plain LSP client) has no status line
// of wisp's: it hears only a change of state, as one window/showMessage
// (the model is unavailable, and why; it answers again), never one per
// keystroke.
func (s *Server) setStatus(ctx context.Context, state, msg string) {
	s.mu.Lock()
	own := s.cfg.Status
	s.mu.Unlock()
	next := statusParams{State: state, Message: msg}
	s.status.mu.Lock()
	defer s.status.mu.Unlock()
	if own {
		if s.status.sent && s.status.last == next {
			return
		}
		s.status.last, s.status.sent = next, true
		s.notify(ctx, "wisp/status", next)
		return
	}
	was := completion.StatusReady // what the user assumes before any message
	if s.status.sent {
		was = s.status.last.State
	}
	s.status.last, s.status.sent = next, true
	if state == was {
		return
	}
	kind, text := protocol.MessageTypeInfo, "wisp: the model answers again"
	if state != completion.StatusReady {
		kind = protocol.MessageTypeWarning
		text = "wisp: " + msg + " (no suggestions until it answers; wisp will say when)"
	}
	s.notify(ctx, protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: kind, Message: text})
}
