package editors

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/client"
)

// lspClient speaks LSP over a `wisp serve` process's stdio the way an
// editor does: the client package, with helpers that fail the test.
type lspClient struct {
	*client.Client
	t *testing.T
}

// startLSP starts `wisp serve` with env and begins reading its output.
func startLSP(t *testing.T, env []string) *lspClient {
	t.Helper()
	cmd := exec.Command(wispBinary(t), "serve")
	cmd.Env = append(os.Environ(), env...)
	proc, err := client.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	c := &lspClient{Client: client.New(proc, client.Options{Record: true}), t: t}
	t.Cleanup(func() {
		c.Close()
		proc.Kill()
		if t.Failed() {
			t.Logf("wisp serve output (last 3000 bytes):\n%s", tail(proc.Stderr(), 3000))
		}
	})
	return c
}

// notify sends a notification.
func (c *lspClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.Notify(context.Background(), method, params); err != nil {
		c.t.Fatal(err)
	}
}

// call sends a request and decodes its result into result; a response
// error, or no answer in 30 s, fails the test.
func (c *lspClient) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Call(ctx, method, params, result); err != nil {
		c.t.Fatal(err)
	}
}
