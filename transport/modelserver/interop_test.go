package modelserver_test

import (
	"context"
	"net"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
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
			m, err := transport.Open(c, func(string) string { return "" }, zap.NewNop())
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
	m, _ := transport.Open(cases[0], func(string) string { return "" }, zap.NewNop())
	defer m.Close()
	res, err := m.Generate(context.Background(), transport.Request{Prefix: "func f() {}\n", Instruction: "rename f to g"}, func(string) {})
	if err != nil || res.Text != "```go\nfunc g() {}\n```" {
		t.Fatalf("edit over the WebSocket: %q, %v", res.Text, err)
	}
}
