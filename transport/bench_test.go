package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/zap"
)

// BenchmarkWSRelayDelta measures the client's cost per token on the hot
// path, without the network: decode one response.output_text.delta frame,
// find its lane, apply stop sequences, accumulate, call onDelta.
func BenchmarkWSRelayDelta(b *testing.B) {
	for _, stops := range [][]string{nil, {"\n\n", "</end>"}} {
		b.Run(fmt.Sprintf("stops=%d", len(stops)), func(b *testing.B) {
			c := newWSConn(nil, endpoint{host: "bench"}, zap.NewNop(), time.Hour, time.Hour)
			l := newLane(newSink(Request{Stop: stops}, func(string) {}))
			if ok, _ := c.add(l); !ok || l.id != "wisp-1" {
				b.Fatalf("lane %q not added", l.id)
			}
			frame, _ := json.Marshal(map[string]any{"type": "response.output_text.delta", "stream_id": "wisp-1",
				"item_id": "msg_0123456789", "output_index": 0, "content_index": 0, "sequence_number": 42, "delta": " token"})
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				c.dispatch(frame)
				if l.sink.text.Len() > 1<<20 {
					l.sink.text.Reset()
				}
			}
		})
	}
}

// BenchmarkWSRelayStream measures the per-delta cost end to end over a
// loopback WebSocket: the server pushes b.N prepared delta frames for one
// request. It includes the server's writes on the same CPUs, so it is an
// upper bound on the client's cost.
func BenchmarkWSRelayStream(b *testing.B) {
	ts := newTestWSServer(b, func(s *wsSession, _ int) {
		for m, ok := s.next(); ok; m, ok = s.next() {
			s.created(m.StreamID)
			frame, _ := json.Marshal(map[string]any{"type": "response.output_text.delta", "stream_id": m.StreamID, "delta": " token"})
			pm, _ := websocket.NewPreparedMessage(websocket.TextMessage, frame)
			s.wmu.Lock()
			for range m.MaxOutputTokens {
				_ = s.ws.WritePreparedMessage(pm)
			}
			s.wmu.Unlock()
			s.completed(m.StreamID, "", m.MaxOutputTokens)
		}
	})
	m, err := NewWS(WSConfig{Endpoint: ts.url(), Model: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	if err := m.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	res, err := m.Generate(context.Background(), Request{MaxTokens: b.N}, func(string) { n++ })
	b.StopTimer()
	if err != nil || n != b.N {
		b.Fatalf("%d deltas of %d: %v (%d bytes)", n, b.N, err, len(res.Text))
	}
}

// benchDelay is the emulated one-way network delay for the round-trip
// benchmarks: paid once per new connection, and twice before a response's
// first frame (the request travelling in, the frame travelling out; later
// frames' delays overlap the first's).
const benchDelay = 20 * time.Millisecond

const benchDeltas = 8

// BenchmarkRoundTrip compares a request's cost over (a) the persistent
// WebSocket, (b) SSE on a kept-alive connection and (c) SSE with a new
// connection per request, against a server that adds benchDelay.
// ttft-ms is time to first token; overhead-ms is what a request costs
// beyond the emulated round trip (2 × benchDelay).
func BenchmarkRoundTrip(b *testing.B) {
	b.Run("websocket", func(b *testing.B) {
		ts := newTestWSServer(b, stream(strings.Split(strings.Repeat("tok ", benchDeltas), " ")[:benchDeltas]...))
		ts.delay = benchDelay
		m, err := NewWS(WSConfig{Endpoint: ts.url(), Model: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		benchRoundTrip(b, m)
	})
	for _, newConn := range []bool{false, true} {
		name := "sse-keepalive"
		if newConn {
			name = "sse-new-conn"
		}
		b.Run(name, func(b *testing.B) {
			ts := newDelayedHTTPServer(b, benchDelay, func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodHead {
					return
				}
				time.Sleep(2 * benchDelay) // the emulated round trip the benchmark measures
				chunks := make([]string, 0, benchDeltas+1)
				for range benchDeltas {
					chunks = append(chunks, chatChunk("tok"))
				}
				sse(w, append(chunks, "[DONE]")...)
			})
			m, err := NewSSE(SSEConfig{Endpoint: ts.srv.URL + "/v1", Model: "bench", NewConnPerRequest: newConn})
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			benchRoundTrip(b, m)
		})
	}
}

func benchRoundTrip(b *testing.B, m interface {
	Model
	Warmer
}) {
	if err := m.Warm(context.Background()); err != nil {
		b.Fatal(err)
	}
	var ttft time.Duration
	b.ResetTimer()
	for range b.N {
		res, err := m.Generate(context.Background(), Request{Prefix: "x"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		ttft += res.TTFT
	}
	b.StopTimer()
	perReq := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(ttft.Microseconds())/float64(b.N)/1000, "ttft-ms")
	b.ReportMetric(float64((perReq-2*benchDelay).Microseconds())/1000, "overhead-ms")
}
