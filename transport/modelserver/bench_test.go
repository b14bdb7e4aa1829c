package modelserver

import (
	"fmt"
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

// BenchmarkLocate finds cursors by prompts of 2 KB ending all through
// each file of a corpus, by the index and by the scan of every file that
// it replaced: in the testdata corpus and in the whole module (some 25
// times as much text).
func BenchmarkLocate(b *testing.B) {
	for _, corpus := range []struct{ name, root string }{{"testdata", testdataCorpus}, {"module", "../.."}} {
		c, err := NewContinuation(corpus.root, nil)
		if err != nil {
			b.Fatal(err)
		}
		files := c.corpus.files()
		var prompts []string
		for _, f := range files {
			for end := 1; end <= len(f); end += 997 {
				prompts = append(prompts, f[max(0, end-2048):end])
			}
		}
		for _, impl := range []struct {
			name   string
			locate func(string) (string, bool)
		}{
			{"index", c.locate},
			{"scan", func(p string) (string, bool) { return scanLocate(files, p) }},
		} {
			b.Run(fmt.Sprintf("%s/%dKB/%s", corpus.name, len(c.corpus.text)>>10, impl.name), func(b *testing.B) {
				for i := range b.N {
					impl.locate(prompts[i%len(prompts)])
				}
			})
		}
	}
}
