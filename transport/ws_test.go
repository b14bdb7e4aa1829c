package transport

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-SECRET-0123456789"

func newTestWS(t *testing.T, ts *testWSServer) *WSModel {
	t.Helper()
	m, err := NewWS(WSConfig{Endpoint: ts.url(), Model: "gpt-test", APIKey: testKey, APIKeyEnv: "TEST_KEY", MaxTokens: 64})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// collect returns an onDelta that records the deltas.
func collect() (func(string), func() []string) {
	var mu sync.Mutex
	var got []string
	return func(d string) { mu.Lock(); got = append(got, d); mu.Unlock() },
		func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), got...) }
}

func TestWSDeltasInOrderOnOneConnection(t *testing.T) {
	ts := newTestWSServer(t, stream("Hel", "lo, ", "world"))
	m := newTestWS(t, ts)
	if err := m.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := recv(t, ts.headers)
	if got := h.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if got := h.Get("OpenAI-Beta"); got != "responses_websockets=2026-02-06" {
		t.Errorf("OpenAI-Beta = %q", got)
	}
	for i := range 5 {
		onDelta, got := collect()
		res, err := m.Generate(context.Background(), Request{Prefix: fmt.Sprint("x", i)}, onDelta)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if d := strings.Join(got(), "|"); d != "Hel|lo, |world" {
			t.Errorf("request %d: deltas %q", i, d)
		}
		if res.Text != "Hello, world" || res.FinishReason != "stop" || res.OutputTokens != 3 || res.TTFT <= 0 {
			t.Errorf("request %d: result %+v", i, res)
		}
	}
	if n := ts.upgrades.Load(); n != 1 {
		t.Errorf("%d WebSocket upgrades for 5 requests, want 1", n)
	}
}

func TestWSCreateFrame(t *testing.T) {
	frames := make(chan wsClientMsg, 1)
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		m, ok := s.next()
		if !ok {
			return
		}
		frames <- m
		s.created(m.StreamID)
		s.completed(m.StreamID, "", 0)
		s.next()
	})
	m := newTestWS(t, ts)
	req := Request{Prefix: "func f() {", Suffix: "}", Path: "a.go", Language: "go", MaxTokens: 32}
	if _, err := m.Generate(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	f := recv(t, frames)
	instr, input := RenderChat(req)
	if f.Type != "response.create" || f.Model != "gpt-test" || f.Instructions != instr || f.Input != input ||
		f.MaxOutputTokens != 32 || f.StreamID == "" || f.Store == nil || *f.Store {
		t.Errorf("response.create = %+v", f)
	}
}

func TestWSConcurrentLanesDoNotMix(t *testing.T) {
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		var sids, names []string
		for len(sids) < 2 {
			m, ok := s.next()
			if !ok {
				return
			}
			p, _, _, _ := ParseChat(m.Input)
			sids, names = append(sids, m.StreamID), append(names, p)
		}
		for i := range sids {
			s.created(sids[i])
		}
		for k := range 4 { // interleave the two streams frame by frame
			for i := range sids {
				s.delta(sids[i], fmt.Sprintf("%s%d ", names[i], k))
			}
		}
		for i := range sids {
			s.completed(sids[i], "", 4)
		}
		s.next()
	})
	m := newTestWS(t, ts)
	var wg sync.WaitGroup
	results := make([]string, 2)
	errs := make([]error, 2)
	for i, name := range []string{"A", "B"} {
		wg.Go(func() {
			res, err := m.Generate(context.Background(), Request{Prefix: name}, nil)
			results[i], errs[i] = res.Text, err
		})
	}
	wg.Wait()
	for i, name := range []string{"A", "B"} {
		want := fmt.Sprintf("%[1]s0 %[1]s1 %[1]s2 %[1]s3 ", name)
		if errs[i] != nil || results[i] != want {
			t.Errorf("lane %s: %q, %v; want %q", name, results[i], errs[i], want)
		}
	}
	if n := ts.upgrades.Load(); n != 1 {
		t.Errorf("%d upgrades, want 1", n)
	}
}

func TestWSCancelSendsResponseCancel(t *testing.T) {
	cancels := make(chan wsClientMsg, 1)
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		m, ok := s.next()
		if !ok {
			return
		}
		first := m.StreamID
		s.created(first)
		s.delta(first, "first")
		// Hold the stream open until the client cancels it; then keep
		// talking on the old lane, which the client must ignore.
		for m, ok = s.next(); ok && m.Type != "response.cancel"; m, ok = s.next() {
		}
		cancels <- m
		s.delta(first, "late")
		s.completed(first, "firstlate", 2)
		stream("fresh")(s, 1)
	})
	m := newTestWS(t, ts)
	ctx, cancel := context.WithCancel(context.Background())
	onDelta, got := collect()
	_, err := m.Generate(ctx, Request{Prefix: "x"}, func(d string) { onDelta(d); cancel() })
	if !IsCancelled(err) {
		t.Fatalf("Generate after cancel: %v, want a cancelled error", err)
	}
	c := recv(t, cancels)
	if c.Type != "response.cancel" || c.StreamID == "" || c.ResponseID != respID(c.StreamID) {
		t.Errorf("cancel frame = %+v", c)
	}
	res, err := m.Generate(context.Background(), Request{Prefix: "y"}, nil)
	if err != nil || res.Text != "fresh" {
		t.Errorf("next request: %q, %v; want %q", res.Text, err, "fresh")
	}
	if d := strings.Join(got(), "|"); d != "first" {
		t.Errorf("cancelled request saw deltas %q, want only %q", d, "first")
	}
}

func TestWSCancelBeforeCreated(t *testing.T) {
	cancels := make(chan wsClientMsg, 2)
	started := make(chan struct{})
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		m, ok := s.next()
		if !ok {
			return
		}
		close(started)
		c, _ := s.next() // the cancel, sent before the response has an id
		cancels <- c
		s.created(m.StreamID) // now the client can name the response
		c, _ = s.next()
		cancels <- c
		s.next()
	})
	m := newTestWS(t, ts)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := m.Generate(ctx, Request{}, nil); !IsCancelled(err) {
		t.Fatalf("err = %v, want cancelled", err)
	}
	first, second := recv(t, cancels), recv(t, cancels)
	if first.Type != "response.cancel" || first.ResponseID != "" || first.StreamID == "" {
		t.Errorf("first cancel = %+v", first)
	}
	if second.Type != "response.cancel" || second.ResponseID != respID(first.StreamID) {
		t.Errorf("second cancel = %+v, want response_id %q", second, respID(first.StreamID))
	}
}

func TestWSDropMidStream(t *testing.T) {
	ts := newTestWSServer(t, func(s *wsSession, n int) {
		if n > 1 {
			stream("again")(s, n)
			return
		}
		m, ok := s.next()
		if !ok {
			return
		}
		s.created(m.StreamID)
		s.delta(m.StreamID, "par")
		s.wmu.Lock()
		_ = s.ws.NetConn().Close() // drop without a close frame
		s.wmu.Unlock()
	})
	m := newTestWS(t, ts)
	onDelta, got := collect()
	res, err := m.Generate(context.Background(), Request{}, onDelta)
	if KindOf(err) != KindUnavailable {
		t.Fatalf("err = %v (kind %v), want unavailable", err, KindOf(err))
	}
	if res.Text != "par" || strings.Join(got(), "") != "par" {
		t.Errorf("partial result %q, deltas %q", res.Text, got())
	}
	res, err = m.Generate(context.Background(), Request{}, nil)
	if err != nil || res.Text != "again" {
		t.Fatalf("after the drop: %q, %v", res.Text, err)
	}
	if n := ts.upgrades.Load(); n != 2 {
		t.Errorf("%d upgrades, want 2 (a fresh connection after the drop)", n)
	}
}

func TestWSRetriesOnceWhenDroppedBeforeText(t *testing.T) {
	ts := newTestWSServer(t, func(s *wsSession, n int) {
		if n > 1 {
			stream("ok")(s, n)
			return
		}
		s.next()
		s.wmu.Lock()
		_ = s.ws.NetConn().Close()
		s.wmu.Unlock()
	})
	m := newTestWS(t, ts)
	res, err := m.Generate(context.Background(), Request{}, nil)
	if err != nil || res.Text != "ok" {
		t.Fatalf("%q, %v; want the request retried on a fresh connection", res.Text, err)
	}
}

func TestWSHandshakeErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		header map[string]string
		kind   ErrorKind
		want   string
		retry  time.Duration
	}{
		{"unauthorized", http.StatusUnauthorized, nil, KindAuth,
			"rejected the API key in $TEST_KEY (401)", 0},
		{"rate limited", http.StatusTooManyRequests, map[string]string{"Retry-After": "2"}, KindRateLimited,
			"rate limited by 127.0.0.1", 2 * time.Second},
		{"server error", http.StatusBadGateway, nil, KindUnavailable, "(502)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestWSServer(t, stream())
			ts.reject = func(w http.ResponseWriter, _ *http.Request) bool {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				fmt.Fprintf(w, `{"error":{"type":"invalid_request_error","code":null,"message":"Incorrect API key provided: %s"}}`, testKey)
				return true
			}
			m := newTestWS(t, ts)
			_, err := m.Generate(context.Background(), Request{}, nil)
			var e *Error
			if KindOf(err) != tc.kind || !asError(err, &e) {
				t.Fatalf("err = %v, kind %v; want %v", err, KindOf(err), tc.kind)
			}
			if !strings.Contains(err.Error(), tc.want) || e.RetryAfter != tc.retry || e.Status != tc.status {
				t.Errorf("err = %q (retry %v, status %d); want it to contain %q, retry %v", err, e.RetryAfter, e.Status, tc.want, tc.retry)
			}
			if strings.Contains(err.Error(), testKey) || strings.Contains(fmt.Sprintf("%+v", e), testKey) {
				t.Errorf("the key leaked into the error: %q", err)
			}
			if tc.retry > 0 && !strings.Contains(err.Error(), "retry after 2s") {
				t.Errorf("err = %q, want it to say when to retry", err)
			}
		})
	}
}

func TestWSErrorEvents(t *testing.T) {
	for _, tc := range []struct {
		name  string
		event func(sid string) map[string]any
		kind  ErrorKind
		want  string
	}{
		{"error rate limit", func(sid string) map[string]any {
			return map[string]any{"type": "error", "stream_id": sid, "status": 429,
				"error": map[string]any{"type": "requests", "code": "rate_limit_exceeded", "message": "slow down"}}
		}, KindRateLimited, "slow down"},
		{"error bad request", func(sid string) map[string]any {
			return map[string]any{"type": "error", "stream_id": sid, "status": 400,
				"error": map[string]any{"type": "invalid_request_error", "code": "invalid_value", "message": "bad model"}}
		}, KindBadRequest, "bad model"},
		{"failed", func(sid string) map[string]any {
			return map[string]any{"type": "response.failed", "stream_id": sid,
				"response": map[string]any{"id": respID(sid), "status": "failed",
					"error": map[string]any{"code": "server_error", "message": "model crashed"}}}
		}, KindUnavailable, "model crashed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestWSServer(t, func(s *wsSession, _ int) {
				for m, ok := s.next(); ok; m, ok = s.next() {
					s.created(m.StreamID)
					s.send(tc.event(m.StreamID))
				}
			})
			m := newTestWS(t, ts)
			_, err := m.Generate(context.Background(), Request{}, nil)
			if KindOf(err) != tc.kind || !strings.Contains(fmt.Sprint(err), tc.want) {
				t.Errorf("err = %v (kind %v), want kind %v containing %q", err, KindOf(err), tc.kind, tc.want)
			}
		})
	}
}

func TestWSIncompleteIsLength(t *testing.T) {
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		for m, ok := s.next(); ok; m, ok = s.next() {
			s.created(m.StreamID)
			s.delta(m.StreamID, "abc")
			s.send(map[string]any{"type": "response.incomplete", "stream_id": m.StreamID,
				"response": map[string]any{"id": respID(m.StreamID), "status": "incomplete",
					"incomplete_details": map[string]any{"reason": "max_output_tokens"}}})
		}
	})
	m := newTestWS(t, ts)
	res, err := m.Generate(context.Background(), Request{}, nil)
	if err != nil || res.Text != "abc" || res.FinishReason != "length" {
		t.Errorf("%+v, %v", res, err)
	}
}

func TestWSStopSequenceSplitAcrossDeltas(t *testing.T) {
	cancels := make(chan wsClientMsg, 1)
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		m, ok := s.next()
		if !ok {
			return
		}
		s.created(m.StreamID)
		for _, d := range []string{"x := 1", "\n", "</e", "nd>", "never"} {
			s.delta(m.StreamID, d)
		}
		s.completed(m.StreamID, "", 5) // too late: the client stopped at </end>
		c, _ := s.next()
		cancels <- c
		s.next()
	})
	m := newTestWS(t, ts)
	onDelta, got := collect()
	res, err := m.Generate(context.Background(), Request{Stop: []string{"</end>"}}, onDelta)
	if err != nil || res.Text != "x := 1\n" || res.FinishReason != "stop" {
		t.Fatalf("%+v, %v", res, err)
	}
	if d := strings.Join(got(), ""); d != "x := 1\n" {
		t.Errorf("deltas %q: the stop text or later text leaked", d)
	}
	if c := recv(t, cancels); c.Type != "response.cancel" {
		t.Errorf("after the stop string the client sent %+v, want response.cancel", c)
	}
}

func TestWSCloseFailsInFlight(t *testing.T) {
	started := make(chan struct{})
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		m, ok := s.next()
		if !ok {
			return
		}
		s.created(m.StreamID)
		close(started)
		s.next()
	})
	m := newTestWS(t, ts)
	go func() { <-started; m.Close() }()
	_, err := m.Generate(context.Background(), Request{}, nil)
	if KindOf(err) != KindUnavailable {
		t.Errorf("err = %v, want unavailable after Close", err)
	}
}

// Once the connection is known closed nothing more reaches a generation,
// even frames the endpoint sent before the close that are still buffered:
// the generation fails with KindUnavailable and the text it had, rather
// than going on to finish. The endpoint sends the whole response in one
// write, so the client's reader holds it all while it delivers the first
// delta, and the model is closed while that delivery waits.
func TestWSNothingDeliveredAfterClose(t *testing.T) {
	clientClosed := make(chan struct{})
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		m, ok := s.next()
		if !ok {
			return
		}
		s.sendAtOnce(append([]any{createdEvent(m.StreamID), deltaEvent(m.StreamID, "a"), deltaEvent(m.StreamID, "b")},
			completedEvents(m.StreamID, "ab", 2)...)...)
		s.next() // until the client's close frame
		close(clientClosed)
	})
	m := newTestWS(t, ts)
	inFirst, release := make(chan struct{}), make(chan struct{})
	onDelta, got := collect()
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := m.Generate(context.Background(), Request{Prefix: "x"}, func(d string) {
			onDelta(d)
			if d == "a" {
				close(inFirst)
				<-release
			}
		})
		done <- outcome{res, err}
	}()
	recv(t, inFirst)
	closed := make(chan struct{})
	go func() { m.Close(); close(closed) }() // returns once the reader has exited
	recv(t, clientClosed)
	close(release)
	o := recv(t, done)
	recv(t, closed)
	if KindOf(o.err) != KindUnavailable || o.res.Text != "a" || strings.Join(got(), "|") != "a" {
		t.Errorf("after Close: %+v, %v, deltas %q; want only \"a\" and unavailable", o.res, o.err, got())
	}
}

func asError(err error, e **Error) bool {
	var x *Error
	ok := errors.As(err, &x)
	*e = x
	return ok
}

func TestWSRotatesOldConnections(t *testing.T) {
	ts := newTestWSServer(t, stream("ok"))
	m, err := NewWS(WSConfig{Endpoint: ts.url(), MaxAge: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for range 3 {
		if res, err := m.Generate(context.Background(), Request{}, nil); err != nil || res.Text != "ok" {
			t.Fatalf("%q, %v", res.Text, err)
		}
	}
	if n := ts.upgrades.Load(); n != 3 {
		t.Errorf("%d upgrades, want a new connection for each request past the maximum age", n)
	}
}

func TestWSConnectionLimitMovesToNewConnection(t *testing.T) {
	ts := newTestWSServer(t, func(s *wsSession, n int) {
		if n > 1 {
			stream("ok")(s, n)
			return
		}
		m, ok := s.next()
		if !ok {
			return
		}
		s.send(map[string]any{"type": "error", "stream_id": m.StreamID, "status": 400,
			"error": map[string]any{"type": "invalid_request_error", "code": "websocket_connection_limit_reached",
				"message": "Responses websocket connection limit reached (60 minutes). Create a new websocket connection to continue."}})
		s.next()
	})
	m := newTestWS(t, ts)
	res, err := m.Generate(context.Background(), Request{}, nil)
	if err != nil || res.Text != "ok" {
		t.Fatalf("%q, %v; want the request moved to a new connection", res.Text, err)
	}
	if n := ts.upgrades.Load(); n != 2 {
		t.Errorf("%d upgrades, want 2", n)
	}
}

func TestWSWarmRedialsAfterDrop(t *testing.T) {
	second := make(chan struct{})
	ts := newTestWSServer(t, func(s *wsSession, n int) {
		if n == 1 {
			return // drop the warmed connection at once
		}
		close(second)
		s.next()
	})
	m := newTestWS(t, ts)
	if err := m.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	recv(t, second) // redialled in the background, with no request asking
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	for n := 1; n < 12; n++ {
		d := backoff(n)
		ceil := min(backoffBase<<(n-1), backoffMax)
		if d < ceil/2 || d > ceil {
			t.Errorf("backoff(%d) = %v, want within [%v, %v]", n, d, ceil/2, ceil)
		}
	}
}

// NewWS addresses the responses route of the endpoint and sends the key it
// is given as a bearer token, remembering the variable it came from.
func TestNewWSKeyAndURL(t *testing.T) {
	m, err := NewWS(WSConfig{Endpoint: "wss://api.example.test/v1", APIKey: "k2", APIKeyEnv: "MY_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.header.Get("Authorization") != "Bearer k2" || m.url != "wss://api.example.test/v1/responses" || m.ep.keyEnv != "MY_KEY" {
		t.Errorf("url %s header %v keyEnv %q", m.url, m.header, m.ep.keyEnv)
	}
}

// WarmPrompt sends the response.create Generate sends for the same
// request, so the cache it fills is the one the request hits, marked
// "generate": false and without an output bound. The whole frames are
// compared: any field the warm-up drops or changes besides those (and the
// stream_id each attempt takes) fails.
func TestWSWarmPromptSendsGeneratesPrompt(t *testing.T) {
	creates := make(chan wsClientMsg, 2)
	ts := newTestWSServer(t, func(s *wsSession, _ int) {
		for m, ok := s.next(); ok; m, ok = s.next() {
			creates <- m
			s.created(m.StreamID)
			s.completed(m.StreamID, "", 0)
		}
	})
	m := newTestWS(t, ts)
	req := Request{Prefix: "func f() {", Suffix: "}", Path: "f.go", Language: "go", Context: []Snippet{{Path: "g.go", Text: "package g"}}}
	if err := m.WarmPrompt(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	warm, gen := recv(t, creates), recv(t, creates)
	if warm.Generate == nil || *warm.Generate || warm.MaxOutputTokens != 0 || gen.Generate != nil {
		t.Errorf("warm-up generate %v, max_output_tokens %d; Generate's generate %v", warm.Generate, warm.MaxOutputTokens, gen.Generate)
	}
	sameBodyBut(t, warm.Body, gen.Body, "generate", "max_output_tokens", "stream_id")
}
