package main

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// hungEnv starts a server that accepts TCP connections and never answers,
// and returns the environment that points wisp's openai-ws model at it:
// every WebSocket handshake to it hangs.
func hungEnv(t *testing.T) []string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns []net.Conn // guarded by mu
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return wsEnv(t, ln.Addr().String())
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
