package modelserver

import (
	"net/http"
	"strings"
	"testing"
)

// long is a reply of 1,000 tokens or so.
var long = strings.Repeat("func add(a, b int) int {\n\treturn a + b\n}\n", 60)

// BenchmarkWSReply measures one unpaced scripted reply over a WebSocket
// lane, end to end (create to response.completed).
func BenchmarkWSReply(b *testing.B) {
	_, base := start(b, Options{Backend: TextBackend(long)})
	c := dial(b, base)
	toks := len(Tokenize(long))
	b.ResetTimer()
	for range b.N {
		send(b, c, create("s", "x", ""))
		if l := readLanes(b, c, "s")["s"]; l.deltas != toks {
			b.Fatalf("%d deltas", l.deltas)
		}
	}
	b.ReportMetric(float64(toks*b.N)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkSSEReply measures one unpaced reply over chat completions SSE.
func BenchmarkSSEReply(b *testing.B) {
	_, base := start(b, Options{Backend: TextBackend(long)})
	toks := len(Tokenize(long))
	b.ResetTimer()
	for range b.N {
		resp, err := http.Post(base+"/v1/chat/completions", "application/json", jsonBody(chatBody("x", "", true)))
		if err != nil {
			b.Fatal(err)
		}
		data, err := sseData(resp.Body)
		resp.Body.Close()
		if err != nil || len(data) != toks+2 {
			b.Fatalf("%d frames, %v", len(data), err)
		}
	}
	b.ReportMetric(float64(toks*b.N)/b.Elapsed().Seconds(), "tokens/s")
}

func BenchmarkTokenize(b *testing.B) {
	b.SetBytes(int64(len(long)))
	for range b.N {
		Tokenize(long)
	}
}
