package modelserver

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// gated yields one token, then waits for release (or its context), then
// yields more tokens for as long as they are taken (none when once): a
// response that stays in flight as long as a test needs.
type gated struct {
	release chan struct{}
	once    bool
}

func (g gated) Generate(ctx context.Context, _ Query, yield func(string) bool) error {
	if !yield("tok ") {
		return nil
	}
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil
	}
	for !g.once && yield("tok ") {
	}
	return nil
}

func errorCode(e event) string {
	er, _ := e["error"].(map[string]any)
	s, _ := er["code"].(string)
	return s
}

func TestStrictCancelIsAnErrorAndStopsNothing(t *testing.T) {
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprint("strict=", strict), func(t *testing.T) {
			release := make(chan struct{})
			s, base := start(t, Options{Backend: gated{release: release}, Strict: strict})
			c := dial(t, base)
			req := create("s", "x", "")
			req["max_output_tokens"] = 40
			send(t, c, req)
			id := readEvent(t, c).response().str("id")
			readEvent(t, c) // the first delta
			send(t, c, map[string]any{"type": "response.cancel", "response_id": id, "stream_id": "s"})
			var errs []event
			var terminal event
			for terminal == nil {
				switch e := readEvent(t, c); e.str("type") {
				case "error":
					errs = append(errs, e)
					close(release) // the model goes on (strict) once the cancel is answered
				case "response.completed", "response.incomplete", "response.failed":
					terminal = e
				}
			}
			reason, _ := terminal.response()["incomplete_details"].(map[string]any)
			if !strict {
				if len(errs) != 0 || reason["reason"] != "cancelled" {
					t.Fatalf("honouring mode: errors %v, end %v; want a cancelled end and no error", errs, terminal)
				}
				close(release)
				return
			}
			if len(errs) != 1 || errs[0].str("stream_id") != "" || errorCode(errs[0]) != codeUnknownType {
				t.Fatalf("strict mode answered the cancel with %v, want one unknown_event_type error naming no stream", errs)
			}
			if reason["reason"] != "max_output_tokens" {
				t.Fatalf("strict mode ended the response with %v, want it to run to max_output_tokens", terminal)
			}
			c.Close()
			s.Close()
			if st := s.Stats(); st.Cancels != 0 || st.CancelsIgnored != 1 || st.TokensAfterCancel < 30 {
				t.Errorf("stats %+v: want no cancels, one ignored, and the rest of the 40 tokens counted after it", st)
			}
		})
	}
}

func TestStrictInFlightLimit(t *testing.T) {
	release := make(chan struct{})
	s, base := start(t, Options{Backend: gated{release: release, once: true}, Strict: true})
	c := dial(t, base)
	for i := range strictMaxInFlight {
		send(t, c, create(fmt.Sprint("s", i), "x", ""))
	}
	for range 2 * strictMaxInFlight { // each lane's response.created and first delta
		if e := readEvent(t, c); e.str("type") == "error" {
			t.Fatalf("refused within the limit: %v", e)
		}
	}
	send(t, c, create("over", "x", ""))
	e := readEvent(t, c)
	if e.str("type") != "error" || e.str("stream_id") != "over" || errorCode(e) != codeStreamLimit {
		t.Fatalf("the 17th response in flight got %v, want websocket_stream_limit_reached", e)
	}
	close(release)
	for ended := 0; ended < strictMaxInFlight; {
		if typ := readEvent(t, c).str("type"); typ == "response.completed" {
			ended++
		} else if typ != "response.output_text.done" {
			t.Fatalf("while the lanes end: %s", typ)
		}
	}
	send(t, c, create("over", "x", ""))
	if l := readLanes(t, c, "over")["over"]; l.terminal != "response.completed" {
		t.Fatalf("after the others ended, the refused stream got %s %v", l.terminal, l.last)
	}
	if n := s.Stats().LimitErrors; n != 1 {
		t.Errorf("limitErrors = %d, want 1", n)
	}
}

func TestStrictStreamsPerConnection(t *testing.T) {
	_, base := start(t, Options{Script: script(), Strict: true})
	c := dial(t, base)
	for i := range strictMaxStreams {
		sid := fmt.Sprint("s", i)
		send(t, c, create(sid, "// long", ""))
		if l := readLanes(t, c, sid)[sid]; l.terminal != "response.completed" {
			t.Fatalf("stream %d of %d: %s %v", i+1, strictMaxStreams, l.terminal, l.last)
		}
	}
	send(t, c, create("one-too-many", "// long", ""))
	if l := readLanes(t, c, "one-too-many")["one-too-many"]; l.terminal != "error" || errorCode(l.last) != codeStreamLimit {
		t.Fatalf("the 33rd stream got %s %v, want websocket_stream_limit_reached", l.terminal, l.last)
	}
	send(t, c, create("s0", "// long", "")) // a stream already used may carry another response
	if l := readLanes(t, c, "s0")["s0"]; l.terminal != "response.completed" {
		t.Fatalf("reusing a finished stream: %s %v", l.terminal, l.last)
	}
}

func TestStrictRefusesABusyStream(t *testing.T) {
	release := make(chan struct{})
	_, base := start(t, Options{Backend: gated{release: release, once: true}, Strict: true})
	c := dial(t, base)
	send(t, c, create("s", "x", ""))
	readEvent(t, c) // created
	readEvent(t, c) // first delta
	send(t, c, create("s", "y", ""))
	if e := readEvent(t, c); e.str("type") != "error" || errorCode(e) != codeStreamInUse {
		t.Fatalf("a create on a running stream got %v, want stream_in_use", e)
	}
	close(release)
}

func TestStrictClosesAtSixtyMinutes(t *testing.T) {
	clock := &fakeClock{}
	_, base := start(t, Options{Script: script(), Strict: true, Clock: clock})
	c := dial(t, base)
	if e := readEvent(t, c); errorCode(e) != codeConnLimit {
		t.Fatalf("got %v, want websocket_connection_limit_reached", e)
	}
	found := false
	for _, d := range clock.slept() {
		found = found || d == 60*time.Minute
	}
	if !found {
		t.Errorf("slept %v, want the connection to live 60 minutes", clock.slept())
	}
}
