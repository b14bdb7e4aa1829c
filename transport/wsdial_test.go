package transport

import (
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
