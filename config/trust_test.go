package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trustedConfig loads a user file and environment as the server does.
func trustedConfig(t *testing.T, file string, vars map[string]string) Config {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "wisp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wisp", "config.toml"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	vars["XDG_CONFIG_HOME"] = dir
	c, warnings, err := Load(env(vars))
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Load: %v %q", err, warnings)
	}
	return c
}

func refusedKeys(c Config) []string {
	var out []string
	for _, r := range c.Refused() {
		out = append(out, r.Key)
	}
	return out
}

// What the editor's settings may and may not change.
func TestUntrustedLayersMayOnlyRepeatWhatIsTrusted(t *testing.T) {
	base := trustedConfig(t, `
trustedEndpoints = ["wss://listed.example/v1/responses", "https://other.example/v1/"]
[model]
provider = "openai-ws"
endpoint = "wss://mine.example/v1/responses"
apiKeyEnv = "MY_KEY"
`, map[string]string{"WISP_EDIT_MODEL": "deep"})
	cases := []struct {
		name, settings string
		refused        []string
		check          func(Config) bool
	}{
		{"the trusted values themselves", `{"model":{"provider":"openai-ws","endpoint":"wss://mine.example/v1/responses","apiKeyEnv":"MY_KEY","allowInsecure":false}}`, nil,
			func(c Config) bool { return c.Model.Endpoint == "wss://mine.example/v1/responses" }},
		{"a listed endpoint", `{"model":{"endpoint":"wss://listed.example/v1/responses"},"edit":{"model":{"endpoint":"https://other.example/v1"}}}`, nil,
			func(c Config) bool {
				return c.Model.Endpoint == "wss://listed.example/v1/responses" && c.Edit.Endpoint == "https://other.example/v1"
			}},
		{"another endpoint", `{"model":{"endpoint":"wss://evil.example/v1/responses"}}`, []string{"model.endpoint"},
			func(c Config) bool { return c.Model.Endpoint == "wss://mine.example/v1/responses" }},
		{"another key variable", `{"model":{"apiKeyEnv":"HOME"},"edit":{"model":{"apiKeyEnv":"MY_KEY"}}}`, []string{"edit.model.apiKeyEnv", "model.apiKeyEnv"},
			func(c Config) bool { return c.Model.APIKeyEnv == "MY_KEY" && c.EditModel().APIKeyEnv == "MY_KEY" }},
		{"insecure transport", `{"model":{"allowInsecure":true},"edit":{"model":{"allowInsecure":"true"}}}`, []string{"edit.model.allowInsecure", "model.allowInsecure"},
			func(c Config) bool { return !c.Model.AllowInsecure && !c.EditModel().AllowInsecure }},
		{"another provider", `{"model":{"provider":"fim"},"edit":{"model":{"provider":"openai"}}}`, []string{"edit.model.provider", "model.provider"},
			func(c Config) bool { return c.Model.Provider == "openai-ws" && c.Edit.Provider == "" }},
		{"the local engine sends nothing", `{"model":{"provider":"local"}}`, nil,
			func(c Config) bool { return c.Model.Provider == ProviderLocal }},
		{"its own trusted list", `{"trustedEndpoints":["wss://evil.example/v1/responses"],"model":{"endpoint":"wss://evil.example/v1/responses"}}`, []string{"model.endpoint", "trustedEndpoints"},
			func(c Config) bool { return len(c.TrustedEndpoints) == 2 }},
		{"everything else", `{"model":{"model":"m2","maxTokens":64,"fimTemplate":"qwen"},"edit":{"model":{"model":"deeper"}},"streaming":true,"completion":{"budget":900}}`, nil,
			func(c Config) bool {
				return c.Model.Model == "m2" && c.Model.MaxTokens == 64 && c.EditModel().Model == "deeper" && c.Streaming && c.Completion.Budget == 900
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, source := range []string{SourceInitialize, SourceDidChange} {
				c, warnings, err := base.Merge([]byte(tc.settings), source)
				if err != nil || len(warnings) != 0 {
					t.Fatalf("Merge: %v %q", err, warnings)
				}
				if got := strings.Join(refusedKeys(c), " "); got != strings.Join(tc.refused, " ") {
					t.Errorf("%s: refused %q, want %q", source, got, tc.refused)
				}
				if !tc.check(c) {
					t.Errorf("%s: wrong result %+v", source, c)
				}
				for _, r := range c.Refused() {
					if r.Source != source || !strings.Contains(r.String(), r.Key) || !strings.Contains(r.Reason(), "config.toml") {
						t.Errorf("refusal %+v reads %q", r, r)
					}
				}
			}
		})
	}
}

// Refusals accumulate across layers; accepted values keep their source.
func TestRefusalsAccumulate(t *testing.T) {
	c := Default()
	c, _, _ = c.Merge([]byte(`{"model":{"endpoint":"ws://a.example/v1/responses"}}`), SourceInitialize)
	c, _, _ = c.Merge([]byte(`{"wisp":{"model":{"apiKeyEnv":"HOME","model":"x"}}}`), SourceDidChange)
	if got := refusedKeys(c); strings.Join(got, " ") != "model.endpoint model.apiKeyEnv" {
		t.Fatalf("refused %q", got)
	}
	if c.Refused()[1].Source != SourceDidChange || c.Refused()[1].Value != "HOME" {
		t.Errorf("second refusal %+v", c.Refused()[1])
	}
	for _, s := range c.Settings() {
		if s.Key == "model.endpoint" && (s.Value != "" || s.Source != SourceDefault || !s.TrustedOnly) {
			t.Errorf("model.endpoint setting %+v", s)
		}
		if s.Key == "model.model" && (s.Value != "x" || s.Source != SourceDidChange || s.TrustedOnly) {
			t.Errorf("model.model setting %+v", s)
		}
	}
}

// Flags are a trusted layer: they set trusted keys, and what they set is
// what the editor's settings may then repeat.
func TestOverrideIsTrusted(t *testing.T) {
	c, warnings, err := Default().Override([]string{"model.provider=openai", "model.endpoint=https://flag.example/v1",
		"trustedEndpoints=https://a.example/v1, https://b.example/v1", "edit.model.allowInsecure=true"}, SourceFlag)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Override: %v %q", err, warnings)
	}
	if c.Model.Endpoint != "https://flag.example/v1" || len(c.TrustedEndpoints) != 2 || !c.Edit.AllowInsecure {
		t.Fatalf("Override result %+v", c)
	}
	c, _, _ = c.Merge([]byte(`{"model":{"endpoint":"https://b.example/v1","provider":"openai"},"edit":{"model":{"allowInsecure":true}}}`), SourceInitialize)
	if len(c.Refused()) != 0 || c.Model.Endpoint != "https://b.example/v1" {
		t.Errorf("refused %v, endpoint %q", c.Refused(), c.Model.Endpoint)
	}
	if _, _, err := Default().Override([]string{"model.endpoint"}, SourceFlag); err == nil {
		t.Error("a flag without = was accepted")
	}
}

// CheckKey, the transports' own check, holds even for a Model changed
// behind the merge's back.
func TestCheckKey(t *testing.T) {
	c := trustedConfig(t, "trustedEndpoints = [\"wss://listed.example/v1/responses\"]\n", map[string]string{
		"WISP_PROVIDER": "openai-ws", "WISP_ENDPOINT": "wss://mine.example/v1/responses", "WISP_API_KEY_ENV": "MY_KEY"})
	if err := c.Model.CheckKey(); err != nil {
		t.Fatalf("trusted model: %v", err)
	}
	if err := c.EditModel().CheckKey(); err != nil {
		t.Fatalf("trusted edit model: %v", err)
	}
	listed := c.Model
	listed.Endpoint = "wss://listed.example/v1/responses/"
	if err := listed.CheckKey(); err != nil {
		t.Errorf("listed endpoint: %v", err)
	}
	moved := c.Model
	moved.Endpoint = "wss://evil.example/v1/responses"
	if err := moved.CheckKey(); err == nil || !strings.Contains(err.Error(), "evil.example") {
		t.Errorf("moved endpoint: %v", err)
	}
	other := c.EditModel()
	other.APIKeyEnv = "HOME"
	if err := other.CheckKey(); err == nil || !strings.Contains(err.Error(), "HOME") {
		t.Errorf("other variable: %v", err)
	}
	if err := (Model{Provider: ProviderOpenAIWS, Endpoint: "wss://code.example", APIKeyEnv: "K"}).CheckKey(); err != nil {
		t.Errorf("a Model built in code: %v", err)
	}
}
