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
	ts := newTestWSServer(t, stream("ok"))
	ts.reject = func(w http.ResponseWriter, r *http.Request) bool {
		if deaf.Add(1) > 1 {
			return false
		}
		// The first connection accepts requests and then never reads
		// again, so it answers no ping: a connection gone silent.
		up := websocket.Upgrader{}
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return true
		}
		ts.mu.Lock()
		ts.conns = append(ts.conns, ws)
		ts.mu.Unlock()
		return true
	}
	inner := newTestWS(t, ts)
	m := WithDeadlines(inner, Deadlines{FirstToken: 200 * time.Millisecond, Idle: 200 * time.Millisecond})
	_, err := m.Generate(context.Background(), Request{}, nil)
	if KindOf(err) != KindUnavailable {
		t.Fatalf("silent connection: %v, want a stall", err)
	}
	// The check runs in the background; the dead connection is closed
	// within pongTimeout, and the next request dials a new one.
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := m.Generate(context.Background(), Request{}, nil)
		if err == nil && res.Text == "ok" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no request succeeded after the health check: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := deaf.Load(); n != 2 {
		t.Errorf("%d handshakes, want 2 (the dead connection replaced once)", n)
	}
}
