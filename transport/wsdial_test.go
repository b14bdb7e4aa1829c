package transport

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// However long the outage, a user's request may dial a second after the
// last failure; the background redialler keeps the exponential backoff.
func TestRedialGateLetsRequestsTry(t *testing.T) {
	var g redialGate
	now := time.Now()
	if !g.requestAt().IsZero() || !g.backgroundAt().IsZero() {
		t.Fatal("a gate with no failures holds dials back")
	}
	for i := range 20 { // about 45 s of failures and more
		g.failed(now, errDown)
		if wait := g.requestAt().Sub(now); wait > requestStep {
			t.Fatalf("after %d failures a request waits %v, want at most %v", i+1, wait, requestStep)
		}
	}
	if wait := g.backgroundAt().Sub(now); wait < backoffMax/2 {
		t.Errorf("after 20 failures the background redialler waits %v, want the full backoff", wait)
	}
	g.succeeded()
	if !g.requestAt().IsZero() || g.err != nil {
		t.Fatal("a success does not clear the gate")
	}
}

var errDown = &Error{Kind: KindUnavailable, Message: "down"}

// A dial outlives the request that started it: editors cancel a request
// on every keystroke, and a handshake slower than the typing must still
// complete and serve the next request, not start over each time.
func TestWSDialOutlivesCancelledRequest(t *testing.T) {
	ts := newTestWSServer(t, stream("ok"))
	var handshakes atomic.Int32
	arrived, finish := make(chan struct{}), make(chan struct{})
	ts.reject = func(http.ResponseWriter, *http.Request) bool {
		if handshakes.Add(1) == 1 {
			close(arrived)
			<-finish // a handshake slower than the typing
		}
		return false
	}
	m := newTestWS(t, ts)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel() // the next keystroke, while the handshake is under way
	}()
	if _, err := m.Generate(ctx, Request{}, nil); !IsCancelled(err) {
		t.Fatalf("request cancelled during the handshake: %v", err)
	}
	close(finish)
	res, err := m.Generate(context.Background(), Request{}, nil)
	if err != nil || res.Text != "ok" {
		t.Fatalf("next request: %q, %v", res.Text, err)
	}
	if n := handshakes.Load(); n != 1 {
		t.Fatalf("%d handshakes, want 1: the first dial should have served the next request", n)
	}
}
