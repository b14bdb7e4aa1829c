package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/client"
	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// Tests of a model that fails, stalls or goes away: every completion
// request answers (empty while the model is unavailable, never an LSP
// error), a failure is never replayed, and wisp/status tells each change
// once.

// serveModelAt runs a loopback model server on addr ("127.0.0.1:0" for any
// port) until the test ends or it is closed.
func serveModelAt(t *testing.T, addr string, opts modelserver.Options) (*modelserver.Server, string) {
	t.Helper()
	ms := modelserver.New(opts)
	return ms, listenModel(t, ms, addr)
}

// listenModel serves ms on addr until the test ends or ms is closed, and
// returns the address it listens on.
func listenModel(t testing.TB, ms *modelserver.Server, addr string) string {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	t.Cleanup(ms.Close)
	return l.Addr().String()
}

// wsModel opens the openai-ws provider to the model server at addr, as
// the server's configuration would.
func wsModel(t testing.TB, addr string) transport.Model {
	t.Helper()
	m, err := provider.Open(config.Model{Provider: "openai-ws", Endpoint: "ws://" + addr + "/v1/responses", Model: "test"},
		func(string) string { return "" }, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// inlineUntil re-invokes inline completion at one cursor, as a user
// pressing the trigger key again would, until it answers text or ten
// seconds pass. Every answer must be a result, never an LSP error.
func (e *fakeEditor) inlineUntil(uri string, line, char int) string {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		got, err := e.inline(context.Background(), uri, line, char)
		if err != nil {
			e.t.Fatalf("re-invoking at %d:%d: %v; want a result, not an error", line, char, err)
		}
		if got != "" {
			return got
		}
		// No event exists: the engine holds the cursor back for its
		// retry delay on the wall clock and announces nothing when the
		// delay ends, so the test re-invokes as a user would. The sleep
		// spaces the requests; it times nothing.
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("re-invoking at %d:%d never answered text", line, char)
	return ""
}

// statuses returns the wisp/status notifications received so far.
func (e *fakeEditor) statuses() []string {
	var out []string
	for _, params := range e.Notifications("wisp/status") {
		var p struct{ State, Message string }
		_ = json.Unmarshal(params, &p)
		out = append(out, p.State+": "+p.Message)
	}
	return out
}

// After a model error, asking again at the same cursor asks the model
// again (after Retry-After, for a rate limit) instead of replaying the
// error; the failed request itself answers an empty list.
func TestReinvokeAfterModelErrorReachesModel(t *testing.T) {
	for _, fault := range []modelserver.FaultKind{modelserver.Fault429, modelserver.FaultDrop} {
		t.Run(string(fault), func(t *testing.T) {
			ms, model := loopbackModel(t, modelserver.Options{Fault: modelserver.Fault{Kind: fault, Nth: 1, After: 1}},
				modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: "return a + b"})
			e := startServer(t, model, countingConfig())
			e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
			uri := "file:///tmp/add.go"
			e.open(uri, "go", addGo)

			got, err := e.inline(context.Background(), uri, 3, 1)
			if err != nil || got != "" {
				t.Fatalf("request that met a %s: %q, %v; want an empty list, no error", fault, got, err)
			}
			if got := e.inlineUntil(uri, 3, 1); got != "return a + b" {
				t.Fatalf("re-invoked: %q", got)
			}
			// The failed request and the one that succeeded; none between
			// (a rate limit's Retry-After holds them back).
			if n := ms.Stats().Requests; n != 2 {
				t.Fatalf("model requests = %d, want 2", n)
			}
		})
	}
}

// A model server that restarts (same address, new process) is reached by
// the next request at the cursor whose request failed while it was down.
func TestReinvokeAfterModelServerRestart(t *testing.T) {
	reply := modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: "return a + b"}
	first, addr := serveModelAt(t, "127.0.0.1:0", modelserver.Options{Script: &modelserver.Script{Replies: []modelserver.Reply{reply}}})
	e := startServer(t, wsModel(t, addr), countingConfig())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)
	if got, err := e.inline(context.Background(), uri, 3, 1); err != nil || got != "return a + b" {
		t.Fatalf("before the restart: %q, %v", got, err)
	}

	first.Close()
	// A keystroke the cached suggestion does not match; the model is down.
	e.change(uri, 2, 3, 1, 3, 1, "x")
	if got, err := e.inline(context.Background(), uri, 3, 2); err != nil || got != "" {
		t.Fatalf("model down: %q, %v; want an empty list, no error", got, err)
	}
	second, _ := serveModelAt(t, addr, modelserver.Options{Script: &modelserver.Script{Replies: []modelserver.Reply{
		{PrefixEndsWith: "int {\n\tx", Text: " := a + b"}}}})
	if got := e.inlineUntil(uri, 3, 2); got != " := a + b" {
		t.Fatalf("after the restart: %q", got)
	}
	if n := second.Stats().Requests; n != 1 {
		t.Fatalf("restarted model server saw %d requests, want 1", n)
	}
}

// A model that stalls — before its first token or mid-stream — ends the
// request with an empty list at the configured deadline, and the
// generation is cancelled at the model. The next request is served.
func TestStalledModelEndsRequestAtDeadline(t *testing.T) {
	stall := modelserver.Options{Fault: modelserver.Fault{Kind: modelserver.FaultStall, Nth: 1, After: 2}}
	cases := []struct {
		name, provider string
		opts           modelserver.Options
	}{
		{"websocket mid-stream", "openai-ws", stall},
		{"websocket before the first token", "openai-ws", modelserver.Options{TTFT: time.Hour}},
		{"sse mid-stream", "openai", stall},
		{"sse before the first token", "openai", modelserver.Options{TTFT: time.Hour}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Script = &modelserver.Script{Replies: []modelserver.Reply{{PrefixEndsWith: "int {\n\t", Text: "return a + b // and more"}}}
			ms, addr := serveModelAt(t, "127.0.0.1:0", c.opts)
			endpoint := "ws://" + addr + "/v1/responses"
			if c.provider == "openai" {
				endpoint = "http://" + addr + "/v1"
			}
			model, err := provider.Open(config.Model{Provider: c.provider, Endpoint: endpoint, Model: "test"},
				func(string) string { return "" }, zap.NewNop())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { model.Close() })
			cfg := config.Default()
			// Short deadlines, so the test does not wait out the defaults;
			// nothing here depends on how long the wait takes.
			cfg.Completion.FirstTokenTimeout = 300 * time.Millisecond
			cfg.Completion.IdleTimeout = 300 * time.Millisecond
			e := startServer(t, model, cfg)
			e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", map[string]any{"status": true})
			uri := "file:///tmp/add.go"
			e.open(uri, "go", addGo)

			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			got, err := e.inline(ctx, uri, 3, 1)
			if err != nil || got != "" {
				t.Fatalf("stalled model: %q, %v; want an empty list, no error", got, err)
			}
			if st := waitModel(t, ms, "the cancel at the model", func(st modelserver.Stats) bool { return st.Cancels > 0 }); st.Cancels != 1 {
				t.Fatalf("model saw %d cancels, want the stalled generation cancelled", st.Cancels)
			}
			e.waitFor("wisp/status", func(p json.RawMessage) bool { return strings.Contains(string(p), "no ") })
			if c.opts.TTFT == 0 {
				if got := e.inlineUntil(uri, 3, 1); got != "return a + b // and more" {
					t.Fatalf("after the stall: %q", got)
				}
			}
		})
	}
}

// While the model is down, every keystroke's request answers an empty
// list (no LSP error), and the user hears so once; when the model comes
// back the next requests reach it and the user hears so once. wisp's own
// plugins ask for wisp/status (initializationOptions.status) and hear it
// there alone; any other client (Helix) hears it as window/showMessage.
func TestModelDownThenBackToldOncePerChange(t *testing.T) {
	cases := []struct {
		name, profile string
		opts          any
		status        []string // the wisp/status notifications, in order
		messages      []string // prefixes of the window/showMessage ones
	}{
		{"plugin asks for wisp/status", "initialize-nvim-0.12.4.json", map[string]any{"status": true},
			[]string{"error: model unavailable", "idle: model ready"}, nil},
		{"Helix", "initialize-helix-FROM-SOURCE.json", nil,
			nil, []string{"2 wisp: model unavailable", "3 wisp: the model answers again"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// An address with nothing listening: the model is down.
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := l.Addr().String()
			l.Close()

			e := startServer(t, wsModel(t, addr), config.Default())
			e.initialize(c.profile, c.opts)
			uri := "file:///tmp/add.go"
			e.open(uri, "go", addGo)
			version, col := 1, 1
			key := func(ch string) string {
				t.Helper()
				version++
				e.change(uri, version, 3, col, 3, col, ch)
				col++
				got, err := e.inline(context.Background(), uri, 3, col)
				if err != nil {
					t.Fatalf("keystroke %d: %v; want a result, not an error", version-1, err)
				}
				return got
			}
			told := func() []string {
				if c.status != nil {
					return e.statuses()
				}
				return e.messages()
			}
			want := c.status
			if want == nil {
				want = c.messages
			}
			for range 20 {
				if got := key("x"); got != "" {
					t.Fatalf("model down, yet a suggestion %q", got)
				}
			}
			waitTold(t, e, told, 1)
			if got := told(); len(got) != 1 || !strings.HasPrefix(got[0], want[0]) {
				t.Fatalf("told over 20 keystrokes with the model down: %q; want one %q", got, want[0])
			}

			ms, _ := serveModelAt(t, addr, modelserver.Options{Backend: modelserver.TextBackend(" := 1")})
			deadline := time.Now().Add(10 * time.Second)
			for key("x") == "" {
				if time.Now().After(deadline) {
					t.Fatal("no suggestion after the model came back")
				}
			}
			for range 20 {
				key("x")
			}
			waitTold(t, e, told, 2)
			if got := told(); len(got) != 2 || !strings.HasPrefix(got[1], want[1]) {
				t.Fatalf("told: %q; want the outage once and the recovery once (%q)", got, want)
			}
			if c.status == nil && len(e.statuses()) != 0 {
				t.Errorf("wisp/status sent to a client that did not ask for it: %q", e.statuses())
			}
			if c.messages == nil && len(e.messages()) != 0 {
				t.Errorf("window/showMessage sent besides wisp/status: %q", e.messages())
			}
			if ms.Stats().Requests == 0 {
				t.Fatal("the model server saw no request")
			}
		})
	}
}

// messages returns the window/showMessage notifications received so far,
// each as "TYPE MESSAGE".
func (e *fakeEditor) messages() []string {
	var out []string
	for _, p := range e.shown() {
		out = append(out, fmt.Sprintf("%d %s", p.Type, p.Message))
	}
	return out
}

// shown returns the window/showMessage notifications received so far.
func (e *fakeEditor) shown() []protocol.ShowMessageParams {
	var out []protocol.ShowMessageParams
	for _, params := range e.Notifications("window/showMessage") {
		var p protocol.ShowMessageParams
		_ = json.Unmarshal(params, &p)
		out = append(out, p)
	}
	return out
}

// waitTold waits until told has returned n messages, or ten seconds pass
// (a bound on a hang; the test then reports what it got).
func waitTold(t *testing.T, e *fakeEditor, told func() []string, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = e.Await(ctx, func([]client.Message) bool { return len(told()) >= n })
}

// A model that cannot be used at all (misconfigured) answers every
// keystroke with an empty list, and says why once: in Helix, which shows
// no wisp/status, as one message.
func TestMisconfiguredModelAnswersEmptyAndSaysOnce(t *testing.T) {
	e := startServer(t, transport.Unavailable(errors.New("model endpoint needs an API key")), config.Default())
	e.initialize("initialize-helix-FROM-SOURCE.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", addGo)
	for i := range 20 {
		e.change(uri, i+2, 3, 1+i, 3, 1+i, "x")
		if got, err := e.inline(context.Background(), uri, 3, 2+i); err != nil || got != "" {
			t.Fatalf("keystroke %d: %q, %v; want an empty list, no error", i+1, got, err)
		}
		var list struct {
			Items []any `json:"items"`
		}
		params := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 3, "character": 2 + i}}
		if err := e.call("textDocument/completion", params, &list); err != nil || len(list.Items) != 0 {
			t.Fatalf("keystroke %d: completion %+v, %v; want an empty list, no error", i+1, list, err)
		}
	}
	e.waitFor("window/showMessage", func(json.RawMessage) bool { return true })
	if got := e.messages(); len(got) != 1 || !strings.HasPrefix(got[0], "2 ") || !strings.Contains(got[0], "needs an API key") {
		t.Fatalf("messages: %q; want one warning with the reason", got)
	}
}
