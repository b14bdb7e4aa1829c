package transport

import (
	"context"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
)

// pongTimeout bounds a health check's wait for its pong. A healthy
// connection answers within a round trip; a few seconds spares a slow
// network and still replaces a dead one long before the keep-alive would.
const pongTimeout = 3 * time.Second

// health is a connection's health-check state: whether a check runs, and
// the pongs it waits for. The zero value is ready to use.
type health struct {
	mu       sync.Mutex
	checking bool          // guarded by mu: a check is in progress
	pongs    chan struct{} // guarded by mu: closed at the next pong; nil when no one waits
}

// pong is called by the connection's reader for every pong.
func (h *health) pong() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pongs != nil {
		close(h.pongs)
		h.pongs = nil
	}
}

// begin starts a check and returns the channel its pong closes; false if
// a check is already in progress.
func (h *health) begin() (<-chan struct{}, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.checking {
		return nil, false
	}
	h.checking = true
	if h.pongs == nil {
		h.pongs = make(chan struct{})
	}
	return h.pongs, true
}

func (h *health) end() {
	h.mu.Lock()
	h.checking = false
	h.mu.Unlock()
}

// CheckHealth implements HealthChecker: after a generation stalled, the
// current connection is pinged and, if no pong comes within pongTimeout,
// closed, so the next request (or the background redialler of a warmed
// model) dials a new one. A stalled response on a live connection is the
// model's doing; a stalled connection must not serve the next keystroke.
// It returns at once; Close ends a check in progress.
func (m *WSModel) CheckHealth() {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.cur
	if c == nil || m.closed {
		return
	}
	pongs, ok := c.health.begin()
	if !ok {
		return
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer c.health.end()
		if c.ping(m.life, pongs) {
			return
		}
		m.log.Warn("model connection failed its health check; reconnecting", zap.String("host", m.ep.host))
		c.shutdown()
	}()
}

// ping sends a ping and reports whether the pong (pongs closed) came
// within pongTimeout. A connection that already ended, or a model being
// closed, counts as healthy: there is nothing left to replace.
func (c *wsConn) ping(ctx context.Context, pongs <-chan struct{}) bool {
	deadline := time.Now().Add(pongTimeout)
	// WriteControl may run concurrently with the writer (gorilla/websocket
	// allows it alongside every other method).
	if err := c.ws.WriteControl(websocket.PingMessage, []byte("wisp-health"), deadline); err != nil {
		select {
		case <-c.dead:
			return true
		default:
			return false
		}
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-pongs:
		return true
	case <-c.dead:
		return true
	case <-ctx.Done():
		return true
	case <-t.C:
		return false
	}
}
