package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/transport/transporttest"
)

// hungEnv starts a server that accepts TCP connections and never answers,
// and returns the environment that points wisp's openai-ws model at it:
// every WebSocket handshake to it hangs.
func hungEnv(t *testing.T) []string {
	t.Helper()
	return wsEnv(t, transporttest.NewHung(t).Addr)
}

// A model endpoint that takes the connection and never completes the
// WebSocket handshake holds wisp complete no longer than its timeout (not
// the ten seconds of the handshake timeout), and the first-token bound
// is reported as a connection that never came, not as a model that sent
// no token.
func TestCompleteGivesUpOnAHungEndpoint(t *testing.T) {
	env := hungEnv(t)
	p := writeFile(t, t.TempDir(), "sum.go", strings.Replace(sumSrc, "return total", "return ", 1), 0o644)

	start := time.Now()
	_, errOut, code := run(t, env, "", "complete", p+":8:9", "--timeout", "1s")
	if took := time.Since(start); code != 1 || !strings.Contains(errOut, "timed out after 1s") || took > 8*time.Second {
		t.Errorf("complete --timeout 1s: exit %d after %v, want 1 within a few seconds; stderr:\n%s", code, took, errOut)
	}

	_, errOut, code = run(t, env, "", "complete", p+":8:9")
	if code != 1 || !strings.Contains(errOut, "timed out while connecting to model endpoint") || strings.Contains(errOut, "first token") {
		t.Errorf("complete: exit %d, want 1 and a connection that never came; stderr:\n%s", code, errOut)
	}
}
