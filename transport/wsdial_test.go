package transport

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/transport/transporttest"
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

func newHungWS(t *testing.T, hs *transporttest.Hung) *WSModel {
	t.Helper()
	m, err := NewWS(WSConfig{Endpoint: "ws://" + hs.Addr + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// promptly waits for a value that must come at once. The bound is
// generous, for a loaded machine, and far below the ten seconds of the
// handshake timeout, which is what a dial that ignores cancellation waits.
func promptly[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(3 * time.Second):
		t.Fatalf("%s: still waiting after 3s", what)
		panic("unreachable")
	}
}

// A request waiting for a connection whose handshake hangs stops waiting
// when its context ends, and its error says it was still connecting:
// cancelled, timed out, or (under WithDeadlines) no connection within the
// first-token bound, not a model that sent no token.
func TestWSRequestEndsWhileHandshakeHangs(t *testing.T) {
	for _, tc := range []struct {
		name string
		// timeout bounds the request's context; firstToken, its
		// WithDeadlines. With neither, the context is cancelled once the
		// server has the handshake.
		timeout, firstToken time.Duration
		kind                ErrorKind
		want                string
	}{
		{name: "cancelled", kind: KindCancelled, want: "cancelled while connecting to model endpoint"},
		{name: "deadline", timeout: 50 * time.Millisecond, kind: KindCancelled, want: "timed out while connecting to model endpoint"},
		{name: "first-token bound", firstToken: 50 * time.Millisecond, kind: KindUnavailable, want: "timed out while connecting to model endpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := transporttest.NewHung(t)
			m := newHungWS(t, hs)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.timeout > 0 {
				var stop context.CancelFunc
				ctx, stop = context.WithTimeout(ctx, tc.timeout)
				defer stop()
			}
			var gen Model = m
			if tc.firstToken > 0 {
				gen = WithDeadlines(m, Deadlines{FirstToken: tc.firstToken})
			}
			errc := make(chan error, 1)
			go func() {
				_, err := gen.Generate(ctx, Request{}, nil)
				errc <- err
			}()
			if tc.timeout == 0 && tc.firstToken == 0 {
				recv(t, hs.Asked)
				cancel()
			}
			err := promptly(t, errc, "the request")
			if KindOf(err) != tc.kind || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), hs.Addr) || strings.Contains(err.Error(), "first token") {
				t.Errorf("err = %v (kind %v), want kind %v saying %q and the endpoint", err, KindOf(err), tc.kind, tc.want)
			}
		})
	}
}

// Close ends a dial stuck in its handshake instead of waiting it out
// (gorilla/websocket honours the handshake timeout there, not a
// cancellation), and the request that waited for the dial fails as closed.
func TestWSCloseEndsHungHandshake(t *testing.T) {
	hs := transporttest.NewHung(t)
	m := newHungWS(t, hs)
	errc := make(chan error, 1)
	go func() {
		_, err := m.Generate(context.Background(), Request{}, nil)
		errc <- err
	}()
	recv(t, hs.Asked) // the handshake is under way
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }()
	promptly(t, closed, "Close")
	if err := promptly(t, errc, "the request"); KindOf(err) != KindUnavailable {
		t.Errorf("err = %v, want unavailable after Close", err)
	}
}

// A request whose dial is refused fails with the dial's error. It is not
// sent again, which would only meet the redial gate and report
// "reconnecting in …" to a caller that asked once; a request the gate
// holds back (the next one, unless the machine is slow) fails with the
// same error.
func TestWSRefusedDialIsTheError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	m := newHungWS(t, &transporttest.Hung{Addr: addr})
	for i := range 2 {
		_, err = m.Generate(context.Background(), Request{}, nil)
		if KindOf(err) != KindUnavailable || !strings.Contains(err.Error(), addr) || strings.Contains(err.Error(), "reconnecting") {
			t.Errorf("request %d: err = %v, want the unreachable endpoint's dial error", i+1, err)
		}
	}
}
