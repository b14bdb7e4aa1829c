package modelserver

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestWSStreamsOrderedDeltas(t *testing.T) {
	s, base := start(t, Options{Script: script()})
	c := dial(t, base)
	send(t, c, create("s1", "package a\n\nfunc add(a, b int) int {", "\n"))
	l := readLanes(t, c, "s1")["s1"]
	if l.terminal != "response.completed" || l.text != "\n\treturn a + b\n}" {
		t.Fatalf("lane ended %s with %q", l.terminal, l.text)
	}
	if want := len(Tokenize(l.text)); l.deltas != want {
		t.Errorf("%d deltas, want one per token (%d)", l.deltas, want)
	}
	r := l.last.response()
	if r.str("id") != l.id || r.str("status") != "completed" {
		t.Errorf("terminal response %v", r)
	}
	if u, _ := r["usage"].(map[string]any); u["output_tokens"] != float64(l.deltas) {
		t.Errorf("usage %v, want output_tokens %d", u, l.deltas)
	}
	if st := s.Stats(); st.Requests != 1 || st.Tokens != int64(l.deltas) || st.WebSockets != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestWSAcceptsStringInput(t *testing.T) {
	_, base := start(t, Options{Script: &Script{Replies: []Reply{{PrefixEndsWith: "hello", Text: " world"}}}})
	c := dial(t, base)
	send(t, c, map[string]any{"type": "response.create", "input": "say hello", "stream_id": "a"})
	if l := readLanes(t, c, "a")["a"]; l.text != " world" {
		t.Fatalf("got %q", l.text)
	}
}

func TestWSLanesDoNotMix(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	c := dial(t, base)
	send(t, c, create("A", "// long", ""))
	send(t, c, create("B", "func add(a, b int) int {", ""))
	lanes := readLanes(t, c, "A", "B")
	if lanes["A"].text != "one two three four five six seven eight nine ten" || lanes["B"].text != "\n\treturn a + b\n}" {
		t.Fatalf("lanes mixed: A=%q B=%q", lanes["A"].text, lanes["B"].text)
	}
	if lanes["A"].id == lanes["B"].id {
		t.Fatalf("both lanes got response id %s", lanes["A"].id)
	}
}

func TestWSMaxOutputTokensIsIncomplete(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	c := dial(t, base)
	req := create("s", "// long", "")
	req["max_output_tokens"] = 2
	send(t, c, req)
	l := readLanes(t, c, "s")["s"]
	if l.terminal != "response.incomplete" || l.deltas != 2 {
		t.Fatalf("ended %s after %d deltas", l.terminal, l.deltas)
	}
}

// cancelAfter starts an endless generation, cancels it after n deltas and
// reads to the lane's end.
func cancelAfter(t *testing.T, b Backend, n int) Stats {
	return cancelAfterCreate(t, b, n, create("s", "x", ""))
}

// cancelAfterCreate is cancelAfter with the given response.create, on
// stream "s".
func cancelAfterCreate(t *testing.T, b Backend, n int, req map[string]any) Stats {
	s, base := start(t, Options{Backend: b})
	c := dial(t, base)
	send(t, c, req)
	created := readEvent(t, c)
	id := created.response().str("id")
	for range n {
		if e := readEvent(t, c); e.str("type") != "response.output_text.delta" {
			t.Fatalf("want delta, got %v", e)
		}
	}
	send(t, c, map[string]any{"type": "response.cancel", "response_id": id, "stream_id": "s"})
	for after := 0; ; after++ {
		e := readEvent(t, c)
		if after > 100000 {
			t.Fatal("the stream did not stop after response.cancel")
		}
		if e.str("type") == "response.output_text.delta" {
			continue
		}
		if e.str("type") != "response.incomplete" || e.response().str("status") != "cancelled" {
			t.Fatalf("want cancelled terminal, got %v", e)
		}
		break
	}
	c.Close()
	s.Close() // waits for the lane, so the counters are final
	return s.Stats()
}

func TestWSCancelStopsGeneration(t *testing.T) {
	st := cancelAfter(t, endless{}, 10) // unpaced: as fast as the socket takes it
	if st.Cancels != 1 {
		t.Errorf("cancels = %d, want 1", st.Cancels)
	}
	if st.TokensAfterCancel >= 5 {
		t.Errorf("tokensAfterCancel = %d, want < 5", st.TokensAfterCancel)
	}
}

func TestWSTokensAfterCancelCatchesAModelThatIgnoresCancel(t *testing.T) {
	st := cancelAfter(t, endless{ignoreStop: 50}, 10)
	if st.TokensAfterCancel < 50 {
		t.Errorf("tokensAfterCancel = %d, want >= 50", st.TokensAfterCancel)
	}
}

func TestWSFault429OnNthRequest(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: Fault429, Nth: 1}})
	c := dial(t, base)
	send(t, c, create("s", "func add(a, b int) int {", ""))
	e := readEvent(t, c)
	if e.str("type") != "error" || e["status"] != float64(http.StatusTooManyRequests) || e.str("stream_id") != "s" {
		t.Fatalf("want 429 error event, got %v", e)
	}
	send(t, c, create("s", "func add(a, b int) int {", ""))
	if l := readLanes(t, c, "s")["s"]; l.terminal != "response.completed" {
		t.Fatalf("second request ended %s", l.terminal)
	}
}

func TestWSFaultDrop(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: FaultDrop}})
	c := dial(t, base)
	send(t, c, create("s", "// long", ""))
	deltas := 0
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			break
		}
		if strings.Contains(string(data), `"response.completed"`) {
			t.Fatal("completed despite drop")
		}
		if strings.Contains(string(data), "output_text.delta") {
			deltas++
		}
	}
	if deltas != defaultFaultAfter {
		t.Errorf("%d deltas before the drop, want %d", deltas, defaultFaultAfter)
	}
}

func TestWSFaultStall(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: FaultStall}})
	c := dial(t, base)
	send(t, c, create("s", "// long", ""))
	id := readEvent(t, c).response().str("id")
	for range defaultFaultAfter {
		readEvent(t, c)
	}
	// Nothing more comes until the client gives up on the stall.
	send(t, c, map[string]any{"type": "response.cancel", "response_id": id})
	if e := readEvent(t, c); e.str("type") != "response.incomplete" {
		t.Fatalf("after a stall and a cancel, want the cancelled terminal; got %v", e)
	}
}

func TestWSFaultMalformed(t *testing.T) {
	_, base := start(t, Options{Script: script(), Fault: Fault{Kind: FaultMalformed}})
	c := dial(t, base)
	send(t, c, create("s", "// long", ""))
	bad, completed := 0, false
	for !completed {
		_, data, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		var e event
		if json.Unmarshal(data, &e) != nil {
			bad++
			continue
		}
		completed = e.str("type") == "response.completed"
	}
	if bad != 1 {
		t.Fatalf("%d malformed frames, want 1", bad)
	}
}

func TestWSMaxConnAge(t *testing.T) {
	_, base := start(t, Options{Script: script(), MaxConnAge: 1, Clock: &fakeClock{}})
	c := dial(t, base)
	e := readEvent(t, c)
	if er, _ := e["error"].(map[string]any); e.str("type") != "error" || er["code"] != "websocket_connection_limit_reached" {
		t.Fatalf("want connection limit error, got %v", e)
	}
	if _, _, err := c.ReadMessage(); !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		t.Fatalf("want a normal close after the limit, got %v", err)
	}
}

func TestWSRequiresConfiguredKey(t *testing.T) {
	_, base := start(t, Options{Script: script(), APIKey: "secret"})
	url := "ws" + strings.TrimPrefix(base, "http") + "/v1/responses"
	_, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Authorization": {"Bearer wrong"}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong key: err %v, resp %v", err, resp)
	}
	resp.Body.Close()
	c, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Authorization": {"Bearer secret"}})
	if err != nil {
		t.Fatalf("right key: %v", err)
	}
	resp.Body.Close()
	c.Close()
}

func TestWSBadEventsGetErrors(t *testing.T) {
	_, base := start(t, Options{Script: script()})
	c := dial(t, base)
	for _, msg := range []string{`{nope`, `{"type":"response.dance"}`, `{"type":"response.create","input":42}`} {
		if err := c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		if e := readEvent(t, c); e.str("type") != "error" || e["status"] != float64(400) {
			t.Errorf("%s: got %v", msg, e)
		}
	}
}

func TestWSCloseEndsSockets(t *testing.T) {
	s, base := start(t, Options{Backend: endless{}, Clock: &fakeClock{}})
	c := dial(t, base)
	send(t, c, create("s", "x", ""))
	readEvent(t, c)
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	// The socket must end because the server closed it; the deadline
	// only turns a socket that outlives Close into a failure, not a hang.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			continue
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("the socket outlived Close: %v", err)
		}
		break
	}
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return after its sockets ended")
	}
}
