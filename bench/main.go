// Command bench is wisp's benchmark harness: it runs the real `wisp serve`
// as an editor would, against `wisp model-server` processes that answer
// with each file's true continuation, replays typing traces keystroke by
// keystroke, and compares configurations (WebSocket, SSE kept alive, SSE
// with a new connection per request, streaming and reuse off, debounce)
// side by side, plus a scale run with hundreds of open files. It prints a
// markdown table and writes JSON and a latency CDF as SVG.
//
//	go run ./bench [--quick] [--key 80ms] [--json FILE] [--plot FILE]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(benchMain(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// flags are the harness's options.
type flags struct {
	wisp, repo, jsonOut, plotOut string
	quick, noIdle                bool
	only                         *regexp.Regexp
	key, scaleKey, settle        time.Duration
	knobs                        modelKnobs
	keysPerTrace, bigLines       int
	scaleFiles, scaleLines       int
	scaleKeys                    int
}

func parseFlags(args []string, stderr io.Writer) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.wisp, "wisp", "", "wisp binary to run (default: go build ./cmd/wisp into a temp dir)")
	fs.StringVar(&f.repo, "repo", "", "the wisp module's root (default: found from the working directory)")
	fs.StringVar(&f.jsonOut, "json", "bench-results.json", "write the results as JSON here")
	fs.StringVar(&f.plotOut, "plot", "bench-cdf.svg", "write the latency CDF as SVG here")
	fs.BoolVar(&verbose, "verbose", false, "print every keystroke to stderr")
	fs.BoolVar(&f.quick, "quick", false, "a few keystrokes per configuration, one standard library trace and a small scale run (for tests)")
	fs.DurationVar(&f.key, "key", 80*time.Millisecond, "time between keystrokes")
	fs.DurationVar(&f.settle, "settle", 300*time.Millisecond, "pause after opening a file before typing")
	fs.DurationVar(&f.knobs.TTFT, "ttft", 100*time.Millisecond, "the model's time to first token")
	fs.Float64Var(&f.knobs.Rate, "rate", 1000, "the model's tokens per second")
	fs.DurationVar(&f.knobs.Delay, "delay", 20*time.Millisecond, "one-way network delay to the model")
	fs.Uint64Var(&f.knobs.Seed, "accuracy-seed", 1, "the model server's --seed: which reply lines the @0.8 configurations make wrong")
	fs.Float64Var(&f.knobs.Calibration, "calibration", 0.7, "the model server's --calibration: the share of wrong lines its logprobs doubt")
	fs.Float64Var(&f.knobs.FalseDoubts, "false-doubts", 0.1, "the model server's --false-doubts: the share of true lines with a doubted token")
	fs.IntVar(&f.keysPerTrace, "keys", 30, "keystrokes per trace")
	fs.IntVar(&f.bigLines, "big-lines", 5000, "lines of the large Go file among the traces (0: none)")
	fs.IntVar(&f.scaleFiles, "scale-files", 200, "open files in the scale run (0: no scale run)")
	fs.IntVar(&f.scaleLines, "scale-lines", 1000, "lines per file in the scale run")
	fs.IntVar(&f.scaleKeys, "scale-keys", 250, "keystrokes in the scale run")
	fs.DurationVar(&f.scaleKey, "scale-key", 20*time.Millisecond, "time between keystrokes in the scale run (50 keys/s)")
	only := fs.String("only", "", "run only the configurations whose names match this regular expression")
	fs.BoolVar(&f.noIdle, "no-idle", false, "skip the first-request-after-idle run")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if *only != "" {
		var err error
		if f.only, err = regexp.Compile(*only); err != nil {
			return f, fmt.Errorf("--only: %w", err)
		}
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if f.quick {
		f.keysPerTrace, f.bigLines, f.scaleFiles, f.scaleLines, f.scaleKeys = 6, 5000, 20, 500, 25
		f.settle = 150 * time.Millisecond
	}
	if f.key <= 0 || f.scaleKey <= 0 || f.keysPerTrace <= 0 {
		return f, fmt.Errorf("--key, --scale-key and --keys must be positive")
	}
	return f, nil
}

func benchMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, err := parseFlags(args, stderr)
	if err != nil {
		return 2
	}
	rs, idle, err := runAll(ctx, f, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	writeTable(stdout, rs)
	writeMisses(stdout, rs)
	writeAccepting(stdout, rs)
	writeIdle(stdout, idle)
	ts := judge(rs)
	writeTargets(stdout, ts)
	if err := writeOutputs(f, rs, idle, ts); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	return 0
}

// runAll runs every configuration, the scale run and (unless --quick) the
// idle run.
func runAll(ctx context.Context, f flags, progress io.Writer) ([]result, []idleResult, error) {
	repo := f.repo
	if repo == "" {
		var err error
		if repo, err = findRepo(); err != nil {
			return nil, nil, err
		}
	}
	tmp, err := os.MkdirTemp("", "wisp-bench-")
	if err != nil {
		return nil, nil, fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := f.wisp
	if bin == "" {
		fmt.Fprintln(progress, "bench: building wisp")
		if bin, err = buildWisp(ctx, repo, tmp); err != nil {
			return nil, nil, err
		}
	}
	goSrc, err := goSourceRoot(ctx)
	if err != nil {
		return nil, nil, err
	}
	goFiles := traceFiles
	if f.quick {
		// One standard library file keeps every language and the large
		// file in the quick run at half the traces' cost.
		goFiles = goFiles[:1]
	}
	traces, err := loadTraces(repo, goSrc, goFiles, f.keysPerTrace, f.bigLines)
	if err != nil {
		return nil, nil, err
	}
	workspace := filepath.Join(tmp, "workspace")
	home := filepath.Join(tmp, "home")
	for _, d := range []string{workspace, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, nil, fmt.Errorf("temp dir: %w", err)
		}
	}
	corpus := map[string]string{}
	for _, t := range traces {
		corpus[t.Path] = t.Full
	}
	if err := writeWorkspace(workspace, corpus); err != nil {
		return nil, nil, err
	}
	e := env{bin: bin, home: home, workspace: workspace, knobs: f.knobs, key: f.key, settle: f.settle}
	var rs []result
	for _, s := range setups {
		if f.only != nil && !f.only.MatchString(s.Name) {
			continue
		}
		fmt.Fprintf(progress, "bench: %s (%d traces)\n", s.Name, len(traces))
		r, err := e.run(ctx, s, traces, workspace, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		rs = append(rs, r)
	}
	if f.scaleFiles > 0 {
		fmt.Fprintf(progress, "bench: scale run (%d files × %d lines)\n", f.scaleFiles, f.scaleLines)
		r, err := e.scaleRun(ctx, goSrc, filepath.Join(tmp, "scale"), f.scaleFiles, f.scaleLines, f.scaleKeys, f.scaleKey)
		if err != nil {
			return nil, nil, fmt.Errorf("scale run: %w", err)
		}
		rs = append(rs, r)
	}
	var idle []idleResult
	if !f.quick && !f.noIdle {
		for _, warm := range []bool{false, true} {
			fmt.Fprintf(progress, "bench: first request after idle (warm-up %v)\n", warm)
			r, err := e.idleRun(ctx, warm, traces, workspace)
			if err != nil {
				return nil, nil, fmt.Errorf("idle run: %w", err)
			}
			idle = append(idle, r)
		}
	}
	return rs, idle, nil
}

// findRepo walks up from the working directory to the wisp module root.
func findRepo() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find repo: %w", err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && len(b) > 0 {
			if _, err := os.Stat(filepath.Join(dir, "cmd", "wisp")); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("find repo: no wisp module above the working directory (use --repo)")
		}
		dir = parent
	}
}

func writeOutputs(f flags, rs []result, idle []idleResult, ts []target) error {
	out := struct {
		Date    string       `json:"date"`
		Key     string       `json:"key"`
		Model   modelKnobs   `json:"model"`
		Results []result     `json:"results"`
		Idle    []idleResult `json:"idle,omitempty"`
		Targets []target     `json:"targets"`
	}{time.Now().UTC().Format(time.RFC3339), f.key.String(), f.knobs, rs, idle, ts}
	if f.jsonOut != "" {
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return fmt.Errorf("json: %w", err)
		}
		if err := os.WriteFile(f.jsonOut, b, 0o644); err != nil {
			return fmt.Errorf("write json: %w", err)
		}
	}
	if f.plotOut != "" {
		file, err := os.Create(f.plotOut)
		if err != nil {
			return fmt.Errorf("write plot: %w", err)
		}
		if err := writeCDF(file, rs); err != nil {
			file.Close()
			return fmt.Errorf("write plot: %w", err)
		}
		if err := file.Close(); err != nil {
			return fmt.Errorf("write plot: %w", err)
		}
	}
	return nil
}
