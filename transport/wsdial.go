package transport

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
)

// requestStep caps how long a user's request is kept from dialling after
// a failed dial: however long the outage, a request a second after the
// last attempt tries again. The background redialler keeps the full
// exponential backoff.
const requestStep = time.Second

// redialGate paces dials after failures: backoff bounds how often wisp
// dials, never whether a user's request may try at all. The zero value
// lets every dial through. WSModel.mu guards it.
type redialGate struct {
	failures int           // consecutive failed dials
	failedAt time.Time     // when the last one failed
	step     time.Duration // the jittered backoff drawn at that failure
	err      error         // the last failure; nil after a success
}

// failed records a failed dial at now.
func (g *redialGate) failed(now time.Time, err error) {
	g.failures++
	g.failedAt, g.step, g.err = now, backoff(g.failures), err
}

// succeeded clears the failures.
func (g *redialGate) succeeded() { *g = redialGate{} }

// backgroundAt is when the background redialler may dial next.
func (g *redialGate) backgroundAt() time.Time {
	if g.failures == 0 {
		return time.Time{}
	}
	return g.failedAt.Add(g.step)
}

// requestAt is when a user's request may dial next: the backoff step, but
// never more than requestStep after the last failure.
func (g *redialGate) requestAt() time.Time {
	if g.failures == 0 {
		return time.Time{}
	}
	return g.failedAt.Add(min(g.step, requestStep))
}

// dialAttempt is one dial in progress; the requests that wait for it
// share its outcome.
type dialAttempt struct {
	done chan struct{} // closed when the dial ended
	conn *wsConn       // set before done is closed on success
	err  error         // set before done is closed; nil on success
}

// conn returns a connection that takes new requests, dialling when there
// is none. Only one dial runs at a time; the others wait for it and share
// its outcome. A request stops waiting as soon as ctx ends, with an error
// that says it was still connecting; the dial itself runs on until it
// ends (bounded by the handshake timeout) or Close, so a connection that
// a cancelled keystroke started serves the next one. After a failed dial
// a request within the gate's step fails at once with that dial's error
// (the caller answers empty; when the next dial may come is the gate's
// business, not the caller's), and the first request after it dials.
func (m *WSModel) conn(ctx context.Context) (*wsConn, error) {
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, m.ep.unavailable("model closed", nil)
		}
		if c := m.cur; c != nil {
			if c.fresh() {
				m.mu.Unlock()
				return c, nil
			}
			m.cur = nil
			c.retire() // closes once its requests finish
		}
		a := m.dialing
		if a == nil {
			if time.Now().Before(m.gate.requestAt()) {
				err := m.gate.err
				m.mu.Unlock()
				return nil, err
			}
			a = &dialAttempt{done: make(chan struct{})}
			m.dialing = a
			m.wg.Add(1)
			go m.dialFor(a)
		}
		m.mu.Unlock()
		select {
		case <-a.done:
			// The new connection is this request's even if it is no
			// longer fresh: a request never loops on dials.
			return a.conn, a.err
		case <-ctx.Done():
			return nil, m.ep.endedConnecting(ctx)
		}
	}
}

// dialFor runs attempt a: it dials, installs the connection as current,
// and records the outcome for the gate.
func (m *WSModel) dialFor(a *dialAttempt) {
	defer m.wg.Done()
	defer close(a.done)
	ws, err := m.dial(m.life)

	m.mu.Lock()
	defer m.mu.Unlock()
	m.dialing = nil
	switch {
	case err != nil && m.closed:
		a.err = m.ep.unavailable("model closed", nil)
		return
	case err != nil:
		m.gate.failed(time.Now(), err)
		a.err = err
		return
	}
	if m.closed {
		_ = ws.Close()
		a.err = m.ep.unavailable("model closed", nil)
		return
	}
	m.gate.succeeded()
	c := newWSConn(ws, m.ep, m.log, m.maxAge, m.pingEvery)
	m.cur, a.conn = c, c
	m.conns[c] = struct{}{}
	m.wg.Add(2)
	go func() { defer m.wg.Done(); c.writeLoop() }()
	go func() { defer m.wg.Done(); c.readLoop(); m.dropped(c) }()
	m.log.Debug("model websocket open", zap.String("host", m.ep.host))
}

// dial opens a WebSocket, turning a refused handshake into a typed error.
// It returns as soon as ctx ends: gorilla/websocket honours a deadline
// while it waits for the upgrade but not a cancellation, so the raw
// connection is closed when ctx ends, which ends any read or write the
// handshake is blocked in.
func (m *WSModel) dial(ctx context.Context) (*websocket.Conn, error) {
	d := m.dialer
	// unwatch stops the closing once the dial is over; set by
	// NetDialContext, which DialContext calls on this goroutine.
	var unwatch func() bool
	d.NetDialContext = func(dctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(dctx, network, addr)
		if err == nil {
			unwatch = context.AfterFunc(ctx, func() { _ = c.Close() })
		}
		return c, err
	}
	ws, resp, err := d.DialContext(ctx, m.url, m.header)
	if unwatch != nil && !unwatch() && err == nil {
		_ = ws.Close() // ctx ended, closing the connection, as the handshake succeeded
		err = ctx.Err()
	}
	if err == nil {
		return ws, nil
	}
	if ctx.Err() != nil {
		return nil, cancelled(ctx)
	}
	if resp != nil && errors.Is(err, websocket.ErrBadHandshake) {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		var eb struct {
			Error wireError `json:"error"`
		}
		_ = json.Unmarshal(body, &eb)
		msg := eb.Error.Message
		if msg == "" && resp.StatusCode != http.StatusSwitchingProtocols {
			msg = http.StatusText(resp.StatusCode)
		}
		return nil, m.ep.statusError(resp.StatusCode, eb.Error.Code, msg, resp.Header)
	}
	return nil, m.ep.unavailable("dial", err)
}

// dropped runs when a connection's reader has exited. If it was the
// current connection of a warmed model, a new one is dialled in the
// background.
func (m *WSModel) dropped(c *wsConn) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.conns, c)
	if m.cur != c {
		return
	}
	m.cur = nil
	if m.warm && !m.closed && !m.redialing {
		m.redialing = true
		m.wg.Add(1)
		go m.redial()
	}
}

// redial reconnects until it succeeds, the key is refused, or Close.
func (m *WSModel) redial() {
	defer m.wg.Done()
	defer func() {
		m.mu.Lock()
		m.redialing = false
		m.mu.Unlock()
	}()
	for {
		_, err := m.conn(m.life)
		if err == nil || m.life.Err() != nil || KindOf(err) == KindAuth {
			return
		}
		m.mu.Lock()
		wait := time.Until(m.gate.backgroundAt())
		m.mu.Unlock()
		t := time.NewTimer(max(wait, time.Millisecond))
		select {
		case <-t.C:
		case <-m.life.Done():
			t.Stop()
			return
		}
	}
}

// backoff is the delay before dial attempt n+1 after n failures:
// exponential with full jitter in its upper half.
func backoff(n int) time.Duration {
	d := backoffBase << min(n-1, 16)
	d = min(d, backoffMax)
	return d/2 + rand.N(d/2+1)
}
