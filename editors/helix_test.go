package editors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// completionList is the part of a textDocument/completion result Helix reads.
type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []completionItem `json:"items"`
}

type completionItem struct {
	Label            string `json:"label"`
	Kind             int    `json:"kind"`
	FilterText       string `json:"filterText"`
	InsertTextFormat int    `json:"insertTextFormat"`
	TextEdit         *struct {
		NewText string    `json:"newText"`
		Range   lspRange  `json:"range"`
		Insert  *lspRange `json:"insert"`
	} `json:"textEdit"`
}

type lspRange struct {
	Start lspPos `json:"start"`
	End   lspPos `json:"end"`
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// UnmarshalJSON accepts both shapes of the result: a CompletionList or a
// bare array of items (complete by definition); null is an empty list.
func (l *completionList) UnmarshalJSON(data []byte) error {
	if strings.TrimSpace(string(data)) == "null" {
		*l = completionList{}
		return nil
	}
	if strings.HasPrefix(strings.TrimSpace(string(data)), "[") {
		l.IsIncomplete = false
		return json.Unmarshal(data, &l.Items)
	}
	type plain completionList
	return json.Unmarshal(data, (*plain)(l))
}

// TestHelixCompletionWhileModelIsSlow drives wisp with Helix's own
// initialize params and completion requests (clients/HELIX.md): Helix has no
// inline completion, asks every server at once, opens its menu on the first
// reply with items or marked incomplete, and filters items by the typed word.
func TestHelixCompletionWhileModelIsSlow(t *testing.T) {
	helixCompletion(t, pace{rate: 20, ttft: 300 * time.Millisecond})
}

// TestHelixCompletionLatency reports how long Helix waits for wisp's item
// after it asks, against the measured model pace. Helix itself asks only
// after its completion-timeout since the last key (5 ms with
// helix/config.toml, 250 ms without).
func TestHelixCompletionLatency(t *testing.T) {
	took := helixCompletion(t, measured)
	t.Logf("request → completion item (Helix asks its completion-timeout after the key): %.0f ms (model: %v to the first token, %v each way)",
		float64(took.Microseconds())/1000, measured.ttft, measured.delay)
}

// helixCompletion types "hello" as Helix does against a model at pace p,
// checks the completion item Helix would show, and returns the time from
// Helix's first completion request to that item.
func helixCompletion(t *testing.T, p pace) time.Duration {
	t.Helper()
	ms := startModelServer(t, []reply{completeHello}, p)
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte(goSource), 0o644); err != nil {
		t.Fatal(err)
	}
	profile, err := os.ReadFile(filepath.Join("..", "testdata", "clients", "initialize-helix-FROM-SOURCE.json"))
	if err != nil {
		t.Fatal(err)
	}
	var init struct {
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal(profile, &init); err != nil {
		t.Fatal(err)
	}
	params := init.Params
	params["processId"] = os.Getpid()
	params["rootPath"] = dir
	params["rootUri"] = "file://" + dir
	params["workspaceFolders"] = []any{map[string]any{"name": filepath.Base(dir), "uri": "file://" + dir}}
	// What languages.toml's `environment` table becomes: the model comes
	// through wisp's environment, which it trusts (languages.toml's
	// `config`, sent as initializationOptions, may not choose it). Helix
	// users get no streaming notifications.
	params["initializationOptions"] = map[string]any{"model": map[string]any{"model": "test"}}

	c := startLSP(t, ms.env())
	var initResult struct {
		Capabilities struct {
			CompletionProvider *struct {
				ResolveProvider   bool     `json:"resolveProvider"`
				TriggerCharacters []string `json:"triggerCharacters"`
			} `json:"completionProvider"`
		} `json:"capabilities"`
	}
	c.call("initialize", params, &initResult)
	cp := initResult.Capabilities.CompletionProvider
	if cp == nil {
		t.Fatal("wisp offers no completionProvider: Helix users get nothing")
	}
	if cp.ResolveProvider {
		t.Error("resolveProvider is true: accepting an item would block Helix on resolve")
	}
	c.notify("initialized", map[string]any{})
	uri := "file://" + file
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "go", "version": 0, "text": goSource}})
	// Helix sends incremental changes, one per keystroke.
	for i, ch := range "hello" {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 1},
			"contentChanges": []any{map[string]any{"range": lspRange{lspPos{3, 1 + i}, lspPos{3, 1 + i}}, "text": string(ch)}},
		})
	}

	// Helix asks (triggerKind 1 after two word chars) and asks again on a
	// later keystroke or C-x; it never sends $/cancelRequest.
	cursor := lspPos{3, 6}
	var got *completionItem
	var asked int
	start := time.Now()
	waitFor(t, 20*time.Second, "a completion item for the typed word", func() (bool, string) {
		asked++
		var list completionList
		c.call("textDocument/completion", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"position":     cursor,
			"context":      map[string]any{"triggerKind": 1},
		}, &list)
		if list.IsIncomplete && len(list.Items) == 0 {
			t.Fatalf("request %d: an empty isIncomplete list would open Helix's menu empty and drop the other servers' items", asked)
		}
		for i := range list.Items {
			if list.Items[i].TextEdit != nil {
				got = &list.Items[i]
				return true, ""
			}
		}
		b, _ := json.Marshal(list)
		return false, string(b)
	})
	took := time.Since(start)
	t.Logf("items after %d request(s)", asked)
	filter := got.FilterText
	if filter == "" {
		filter = got.Label
	}
	if !strings.HasPrefix(filter, "hello") {
		t.Errorf("filterText/label %q does not start with the typed word %q: Helix filters the item out", filter, "hello")
	}
	if got.InsertTextFormat == 2 || got.Kind == 15 {
		t.Errorf("item is a snippet (insertTextFormat %d, kind %d): Helix would parse $ as snippet syntax", got.InsertTextFormat, got.Kind)
	}
	r := got.TextEdit.Range
	if got.TextEdit.Insert != nil {
		r = *got.TextEdit.Insert
	}
	if want := (lspRange{lspPos{3, 1}, cursor}); r != want {
		t.Errorf("textEdit range = %+v, want the typed word %+v", r, want)
	}
	if want := "hello_world()"; got.TextEdit.NewText != want {
		t.Errorf("textEdit newText = %q, want %q", got.TextEdit.NewText, want)
	}
	return took
}

// helixDefaultServers is each language's `language-servers` in Helix
// 25.07's own languages.toml, for the languages helix/languages.toml names.
var helixDefaultServers = map[string][]string{
	"go":         {"gopls", "golangci-lint-lsp"},
	"rust":       {"rust-analyzer"},
	"python":     {"ty", "ruff", "jedi", "pylsp"},
	"typescript": {"typescript-language-server"},
}

// TestHelixSnippetKeepsDefaultServers checks helix/languages.toml: a
// `language-servers` list replaces Helix's own, so each language must list
// Helix's default servers, in Helix's order, and then wisp for completion
// and code actions only; a server left out would silently stop working
// once merged.
func TestHelixSnippetKeepsDefaultServers(t *testing.T) {
	var cfg struct {
		Language []struct {
			Name            string `toml:"name"`
			LanguageServers []any  `toml:"language-servers"`
		} `toml:"language"`
		LanguageServer map[string]struct {
			Command string `toml:"command"`
		} `toml:"language-server"`
	}
	if _, err := toml.DecodeFile(filepath.Join("helix", "languages.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.LanguageServer["wisp"].Command != "wisp" {
		t.Errorf("[language-server.wisp] command = %q, want wisp", cfg.LanguageServer["wisp"].Command)
	}
	if len(cfg.Language) == 0 {
		t.Fatal("helix/languages.toml names no language")
	}
	for _, lang := range cfg.Language {
		want, ok := helixDefaultServers[lang.Name]
		if !ok {
			t.Errorf("%s: add Helix's default servers for it to helixDefaultServers", lang.Name)
			continue
		}
		var names []string
		var wisp map[string]any
		for _, s := range lang.LanguageServers {
			switch s := s.(type) {
			case string:
				names = append(names, s)
			case map[string]any:
				if s["name"] == "wisp" {
					wisp = s
				} else {
					names = append(names, fmt.Sprint(s["name"]))
				}
			}
		}
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("%s: servers %q, want Helix's defaults %q and then wisp", lang.Name, names, want)
		}
		if wisp == nil || fmt.Sprint(wisp["only-features"]) != "[completion code-action]" {
			t.Errorf("%s: wisp is not listed with only-features = [\"completion\", \"code-action\"] (the code action is how Helix reaches next edits): %v", lang.Name, lang.LanguageServers)
		}
	}
}
