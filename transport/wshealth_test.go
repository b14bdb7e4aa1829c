package transport

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A stalled stream on a connection that no longer answers pings is
// replaced: the health check closes it and the next request dials anew.
func TestWSStallHealthCheckReplacesDeadConnection(t *testing.T) {
	var deaf atomic.Int32
	closed := make(chan struct{}) // closed when the client closes the silent connection
	ts := newTestWSServer(t, stream("ok"))
	ts.reject = func(w http.ResponseWriter, r *http.Request) bool {
		if deaf.Add(1) > 1 {
			return false
		}
		// The first connection takes requests and answers nothing, not
		// even a ping: a connection gone silent. It reads only to see
		// the client close it.
		up := websocket.Upgrader{}
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return true
		}
		ws.SetPingHandler(func(string) error { return nil })
		ts.mu.Lock()
		ts.conns = append(ts.conns, ws)
		ts.mu.Unlock()
		go func() {
			defer close(closed)
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					return
				}
			}
		}()
		return true
	}
	inner := newTestWS(t, ts)
	m := WithDeadlines(inner, Deadlines{FirstToken: 200 * time.Millisecond, Idle: 200 * time.Millisecond})
	_, err := m.Generate(context.Background(), Request{}, nil)
	if KindOf(err) != KindUnavailable {
		t.Fatalf("silent connection: %v, want a stall", err)
	}
	// The check runs in the background and closes the dead connection
	// within pongTimeout; then the next request dials a new one.
	select {
	case <-closed:
	case <-time.After(pongTimeout + 10*time.Second):
		t.Fatal("the health check never closed the silent connection")
	}
	if res, err := m.Generate(context.Background(), Request{}, nil); err != nil || res.Text != "ok" {
		t.Fatalf("after the health check: %q, %v", res.Text, err)
	}
	if n := deaf.Load(); n != 2 {
		t.Errorf("%d handshakes, want 2 (the dead connection replaced once)", n)
	}
}
