package transport

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Default deadlines for a completion's generation. A ghost text is worth
// showing only while the user is still at the cursor that asked for it, so
// the bounds are short; they exist to end a stalled stream, not to judge a
// slow model.
const (
	// DefaultFirstTokenTimeout bounds the time from the request to the
	// first token, including a dial or reconnection. Fast hosted code
	// models answer in 0.1–0.6 s and a fresh TLS connection adds one or
	// two round trips; three seconds is several times the slow tail of
	// both, and longer than anyone waits for ghost text at one cursor.
	DefaultFirstTokenTimeout = 3 * time.Second
	// DefaultIdleTimeout bounds the silence between two tokens. Streams
	// deliver tokens every few milliseconds (the slowest hosted models
	// stream 30–50 tokens/s, a 30 ms gap); two seconds of silence mid-
	// stream is a stall, not a slow model.
	DefaultIdleTimeout = 2 * time.Second
)

// Deadlines bound a generation in time. Zero fields take the defaults.
type Deadlines struct {
	// FirstToken is the longest wait from the request to the first delta.
	FirstToken time.Duration
	// Idle is the longest silence between two deltas.
	Idle time.Duration
}

// HealthChecker is implemented by models whose connection can be checked
// after a generation stalled: CheckHealth starts the check in the
// background and returns at once; a connection that fails it is replaced.
// The check ends by Close.
type HealthChecker interface {
	CheckHealth()
}

// WithDeadlines returns a Model that bounds every generation of m by d: a
// generation with no first delta within d.FirstToken, or silent for longer
// than d.Idle between deltas, is cancelled at the model (its context is
// cancelled, so a response.cancel or a closed HTTP stream follows) and
// fails with a KindUnavailable error that says which deadline passed. If m
// is a HealthChecker its connection is then checked.
//
// The returned Model forwards Warm to m when m is a Warmer, and Close to m.
func WithDeadlines(m Model, d Deadlines) Model {
	d.FirstToken = durationOr(d.FirstToken, DefaultFirstTokenTimeout)
	d.Idle = durationOr(d.Idle, DefaultIdleTimeout)
	return &deadlineModel{inner: m, d: d}
}

// deadlineModel is the Model WithDeadlines returns.
type deadlineModel struct {
	inner Model     // never nil; immutable
	d     Deadlines // immutable
}

var (
	_ Model  = (*deadlineModel)(nil)
	_ Warmer = (*deadlineModel)(nil)
)

// stallError is the cause a deadline cancels a generation with.
type stallError struct {
	what  string // "first token" or "next token"
	limit time.Duration
}

func (e *stallError) Error() string {
	return fmt.Sprintf("model sent no %s within %s", e.what, e.limit)
}

// Generate implements Model.
func (dm *deadlineModel) Generate(ctx context.Context, req Request, onDelta func(string)) (Result, error) {
	genCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	first := &stallError{what: "first token", limit: dm.d.FirstToken}
	idle := &stallError{what: "next token", limit: dm.d.Idle}

	var (
		mu       sync.Mutex // guards the two below against the timer's own firing
		gotFirst bool
		stalled  *stallError // set once, by the timer
	)
	timer := time.AfterFunc(dm.d.FirstToken, func() {
		mu.Lock()
		why := first
		if gotFirst {
			why = idle
		}
		stalled = why
		mu.Unlock()
		cancel(why)
	})
	defer timer.Stop()
	res, err := dm.inner.Generate(genCtx, req, func(delta string) {
		mu.Lock()
		// A timer that already fired has cancelled the generation and set
		// stalled; only a stopped one is re-armed.
		if stalled == nil && timer.Stop() {
			gotFirst = true
			timer.Reset(dm.d.Idle)
		}
		mu.Unlock()
		if onDelta != nil {
			onDelta(delta)
		}
	})
	timer.Stop()
	mu.Lock()
	why := stalled
	mu.Unlock()
	if why == nil || ctx.Err() != nil {
		return res, err
	}
	if hc, ok := dm.inner.(HealthChecker); ok {
		hc.CheckHealth()
	}
	msg := why.Error()
	var e *Error
	if errors.As(err, &e) && e.Code == codeConnecting {
		// The model was never reached: say so, not that it sent nothing.
		msg = fmt.Sprintf("%s (no connection within %s)", e.Message, why.limit)
	}
	res.FinishReason = "stalled"
	return res, &Error{Kind: KindUnavailable, Code: "stalled", Message: msg}
}

// Warm implements Warmer by warming the inner model, if it can be.
func (dm *deadlineModel) Warm(ctx context.Context) error {
	if w, ok := dm.inner.(Warmer); ok {
		return w.Warm(ctx)
	}
	return nil
}

// Close closes the inner model.
func (dm *deadlineModel) Close() error { return dm.inner.Close() }
