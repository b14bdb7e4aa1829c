package modelserver_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// The openai-ws client against the loopback server in both of its modes:
// honouring (cancel stops the model) and strict (the real service's
// documented behaviour: no cancel, 16 in flight, 32 streams, 60 minutes).

var modes = []struct {
	name   string
	strict bool
}{{"honouring", false}, {"strict", true}}

// serve starts a model server with opts and returns it and an openai-ws
// client for it; both are closed when the test ends.
func serve(t testing.TB, opts modelserver.Options) (*modelserver.Server, *transport.WSModel) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms := modelserver.New(opts)
	done := make(chan struct{})
	go func() { defer close(done); _ = ms.Serve(l) }()
	m, err := transport.NewWS(transport.WSConfig{Endpoint: "ws://" + l.Addr().String() + "/v1/responses", Model: "m", MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.Close()
		ms.Close()
		<-done
	})
	return ms, m
}

// held answers four "tok " tokens. A query whose prefix starts with
// "hold" yields one token and then waits for release (or its context); one
// starting with "wait" waits before its first token. Every start is
// announced on started, and the most replies running at once is kept in
// peak.
type held struct {
	release chan struct{}
	started chan string
	running atomic.Int32
	peak    atomic.Int32
}

func newHeld() *held {
	return &held{release: make(chan struct{}), started: make(chan string, 256)}
}

func (h *held) Generate(ctx context.Context, q modelserver.Query, yield func(string) bool) error {
	n := h.running.Add(1)
	defer h.running.Add(-1)
	for p := h.peak.Load(); n > p && !h.peak.CompareAndSwap(p, n); p = h.peak.Load() {
	}
	h.started <- q.Prefix
	if strings.HasPrefix(q.Prefix, "wait") {
		select {
		case <-h.release:
		case <-ctx.Done():
			return nil
		}
	}
	for i := range 4 {
		if !yield("tok ") {
			return nil
		}
		if i == 0 && strings.HasPrefix(q.Prefix, "hold") {
			select {
			case <-h.release:
			case <-ctx.Done():
				return nil
			}
		}
	}
	return nil
}

func wait(t testing.TB, ch <-chan string) string {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for the model")
		return ""
	}
}

func TestWSClientStaysWithinInFlightLimit(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			h := newHeld()
			ms, m := serve(t, modelserver.Options{Backend: h, Strict: mode.strict})
			const n = 40
			errs := make(chan error, n)
			for i := range n {
				go func() {
					res, err := m.Generate(context.Background(), transport.Request{Prefix: fmt.Sprint("hold ", i)}, nil)
					if err == nil && res.Text != "tok tok tok tok " {
						err = fmt.Errorf("request %d got %q", i, res.Text)
					}
					errs <- err
				}()
			}
			for range 16 { // the connection fills up; the rest wait for room
				wait(t, h.started)
			}
			close(h.release)
			for range n {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
			st := ms.Stats()
			if p := h.peak.Load(); p > 16 {
				t.Errorf("%d responses ran at once on the server, want at most 16", p)
			}
			if st.LimitErrors != 0 || st.WebSockets != 1 || st.Requests != n {
				t.Errorf("stats %+v: want %d requests on one WebSocket and no limit errors", st, n)
			}
		})
	}
}

func TestWSClientReusesStreamIDs(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			h := newHeld()
			ms, m := serve(t, modelserver.Options{Backend: h, Strict: mode.strict})
			for i := range 3 * 32 {
				if _, err := m.Generate(context.Background(), transport.Request{Prefix: "x"}, nil); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
			}
			if st := ms.Stats(); st.LimitErrors != 0 || st.WebSockets != 1 {
				t.Errorf("stats %+v: want one WebSocket and no limit errors over 96 requests", st)
			}
		})
	}
}

// TestWSClientCancelLeavesOtherLanes cancels one of two requests in
// flight. Under strict mode the cancel is answered with an error, which
// must fail neither the other request nor the connection, and the client
// then stops sending cancels.
func TestWSClientCancelLeavesOtherLanes(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			h := newHeld()
			ms, m := serve(t, modelserver.Options{Backend: h, Strict: mode.strict})
			other := make(chan error, 1)
			go func() {
				res, err := m.Generate(context.Background(), transport.Request{Prefix: "hold other"}, nil)
				if err == nil && res.Text != "tok tok tok tok " {
					err = fmt.Errorf("the other request got %q", res.Text)
				}
				other <- err
			}()
			wait(t, h.started)
			for range 2 {
				ctx, cancel := context.WithCancel(context.Background())
				_, err := m.Generate(ctx, transport.Request{Prefix: "hold stale"}, func(string) { cancel() })
				if !transport.IsCancelled(err) {
					t.Fatalf("cancelled request: %v", err)
				}
				wait(t, h.started)
				// A whole request after the cancel: the cancel's answer, if
				// any, is read before its events.
				if res, err := m.Generate(context.Background(), transport.Request{Prefix: "next"}, nil); err != nil || res.Text != "tok tok tok tok " {
					t.Fatalf("request after the cancel: %q, %v", res.Text, err)
				}
				wait(t, h.started)
			}
			close(h.release)
			if err := <-other; err != nil {
				t.Fatal(err)
			}
			st := ms.Stats()
			if st.WebSockets != 1 {
				t.Errorf("%d WebSockets, want the connection kept", st.WebSockets)
			}
			if !mode.strict && st.Cancels != 2 {
				t.Errorf("honouring mode: %d cancels, want 2", st.Cancels)
			}
			if mode.strict && (st.Cancels != 0 || st.CancelsIgnored == 0 || st.CancelsIgnored > 2) {
				t.Errorf("strict mode: %d cancels, %d ignored; want the client to stop cancelling after the first refusal (at most its two frames)",
					st.Cancels, st.CancelsIgnored)
			}
		})
	}
}

// gateClock is the wall clock, except for sleeps as long as the
// connection age: the first connection ages out when fire is closed, later
// ones never.
type gateClock struct {
	age   time.Duration
	fire  chan struct{}
	sleep atomic.Int32 // counts age sleeps
}

func (c *gateClock) Now() time.Time { return modelserver.WallClock.Now() }

// Sleep holds the first age-cap sleep until fire closes (and any later one
// forever); every other sleep is the real clock's.
func (c *gateClock) Sleep(ctx context.Context, d time.Duration) error {
	if d != c.age {
		return modelserver.WallClock.Sleep(ctx, d)
	}
	fire := c.fire
	if c.sleep.Add(1) > 1 {
		fire = nil
	}
	select {
	case <-fire:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestWSClientConnectionAgeResendsWhatHadNoOutput ages a connection out
// with two requests in flight: the one that had output fails cleanly, the
// one that had none is sent again on a new connection and completes.
func TestWSClientConnectionAgeResendsWhatHadNoOutput(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			h := newHeld()
			clock := &gateClock{age: time.Hour, fire: make(chan struct{})}
			ms, m := serve(t, modelserver.Options{Backend: h, Strict: mode.strict, MaxConnAge: time.Hour, Clock: clock})
			streaming := make(chan error, 1)
			output := make(chan string, 4)
			go func() {
				res, err := m.Generate(context.Background(), transport.Request{Prefix: "hold streaming"},
					func(d string) { output <- d })
				if err == nil {
					err = fmt.Errorf("the request that had output succeeded with %q", res.Text)
				} else if transport.KindOf(err) != transport.KindUnavailable || res.Text != "tok " {
					err = fmt.Errorf("the request that had output: %q, %v; want its text so far and an unavailable error", res.Text, err)
				} else {
					err = nil
				}
				streaming <- err
			}()
			wait(t, h.started)
			wait(t, output) // the client has had output from this one
			quiet := make(chan error, 1)
			go func() {
				res, err := m.Generate(context.Background(), transport.Request{Prefix: "wait"}, nil)
				if err == nil && res.Text != "tok tok tok tok " {
					err = fmt.Errorf("quiet request got %q", res.Text)
				}
				quiet <- err
			}()
			wait(t, h.started)
			close(clock.fire)
			if err := <-streaming; err != nil {
				t.Error(err)
			}
			wait(t, h.started) // the quiet request, sent again
			close(h.release)
			if err := <-quiet; err != nil {
				t.Errorf("the request with no output: %v; want it sent again on a new connection", err)
			}
			if st := ms.Stats(); st.WebSockets != 2 {
				t.Errorf("%d WebSockets, want 2", st.WebSockets)
			}
		})
	}
}

// endlessTokens yields "tok " until told to stop.
type endlessTokens struct{}

func (endlessTokens) Generate(ctx context.Context, _ modelserver.Query, yield func(string) bool) error {
	for yield("tok ") {
	}
	return nil
}

// BenchmarkWSStaleTokens measures what a keystroke's "cancel" costs at the
// model: each op starts a generation (max_output_tokens tokens at 500
// tokens/s) and abandons it at its first token, as typing past a
// suggestion does. wasted-tokens/op is what the model sent that the
// client never used: near zero where cancel is honoured, the rest of
// max_output_tokens under strict mode, where the service has no cancel.
// ns/op includes waiting for a free slot: under strict mode stale
// responses hold the connection's 16 until they run out.
func BenchmarkWSStaleTokens(b *testing.B) {
	for _, mode := range modes {
		for _, maxTokens := range []int{32, 128} {
			b.Run(fmt.Sprintf("%s/max_output_tokens=%d", mode.name, maxTokens), func(b *testing.B) {
				ms, m := serve(b, modelserver.Options{Backend: endlessTokens{}, Strict: mode.strict, Rate: 500})
				if err := m.Warm(context.Background()); err != nil {
					b.Fatal(err)
				}
				used := 0
				b.ResetTimer()
				for range b.N {
					ctx, cancel := context.WithCancel(context.Background())
					_, err := m.Generate(ctx, transport.Request{Prefix: "x", MaxTokens: maxTokens}, func(string) { used++; cancel() })
					cancel()
					if err != nil && !transport.IsCancelled(err) {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				m.Close()
				ms.Close() // waits for the stale responses to end, so the counts are final
				st := ms.Stats()
				b.ReportMetric(float64(st.Tokens-int64(used))/float64(b.N), "wasted-tokens/op")
			})
		}
	}
}
