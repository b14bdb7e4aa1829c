package transport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/config"
)

func TestOpen(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": testKey, "MY_KEY": "k2"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		name string
		m    config.Model
		want string // error substring; "" for success
		typ  string
	}{
		{"ws", config.Model{Provider: "openai-ws", Endpoint: "wss://api.example.test/v1/responses"}, "", "*transport.WSModel"},
		{"sse", config.Model{Provider: "openai", Endpoint: "https://api.example.test/v1"}, "", "*transport.SSEModel"},
		{"fim loopback no key", config.Model{Provider: "fim", Endpoint: "http://127.0.0.1:8012/infill"}, "", "*transport.FIMModel"},
		{"openai loopback no key", config.Model{Provider: "openai", Endpoint: "http://localhost:9/v1", APIKeyEnv: ""}, "", "*transport.SSEModel"},
		{"local", config.Model{Provider: "local"}, "caller must construct", ""},
		{"unknown", config.Model{Provider: "gpt"}, "unknown model provider", ""},
		{"none", config.Model{}, "no model provider", ""},
		{"no endpoint", config.Model{Provider: "openai"}, "needs model.endpoint", ""},
		{"insecure http", config.Model{Provider: "openai", Endpoint: "http://api.example.test/v1"}, "plain http://", ""},
		{"insecure ws", config.Model{Provider: "openai-ws", Endpoint: "ws://api.example.test/v1/responses"}, "plain ws://", ""},
		{"insecure allowed", config.Model{Provider: "openai", Endpoint: "http://10.0.0.5/v1", AllowInsecure: true}, "", "*transport.SSEModel"},
		{"wrong scheme", config.Model{Provider: "openai-ws", Endpoint: "https://api.example.test/v1/responses"}, "want wss://", ""},
		{"missing key", config.Model{Provider: "openai", Endpoint: "https://api.example.test/v1", APIKeyEnv: "NOPE"}, "$NOPE is empty", ""},
		{"named key on fim", config.Model{Provider: "fim", Endpoint: "https://codestral.example.test/v1/fim/completions", APIKeyEnv: "NOPE"}, "$NOPE", ""},
		{"credentials in url", config.Model{Provider: "openai", Endpoint: "https://u:p@api.example.test/v1"}, "credentials", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Open(tc.m, getenv, nil)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				if strings.Contains(err.Error(), testKey) {
					t.Errorf("key leaked: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if got := typeName(m); got != tc.typ {
				t.Errorf("type %s, want %s", got, tc.typ)
			}
		})
	}
}

func TestOpenUsesNamedKey(t *testing.T) {
	m, err := Open(config.Model{Provider: "openai-ws", Endpoint: "wss://api.example.test/v1", APIKeyEnv: "MY_KEY"},
		func(k string) string { return map[string]string{"MY_KEY": "k2"}[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ws := m.(*WSModel)
	if ws.header.Get("Authorization") != "Bearer k2" || ws.url != "wss://api.example.test/v1/responses" || ws.ep.keyEnv != "MY_KEY" {
		t.Errorf("url %s header %v", ws.url, ws.header)
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
