package modelserver_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
	"github.com/wisp-lsp/wisp/transport/provider"
)

// Every client in transport meets this server on its own wire, in both
// modes: the two sides were written apart from the same specification, so
// this is where a disagreement would show.
func TestClientsMeetTheServer(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) { clientsMeetTheServer(t, mode.strict) })
	}
}

func clientsMeetTheServer(t *testing.T, strict bool) {
	ms := modelserver.New(modelserver.Options{Strict: strict, Script: &modelserver.Script{Replies: []modelserver.Reply{
		{PrefixEndsWith: "return ", Text: "a + b"},
		{InstructionContains: "rename", Text: "```go\nfunc g() {}\n```"},
	}}})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	defer ms.Close()
	base := "://" + l.Addr().String()
	cases := []config.Model{
		{Provider: "openai-ws", Endpoint: "ws" + base + "/v1/responses", Model: "m"},
		{Provider: "openai", Endpoint: "http" + base + "/v1", Model: "m"},
		{Provider: "fim", Endpoint: "http" + base + "/v1/fim/completions", Model: "m"},
		{Provider: "fim", Endpoint: "http" + base + "/beta/completions", Model: "m"},
		{Provider: "fim", Endpoint: "http" + base + "/infill"},
		{Provider: "fim", Endpoint: "http" + base + "/api/generate", Model: "m"},
		{Provider: "fim", Endpoint: "http" + base + "/v1/completions", Model: "m", FIMTemplate: "qwen"},
	}
	for _, c := range cases {
		t.Run(c.Provider+" "+c.Endpoint[strings.Index(c.Endpoint, base)+len(base):], func(t *testing.T) {
			m, err := provider.Open(c, func(string) string { return "" }, zap.NewNop())
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			var streamed string
			res, err := m.Generate(context.Background(), transport.Request{Prefix: "func f(a, b int) int {\n\treturn ", Suffix: "\n}\n", MaxTokens: 32},
				func(d string) { streamed += d })
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != "a + b" || streamed != "a + b" {
				t.Fatalf("got %q (streamed %q), want %q", res.Text, streamed, "a + b")
			}
		})
	}
	m, _ := provider.Open(cases[0], func(string) string { return "" }, zap.NewNop())
	defer m.Close()
	res, err := m.Generate(context.Background(), transport.Request{Prefix: "func f() {}\n", Instruction: "rename f to g"}, func(string) {})
	if err != nil || res.Text != "```go\nfunc g() {}\n```" {
		t.Fatalf("edit over the WebSocket: %q, %v", res.Text, err)
	}
}

// The WebSocket client's warm-up reaches the server as a warm-up: the
// prompt is read into the cache, nothing is generated, and the request
// after it reads only what it adds.
func TestClientWarmupMeetsTheServer(t *testing.T) {
	ms := modelserver.New(modelserver.Options{UncachedPer1K: time.Millisecond,
		Script: &modelserver.Script{Replies: []modelserver.Reply{{PrefixEndsWith: "return ", Text: "a + b"}}}})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	defer ms.Close()
	m, err := provider.Open(config.Model{Provider: "openai-ws", Endpoint: "ws://" + l.Addr().String() + "/v1/responses", Model: "m"},
		func(string) string { return "" }, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	w, ok := m.(transport.PromptWarmer)
	if !ok {
		t.Fatalf("%T does not warm prompts", m)
	}
	body := strings.Repeat("\tn = n + 1\n", 400)
	req := transport.Request{Prefix: "func f(a, b int) int {\n" + body + "\treturn ", Suffix: "\n}\n"}
	if err := w.WarmPrompt(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	st := ms.Stats()
	if st.Warmups != 1 || st.Requests != 0 || st.Tokens != 0 || st.UncachedTokens < 1000 {
		t.Fatalf("after the warm-up: %+v", st)
	}
	if _, err := m.Generate(context.Background(), req, func(string) {}); err != nil {
		t.Fatal(err)
	}
	if after := ms.Stats(); after.UncachedTokens != st.UncachedTokens {
		t.Fatalf("the warmed request read %d uncached tokens, want 0", after.UncachedTokens-st.UncachedTokens)
	}
}

// llama.cpp's warm-up (n_predict 0) reaches the server as a warm-up; the
// other FIM wires say they have none.
func TestInfillWarmupMeetsTheServer(t *testing.T) {
	ms := modelserver.New(modelserver.Options{UncachedPer1K: time.Millisecond})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	defer ms.Close()
	base := "http://" + l.Addr().String()
	req := transport.Request{Prefix: "func f() {\n" + strings.Repeat("\tn++\n", 300), Suffix: "}\n"}
	for _, c := range []struct {
		endpoint string
		want     error
	}{
		{base + "/infill", nil},
		{base + "/v1/fim/completions", transport.ErrNoPromptCache},
	} {
		m, err := provider.Open(config.Model{Provider: "fim", Endpoint: c.endpoint, Model: "m"}, func(string) string { return "" }, zap.NewNop())
		if err != nil {
			t.Fatal(err)
		}
		w, ok := m.(transport.PromptWarmer)
		if !ok {
			t.Fatalf("%T does not warm prompts", m)
		}
		if err := w.WarmPrompt(context.Background(), req); err != c.want {
			t.Errorf("%s: warm-up error %v, want %v", c.endpoint, err, c.want)
		}
		m.Close()
	}
	if st := ms.Stats(); st.Warmups != 1 || st.Requests != 0 || st.UncachedTokens < 500 {
		t.Fatalf("stats %+v: want one warm-up, no generation", st)
	}
}
