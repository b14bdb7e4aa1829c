package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Each layer overrides the one before, and every value knows its source.
func TestLayersAndSources(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "wisp"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "wisp", "config.toml")
	os.WriteFile(file, []byte(`
streaming = true
[model]
provider = "openai"
endpoint = "https://file.example/v1"
model = "from-file"
[edit.model]
model = "deep"
[completion]
debounce = "30ms"
`), 0o644)
	c, warnings, err := Load(env(map[string]string{"XDG_CONFIG_HOME": dir, "WISP_MODEL": "from-env", "WISP_GRACE": "100"}))
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Load: %v %v", err, warnings)
	}
	c, _, err = c.Merge([]byte(`{"model":{"model":"from-init"}}`), SourceInitialize)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err = c.Merge([]byte(`{"wisp":{"completion":{"budget":900}}}`), SourceDidChange)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"model.provider":      {"openai", "file " + file},
		"model.endpoint":      {"https://file.example/v1", "file " + file},
		"model.model":         {"from-init", SourceInitialize},
		"edit.model.model":    {"deep", "file " + file},
		"streaming":           {"true", "file " + file},
		"completion.debounce": {"30ms", "file " + file},
		"completion.grace":    {"100ms", "env WISP_GRACE"},
		"completion.budget":   {"900", SourceDidChange},
		"model.fimTemplate":   {"", SourceDefault},
	}
	got := map[string]Setting{}
	for _, s := range c.Settings() {
		got[s.Key] = s
	}
	for k, w := range want {
		if got[k].Value != w[0] || got[k].Source != w[1] {
			t.Errorf("%s = %q from %q, want %q from %q", k, got[k].Value, got[k].Source, w[0], w[1])
		}
	}
	if c.Completion.Grace != 100*time.Millisecond || c.Completion.Budget != 900 {
		t.Errorf("typed values: %+v", c.Completion)
	}
	// The edit model falls back to the completion model's other fields.
	if em := c.EditModel(); em.Model != "deep" || em.Provider != "openai" || em.Endpoint != "https://file.example/v1" {
		t.Errorf("EditModel = %+v", em)
	}
}

func TestBadValuesWarnAndKeepTheOldValue(t *testing.T) {
	c := Default()
	c, warnings, err := c.Merge([]byte(`{"completion":{"budget":-3,"grace":"soon"},"nonsense":1,"model":{"provider":7}}`), SourceInitialize)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 4 {
		t.Fatalf("warnings %q, want 4", warnings)
	}
	if !strings.Contains(strings.Join(warnings, "\n"), `unknown setting "nonsense"`) {
		t.Errorf("warnings %q", warnings)
	}
	if c.Completion != Default().Completion || c.Model.Provider != ProviderLocal {
		t.Errorf("bad values changed the config: %+v", c)
	}
	if _, _, err := c.Merge([]byte(`[1,2]`), SourceInitialize); err == nil {
		t.Error("a non-object was accepted")
	}
	if same, _, err := c.Merge([]byte(`null`), SourceInitialize); err != nil || same.Model != c.Model {
		t.Error("null settings changed something")
	}
	// Lua encodes an empty table as an empty list: no settings.
	if same, _, err := c.Merge([]byte(` [] `), SourceInitialize); err != nil || same.Model != c.Model {
		t.Errorf("empty-list settings: %v", err)
	}
}

func TestMalformedFileIsAnError(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "wisp"), 0o755)
	os.WriteFile(filepath.Join(dir, "wisp", "config.toml"), []byte("[model\nprovider="), 0o644)
	if _, _, err := Load(env(map[string]string{"XDG_CONFIG_HOME": dir})); err == nil || !strings.Contains(err.Error(), "config.toml") {
		t.Fatalf("got %v", err)
	}
}

// A key pasted where its variable's name belongs, or set as a setting of
// its own, is refused from every layer, and no warning, setting or
// refusal repeats it.
func TestKeysAreNeverSettings(t *testing.T) {
	const secret = "sk-secret-123"
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "wisp"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "wisp", "config.toml"), []byte(`
apiKey = "`+secret+`"
[model]
apiKeyEnv = "`+secret+`"
apiKey = "`+secret+`"
[edit.model]
apiKeyEnv = "`+secret+`"
`), 0o644)
	c, warnings, err := Load(env(map[string]string{"XDG_CONFIG_HOME": dir, "WISP_API_KEY_ENV": secret, "WISP_EDIT_API_KEY_ENV": "MY_KEY_2"}))
	if err != nil {
		t.Fatal(err)
	}
	c, w, err := c.Override([]string{"model.apiKeyEnv=" + secret, "model.apiKey=" + secret}, SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	warnings = append(warnings, w...)
	c, w, err = c.Merge([]byte(`{"model":{"apiKeyEnv":"`+secret+`","apiKey":"`+secret+`"}}`), SourceInitialize)
	if err != nil {
		t.Fatal(err)
	}
	warnings = append(warnings, w...)
	all := strings.Join(warnings, "\n")
	for _, s := range c.Settings() {
		all += "\n" + s.Value
	}
	for _, r := range c.Refused() {
		all += "\n" + r.Value + r.Reason()
	}
	if strings.Contains(all, secret) {
		t.Errorf("the key is repeated:\n%s", all)
	}
	if n := strings.Count(all, "must name an environment variable"); n != 5 {
		t.Errorf("%d refusals of apiKeyEnv, want 5 (file twice, environment, flag, editor):\n%s", n, all)
	}
	if n := strings.Count(all, "keys live only in the environment"); n != 4 {
		t.Errorf("%d apiKey settings told where keys live, want 4:\n%s", n, all)
	}
	if c.Model.APIKeyEnv != "" || c.Edit.APIKeyEnv != "MY_KEY_2" {
		t.Errorf("apiKeyEnv %q, edit %q: want the valid name kept and the key left out", c.Model.APIKeyEnv, c.Edit.APIKeyEnv)
	}
	for name, want := range map[string]bool{"OPENAI_API_KEY": true, "_K1": true, "k": true, "1KEY": false, "sk-secret": false, "A B": false, "": false} {
		if IsEnvName(name) != want {
			t.Errorf("IsEnvName(%q) = %v", name, !want)
		}
	}
}
