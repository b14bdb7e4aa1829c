package provider

import (
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/config"
)

// Open reads a key only for the variable and endpoint the user's own
// settings chose, even when a Model from settings was changed behind the
// configuration's back.
func TestOpenChecksWhereTheKeyGoes(t *testing.T) {
	read := map[string]int{}
	env := map[string]string{"WISP_PROVIDER": "openai", "WISP_ENDPOINT": "https://mine.example.test/v1",
		"WISP_API_KEY_ENV": "MY_KEY", "MY_KEY": testKey, "HOME": "/home/someone", "XDG_CONFIG_HOME": t.TempDir()}
	getenv := func(k string) string { read[k]++; return env[k] }
	cfg, _, err := config.Load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := Open(cfg.Model, getenv, nil); err != nil {
		t.Fatalf("the trusted model: %v", err)
	} else {
		m.Close()
	}
	for name, change := range map[string]func(*config.Model){
		"endpoint": func(m *config.Model) { m.Endpoint = "https://evil.example.test/v1" },
		"variable": func(m *config.Model) { m.APIKeyEnv = "HOME" },
	} {
		t.Run(name, func(t *testing.T) {
			clear(read)
			m := cfg.Model
			change(&m)
			model, err := Open(m, getenv, nil)
			if err == nil {
				model.Close()
				t.Fatal("Open attached a key the user's settings did not send there")
			}
			if !strings.Contains(err.Error(), "did not come from") {
				t.Errorf("error %v", err)
			}
			if read["MY_KEY"]+read["HOME"] != 0 {
				t.Errorf("the key variables were read: %v", read)
			}
		})
	}
}
