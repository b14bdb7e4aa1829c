package editors

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// vscodeNextEditResult is what the driver extension (testdata/vscode-driver)
// saw in its next-edit scenario.
type vscodeNextEditResult struct {
	Renamed     string
	Steps       []string // what each run of "wisp: Next Edit" returned, repeats folded
	JumpedTo    [2]int   // the cursor (0-based line, character) after the jump
	BeforeApply string   // the document after the jump
	Applied     string   // the document after the second run
	AtCursor    string   // line 4 of note.go after committing the ghost text
	Error       string
}

// TestVSCodeNextEdit renames total at its declaration in VS Code 1.100.3
// (code-server in headless Chromium, with the packaged extension, and next
// edits turned on in wisp's own config.toml alone: the extension's
// wisp.nextEdit.enabled is left unset), then runs "wisp: Next Edit", the
// command Tab is bound to while a suggestion is shown: it must jump to the
// suggested renames of the uses, then apply them. Then a suggestion right
// at the cursor (the rest of a comment) must come as ghost text that VS
// Code commits, with the model offering no ghost text of its own there.
func TestVSCodeNextEdit(t *testing.T) {
	requireCodeServer(t)
	checkNextEditKeys(t)
	ms := startOracleModelServer(t, map[string]string{"calc.go": meanRenamed, "note.go": noteDone},
		[]reply{{PrefixEndsWith: "//", Text: ""}})

	cs := startCodeServer(t, ms, codeServerSetup{
		scenario:   "nextedit",
		files:      map[string]string{"calc.go": meanGo, "note.go": noteGo},
		file:       "calc.go",
		settings:   map[string]any{"wisp.nextEdit.minPause": 100},
		env:        []string{"WISP_TEST_RENAME=sum", "WISP_TEST_NOTE=note.go"},
		wispConfig: "[nextEdit]\nenabled = true\nminPause = \"100ms\"\n",
	})

	var res vscodeNextEditResult
	cs.waitResult(t, &res, nil)
	if res.Error != "" && res.Applied == meanRenamed {
		t.Errorf("after the rename: %s", res.Error)
	} else if res.Error != "" {
		t.Fatalf("driver: %s (steps %q, line 5 after the rename %q)", res.Error, res.Steps, res.Renamed)
	}
	if want := "\tsum := 0.0"; res.Renamed != want {
		t.Errorf("line 5 after the rename = %q, want %q", res.Renamed, want)
	}
	if want := "none jumped applied"; strings.Join(res.Steps, " ") != want {
		t.Errorf("wisp: Next Edit returned %q, want %q (nothing until the suggestion is shown, then a jump, then the edit)", res.Steps, want)
	}
	if want := [2]int{6, 2}; res.JumpedTo != want {
		t.Errorf("the jump put the cursor at %v, want %v (the first use still to rename)", res.JumpedTo, want)
	}
	if res.BeforeApply != meanDeclRenamed {
		t.Errorf("the jump changed the document:\n%s", res.BeforeApply)
	}
	if res.Applied != meanRenamed {
		t.Errorf("after applying the suggestion the document reads\n%s\nwant\n%s", res.Applied, meanRenamed)
	}
	if want := "\treturn x / 2 // exact for binary floats"; res.AtCursor != want {
		t.Errorf("after committing the ghost text at the cursor line 4 of note.go = %q, want %q", res.AtCursor, want)
	}
}

// noteGo is the file where the suggestion is at the cursor: the user types
// " //" after line 4, and noteDone, the oracle's after version, goes on.
const noteGo = "package calc\n\nfunc half(x float64) float64 {\n\treturn x / 2\n}\n"

var noteDone = strings.Replace(noteGo, "x / 2", "x / 2 // exact for binary floats", 1)

// checkNextEditKeys checks the extension binds Tab to "wisp: Next Edit"
// and Escape to dismissing only while a suggestion is shown and no ghost
// text or suggestion widget wants those keys.
func checkNextEditKeys(t *testing.T) {
	t.Helper()
	data, err := os.ReadFile(repoFile(t, "vscode/package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Keybindings []struct{ Command, Key, When string }
		}
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"wisp.nextEdit": "tab", "wisp.nextEdit.dismiss": "escape"}
	for _, kb := range pkg.Contributes.Keybindings {
		key, ok := want[kb.Command]
		if !ok {
			continue
		}
		delete(want, kb.Command)
		if kb.Key != key {
			t.Errorf("%s is bound to %q, want %q", kb.Command, kb.Key, key)
		}
		for _, cond := range []string{"wisp.nextEditVisible", "!inlineSuggestionVisible", "!suggestWidgetVisible"} {
			if !strings.Contains(kb.When, cond) {
				t.Errorf("%s's key applies when %q, which lacks %s", kb.Command, kb.When, cond)
			}
		}
	}
	for cmd, key := range want {
		t.Errorf("no %s key for %s", key, cmd)
	}
}
