package main

import (
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// doctor shows the editor settings it would refuse, and why, and checks
// the trusted endpoint rather than the editor's.
func TestDoctorShowsRefusedEditorSettings(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{PrefixEndsWith: "return ", Text: "a + b"})
	settings := `{"model":{"endpoint":"ws://127.0.0.2:9/v1/responses","apiKeyEnv":"HOME","model":"from-editor"},"edit":{"model":{"allowInsecure":true}}}`
	out, stderr, code := run(t, env, "", "doctor", "--settings", settings, "--set", "completion.budget=900")
	if code != 0 {
		t.Fatalf("doctor exited %d:\n%s\n%s", code, out, stderr)
	}
	_, list, ok := strings.Cut(out, "editor settings refused:\n")
	if !ok {
		t.Fatalf("no refused settings shown:\n%s", out)
	}
	for _, want := range []string{
		`model.endpoint = "ws://127.0.0.2:9/v1/responses" (initializationOptions)`,
		`model.apiKeyEnv = "HOME" (initializationOptions)`,
		`edit.model.allowInsecure = "true" (initializationOptions)`,
		"$WISP_ENDPOINT", "trustedEndpoints",
	} {
		if !strings.Contains(list, want) {
			t.Errorf("refused list lacks %q:\n%s", want, list)
		}
	}
	if strings.Contains(list, "model.model") {
		t.Errorf("a model name was refused:\n%s", list)
	}
	for _, want := range []string{"from-editor", "flag --set", "completion model: openai-ws ws://127.0.0.1:", "time to first token"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
