package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lsp"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// soakKeys is how many keystrokes BenchmarkSoak types per iteration.
var soakKeys = flag.Int("soak-keys", 100_000, "keystrokes BenchmarkSoak types")

// soakFaultEvery: one model request in this many is faulted (drop, stall,
// 429, malformed in turn).
const soakFaultEvery = 200

// soakFiles are the files typed into, in turn: their first 60% is opened,
// the rest typed key by key, and the document closed again.
var soakFiles = []string{
	"../completion/engine.go", "../lsp/inline.go", "testdata/lru.py", "testdata/emitter.ts", "testdata/ring.rs",
}

// BenchmarkSoak types 100,000 keystrokes into the real language server
// (over a pipe, in process) against the loopback model server on the
// Responses WebSocket, with faults injected every soakFaultEvery model
// requests. Every third request is cancelled by the next key, as editors
// do; the others are awaited. It prints RSS (VmRSS: tree-sitter's memory
// is C, outside the Go heap) and goroutines every 10,000 keys — both
// should stay flat — and the errors and per-key latency over the run.
//
//	go test -run '^$' -bench Soak -benchtime 1x ./bench [-args -soak-keys N]
//
// It runs once, and only when asked for with -benchtime 1x: `-bench .`
// runs of the micro-benchmarks skip it.
func BenchmarkSoak(b *testing.B) {
	if f := flag.Lookup("test.benchtime"); f == nil || f.Value.String() != "1x" {
		b.Skip("the soak runs once: go test -run '^$' -bench Soak -benchtime 1x ./bench")
	}
	r := soak(b, *soakKeys)
	b.ReportMetric(r.p50, "p50-ms/key")
	b.ReportMetric(r.p99, "p99-ms/key")
	b.ReportMetric(float64(r.lspErrors), "lsp-errors")
}

type soakResult struct {
	p50, p99  float64
	lspErrors int
}

func soak(b *testing.B, keys int) soakResult {
	ctx := context.Background()
	backend := &continuation{}
	ms := modelserver.New(modelserver.Options{Backend: backend,
		Fault: modelserver.Fault{Kind: modelserver.FaultMixed, Every: soakFaultEvery}})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go ms.Serve(l)
	defer ms.Close()

	cfg := config.Default()
	cfg.Model = config.Model{Provider: config.ProviderOpenAIWS, Endpoint: "ws://" + l.Addr().String() + "/v1/responses", Model: "soak"}
	cfg.Status = true // as wisp's plugins ask: wisp/status counts the changes
	srv := lsp.New(lsp.Options{Log: zap.NewNop(), Config: cfg,
		OpenModel: func(_ context.Context, m config.Model) (transport.Model, error) {
			return provider.Open(m, func(string) string { return "" }, zap.NewNop())
		}})
	serverEnd, clientEnd := net.Pipe()
	served := make(chan int, 1)
	go func() { served <- srv.Serve(ctx, serverEnd) }()
	var (
		statuses  atomic.Int64
		lastState atomic.Value             // of string: the last wisp/status state
		ready     = make(chan struct{}, 1) // signalled by each "ready" status
	)
	c := client.New(clientEnd, client.Options{OnNotification: func(method string, params json.RawMessage) {
		if method == "wisp/status" {
			var p struct{ State string }
			_ = json.Unmarshal(params, &p)
			statuses.Add(1)
			lastState.Store(p.State)
			if p.State == completion.StatusReady {
				select {
				case ready <- struct{}{}:
				default:
				}
			}
		}
	}})
	defer func() {
		c.Close()
		clientEnd.Close()
		<-served
	}()
	if _, err := c.Initialize(ctx, nil); err != nil {
		b.Fatal(err)
	}

	var (
		lat                        []float64 // ms per awaited key
		lspErrors, shown, timeouts int
		cancelled                  int
		start                      = time.Now()
	)
	fmt.Printf("\n| keys | RSS MB | Go heap MB | goroutines | model requests | engine failures | elapsed s |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	sample := func(k int) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		var st completion.Stats
		if err := c.Call(ctx, "wisp/stats", struct{}{}, &st); err != nil {
			b.Fatal(err)
		}
		fmt.Printf("| %d | %.1f | %.1f | %d | %d | %d | %.0f |\n", k, rssMB(b), float64(m.HeapInuse)/(1<<20),
			runtime.NumGoroutine(), ms.Stats().Requests, st.Failures, time.Since(start).Seconds())
	}
	sample(0)
	for k, pass := 0, 0; k < keys; pass++ {
		path := soakFiles[pass%len(soakFiles)]
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		full := string(data)
		backend.full.Store(&full)
		uri := "file:///soak/" + filepath.Base(path) // reopened each pass: the client keeps one copy per URI
		at := len(full) * 6 / 10
		for !utf8.RuneStart(full[at]) {
			at++
		}
		if err := c.Open(ctx, uri, syntax.Detect("", path).Name(), full[:at]); err != nil {
			b.Fatal(err)
		}
		for at < len(full) && k < keys {
			k++
			_, n := utf8.DecodeRuneInString(full[at:])
			t0 := time.Now()
			if _, err := c.Replace(ctx, uri, at, at, full[at:at+n]); err != nil {
				b.Fatal(err)
			}
			at += n
			reqCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
			if k%3 == 0 {
				// The next key comes before the answer: the editor cancels.
				cancel()
				_, _ = c.InlineCompletion(reqCtx, uri, at)
				cancelled++
			} else {
				got, err := c.InlineCompletion(reqCtx, uri, at)
				lat = append(lat, float64(time.Since(t0))/float64(time.Millisecond))
				timedOut := reqCtx.Err() != nil
				cancel()
				switch {
				case timedOut:
					timeouts++
				case err != nil:
					lspErrors++
				case got != "":
					shown++
				}
			}
			if k%10_000 == 0 {
				sample(k)
			}
		}
		if err := c.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}}); err != nil {
			b.Fatal(err)
		}
	}

	// The run may end inside an outage (a fault's Retry-After, say): the
	// model must be back for the next keys. None is unrecovered.
	recovered := recoverAfter(ctx, b, c, backend, &lastState, ready)
	var st completion.Stats
	if err := c.Call(ctx, "wisp/stats", struct{}{}, &st); err != nil {
		b.Fatal(err)
	}
	mst := ms.Stats()
	d := summarize(lat)
	r := soakResult{p50: d.P50, p99: d.P99, lspErrors: lspErrors}
	fmt.Printf("\nkeys %d (%d awaited, %d cancelled by the next key) in %.0f s; model requests %d, faults injected %d, engine failures %d, wisp/status changes %d\n",
		keys, len(lat), cancelled, time.Since(start).Seconds(), mst.Requests, mst.Requests/soakFaultEvery, st.Failures, statuses.Load())
	fmt.Printf("awaited keys: %d with ghost text, %d LSP errors, %d unanswered after 10 s; per key p50 %.2f ms, p99 %.2f ms, max %.0f ms\n",
		shown, lspErrors, timeouts, r.p50, r.p99, slices.Max(lat))
	fmt.Printf("status at the end: %s\n", recovered)
	if lspErrors > 0 || timeouts > 0 {
		b.Errorf("%d LSP errors and %d unanswered requests: failures must answer empty", lspErrors, timeouts)
	}
	return r
}

// recoverAfter makes sure the model is available at the end of the run:
// if the last status was an outage, it types into a fresh document until
// ghost text comes back and the status says so (10 s at most). It returns
// how the run ended. ready is signalled by each "ready" status.
func recoverAfter(ctx context.Context, b *testing.B, c *client.Client, backend *continuation, last *atomic.Value, ready <-chan struct{}) string {
	if s, _ := last.Load().(string); s != completion.StatusUnavailable {
		return "available (no outage pending)"
	}
	select {
	case <-ready: // from before the outage
	default:
	}
	full := "package p\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n"
	backend.full.Store(&full)
	uri := "file:///soak/recover.go"
	at := len("package p\n\nfunc add(a, b int) int {\n\t")
	if err := c.Open(ctx, uri, "go", full[:at]); err != nil {
		b.Fatal(err)
	}
	defer c.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		got, err := c.InlineCompletion(ctx, uri, at)
		if err == nil && got != "" {
			// The status follows the answer.
			select {
			case <-ready:
			case <-time.After(time.Until(deadline)):
			}
			if s, _ := last.Load().(string); s == completion.StatusReady {
				return "recovered after the last fault"
			}
			break
		}
		// No event exists: the engine holds requests back for its retry
		// delay and announces nothing when it ends, so the loop asks
		// again as a user would. The sleep spaces the requests.
		time.Sleep(50 * time.Millisecond)
	}
	b.Errorf("the model did not come back within 10 s of the run's end")
	return "UNRECOVERED"
}

// rssMB reads this process's resident set (VmRSS) in MB.
func rssMB(b *testing.B) float64 {
	n, err := rssBytes(os.Getpid())
	if err != nil {
		b.Fatal(err)
	}
	return float64(n) / (1 << 20)
}

// continuation is the soak's model: it answers with the rest of the line
// that follows the prompt's prefix in the file being typed, so typing what
// it showed is served by the same stream, as with a good model.
type continuation struct {
	full atomic.Pointer[string]
}

func (c *continuation) Generate(ctx context.Context, q modelserver.Query, yield func(string) bool) error {
	full := c.full.Load()
	if full == nil {
		return nil
	}
	probe := q.Prefix[max(0, len(q.Prefix)-64):]
	i := strings.Index(*full, probe)
	if i < 0 {
		return nil
	}
	rest := (*full)[i+len(probe):]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl+1]
	}
	for _, tok := range modelserver.Tokenize(rest) {
		if ctx.Err() != nil || !yield(tok) {
			return nil
		}
	}
	return nil
}
