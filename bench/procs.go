package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// buildWisp builds cmd/wisp into dir and returns the binary's path.
func buildWisp(ctx context.Context, repo, dir string) (string, error) {
	bin := filepath.Join(dir, "wisp")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/wisp")
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/wisp: %w\n%s", err, out)
	}
	return bin, nil
}

// cleanEnv is the environment for child processes: no WISP_* settings
// and no user config file, so only the benchmark's options apply.
func cleanEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WISP_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_CONFIG_HOME="+home)
}

// modelServer is a running `wisp model-server`.
type modelServer struct {
	cmd  *exec.Cmd
	addr string // host:port
	done chan struct{}
}

// modelKnobs are the model server's pacing flags.
type modelKnobs struct {
	TTFT  time.Duration `json:"ttft"`
	Rate  float64       `json:"rate"`
	Delay time.Duration `json:"delay"`
	// Accuracy is the share of reply lines left true; 0 means 1.
	Accuracy float64 `json:"accuracy,omitempty"`
	// Seed chooses which lines Accuracy makes wrong.
	Seed uint64 `json:"seed,omitempty"`
	// Calibration is the share of wrong lines whose wrong token the
	// model's logprobs doubt; FalseDoubts the share of true lines with a
	// doubted token all the same. Only clients that ask for logprobs see
	// either.
	Calibration float64 `json:"calibration"`
	FalseDoubts float64 `json:"falseDoubts"`
	// UncachedPer1K turns on the prompt-cache model; 0 means off.
	UncachedPer1K time.Duration `json:"uncachedPer1k,omitempty"`
	// CacheTTL is how long the prompt-cache model keeps an unused prompt.
	CacheTTL time.Duration `json:"cacheTTL,omitempty"`
}

// startModelServer runs the model server on a free loopback port, its
// local engine indexing workspace.
func startModelServer(bin, workspace, home string, k modelKnobs) (*modelServer, error) {
	args := []string{"model-server", "--listen", "127.0.0.1:0", "--workspace", workspace,
		"--ttft", k.TTFT.String(), "--rate", strconv.FormatFloat(k.Rate, 'f', -1, 64), "--delay", k.Delay.String()}
	if k.Accuracy > 0 {
		args = append(args, "--accuracy", strconv.FormatFloat(k.Accuracy, 'f', -1, 64), "--seed", strconv.FormatUint(k.Seed, 10))
	}
	args = append(args, "--calibration", strconv.FormatFloat(k.Calibration, 'f', -1, 64),
		"--false-doubts", strconv.FormatFloat(k.FalseDoubts, 'f', -1, 64))
	if k.UncachedPer1K > 0 {
		args = append(args, "--uncached-ms-per-1k", strconv.FormatFloat(float64(k.UncachedPer1K)/float64(time.Millisecond), 'f', -1, 64))
	}
	if k.CacheTTL > 0 {
		args = append(args, "--cache-ttl", k.CacheTTL.String())
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = cleanEnv(home)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("model server stdout: %w", err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start model server: %w", err)
	}
	ms := &modelServer{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "listening on http://"); ok {
				a, _, _ := strings.Cut(rest, " ")
				addr <- a
			}
		}
		close(addr)
	}()
	go func() { cmd.Wait(); close(ms.done) }()
	select {
	case a, ok := <-addr:
		if !ok {
			<-ms.done
			return nil, fmt.Errorf("model server exited: %s", stderr.String())
		}
		ms.addr = a
	case <-time.After(30 * time.Second):
		ms.stop()
		return nil, fmt.Errorf("model server did not start: %s", stderr.String())
	}
	return ms, nil
}

// stats reads GET /stats of the model server.
func (m *modelServer) stats() (modelserver.Stats, error) {
	var s modelserver.Stats
	resp, err := http.Get("http://" + m.addr + "/stats")
	if err != nil {
		return s, fmt.Errorf("model server stats: %w", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return s, fmt.Errorf("model server stats: %w", err)
	}
	return s, nil
}

func (m *modelServer) stop() {
	m.cmd.Process.Signal(os.Interrupt)
	select {
	case <-m.done:
	case <-time.After(5 * time.Second):
		m.cmd.Process.Kill()
		<-m.done
	}
}

// startWisp starts `wisp serve` with flags, talked to over its stdio.
func startWisp(bin, home string, flags ...string) (*client.Process, error) {
	cmd := exec.Command(bin, append([]string{"serve", "--log-level", "warn"}, flags...)...)
	cmd.Env = cleanEnv(home)
	if path := os.Getenv("BENCH_WISP_STDERR"); path != "" {
		if f, err := os.Create(path); err == nil {
			cmd.Stderr = f
		}
	}
	return client.Start(cmd)
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat times; 100 on every
// Linux architecture Go supports.
const clockTicks = 100

// cpuTime reads a process's user+system CPU time from /proc/PID/stat.
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("cpu time: %w", err)
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces: state is field 3, utime 14, stime 15.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("cpu time: malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("cpu time: short /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("cpu time: malformed /proc/%d/stat", pid)
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// rssBytes reads a process's resident set size from /proc/PID/status.
func rssBytes(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("rss: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				if err != nil {
					return 0, fmt.Errorf("rss: %w", err)
				}
				return kb << 10, nil
			}
		}
	}
	return 0, fmt.Errorf("rss: no VmRSS in /proc/%d/status", pid)
}
