package transport

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// testHTTPServer is a minimal streaming HTTP model server for the SSE and
// FIM tests: it records each request and answers with a handler.
type testHTTPServer struct {
	srv      *httptest.Server
	newConns atomic.Int32
	requests chan testHTTPRequest // every request, in order
}

type testHTTPRequest struct {
	Path   string
	Header http.Header
	Body   map[string]any
}

func newTestHTTPServer(t testing.TB, handle func(w http.ResponseWriter, r *http.Request)) *testHTTPServer {
	return newDelayedHTTPServer(t, 0, handle)
}

// newDelayedHTTPServer emulates a one-way network delay on new
// connections (their first read waits); handlers emulate it on responses.
func newDelayedHTTPServer(t testing.TB, delay time.Duration, handle func(w http.ResponseWriter, r *http.Request)) *testHTTPServer {
	ts := &testHTTPServer{requests: make(chan testHTTPRequest, 64)}
	ts.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			var body map[string]any
			_ = json.Unmarshal(b, &body)
			select {
			case ts.requests <- testHTTPRequest{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}:
			default:
			}
		}
		handle(w, r)
	}))
	ts.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			ts.newConns.Add(1)
		}
	}
	if delay > 0 {
		ts.srv.Listener = slowListener{Listener: ts.srv.Listener, delay: delay}
	}
	ts.srv.Start()
	t.Cleanup(ts.srv.Close)
	return ts
}

// sse writes "data: …" events, flushing each one.
func sse(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		fmt.Fprintf(w, "data: %s\n\n", e)
		w.(http.Flusher).Flush()
	}
}

func chatChunk(text string) string {
	b, _ := json.Marshal(map[string]any{"object": "chat.completion.chunk",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": text}, "finish_reason": nil}}})
	return string(b)
}

func textChunk(text string) string {
	b, _ := json.Marshal(map[string]any{"object": "text_completion",
		"choices": []any{map[string]any{"index": 0, "text": text, "finish_reason": nil}}})
	return string(b)
}

// slowListener emulates a network delay on a new connection: its first read
// waits, as a handshake would.
type slowListener struct {
	net.Listener
	delay time.Duration
}

func (l slowListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &slowConn{Conn: c, delay: l.delay}, nil
}

type slowConn struct {
	net.Conn
	delay time.Duration
	read  atomic.Bool
}

func (c *slowConn) Read(p []byte) (int, error) {
	if !c.read.Swap(true) {
		time.Sleep(c.delay) // the emulated network latency the server serves, not a wait
	}
	return c.Conn.Read(p)
}
