package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// hangGuard bounds how long a test waits for the server to do something
// it must do at once. It is a guard against hanging the test run, not a
// measure of speed: a working server is far inside it.
const hangGuard = 60 * time.Second

// lspProcess is the wisp binary serving LSP on stdio, with stdin held open
// as an editor holds it.
type lspProcess struct {
	*client.Client
	t    *testing.T
	proc *client.Process
}

func startLSP(t *testing.T, env []string) *lspProcess {
	t.Helper()
	cmd := exec.Command(wispBin, "--stdio")
	cmd.Env = env
	proc, err := client.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	p := &lspProcess{Client: client.New(proc, client.Options{Record: true}), t: t, proc: proc}
	t.Cleanup(func() {
		proc.Kill() // at once when it has exited, as it should have
		p.Close()
	})
	return p
}

// send writes one framed message as it is.
func (p *lspProcess) send(msg string) {
	p.t.Helper()
	if err := p.WriteFrame([]byte(msg)); err != nil {
		p.t.Fatalf("write to the server: %v", err)
	}
}

// response waits for the server's answer to request id.
func (p *lspProcess) response(id any) client.Message {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	m, err := p.AwaitResponse(ctx, id)
	if err != nil {
		p.t.Fatalf("%v; stderr:\n%s", err, p.proc.Stderr())
	}
	return m
}

// wait waits for the process to end, with stdin still open, and returns its
// state; it fails the test if the process does not end.
func (p *lspProcess) wait(what string) *os.ProcessState {
	p.t.Helper()
	select {
	case <-p.proc.Done():
		return p.proc.State()
	case <-time.After(hangGuard):
		p.proc.Kill()
		p.t.Fatalf("%s: the server was still running with stdin open; stderr:\n%s", what, p.proc.Stderr())
		return nil
	}
}

func (p *lspProcess) initialize() {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	if r := p.response(1); r.Err != nil || len(r.Result) == 0 || string(r.Result) == "null" {
		p.t.Fatalf("initialize: %+v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
}

func plainEnv(t *testing.T) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "WISP_PROVIDER=local"}
}

// exit ends the process even though the client keeps stdin open, with the
// code the specification gives: 0 after shutdown, 1 without.
func TestExitWithStdinOpen(t *testing.T) {
	for _, shutdown := range []bool{true, false} {
		t.Run(fmt.Sprint("shutdown=", shutdown), func(t *testing.T) {
			p := startLSP(t, plainEnv(t))
			p.initialize()
			want := 1
			if shutdown {
				p.send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
				p.response(2)
				want = 0
			}
			p.send(`{"jsonrpc":"2.0","method":"exit"}`)
			if st := p.wait("after exit"); st.ExitCode() != want {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", st.ExitCode(), want, p.proc.Stderr())
			}
		})
	}
}

// stallBackend starts every generation and never sends a token; started
// receives once per generation.
type stallBackend struct{ started chan struct{} }

func (b stallBackend) Generate(ctx context.Context, _ modelserver.Query, _ func(string) bool) error {
	b.started <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

// SIGTERM and SIGINT end the server while the client holds stdin open and
// a completion waits on a model that never answers: the server cancels it,
// logs why it stops and exits on its own (not killed by the signal), with
// 1 since there was no shutdown.
func TestSignalsEndTheServer(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			backend := stallBackend{started: make(chan struct{}, 4)}
			ms := modelserver.New(modelserver.Options{Backend: backend})
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go ms.Serve(l)
			t.Cleanup(ms.Close)
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(),
				"WISP_PROVIDER=openai-ws", "WISP_ENDPOINT=ws://" + l.Addr().String() + "/v1/responses", "WISP_MODEL=test",
				"WISP_LOG_LEVEL=info"} // stderr carries errors only unless asked
			p := startLSP(t, env)
			p.initialize()
			uri := "file://" + filepath.Join(t.TempDir(), "a.go")
			p.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + uri + `","languageId":"go","version":1,"text":"package a\n\nfunc f() int {\n\treturn \n}\n"}}}`)
			p.send(`{"jsonrpc":"2.0","id":3,"method":"textDocument/inlineCompletion","params":{"textDocument":{"uri":"` + uri + `"},"position":{"line":3,"character":8},"context":{"triggerKind":1}}}`)
			select {
			case <-backend.started:
			case <-time.After(hangGuard):
				t.Fatalf("the completion never reached the model; stderr:\n%s", p.proc.Stderr())
			}
			if err := p.proc.Signal(sig); err != nil {
				t.Fatal(err)
			}
			st := p.wait("after " + sig.String())
			if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				t.Fatalf("killed by %v instead of stopping on its own", ws.Signal())
			}
			if st.ExitCode() != 1 {
				t.Fatalf("exit code %d, want 1; stderr:\n%s", st.ExitCode(), p.proc.Stderr())
			}
			if stderr := p.proc.Stderr(); !strings.Contains(stderr, "stopping") || !strings.Contains(stderr, "stopped") {
				t.Fatalf("the log does not say why it stopped:\n%s", stderr)
			}
		})
	}
}

// A request whose method is not a string, or is missing, is answered with
// InvalidRequest under its own id, and the server reads on.
func TestInvalidRequestAnsweredUnderItsID(t *testing.T) {
	p := startLSP(t, plainEnv(t))
	p.initialize()
	for id, msg := range map[string]string{
		`7`:   `{"jsonrpc":"2.0","id":7,"method":42,"params":{}}`,
		`"x"`: `{"jsonrpc":"2.0","id":"x","method":null}`,
		`8`:   `{"jsonrpc":"2.0","id":8,"params":{}}`,
	} {
		p.send(msg)
		var want any
		json.Unmarshal([]byte(id), &want)
		r := p.response(want)
		if !isCode(r.Err, jsonrpc2.InvalidRequest) {
			t.Errorf("answer to %s: %+v, want an InvalidRequest error (-32600)", msg, r)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":9,"method":"shutdown"}`)
	if r := p.response(9); r.Err != nil {
		t.Fatalf("shutdown after the invalid requests: %v", r)
	}
	p.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if st := p.wait("after exit"); st.ExitCode() != 0 {
		t.Fatalf("exit code %d; stderr:\n%s", st.ExitCode(), p.proc.Stderr())
	}
}

// --help is no failure, for wisp and for every subcommand: usage on
// stdout, exit 0.
func TestHelpExitsZero(t *testing.T) {
	args := [][]string{{"--help"}, {"-h"}, {"help"}, {"--stdio", "--help"}}
	for _, c := range commands {
		args = append(args, []string{c.name, "--help"}, []string{c.name, "-h"})
	}
	for _, a := range args {
		out, errOut, code := run(t, plainEnv(t), "", a...)
		if code != 0 || !strings.Contains(strings.ToLower(out), "usage") || errOut != "" {
			t.Errorf("wisp %s: exit %d, stdout %q, stderr %q; want usage on stdout and exit 0", strings.Join(a, " "), code, out, errOut)
		}
	}
	if !strings.Contains(mustRun(t, "edit", "--help"), "Exit status") {
		t.Error("wisp edit --help does not document its exit status")
	}
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, plainEnv(t), "", args...)
	if code != 0 {
		t.Fatalf("wisp %v: exit %d: %s", args, code, errOut)
	}
	return out
}

func isCode(err error, code jsonrpc2.Code) bool {
	var e *jsonrpc2.Error
	return errors.As(err, &e) && e.Code == code
}
