package modelserver

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"
)

const ms = time.Millisecond

// pacedOptions: 50ms to the first token, 100 tokens/s, 5ms each way.
func pacedOptions(c Clock) Options {
	return Options{Script: script(), TTFT: 50 * ms, Rate: 100, Delay: 5 * ms, Clock: c}
}

func TestHTTPPacing(t *testing.T) {
	clock := &fakeClock{}
	_, base := start(t, pacedOptions(clock))
	// "x := 1" is four tokens: x, " :", "=", " 1".
	for range 2 {
		resp := post(t, base+"/v1/completions", map[string]any{"prompt": "if x {\n\t", "suffix": "}", "stream": true})
		if _, err := sseData(resp.Body); err != nil {
			t.Fatal(err)
		}
	}
	want := []time.Duration{
		10 * ms,                   // the first request pays the connection handshake and its own trip
		55 * ms,                   // TTFT plus the trip back
		10 * ms, 10 * ms, 10 * ms, // one token every 1/Rate
		5 * ms, // the second request, on the same connection, only its trip
		55 * ms, 10 * ms, 10 * ms, 10 * ms,
	}
	if got := clock.slept(); !reflect.DeepEqual(got, want) {
		t.Fatalf("slept %v, want %v", got, want)
	}
}

func TestWSPacing(t *testing.T) {
	clock := &fakeClock{}
	_, base := start(t, pacedOptions(clock))
	c := dial(t, base)
	send(t, c, create("s", "if x {\n\t", "}"))
	if l := readLanes(t, c, "s")["s"]; l.text != "x := 1" {
		t.Fatalf("got %q", l.text)
	}
	want := []time.Duration{
		10 * ms, // the upgrade: handshake and trip
		5 * ms,  // response.create travels to the server
		5 * ms,  // response.created travels back
		50 * ms, // the first token, TTFT after arrival, lands a trip later
		10 * ms, 10 * ms, 10 * ms,
	}
	if got := clock.slept(); !reflect.DeepEqual(got, want) {
		t.Fatalf("slept %v, want %v", got, want)
	}
}

// gatedClock is a fakeClock that, once armed, holds the first sleep
// until the test lets it go, and says when the time has been read three
// times since it was armed.
type gatedClock struct {
	fakeClock
	mu      sync.Mutex
	armed   bool          // guarded by mu: the next sleep holds
	reads   int           // guarded by mu: Now calls since armed
	read3   chan struct{} // closed at the third Now call since armed
	held    chan struct{} // closed when the armed sleep starts holding
	release chan struct{} // closed by the test to end the hold
}

func newGatedClock() *gatedClock {
	return &gatedClock{read3: make(chan struct{}), held: make(chan struct{}), release: make(chan struct{})}
}

func (c *gatedClock) arm() {
	c.mu.Lock()
	c.armed = true
	c.mu.Unlock()
}

// Now reads the time before it counts the read: a test woken by the third
// read may let the held sleep move the clock on at once, and the reader
// must already have its time.
func (c *gatedClock) Now() time.Time {
	now := c.fakeClock.Now()
	c.mu.Lock()
	if c.armed || c.reads > 0 {
		if c.reads++; c.reads == 3 {
			close(c.read3)
		}
	}
	c.mu.Unlock()
	return now
}

func (c *gatedClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	hold := c.armed
	c.armed = false
	c.mu.Unlock()
	if hold {
		close(c.held)
		select {
		case <-c.release:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return c.fakeClock.Sleep(ctx, d)
}

// A frame's network delay runs from when it was read, overlapping the
// delays of the frames before it, as on a real network: while a cancel
// travels, the create sent after it is read (and stamped), so it arrives
// one Delay after it was sent, not one Delay after the cancel arrived.
func TestWSDelaysOverlap(t *testing.T) {
	clock := newGatedClock()
	_, base := start(t, pacedOptions(clock))
	c := dial(t, base)
	clock.arm()
	send(t, c, map[string]any{"type": "response.cancel", "response_id": "resp_none"})
	send(t, c, create("s", "if x {\n\t", "}"))
	<-clock.held // the cancel's trip to the server
	// The clock is read for the cancel's stamp, for its delay, and for
	// the create's stamp: the create is read while the cancel travels.
	select {
	case <-clock.read3:
	case <-time.After(10 * time.Second):
		t.Fatal("the create was not read while the cancel's delay ran")
	}
	close(clock.release)
	if l := readLanes(t, c, "s")["s"]; l.text != "x := 1" {
		t.Fatalf("got %q", l.text)
	}
	want := []time.Duration{
		10 * ms, // the upgrade
		5 * ms,  // the cancel travels to the server
		0,       // the create travelled at the same time
		5 * ms,  // response.created travels back
		50 * ms, 10 * ms, 10 * ms, 10 * ms,
	}
	if got := clock.slept(); !reflect.DeepEqual(got, want) {
		t.Fatalf("slept %v, want %v", got, want)
	}
}
