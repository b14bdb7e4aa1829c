package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lsp"
	"github.com/wisp-lsp/wisp/transport/local"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

//go:embed demo/stats.go.txt
var demoSample string

// demoSplit is where the demo starts typing: the sample's last function.
const demoSplit = "// Min returns"

// demoEdit is the canned rewrite the demo's model server returns for its
// quick edit, so the demo shows a real minimal diff without a real model.
const demoEdit = "Here is the function with the variable renamed:\n\n```go\nfunc Sum(xs []float64) float64 {\n\tsum := 0.0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum\n}\n```"

// runDemo shows the whole pipeline: the loopback model server (backed by
// the embedded local engine), the persistent WebSocket to it, the real
// language server, typing replayed keystroke by keystroke with the ghost
// text and its latency, and a quick edit answered with minimal edits.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ttft := fs.Duration("ttft", 100*time.Millisecond, "the model's time to first token")
	rate := fs.Float64("rate", 1000, "the model's tokens per second")
	delay := fs.Duration("delay", 20*time.Millisecond, "one-way network delay to the model")
	key := fs.Duration("key", 60*time.Millisecond, "time between keystrokes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := demo(ctx, stdout, *ttft, *rate, *delay, *key); err != nil {
		fmt.Fprintln(stderr, "wisp demo:", err)
		return 1
	}
	return 0
}

func demo(ctx context.Context, w io.Writer, ttft time.Duration, rate float64, delay, key time.Duration) error {
	engine := local.New(local.Options{})
	defer engine.Close()
	script := &modelserver.Script{Replies: []modelserver.Reply{{InstructionContains: "rename", Text: demoEdit}}}
	ms := modelserver.New(modelserver.Options{Model: engine, Script: script, TTFT: ttft, Rate: rate, Delay: delay})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go ms.Serve(l)
	defer ms.Close()
	endpoint := "ws://" + l.Addr().String() + "/v1/responses"
	fmt.Fprintf(w, "model server: %s (time to first token %s, %.0f tokens/s, %s each way)\n", endpoint, ttft, rate, delay)

	serverEnd, clientEnd := net.Pipe()
	// The model server is chosen where wisp trusts a choice of endpoint
	// (its own configuration): the editor's initializationOptions may not
	// send code elsewhere.
	cfg, _, err := config.Default().Override([]string{
		"model.provider=" + config.ProviderOpenAIWS, "model.endpoint=" + endpoint, "model.model=demo"}, "wisp demo")
	if err != nil {
		return err
	}
	srv := lsp.New(lsp.Options{Log: zap.NewNop(), Config: cfg, OpenModel: modelOpener(zap.NewNop())})
	served := make(chan int, 1)
	go func() { served <- srv.Serve(ctx, serverEnd) }()

	c := client.New(clientEnd, client.Options{Record: true, ApplyEdit: func(json.RawMessage) bool { return true }})
	defer func() {
		c.Close()
		<-served
	}()
	start := time.Now()
	if _, err := c.Initialize(ctx, nil); err != nil {
		return err
	}
	fmt.Fprintf(w, "language server initialized in %s; the WebSocket opens now, before the first keystroke\n\n", time.Since(start).Round(time.Microsecond))

	const uri = "file:///demo/stats.go"
	split := strings.Index(demoSample, demoSplit)
	if err := c.Open(ctx, uri, "go", demoSample[:split]); err != nil {
		return err
	}
	time.Sleep(3 * delay) // let the warm-up finish, as it would while the user reads
	var lat []time.Duration
	typed := demoSample[split:]
	line := ""
	for i := 0; i < len(typed); i++ {
		off := split + i
		if _, err := c.Replace(ctx, uri, off, off, typed[i:i+1]); err != nil {
			return err
		}
		t0 := time.Now()
		ghost, err := c.InlineCompletion(ctx, uri, off+1)
		if err != nil {
			return err
		}
		d := time.Since(t0)
		lat = append(lat, d)
		if typed[i] == '\n' {
			line = ""
			continue
		}
		line += typed[i : i+1]
		shown := ghost
		if j := strings.IndexByte(shown, '\n'); j >= 0 {
			shown = shown[:j] + " …"
		}
		fmt.Fprintf(w, "%8.1fms  %s\x1b[2m%s\x1b[0m\n", float64(d.Microseconds())/1000, line, shown)
		if rest := key - d; rest > 0 {
			time.Sleep(rest)
		}
	}
	var stats struct {
		Queries, ModelRequests, FromTypedAhead, FromCache int
	}
	c.Call(ctx, "wisp/stats", map[string]any{}, &stats)
	slices.Sort(lat)
	fmt.Fprintf(w, "\n%d keystrokes: %d model requests, %d served by typed-ahead reuse, %d from cache; latency p50 %s, p95 %s\n",
		len(lat), stats.ModelRequests, stats.FromTypedAhead, stats.FromCache,
		lat[len(lat)/2].Round(time.Microsecond), lat[len(lat)*95/100].Round(time.Microsecond))

	fmt.Fprintln(w, "\nquick edit: \"rename total to sum\" on func Sum")
	t0 := time.Now()
	line5 := c.Text(uri).LineStart(5)
	if err := c.QuickEdit(ctx, uri, line5, line5, "rename total to sum"); err != nil {
		return err
	}
	for _, a := range c.Requests("workspace/applyEdit") {
		fmt.Fprintf(w, "applied in %s, minimal edits: %s\n", time.Since(t0).Round(time.Millisecond), summarizeEdit(string(a)))
	}
	return c.Shutdown(ctx)
}

// summarizeEdit lists the replacements in a workspace/applyEdit params.
func summarizeEdit(params string) string {
	var p struct {
		Edit struct {
			DocumentChanges []struct {
				Edits []struct {
					Range struct {
						Start struct{ Line, Character int }
					}
					NewText string
				}
			}
		}
	}
	json.Unmarshal([]byte(params), &p)
	var parts []string
	for _, dc := range p.Edit.DocumentChanges {
		for _, e := range dc.Edits {
			parts = append(parts, fmt.Sprintf("%d:%d→%q", e.Range.Start.Line+1, e.Range.Start.Character+1, e.NewText))
		}
	}
	return strings.Join(parts, ", ")
}
