package lsp_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/lsp"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// The user's secrets in the server's environment, which a workspace must
// never be able to send anywhere.
const (
	keyVar    = "WISP_TEST_SECRET_KEY"
	keyValue  = "sk-test-0123456789abcdef"
	homeValue = "/home/trust-test-victim"
)

// recorder is a loopback model server that remembers the headers of every
// request it received, WebSocket upgrades included.
type recorder struct {
	ms   *modelserver.Server
	addr string

	mu      sync.Mutex
	headers []http.Header // guarded by mu
}

func startRecorder(t *testing.T, apiKey string, replies ...modelserver.Reply) *recorder {
	t.Helper()
	r := &recorder{ms: modelserver.New(modelserver.Options{APIKey: apiKey, Script: &modelserver.Script{Replies: replies}})}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = l.Addr().String()
	inner := r.ms.Handler()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.headers = append(r.headers, req.Header.Clone())
		r.mu.Unlock()
		inner.ServeHTTP(w, req)
	})}
	go srv.Serve(l)
	t.Cleanup(func() {
		r.ms.Close()
		srv.Close()
	})
	return r
}

func (r *recorder) endpoint() string { return "ws://" + r.addr + "/v1/responses" }

// requests returns the headers of every request so far.
func (r *recorder) requests() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.headers...)
}

// bearing returns the requests that carry any of secrets anywhere in
// their headers.
func (r *recorder) bearing(secrets ...string) []http.Header {
	var out []http.Header
	for _, h := range r.requests() {
		for _, values := range h {
			for _, v := range values {
				for _, s := range secrets {
					if strings.Contains(v, s) {
						out = append(out, h)
					}
				}
			}
		}
	}
	return out
}

// trustSession is a real server whose trusted layers (user file and
// environment) point at trusted, with the key in keyVar, and whose models
// are opened by the real provider.Open reading the same environment.
type trustSession struct {
	*fakeEditor
	trusted, capture *recorder
	env              map[string]string
}

// startTrustSession writes userFile (TOML, may be empty) as the user's
// config file and starts a server over a pipe.
func startTrustSession(t *testing.T, userFile string, extraEnv map[string]string) *trustSession {
	t.Helper()
	s := &trustSession{
		trusted: startRecorder(t, keyValue,
			modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: "return a + b"},
			modelserver.Reply{InstructionContains: "rename", Text: renamedReply}),
		capture: startRecorder(t, "",
			modelserver.Reply{PrefixEndsWith: "int {\n\t", Text: "return captured"},
			modelserver.Reply{InstructionContains: "rename", Text: renamedReply}),
	}
	xdg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(xdg, "wisp"), 0o755); err != nil {
		t.Fatal(err)
	}
	userFile = strings.ReplaceAll(userFile, "CAPTURE", s.capture.endpoint())
	if err := os.WriteFile(filepath.Join(xdg, "wisp", "config.toml"), []byte(userFile), 0o644); err != nil {
		t.Fatal(err)
	}
	s.env = map[string]string{
		"XDG_CONFIG_HOME":  xdg,
		"HOME":             homeValue,
		keyVar:             keyValue,
		"WISP_PROVIDER":    "openai-ws",
		"WISP_ENDPOINT":    s.trusted.endpoint(),
		"WISP_MODEL":       "test",
		"WISP_API_KEY_ENV": keyVar,
	}
	for k, v := range extraEnv {
		s.env[k] = v
	}
	getenv := func(k string) string { return s.env[k] }
	cfg, warnings, err := config.Load(getenv)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("config.Load: %v %q", err, warnings)
	}
	s.fakeEditor = startServerOpts(t, lsp.Options{
		Log:    zap.NewNop(),
		Config: cfg,
		OpenModel: func(_ context.Context, m config.Model) (transport.Model, error) {
			return provider.Open(m, getenv, zap.NewNop())
		},
	})
	return s
}

// startServerOpts is startServer with the server's options given whole.
func startServerOpts(t *testing.T, opts lsp.Options) *fakeEditor {
	t.Helper()
	return serve(t, context.Background(), lsp.New(opts))
}

// warnings returns the window/showMessage warnings received so far.
func (e *fakeEditor) warnings() []string {
	var out []string
	for _, p := range e.shown() {
		if p.Type == protocol.MessageTypeWarning {
			out = append(out, p.Message)
		}
	}
	return out
}

// checkWarnings wants exactly one warning per refused setting, each naming
// the setting and where to set it, and no other warning.
func checkWarnings(t *testing.T, e *fakeEditor, refused ...string) {
	t.Helper()
	got := e.warnings()
	for _, key := range refused {
		n := 0
		for _, w := range got {
			if strings.HasPrefix(w, "wisp ignored "+key+" ") {
				n++
				if !strings.Contains(w, "config.toml") {
					t.Errorf("the warning for %s does not say where to set it: %q", key, w)
				}
			}
		}
		if n != 1 {
			t.Errorf("%d warnings name %s, want exactly 1; all warnings: %q", n, key, got)
		}
	}
	if len(got) != len(refused) {
		t.Errorf("%d warnings, want %d (one per refused setting %q): %q", len(got), len(refused), refused, got)
	}
}

// checkNothingLeaked wants the capture server to have received nothing at
// all: no connection, no header, so neither the key nor HOME.
func (s *trustSession) checkNothingLeaked(t *testing.T) {
	t.Helper()
	if b := s.capture.bearing(keyValue, homeValue); len(b) != 0 {
		t.Errorf("the workspace's endpoint received the user's secrets: %v", b)
	}
	if n := len(s.capture.requests()); n != 0 {
		t.Errorf("the workspace's endpoint received %d requests, want none", n)
	}
}

// A workspace's initializationOptions and didChangeConfiguration cannot
// point the completion model elsewhere nor name the variable its key is
// read from: each refused setting is reported once, nothing reaches the
// workspace's endpoint, and completions keep going to the trusted one.
func TestWorkspaceCannotRedirectTheKey(t *testing.T) {
	s := startTrustSession(t, "", nil)
	s.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", map[string]any{
		"model": map[string]any{
			"provider":      "openai-ws", // the trusted value: allowed
			"endpoint":      s.capture.endpoint(),
			"apiKeyEnv":     "HOME",
			"allowInsecure": true,
			"model":         "workspace-model", // a name cannot leak the key: allowed
		},
		"streaming": true,
	})
	uri := "file:///tmp/add.go"
	s.open(uri, "go", addGo)
	if got, err := s.inline(context.Background(), uri, 3, 1); err != nil || got != "return a + b" {
		t.Fatalf("completion after initialize: %q, %v; want the trusted model's reply", got, err)
	}

	// The real key variable, and the endpoint again, through both shapes
	// didChangeConfiguration takes.
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wisp": map[string]any{
		"model": map[string]any{"endpoint": s.capture.endpoint(), "apiKeyEnv": keyVar}}}})
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{
		"model": map[string]any{"endpoint": "wss://" + s.capture.addr + "/v1/responses", "apiKeyEnv": "HOME"}}})
	s.change(uri, 2, 3, 1, 3, 1, " ")
	s.change(uri, 3, 3, 1, 3, 2, "")
	if got, err := s.inline(context.Background(), uri, 3, 1); err != nil || got != "return a + b" {
		t.Fatalf("completion after didChangeConfiguration: %q, %v; want the trusted model's reply", got, err)
	}

	s.checkNothingLeaked(t)
	if n := len(s.trusted.bearing("Bearer " + keyValue)); n == 0 {
		t.Error("the trusted endpoint never received the key: completions went elsewhere")
	}
	checkWarnings(t, s.fakeEditor, "model.endpoint", "model.apiKeyEnv", "model.allowInsecure")
}

// The same for the quick-edit model's own settings.
func TestWorkspaceCannotRedirectTheEditKey(t *testing.T) {
	s := startTrustSession(t, "", nil)
	s.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", map[string]any{
		"edit": map[string]any{"model": map[string]any{
			"provider":  "openai-ws",
			"endpoint":  s.capture.endpoint(),
			"apiKeyEnv": "HOME",
			"model":     "deep", // allowed
		}},
	})
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wisp": map[string]any{
		"edit": map[string]any{"model": map[string]any{"endpoint": s.capture.endpoint(), "apiKeyEnv": keyVar, "allowInsecure": true}}}}})
	uri := "file:///tmp/sum.go"
	s.open(uri, "go", sumGo)
	if err := s.quickEdit(uri, 1, 5, "rename total to sum"); err != nil {
		t.Fatal(err)
	}
	if got := s.appliedEdits(); len(got) != 1 {
		t.Fatalf("quick edit applied %d edits, want 1 from the trusted model", len(got))
	}
	s.checkNothingLeaked(t)
	if n := len(s.trusted.bearing("Bearer " + keyValue)); n == 0 {
		t.Error("the trusted endpoint never received the key: the edit went elsewhere")
	}
	checkWarnings(t, s.fakeEditor, "edit.model.provider", "edit.model.endpoint", "edit.model.apiKeyEnv", "edit.model.allowInsecure")
}

// An endpoint the user lists in trustedEndpoints may come from the
// workspace: it gets the trusted key, but still never another variable.
func TestTrustedEndpointsMayComeFromTheWorkspace(t *testing.T) {
	s := startTrustSession(t, "trustedEndpoints = [\"CAPTURE\"]\n", nil)
	s.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", map[string]any{
		"model": map[string]any{"endpoint": s.capture.endpoint(), "apiKeyEnv": "HOME"},
		"edit":  map[string]any{"model": map[string]any{"endpoint": s.capture.endpoint()}},
	})
	uri := "file:///tmp/add.go"
	s.open(uri, "go", addGo)
	if got, err := s.inline(context.Background(), uri, 3, 1); err != nil || got != "return captured" {
		t.Fatalf("completion: %q, %v; want the listed endpoint's reply", got, err)
	}
	if b := s.capture.bearing(homeValue); len(b) != 0 {
		t.Errorf("HOME's value reached the listed endpoint: %v", b)
	}
	if n := len(s.capture.bearing("Bearer " + keyValue)); n == 0 {
		t.Error("the listed endpoint did not get the trusted key")
	}
	if n := len(s.trusted.requests()); n != 0 {
		t.Errorf("the trusted endpoint got %d requests after the workspace chose a listed one", n)
	}
	checkWarnings(t, s.fakeEditor, "model.apiKeyEnv")
}

// A workspace cannot list its own endpoint as trusted.
func TestWorkspaceCannotTrustItsOwnEndpoint(t *testing.T) {
	s := startTrustSession(t, "", nil)
	s.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", map[string]any{
		"trustedEndpoints": []any{s.capture.endpoint()},
		"model":            map[string]any{"endpoint": s.capture.endpoint()},
	})
	uri := "file:///tmp/add.go"
	s.open(uri, "go", addGo)
	if got, err := s.inline(context.Background(), uri, 3, 1); err != nil || got != "return a + b" {
		t.Fatalf("completion: %q, %v; want the trusted model's reply", got, err)
	}
	s.checkNothingLeaked(t)
	checkWarnings(t, s.fakeEditor, "trustedEndpoints", "model.endpoint")
}
