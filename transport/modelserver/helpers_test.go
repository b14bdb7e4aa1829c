package modelserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/wisp-lsp/wisp/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start serves a Server with opts on a loopback port and returns it with
// its base URL; the server is closed when the test ends.
func start(t testing.TB, opts Options) (*Server, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(opts)
	done := make(chan error, 1)
	go func() { done <- s.Serve(l) }()
	t.Cleanup(func() {
		s.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s, "http://" + l.Addr().String()
}

// dial opens a Responses WebSocket to base.
func dial(t testing.TB, base string) *websocket.Conn {
	t.Helper()
	h := http.Header{}
	h.Set("Authorization", "Bearer test-key")
	h.Set("OpenAI-Beta", "responses_websockets=2026-02-06")
	c, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/v1/responses", h)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	resp.Body.Close()
	t.Cleanup(func() { c.Close() })
	return c
}

// event is a decoded server event.
type event map[string]any

func (e event) str(key string) string { s, _ := e[key].(string); return s }

func (e event) response() event { r, _ := e["response"].(map[string]any); return r }

// readEvent reads and decodes the next event; a server that stays silent
// for 10s fails the test instead of hanging it.
func readEvent(t testing.TB, c *websocket.Conn) event {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, data, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("read event: %v", err)
	}
	var e event
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatalf("event %q: %v", data, err)
	}
	return e
}

func send(t testing.TB, c *websocket.Conn, v any) {
	t.Helper()
	if err := c.WriteJSON(v); err != nil {
		t.Fatalf("write: %v", err)
	}
}

// create is a response.create for a completion of prefix|suffix, in the
// Responses array-of-messages form.
func create(streamID, prefix, suffix string) map[string]any {
	instructions, input := transport.RenderChat(transport.Request{Prefix: prefix, Suffix: suffix, Path: "a.go", Language: "go"})
	return map[string]any{
		"type": "response.create", "model": "m", "instructions": instructions, "store": false,
		"stream_id": streamID, "max_output_tokens": 0,
		"input": []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "input_text", "text": input}}}},
	}
}

// seenLane collects one stream's events until its terminal event.
type seenLane struct {
	id, text, terminal string
	deltas             int
	last               event
}

// readLanes reads events until every named stream has ended.
func readLanes(t testing.TB, c *websocket.Conn, streams ...string) map[string]*seenLane {
	t.Helper()
	lanes := map[string]*seenLane{}
	for _, s := range streams {
		lanes[s] = &seenLane{}
	}
	for open := len(streams); open > 0; {
		e := readEvent(t, c)
		l, ok := lanes[e.str("stream_id")]
		if !ok {
			t.Fatalf("event for unknown stream: %v", e)
		}
		if l.terminal != "" {
			t.Fatalf("event after terminal: %v", e)
		}
		switch typ := e.str("type"); typ {
		case "response.created":
			l.id = e.response().str("id")
		case "response.output_text.delta":
			if e.str("response_id") != l.id || l.id == "" {
				t.Fatalf("delta for response %q on lane of %q", e.str("response_id"), l.id)
			}
			l.text += e.str("delta")
			l.deltas++
		case "response.output_text.done":
			if e.str("text") != l.text {
				t.Fatalf("done text %q, deltas gave %q", e.str("text"), l.text)
			}
		case "response.completed", "response.incomplete", "response.failed", "error":
			l.terminal, l.last = typ, e
			open--
		default:
			t.Fatalf("unexpected event %v", e)
		}
	}
	return lanes
}

// post sends a JSON body and returns the response.
func post(t testing.TB, url string, body any) *http.Response {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("post %s: %v", url, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseData returns the data payloads of an SSE body, and the read error
// that ended it (nil at a clean end).
func sseData(r io.Reader) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out, sc.Err()
}

// script is the canned replies most tests use.
func script() *Script {
	return &Script{Replies: []Reply{
		{PrefixEndsWith: "func add(a, b int) int {", Text: "\n\treturn a + b\n}"},
		{PrefixEndsWith: "// long", Text: "one two three four five six seven eight nine ten"},
		{InstructionContains: "rename", Text: "func sum(a, b int) int { return a + b }"},
		{SuffixStartsWith: "}", Text: "x := 1"},
	}}
}

// endless yields "tok " until told to stop; with ignoreStop it yields
// extra tokens after the first refusal, as a model that ignores cancel would.
type endless struct {
	ignoreStop int
}

func (e endless) Generate(ctx context.Context, _ Query, yield func(string) bool) error {
	for {
		if !yield("tok ") {
			for range e.ignoreStop {
				yield("tok ")
			}
			return nil
		}
	}
}

// fakeModel is a transport.Model that answers with a fixed reply in
// three-byte deltas and records what it was asked.
type fakeModel struct {
	reply string
	mu    sync.Mutex
	got   []transport.Request // guarded by mu
}

func (m *fakeModel) Generate(ctx context.Context, req transport.Request, onDelta func(string)) (transport.Result, error) {
	m.mu.Lock()
	m.got = append(m.got, req)
	m.mu.Unlock()
	for i := 0; i < len(m.reply); i += 3 {
		if ctx.Err() != nil {
			return transport.Result{}, ctx.Err()
		}
		onDelta(m.reply[i:min(i+3, len(m.reply))])
	}
	return transport.Result{Text: m.reply, FinishReason: "stop"}, nil
}

func (m *fakeModel) Close() error { return nil }

// fakeClock advances only when slept on, and records every sleep.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time       // guarded by mu
	sleeps []time.Duration // guarded by mu
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	if d > 0 {
		c.now = c.now.Add(d)
	}
	return nil
}

func (c *fakeClock) slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

func jsonBody(v any) io.Reader {
	data, _ := json.Marshal(v)
	return strings.NewReader(string(data))
}
