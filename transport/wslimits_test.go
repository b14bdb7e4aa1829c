package transport

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

func errorEventFrame(sid, code, msg string) map[string]any {
	ev := map[string]any{"type": "error", "status": 400,
		"error": map[string]any{"type": "invalid_request_error", "code": code, "message": msg}}
	if sid != "" {
		ev["stream_id"] = sid
	}
	return ev
}

// TestWSErrorAnsweringCancelFailsNothing plays the real service, which
// has no cancel event: the error answering a response.cancel arrives
// after the cancelled response has ended and its stream_id already
// carries the next request. Neither that request nor another in flight
// may fail, and the client stops sending cancels.
func TestWSErrorAnsweringCancelFailsNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		// answer is the error event; sid is the cancelled stream, now reused.
		answer func(sid string) map[string]any
	}{
		{"unknown event type on the stream", func(sid string) map[string]any {
			return errorEventFrame(sid, "unknown_event_type", `unknown event type "response.cancel"`)
		}},
		{"unknown event type without a stream", func(string) map[string]any {
			return errorEventFrame("", "unknown_event_type", `unknown event type "response.cancel"`)
		}},
		{"invalid value naming the event", func(string) map[string]any {
			return errorEventFrame("", "invalid_value", `Invalid value: 'response.cancel'. Supported values are: 'response.create'.`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frames := make(chan wsClientMsg, 16)
			ts := newTestWSServer(t, func(s *wsSession, _ int) {
				next := func() wsClientMsg {
					m, _ := s.next()
					frames <- m
					return m
				}
				b := next() // a request that stays in flight throughout
				s.created(b.StreamID)
				s.delta(b.StreamID, "b1 ")
				a := next() // the request the client will cancel
				s.created(a.StreamID)
				s.delta(a.StreamID, "stale")
				next()                       // its response.cancel
				s.delta(a.StreamID, "stale") // the service has no cancel: it goes on
				s.completed(a.StreamID, "stalestale", 2)
				s.delta(b.StreamID, "mid ") // tells the test the client has seen the end
				c := next()                 // the next request, on the freed stream_id
				s.created(c.StreamID)
				s.send(tc.answer(a.StreamID)) // only now the cancel is answered
				s.delta(c.StreamID, "fresh")
				s.completed(c.StreamID, "fresh", 1)
				s.delta(b.StreamID, "b2")
				s.completed(b.StreamID, "b1 mid b2", 3)
				d := next() // cancelled too: no cancel frame may follow
				s.created(d.StreamID)
				s.delta(d.StreamID, "x")
				e := next()
				s.created(e.StreamID)
				s.delta(e.StreamID, "last")
				s.completed(e.StreamID, "last", 1)
				s.completed(d.StreamID, "x", 1)
				s.next()
			})
			m := newTestWS(t, ts)
			var wg sync.WaitGroup
			var bText string
			var bErr error
			bDeltas := make(chan string, 8)
			wg.Go(func() {
				res, err := m.Generate(context.Background(), Request{Prefix: "b"}, func(d string) { bDeltas <- d })
				bText, bErr = res.Text, err
			})
			b := recv(t, frames)
			cancelOnDelta := func() error {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				_, err := m.Generate(ctx, Request{Prefix: "stale"}, func(string) { cancel() })
				return err
			}
			if err := cancelOnDelta(); !IsCancelled(err) {
				t.Fatalf("cancelled request: %v", err)
			}
			a, cancelFrame := recv(t, frames), recv(t, frames)
			if cancelFrame.Type != "response.cancel" || cancelFrame.StreamID != a.StreamID {
				t.Fatalf("after cancelling, the client sent %+v", cancelFrame)
			}
			for d := ""; d != "mid "; d = recv(t, bDeltas) {
			}
			res, err := m.Generate(context.Background(), Request{Prefix: "c"}, nil)
			if err != nil || res.Text != "fresh" {
				t.Fatalf("the request after the cancel: %q, %v; want %q", res.Text, err, "fresh")
			}
			if c := recv(t, frames); c.StreamID != a.StreamID || c.StreamID == b.StreamID {
				t.Fatalf("the next request went on %q; this test wants it on the freed %q", c.StreamID, a.StreamID)
			}
			wg.Wait()
			if bErr != nil || bText != "b1 mid b2" {
				t.Fatalf("the request in flight: %q, %v; want %q", bText, bErr, "b1 mid b2")
			}
			if err := cancelOnDelta(); !IsCancelled(err) {
				t.Fatalf("second cancelled request: %v", err)
			}
			recv(t, frames) // d's create
			if res, err := m.Generate(context.Background(), Request{Prefix: "e"}, nil); err != nil || res.Text != "last" {
				t.Fatalf("last request: %q, %v", res.Text, err)
			}
			if e := recv(t, frames); e.Type != "response.create" {
				t.Errorf("after the endpoint refused a cancel the client still sent %+v", e)
			}
			if n := ts.upgrades.Load(); n != 1 {
				t.Errorf("%d upgrades, want the connection kept", n)
			}
		})
	}
}

func TestWSRefusedCreateIsSentAgain(t *testing.T) {
	for _, code := range []string{"websocket_stream_limit_reached", "previous_response_not_found"} {
		for _, named := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s named=%v", code, named), func(t *testing.T) {
				inputs := make(chan string, 2)
				ts := newTestWSServer(t, func(s *wsSession, _ int) {
					m, _ := s.next()
					inputs <- m.Input
					sid := m.StreamID
					if !named {
						sid = ""
					}
					s.send(errorEventFrame(sid, code, "refused"))
					m, _ = s.next()
					inputs <- m.Input
					s.created(m.StreamID)
					s.delta(m.StreamID, "ok")
					s.completed(m.StreamID, "ok", 1)
					s.next()
				})
				m := newTestWS(t, ts)
				res, err := m.Generate(context.Background(), Request{Prefix: "p"}, nil)
				if err != nil || res.Text != "ok" {
					t.Fatalf("%q, %v; want the refused request sent again", res.Text, err)
				}
				if first, second := recv(t, inputs), recv(t, inputs); first != second {
					t.Errorf("resent input %q, first %q", second, first)
				}
				if n := ts.upgrades.Load(); n != 1 {
					t.Errorf("%d upgrades, want 1", n)
				}
			})
		}
	}
}

func TestWSRefusalsEndInAnError(t *testing.T) {
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		for m, ok := s.next(); ok; m, ok = s.next() {
			s.send(errorEventFrame(m.StreamID, "websocket_stream_limit_reached", "too many"))
		}
	})
	m := newTestWS(t, ts)
	_, err := m.Generate(context.Background(), Request{}, nil)
	if err == nil || KindOf(err) != KindUnavailable {
		t.Fatalf("err = %v (kind %v), want the endpoint reported unavailable once resending gave up", err, KindOf(err))
	}
	if n := ts.upgrades.Load(); n != 2 {
		t.Errorf("%d upgrades, want 2: a connection that keeps refusing is replaced once", n)
	}
}

// TestWSUnknownEventsFailNothing sends event types the client does not
// know, with and without a stream, and an error naming no stream once no
// request waits for response.created: the request completes.
func TestWSUnknownEventsFailNothing(t *testing.T) {
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		for m, ok := s.next(); ok; m, ok = s.next() {
			s.send(map[string]any{"type": "rate_limits.updated", "rate_limits": []any{}})
			s.created(m.StreamID)
			s.send(map[string]any{"type": "response.in_progress", "stream_id": m.StreamID})
			s.send(map[string]any{"type": "response.content_part.added", "stream_id": m.StreamID, "part": map[string]any{}})
			s.delta(m.StreamID, "one ")
			s.send(map[string]any{"type": "session.something_new", "stream_id": m.StreamID, "delta": "not text"})
			s.send(errorEventFrame("", "server_busy", "a notice about nothing in particular"))
			s.delta(m.StreamID, "two")
			s.completed(m.StreamID, "one two", 2)
		}
	})
	m := newTestWS(t, ts)
	for range 2 {
		res, err := m.Generate(context.Background(), Request{}, nil)
		if err != nil || res.Text != "one two" {
			t.Fatalf("%q, %v; want %q", res.Text, err, "one two")
		}
	}
	if n := ts.upgrades.Load(); n != 1 {
		t.Errorf("%d upgrades, want 1", n)
	}
}

// TestWSAbandonedStreamIsNotReusedBeforeItsEnd: an abandoned response runs
// on at the service, so its stream_id stays taken until its terminal
// event, whatever error events arrive for it meanwhile.
func TestWSAbandonedStreamIsNotReusedBeforeItsEnd(t *testing.T) {
	creates := make(chan wsClientMsg, 4)
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		a, _ := s.next()
		s.created(a.StreamID)
		s.delta(a.StreamID, "stale")
		s.next() // the cancel: answered with an error that is not about cancelling; the response goes on
		s.send(errorEventFrame(a.StreamID, "server_error", "something went wrong"))
		marker, _ := s.next() // a request whose end tells the test the error was read
		s.created(marker.StreamID)
		s.completed(marker.StreamID, "", 0)
		var pair []wsClientMsg
		for len(pair) < 2 { // two at once: every free stream_id is taken
			m, ok := s.next()
			if !ok {
				return
			}
			creates <- m
			pair = append(pair, m)
		}
		for _, m := range pair {
			s.created(m.StreamID)
			s.completed(m.StreamID, "", 0)
		}
		s.completed(a.StreamID, "stale", 1)
		s.next()
	})
	m := newTestWS(t, ts)
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := m.Generate(ctx, Request{}, func(string) { cancel() }); !IsCancelled(err) {
		t.Fatalf("cancelled request: %v", err)
	}
	if _, err := m.Generate(context.Background(), Request{}, nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if _, err := m.Generate(context.Background(), Request{}, nil); err != nil {
				t.Error(err)
			}
		})
	}
	for range 2 {
		if c := recv(t, creates); c.StreamID == "wisp-1" {
			t.Errorf("a request reused the abandoned response's stream_id %q while it still runs", c.StreamID)
		}
	}
	wg.Wait()
}
