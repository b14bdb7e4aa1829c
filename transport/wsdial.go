package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
)

// conn returns a connection that takes new requests, dialling when there
// is none. Only one dial runs at a time; the others wait for it.
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
		if ch := m.dialing; ch != nil {
			m.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, cancelled(ctx)
			}
		}
		if wait := time.Until(m.retryAt); wait > 0 && m.lastErr != nil {
			err := m.lastErr
			m.mu.Unlock()
			return nil, fmt.Errorf("not reconnecting for another %s: %w", wait.Round(time.Millisecond), err)
		}
		ch := make(chan struct{})
		m.dialing = ch
		m.mu.Unlock()

		ws, err := m.dial(ctx)

		m.mu.Lock()
		m.dialing = nil
		close(ch)
		if err != nil {
			if !IsCancelled(err) {
				m.failures++
				m.retryAt = time.Now().Add(backoff(m.failures))
				m.lastErr = err
			}
			m.mu.Unlock()
			return nil, err
		}
		if m.closed {
			m.mu.Unlock()
			_ = ws.Close()
			return nil, m.ep.unavailable("model closed", nil)
		}
		m.failures, m.lastErr = 0, nil
		c := newWSConn(ws, m.ep, m.log, m.maxAge, m.pingEvery)
		m.cur = c
		m.conns[c] = struct{}{}
		m.wg.Add(2)
		go func() { defer m.wg.Done(); c.writeLoop() }()
		go func() { defer m.wg.Done(); c.readLoop(); m.dropped(c) }()
		m.mu.Unlock()
		m.log.Debug("model websocket open", zap.String("host", m.ep.host))
		return c, nil
	}
}

// dial opens a WebSocket, turning a refused handshake into a typed error.
func (m *WSModel) dial(ctx context.Context) (*websocket.Conn, error) {
	ws, resp, err := m.dialer.DialContext(ctx, m.url, m.header)
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
		wait := time.Until(m.retryAt)
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
