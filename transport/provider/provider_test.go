package provider

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
)

// testKey is a key that must never appear in an error.
const testKey = "sk-test-SECRET-0123456789"

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
		{"local", config.Model{Provider: "local"}, "", "*local.Engine"},
		{"none is local", config.Model{}, "", "*local.Engine"},
		{"unknown", config.Model{Provider: "gpt"}, "unknown model provider", ""},
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

// Open reads the key from the variable the config names, and gives the
// provider both.
func TestOpenUsesNamedKey(t *testing.T) {
	m := config.Model{Provider: "openai-ws", Endpoint: "wss://api.example.test/v1", APIKeyEnv: "MY_KEY"}
	u, err := checkNetwork(m)
	if err != nil {
		t.Fatal(err)
	}
	key, keyEnv, err := resolveKey(m, u, func(k string) string { return map[string]string{"MY_KEY": "k2"}[k] })
	if err != nil || key != "k2" || keyEnv != "MY_KEY" {
		t.Fatalf("key %q from $%s, %v; want k2 from $MY_KEY", key, keyEnv, err)
	}
	model, err := Open(m, func(k string) string { return map[string]string{"MY_KEY": "k2"}[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	model.Close()
}

// Wire shows the local engine its Request as it is, and a network
// provider's body without a key.
func TestWire(t *testing.T) {
	req := transport.Request{Prefix: "func f() {", Suffix: "}", Path: "f.go", Language: "go"}
	got, err := Wire(config.Model{}, req)
	if err != nil || !reflect.DeepEqual(got, req) {
		t.Errorf("local: %v, %v; want the request itself", got, err)
	}
	if _, err := Wire(config.Model{Provider: "openai", Endpoint: "https://api.example.test/v1"}, req); err != nil {
		t.Errorf("openai: %v", err)
	}
	for _, m := range []config.Model{
		{Provider: "openai", Endpoint: "https://api.example.test/v1", Model: "m1"},
		{Provider: "openai-ws", Endpoint: "wss://api.example.test/v1", Model: "m1"},
		{Provider: "fim", Endpoint: "https://api.example.test/v1/fim/completions", Model: "m1"},
	} {
		got, err := Wire(m, req)
		b, _ := json.Marshal(got)
		if err != nil || reflect.DeepEqual(got, req) || !strings.Contains(string(b), `"model":"m1"`) ||
			!strings.Contains(string(b), `func f() {`) {
			t.Errorf("%s: %s, %v; want the provider's own body, naming the model and carrying the prefix", m.Provider, b, err)
		}
	}
	if _, err := Wire(config.Model{Provider: "gpt"}, req); err == nil || !strings.Contains(err.Error(), "unknown model provider") {
		t.Errorf("unknown provider: %v", err)
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
