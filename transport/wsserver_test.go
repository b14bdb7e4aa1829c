package transport

import (
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// testWSServer is a minimal, independent Responses API WebSocket server:
// each connection runs a behaviour that reads client frames and writes
// events.
type testWSServer struct {
	srv      *httptest.Server
	upgrades atomic.Int32
	// behave runs one connection (n counts connections from 1).
	behave func(s *wsSession, n int)
	// reject, when set, may answer the handshake with an HTTP error.
	reject func(w http.ResponseWriter, r *http.Request) bool
	// delay emulates a one-way network delay: once per new connection and
	// twice (request in, first frame out) before each response's first frame.
	delay time.Duration

	headers chan http.Header // handshake headers, most recent kept
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   []*websocket.Conn
}

// wsClientMsg is any frame the client sends.
type wsClientMsg struct {
	Type            string `json:"type"`
	Model           string `json:"model"`
	Instructions    string `json:"instructions"`
	Input           string `json:"input"`
	MaxOutputTokens int    `json:"max_output_tokens"`
	StreamID        string `json:"stream_id"`
	Store           *bool  `json:"store"`
	ResponseID      string `json:"response_id"`
	Generate        *bool  `json:"generate"`
	// Body is the whole frame, decoded.
	Body map[string]any `json:"-"`
}

type wsSession struct {
	srv *testWSServer
	ws  *websocket.Conn
	in  chan wsClientMsg
	wmu sync.Mutex
}

func newTestWSServer(t testing.TB, behave func(s *wsSession, n int)) *testWSServer {
	ts := &testWSServer{behave: behave, headers: make(chan http.Header, 1)}
	ts.srv = httptest.NewServer(ts)
	t.Cleanup(ts.close)
	return ts
}

func (ts *testWSServer) url() string {
	return "ws" + strings.TrimPrefix(ts.srv.URL, "http") + "/v1/responses"
}

func (ts *testWSServer) close() {
	ts.mu.Lock()
	for _, c := range ts.conns {
		_ = c.Close()
	}
	ts.mu.Unlock()
	ts.wg.Wait()
	ts.srv.Close()
}

func (ts *testWSServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/responses" {
		http.NotFound(w, r)
		return
	}
	select {
	case <-ts.headers:
	default:
	}
	ts.headers <- r.Header.Clone()
	if ts.reject != nil && ts.reject(w, r) {
		return
	}
	// The test server's emulated network: a new connection's cost is
	// what it serves, not a wait (zero in tests, set by benchmarks).
	time.Sleep(ts.delay)
	up := websocket.Upgrader{}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	n := int(ts.upgrades.Add(1))
	ts.mu.Lock()
	ts.conns = append(ts.conns, ws)
	ts.wg.Add(1)
	ts.mu.Unlock()
	defer ts.wg.Done()
	s := &wsSession{srv: ts, ws: ws, in: make(chan wsClientMsg, 64)}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		defer close(s.in)
		for {
			_, frame, err := ws.ReadMessage()
			if err != nil {
				return
			}
			var m wsClientMsg
			if json.Unmarshal(frame, &m) != nil || json.Unmarshal(frame, &m.Body) != nil {
				return
			}
			s.in <- m
		}
	}()
	ts.behave(s, n)
	_ = ws.Close()
	<-readerDone
}

// next returns the next client frame; false once the connection is gone,
// or after 10s of silence, so a misbehaving client fails a test rather
// than hanging it.
func (s *wsSession) next() (wsClientMsg, bool) {
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	select {
	case m, ok := <-s.in:
		return m, ok
	case <-t.C:
		return wsClientMsg{}, false
	}
}

func (s *wsSession) send(v any) {
	b, _ := json.Marshal(v)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_ = s.ws.WriteMessage(websocket.TextMessage, b)
}

func respID(streamID string) string { return "resp_" + streamID }

func (s *wsSession) created(sid string) { s.send(createdEvent(sid)) }

func (s *wsSession) delta(sid, text string) { s.send(deltaEvent(sid, text)) }

func (s *wsSession) completed(sid string, text string, tokens int) {
	for _, e := range completedEvents(sid, text, tokens) {
		s.send(e)
	}
}

func createdEvent(sid string) any {
	return map[string]any{"type": "response.created", "stream_id": sid,
		"response": map[string]any{"id": respID(sid), "status": "in_progress"}}
}

func deltaEvent(sid, text string) any {
	return map[string]any{"type": "response.output_text.delta", "stream_id": sid, "delta": text,
		"item_id": "msg_1", "output_index": 0, "content_index": 0}
}

// completedEvents are a response's last events: its text done, then
// response.completed.
func completedEvents(sid string, text string, tokens int) []any {
	return []any{
		map[string]any{"type": "response.output_text.done", "stream_id": sid, "text": text},
		map[string]any{"type": "response.completed", "stream_id": sid,
			"response": map[string]any{"id": respID(sid), "status": "completed",
				"usage": map[string]any{"output_tokens": tokens}}},
	}
}

// sendAtOnce writes events as text frames in a single write to the
// socket, so they reach the client together and its reader buffers them
// all at its next read.
func (s *wsSession) sendAtOnce(events ...any) {
	var frames []byte
	for _, e := range events {
		payload, _ := json.Marshal(e)
		// A final, unmasked text frame (RFC 6455, section 5.2).
		frames = append(frames, 0x81)
		switch n := len(payload); {
		case n < 126:
			frames = append(frames, byte(n))
		case n <= 0xFFFF:
			frames = binary.BigEndian.AppendUint16(append(frames, 126), uint16(n))
		default:
			frames = binary.BigEndian.AppendUint64(append(frames, 127), uint64(n))
		}
		frames = append(frames, payload...)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, _ = s.ws.NetConn().Write(frames)
}

// stream answers every response.create with the given deltas.
func stream(deltas ...string) func(s *wsSession, n int) {
	return func(s *wsSession, _ int) {
		for m, ok := s.next(); ok; m, ok = s.next() {
			if m.Type != "response.create" {
				continue
			}
			time.Sleep(2 * s.srv.delay) // the emulated round trip (zero in tests, set by benchmarks)
			s.created(m.StreamID)
			for _, d := range deltas {
				s.delta(m.StreamID, d)
			}
			s.completed(m.StreamID, strings.Join(deltas, ""), len(deltas))
		}
	}
}
