package completion

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/transport"
)

// defaultHold is how long requests wait after a rate-limit answer that
// named no Retry-After: long enough not to answer a 429 with a request
// per keystroke, short enough to be one typing pause.
const defaultHold = time.Second

// authHold is how long requests wait after the endpoint rejected the API
// key: the key will not fix itself between keystrokes, and a request per
// keystroke with a rejected key is what gets a key revoked. A change of
// the model's settings starts a new engine, with no hold; after the hold
// one request tries again.
const authHold = 30 * time.Second

// Status states the engine reports. They are the values editor plugins
// already render: "error" while the model is unavailable, "idle" once it
// answers again.
const (
	StatusUnavailable = "error"
	StatusReady       = "idle"
)

// availability tracks whether the model answers, so that its status is
// told once per change, never per keystroke, and so that a rate limit's
// Retry-After (or a rejected API key) delays the next attempt instead of
// being served as an answer.
type availability struct {
	log    *zap.Logger
	notify func(state, message string) // may be nil

	// mu guards the fields below and orders notifications: a change is
	// told while mu is held, so the client hears them in order.
	mu        sync.Mutex
	down      bool
	kind      transport.ErrorKind // the failure's kind while down
	holdUntil time.Time           // no new generation before this
	holdErr   error               // why; nil when there is no hold
}

// failed records a generation that failed with err (not a cancellation).
func (a *availability) failed(now time.Time, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	kind := transport.KindOf(err)
	switch kind {
	case transport.KindRateLimited:
		wait := defaultHold
		var te *transport.Error
		if errors.As(err, &te) && te.RetryAfter > 0 {
			wait = te.RetryAfter
		}
		a.holdUntil, a.holdErr = now.Add(wait), err
	case transport.KindAuth:
		a.holdUntil, a.holdErr = now.Add(authHold), err
	}
	if a.down && a.kind == kind {
		a.log.Debug("generation failed", zap.Error(err))
		return
	}
	a.down, a.kind = true, kind
	a.log.Warn("model unavailable; completions answer empty until it recovers", zap.Error(err))
	a.tell(StatusUnavailable, "model unavailable: "+err.Error())
}

// answered records that the model produced text (or finished cleanly).
func (a *availability) answered() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.down {
		return
	}
	a.down = false
	a.log.Info("model available again")
	a.tell(StatusReady, "model ready")
}

// held returns an error while a rate limit asks wisp to wait; nil after.
func (a *availability) held(now time.Time) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.holdErr == nil || !now.Before(a.holdUntil) {
		a.holdErr = nil
		return nil
	}
	return fmt.Errorf("not asking the model for another %s: %w", a.holdUntil.Sub(now).Round(time.Millisecond), a.holdErr)
}

// tell notifies a change; a.mu must be held.
func (a *availability) tell(state, msg string) {
	if a.notify != nil {
		a.notify(state, msg)
	}
}
