package editors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// codeAction is the part of a code action the clients without a next-edit
// method use: its workspace edit, applied as is, then its command.
type codeAction struct {
	Title string `json:"title"`
	Kind  string `json:"kind"`
	Edit  *struct {
		DocumentChanges []struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version *int   `json:"version"`
			} `json:"textDocument"`
			Edits []struct {
				Range   lspRange `json:"range"`
				NewText string   `json:"newText"`
			} `json:"edits"`
		} `json:"documentChanges"`
	} `json:"edit"`
	Command *struct {
		Command   string `json:"command"`
		Arguments []any  `json:"arguments"`
	} `json:"command"`
}

// codeActionClients are the clients whose only way to a next edit is the
// code action, with their initialize params and the codeAction context
// each sends when the user asks for actions at the cursor (Helix: space a;
// lsp-mode: lsp-execute-code-action; eglot: eglot-code-actions).
var codeActionClients = []struct {
	name, profile string
	context       map[string]any
}{
	{"helix", "initialize-helix-FROM-SOURCE.json", map[string]any{"diagnostics": []any{}, "triggerKind": 1}},
	{"emacs-lsp-mode", "initialize-emacs-28.2-lsp-mode-10.0.0.json", map[string]any{"diagnostics": []any{}}},
	{"emacs-eglot", "initialize-emacs-28.2-eglot-1.9.json", map[string]any{"diagnostics": []any{}}},
}

// TestNextEditCodeActionFallback drives wisp with the initialize params of
// Helix, Emacs lsp-mode and Emacs eglot, none of which calls a next-edit
// method: after a rename at the declaration and a pause, the code action
// "wisp: apply suggested edit" at the cursor must carry a versioned
// workspace edit that renames the uses, and its command must count it as
// accepted.
func TestNextEditCodeActionFallback(t *testing.T) {
	for _, client := range codeActionClients {
		t.Run(client.name, func(t *testing.T) {
			ms := startOracleModelServer(t, map[string]string{"calc.go": meanRenamed}, []reply{completeHello})
			params := clientProfile(t, client.profile)
			dir := t.TempDir()
			params["processId"] = os.Getpid()
			params["rootPath"] = dir
			params["rootUri"] = "file://" + dir
			params["workspaceFolders"] = []any{map[string]any{"name": filepath.Base(dir), "uri": "file://" + dir}}
			// Helix's languages.toml `config`, wisp-initialization-options
			// in Emacs: sent as initializationOptions; the model comes
			// through wisp's environment.
			params["initializationOptions"] = map[string]any{"nextEdit": nextEditSettings}
			c := startLSP(t, ms.env())
			c.call("initialize", params, nil)
			c.notify("initialized", map[string]any{})

			uri := "file://" + filepath.Join(dir, "calc.go")
			c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
				"uri": uri, "languageId": "go", "version": 1, "text": meanGo}})
			c.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": 2},
				"contentChanges": []any{map[string]any{"range": lspRange{lspPos{4, 1}, lspPos{4, 6}}, "text": "sum"}},
			})

			cursor := lspPos{4, 4}
			var action *codeAction
			waitFor(t, 20*time.Second, `the code action "wisp: apply suggested edit"`, func() (bool, string) {
				var actions []codeAction
				c.call("textDocument/codeAction", map[string]any{
					"textDocument": map[string]any{"uri": uri},
					"range":        lspRange{cursor, cursor},
					"context":      client.context,
				}, &actions)
				var titles []string
				for i := range actions {
					if actions[i].Title == "wisp: apply suggested edit" {
						action = &actions[i]
						return true, ""
					}
					titles = append(titles, actions[i].Title)
				}
				return false, strings.Join(titles, ", ")
			})
			if action.Kind != "quickfix" {
				t.Errorf("kind %q, want quickfix", action.Kind)
			}
			if action.Edit == nil || len(action.Edit.DocumentChanges) != 1 {
				t.Fatalf("the action carries no edit of one document (these clients apply documentChanges): %+v", action)
			}
			dc := action.Edit.DocumentChanges[0]
			if dc.TextDocument.URI != uri || dc.TextDocument.Version == nil || *dc.TextDocument.Version != 2 {
				t.Errorf("the edit is for %s version %v, want %s version 2", dc.TextDocument.URI, dc.TextDocument.Version, uri)
			}
			var edits []textEdit
			for _, e := range dc.Edits {
				edits = append(edits, textEdit{e.Range, e.NewText})
			}
			if got := applyEdits(t, meanDeclRenamed, edits); got != meanRenamed {
				t.Errorf("the action's edit makes\n%s\nwant\n%s", got, meanRenamed)
			}
			if action.Command == nil {
				t.Fatal("the action has no command: wisp never hears it was applied")
			}
			// The client applies the edit, then runs the command.
			var changes []any
			for _, e := range edits {
				changes = append(changes, map[string]any{"range": e.Range, "text": e.NewText})
			}
			c.notify("textDocument/didChange", map[string]any{
				"textDocument": map[string]any{"uri": uri, "version": 3}, "contentChanges": changes})
			c.call("workspace/executeCommand", map[string]any{"command": action.Command.Command, "arguments": action.Command.Arguments}, nil)
			var stats struct {
				NextEdit struct{ Shown, Accepted int } `json:"nextEdit"`
			}
			c.call("wisp/stats", map[string]any{}, &stats)
			if stats.NextEdit.Shown != 1 || stats.NextEdit.Accepted != 1 {
				t.Errorf("wisp counted %+v, want the suggestion shown once and accepted once", stats.NextEdit)
			}
		})
	}
}

// clientProfile reads the initialize params recorded from a real client
// (the repository's testdata/clients/initialize-*.json, bare or under
// "params").
func clientProfile(t *testing.T, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "clients", name))
	if err != nil {
		t.Fatal(err)
	}
	var profile map[string]any
	if err := json.Unmarshal(data, &profile); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if p, ok := profile["params"].(map[string]any); ok {
		return p
	}
	return profile
}

type textEdit struct {
	Range   lspRange
	NewText string
}

// applyEdits applies LSP edits (ranges in UTF-16, here all ASCII) to text,
// as a client does: against the text before any of them.
func applyEdits(t *testing.T, text string, edits []textEdit) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	offset := func(p lspPos) int {
		if p.Line >= len(lines) {
			return len(text)
		}
		n := 0
		for _, l := range lines[:p.Line] {
			n += len(l)
		}
		return n + p.Character
	}
	sorted := append([]textEdit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return offset(sorted[i].Range.Start) > offset(sorted[j].Range.Start) })
	for _, e := range sorted {
		start, end := offset(e.Range.Start), offset(e.Range.End)
		if start > end || end > len(text) {
			t.Fatalf("edit range %+v is outside the text", e.Range)
		}
		text = text[:start] + e.NewText + text[end:]
	}
	return text
}
