package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/wisp-lsp/wisp/transport/local"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// runModelServer serves the openai-ws, openai and fim wires on loopback,
// backed by a script of canned replies and the local engine.
func runModelServer(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wisp model-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:8765", "loopback address to listen on (port 0 picks one)")
	script := fs.String("script", "", "JSON file of canned replies: {\"replies\":[{\"prefixEndsWith\",\"instructionContains\",\"text\"}]}")
	ttft := fs.Duration("ttft", 0, "time to first token")
	rate := fs.Float64("rate", 0, "tokens per second after the first (0: as fast as possible)")
	delay := fs.Duration("delay", 0, "added one-way network delay per frame and per new connection")
	fault := fs.String("fault", "", "inject a fault: drop, stall, 429, malformed or mixed (each in turn), optionally @N for the Nth request only or %N for every Nth")
	maxAge := fs.Duration("max-conn-age", 0, "close WebSockets older than this, as the real service does at 60 minutes")
	strict := fs.Bool("strict", false, "behave as the real Responses WebSocket documents: response.cancel is answered with an error and stops nothing;\n"+
		"16 responses in flight and 32 streams per connection; connections closed at 60 minutes unless -max-conn-age says otherwise")
	workspace := fs.String("workspace", "", "answer completions with the true continuation of this folder's files (the local engine, indexing them, where the prompt is not in them), and next-edit requests from its files (the \"after\" versions)")
	uncached := fs.Float64("uncached-ms-per-1k", 0, "prompt-cache model: milliseconds of prefill per 1,000 prompt tokens that are not a prefix of a recent prompt (0: off)")
	cacheTTL := fs.Duration("cache-ttl", 0, "prompt-cache model: forget a prompt this long after it was last used (0: never)")
	accuracy := fs.Float64("accuracy", 1, "share of reply lines left true; the rest diverge plausibly (seeded by --seed)")
	seed := fs.Uint64("seed", 1, "seed for which lines --accuracy makes wrong and which show doubts")
	calibration := fs.Float64("calibration", 0, "share of wrong lines whose wrongness shows in the logprobs a request asks for\n"+
		"(a doubted token, the true one runner-up)")
	falseDoubts := fs.Float64("false-doubts", 0, "share of true lines (of two words or more) whose logprobs show a doubt all the same")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *accuracy <= 0 || *accuracy > 1 || *uncached < 0 {
		fmt.Fprintln(stderr, "wisp model-server: --accuracy must be in (0, 1] and --uncached-ms-per-1k not negative")
		return 2
	}
	if *calibration < 0 || *calibration > 1 || *falseDoubts < 0 || *falseDoubts > 1 {
		fmt.Fprintln(stderr, "wisp model-server: --calibration and --false-doubts must be in [0, 1]")
		return 2
	}
	opts := modelserver.Options{TTFT: *ttft, Rate: *rate, Delay: *delay, MaxConnAge: *maxAge, Strict: *strict,
		UncachedPer1K: time.Duration(*uncached * float64(time.Millisecond)), CacheTTL: *cacheTTL,
		Accuracy: *accuracy, Seed: *seed, Calibration: *calibration, FalseDoubts: *falseDoubts}
	var err error
	if opts.Fault, err = modelserver.ParseFault(*fault); err != nil {
		fmt.Fprintln(stderr, "wisp model-server:", err)
		return 2
	}
	if *script != "" {
		if opts.Script, err = modelserver.LoadScript(*script); err != nil {
			fmt.Fprintln(stderr, "wisp model-server:", err)
			return 2
		}
	}
	engine := local.New(local.Options{})
	defer engine.Close()
	if *workspace != "" {
		if err := engine.IndexDir(ctx, *workspace, 2000, 64<<20); err != nil {
			fmt.Fprintln(stderr, "wisp model-server: index:", err)
		}
	}
	opts.Model = engine
	if *workspace != "" {
		// Completions get the files' true continuation (a perfect model
		// that runs on past the line), the local engine where the prompt
		// is not in the files; next-edit requests get the oracle.
		cont, err := modelserver.NewContinuation(*workspace, modelserver.ModelBackend{Model: engine})
		if err != nil {
			fmt.Fprintln(stderr, "wisp model-server:", err)
			return 2
		}
		opts.Backend = modelserver.Oracle{Root: *workspace, Fallback: modelserver.ScriptBackend{Script: opts.Script, Fallback: cont}}
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(stderr, "wisp model-server:", err)
		return 1
	}
	if host, _, _ := net.SplitHostPort(l.Addr().String()); !net.ParseIP(host).IsLoopback() {
		l.Close()
		fmt.Fprintf(stderr, "wisp model-server: refusing to listen on %s: loopback addresses only\n", host)
		return 2
	}
	srv := modelserver.New(opts)
	stop := context.AfterFunc(ctx, srv.Close)
	defer stop()
	fmt.Fprintf(stdout, "wisp model-server listening on http://%s (ws://%s/v1/responses)\n", l.Addr(), l.Addr())
	if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintln(stderr, "wisp model-server:", err)
		return 1
	}
	return 0
}
