package editors

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// reply is one rule of a model-server script (see wisp model-server).
type reply struct {
	PrefixEndsWith      string `json:"prefixEndsWith,omitempty"`
	InstructionContains string `json:"instructionContains,omitempty"`
	Text                string `json:"text"`
}

// pace slows the model server down: tokens per second, time to the first
// token and one-way network delay. The zero value is as fast as it goes.
type pace struct {
	rate  int
	ttft  time.Duration
	delay time.Duration
}

// measured is the pace the editor tests measure keystroke → ghost text
// against: a model that starts answering after 100 ms, 20 ms away each way.
var measured = pace{ttft: 100 * time.Millisecond, delay: 20 * time.Millisecond}

// modelServer is a running `wisp model-server`.
type modelServer struct {
	addr string    // 127.0.0.1:PORT
	cmd  *exec.Cmd // the process; stop ends it
	// settings are more initializationOptions for the editors to send
	// (e.g. nextEdit); nil adds none.
	settings map[string]any
}

// stop ends the model server and waits until its port is closed, as a
// model that goes down does.
func (m *modelServer) stop(t *testing.T) {
	t.Helper()
	syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
	waitFor(t, 10*time.Second, "the model server is down", func() (bool, string) {
		c, err := net.Dial("tcp", m.addr)
		if err == nil {
			c.Close()
			return false, "still accepting connections"
		}
		return true, ""
	})
}

// endpoint is the Responses WebSocket URL wisp is pointed at.
func (m *modelServer) endpoint() string { return "ws://" + m.addr + "/v1/responses" }

// initOptions is the settings that point wisp at m, as a user writes them
// in an editor plugin's configuration; the plugin must pass the model's
// address through wisp's trusted channel (its environment or flags).
func (m *modelServer) initOptions() map[string]any {
	opts := map[string]any{
		"model":     map[string]any{"provider": "openai-ws", "endpoint": m.endpoint(), "model": "test"},
		"streaming": true,
	}
	for k, v := range m.settings {
		opts[k] = v
	}
	return opts
}

// env is the environment that points wisp at m, as an editor's
// `environment` or `cmd_env` setting passes it.
func (m *modelServer) env() []string {
	return []string{"WISP_PROVIDER=openai-ws", "WISP_ENDPOINT=" + m.endpoint(), "WISP_MODEL=test"}
}

// selfCheckEmpty reports whether WISP_EDITORS_SELFCHECK=empty asks every
// script to reply nothing, which must make every editor test fail.
func selfCheckEmpty() bool { return os.Getenv("WISP_EDITORS_SELFCHECK") == "empty" }

// startModelServer starts `wisp model-server` with replies on a free
// loopback port and waits until it answers GET /stats.
func startModelServer(t *testing.T, replies []reply, p pace) *modelServer {
	t.Helper()
	return startModelServerAt(t, freeAddr(t), replies, p)
}

// startModelServerAt is startModelServer on a given address (to bring a
// stopped model back where wisp expects it), with more model-server flags.
func startModelServerAt(t *testing.T, addr string, replies []reply, p pace, flags ...string) *modelServer {
	t.Helper()
	if selfCheckEmpty() {
		for i := range replies {
			replies[i].Text = ""
		}
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	data, err := json.Marshal(map[string]any{"replies": replies})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"model-server", "--listen", addr, "--script", script}
	if p.rate > 0 {
		args = append(args, "--rate", fmt.Sprint(p.rate))
	}
	if p.ttft > 0 {
		args = append(args, "--ttft", p.ttft.String())
	}
	if p.delay > 0 {
		args = append(args, "--delay", p.delay.String())
	}
	args = append(args, flags...)
	cmd := startProcess(t, "model-server", dir, nil, wispBinary(t), args...)
	waitFor(t, 15*time.Second, "the model server answers /stats", func() (bool, string) {
		resp, err := http.Get("http://" + addr + "/stats")
		if err != nil {
			return false, err.Error()
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status
	})
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		if resp, err := http.Get("http://" + addr + "/stats"); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			t.Logf("model server at %s: %s", addr, body)
		}
	})
	return &modelServer{addr: addr, cmd: cmd}
}

// freeAddr returns a loopback address with a port nobody listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
