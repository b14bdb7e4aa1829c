package modelserver

import (
	"reflect"
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
