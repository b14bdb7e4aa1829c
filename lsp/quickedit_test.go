package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

const sumGo = `package p

// Sum adds xs.
func Sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}
`

const renamedReply = "Sure:\n```go\nfunc Sum(xs []int) int {\n\tsum := 0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum\n}\n```\nDone."

type appliedEdit struct {
	Edit struct {
		DocumentChanges []struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version int32  `json:"version"`
			} `json:"textDocument"`
			Edits []struct {
				Range struct {
					Start struct{ Line, Character int } `json:"start"`
					End   struct{ Line, Character int } `json:"end"`
				} `json:"range"`
				NewText string `json:"newText"`
			} `json:"edits"`
		} `json:"documentChanges"`
	} `json:"edit"`
}

// sumSession starts a server on model, initializes it as VS Code and
// opens sumGo.
func sumSession(t *testing.T, model transport.Model) (*fakeEditor, string) {
	t.Helper()
	e := startServer(t, model, config.Default())
	e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", nil)
	uri := "file:///tmp/sum.go"
	e.open(uri, "go", sumGo)
	return e, uri
}

func (e *fakeEditor) quickEdit(uri string, version int, line int, instruction string) error {
	return e.call("workspace/executeCommand", map[string]any{"command": "wisp.quickEdit", "arguments": []any{map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version},
		"range":        map[string]any{"start": map[string]any{"line": line, "character": 1}, "end": map[string]any{"line": line, "character": 1}},
		"instruction":  instruction,
	}}}, nil)
}

func (e *fakeEditor) appliedEdits() []appliedEdit {
	applied := e.Requests("workspace/applyEdit")
	out := make([]appliedEdit, 0, len(applied))
	for _, raw := range applied {
		var a appliedEdit
		if err := json.Unmarshal(raw, &a); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// The applyEdit the client receives is versioned and minimal: each edit
// replaces just the renamed identifier, not the function.
func TestQuickEditIsVersionedAndMinimal(t *testing.T) {
	_, model := loopbackModel(t, modelserver.Options{}, modelserver.Reply{InstructionContains: "rename", Text: renamedReply})
	e, uri := sumSession(t, model)
	if err := e.quickEdit(uri, 1, 5, "rename total to sum"); err != nil {
		t.Fatal(err)
	}
	got := e.appliedEdits()
	if len(got) != 1 || len(got[0].Edit.DocumentChanges) != 1 {
		t.Fatalf("applyEdit calls: %+v", got)
	}
	dc := got[0].Edit.DocumentChanges[0]
	if dc.TextDocument.URI != uri || dc.TextDocument.Version != 1 {
		t.Fatalf("edit for %s version %d, want %s version 1", dc.TextDocument.URI, dc.TextDocument.Version, uri)
	}
	if len(dc.Edits) != 3 {
		t.Fatalf("%d edits, want 3: %+v", len(dc.Edits), dc.Edits)
	}
	for _, ed := range dc.Edits {
		if ed.NewText != "sum" || ed.Range.Start.Line != ed.Range.End.Line || ed.Range.End.Character-ed.Range.Start.Character != len("total") {
			t.Fatalf("edit %+v replaces more than the identifier", ed)
		}
	}
}

// The outcome of a quick edit is said every time it is run: the same
// quick edit run twice is told twice, not once per session like the
// server's own notices.
func TestQuickEditOutcomeIsSaidEachTime(t *testing.T) {
	unchanged := "```go\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n```"
	_, model := loopbackModel(t, modelserver.Options{}, modelserver.Reply{InstructionContains: "tidy", Text: unchanged})
	e, uri := sumSession(t, model)
	for run := 1; run <= 2; run++ {
		if err := e.quickEdit(uri, 1, 5, "tidy it"); err != nil {
			t.Fatal(err)
		}
		if n := e.count("window/showMessage", "the quick edit changed nothing"); n != run {
			t.Fatalf("after %d runs the user was told %d times that nothing changed", run, n)
		}
	}
}

// Typing elsewhere while the model works: the edits are rebased onto the
// new version. Typing where the edits apply: refused with a message.
func TestQuickEditRebasesOrRefuses(t *testing.T) {
	held := heldScript(modelserver.Reply{InstructionContains: "rename", Text: renamedReply})
	e, uri := sumSession(t, serveModel(t, modelserver.New(modelserver.Options{Backend: held})))

	// typeWhileModelWorks runs the quick edit, types while the model
	// holds the generation, then lets the model answer.
	typeWhileModelWorks := func(version, line int, typing func()) {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- e.quickEdit(uri, version, line, "rename total to sum") }()
		held.waitStarted(t) // the server took its snapshot and asked the model
		typing()
		if v := e.documentVersion(uri); v != int32(version+1) {
			t.Fatalf("server at version %d after typing, want %d", v, version+1)
		}
		held.let(t)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}

	typeWhileModelWorks(1, 5, func() { e.change(uri, 2, 0, 0, 0, 0, "// Package p sums.\n// More.\n") }) // two lines above
	got := e.appliedEdits()
	if len(got) != 1 {
		t.Fatalf("applyEdit calls: %d", len(got))
	}
	dc := got[0].Edit.DocumentChanges[0]
	if dc.TextDocument.Version != 2 {
		t.Fatalf("rebased edit for version %d, want 2", dc.TextDocument.Version)
	}
	if first := dc.Edits[0].Range.Start; first.Line != 6 || first.Character != 1 {
		t.Fatalf("first edit at %+v, want line 6 char 1 (two lines lower)", first)
	}

	// Now overlap: change "total" on the line the edit rewrites.
	typeWhileModelWorks(2, 7, func() { e.change(uri, 3, 6, 1, 6, 6, "count") })
	if n := len(e.appliedEdits()); n != 1 {
		t.Fatalf("an edit was applied over a conflicting change (%d applyEdit calls)", n)
	}
	e.waitFor("window/showMessage", func(p json.RawMessage) bool { return strings.Contains(string(p), "not applied") })
}

// Progress is reported under a server-created token, and cancelling that
// token stops the generation at the model and applies nothing.
func TestQuickEditProgressAndCancel(t *testing.T) {
	ms, model := loopbackModel(t, modelserver.Options{Rate: 30},
		modelserver.Reply{InstructionContains: "rename", Text: renamedReply + strings.Repeat(" padding", 40)})
	e, uri := sumSession(t, model)

	done := make(chan error, 1)
	go func() { done <- e.quickEdit(uri, 1, 5, "rename total to sum") }()
	begin := e.waitFor("$/progress", func(p json.RawMessage) bool { return strings.Contains(string(p), `"begin"`) })
	e.waitFor("$/progress", func(p json.RawMessage) bool { return strings.Contains(string(p), `"report"`) })
	var prog struct {
		Token any `json:"token"`
	}
	json.Unmarshal(begin, &prog)
	e.notify("window/workDoneProgress/cancel", map[string]any{"token": prog.Token})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	e.waitFor("$/progress", func(p json.RawMessage) bool { return strings.Contains(string(p), `"end"`) })
	if n := len(e.appliedEdits()); n != 0 {
		t.Fatalf("a cancelled edit was applied")
	}
	waitCancels(t, ms, 1)
}

// A second quick edit of the same region while the first generates
// cancels the first at the model; only the second is applied.
func TestQuickEditSteering(t *testing.T) {
	// The first instruction's generation is held until it is cancelled.
	held := newHeldBackend(modelserver.ScriptBackend{Script: &modelserver.Script{Replies: []modelserver.Reply{
		{InstructionContains: "slowly", Text: renamedReply},
		{InstructionContains: "rename", Text: renamedReply}}}},
		func(q modelserver.Query) bool { return strings.Contains(q.Instruction, "slowly") })
	ms := modelserver.New(modelserver.Options{Backend: held})
	e, uri := sumSession(t, serveModel(t, ms))

	first := make(chan error, 1)
	go func() { first <- e.quickEdit(uri, 1, 5, "rewrite this slowly") }()
	held.waitStarted(t)
	if err := e.quickEdit(uri, 1, 6, "rename total to sum"); err != nil {
		t.Fatal(err)
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	waitCancels(t, ms, 1)
	got := e.appliedEdits()
	if len(got) != 1 || got[0].Edit.DocumentChanges[0].Edits[0].NewText != "sum" {
		t.Fatalf("applied %+v, want only the second instruction's edit", got)
	}
}

// waitCancels waits until the model server counted want cancels, and
// checks the model stopped at them.
func waitCancels(t *testing.T, ms *modelserver.Server, want int64) {
	t.Helper()
	waitModel(t, ms, "the cancel at the model", func(st modelserver.Stats) bool { return st.Cancels >= want })
	if st := ms.Stats(); st.Cancels != want || st.TokensAfterCancel >= 5 {
		t.Fatalf("model stats %+v, want %d cancel(s) and under 5 tokens after", st, want)
	}
}

// Code actions offer actions that carry their own instruction to every
// client, and "Quick edit…", whose instruction the client must ask for,
// only to clients that said they prompt for it: in Helix it would fail.
func TestCodeActions(t *testing.T) {
	cases := []struct {
		name   string
		opts   any
		prompt bool
	}{
		{"Helix", nil, false},
		{"a plugin that prompts", map[string]any{"quickEditPrompt": true}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := startServer(t, echoModel{}, config.Default())
			e.initialize("initialize-helix-FROM-SOURCE.json", c.opts)
			titles := e.codeActionTitles()
			want := map[string]string{
				"wisp: Fix the diagnostics here":       "declared and not used: total",
				"wisp: use a range-over-func iterator": "use a range-over-func iterator",
			}
			if c.prompt {
				want["wisp: Quick edit…"] = ""
			} else if _, ok := titles["wisp: Quick edit…"]; ok {
				t.Errorf("\"Quick edit…\" offered to a client that cannot prompt for its instruction: %v", titles)
			}
			for title, instr := range want {
				got, ok := titles[title]
				if !ok || !strings.Contains(got, instr) {
					t.Errorf("action %q: instruction %q, want one containing %q (offered: %v)", title, got, instr, titles)
				}
			}
		})
	}
}

// The function-level actions are offered where they have something to
// do: a doc comment for a function without one, a body for one whose body
// is empty or a placeholder; Sum, documented and whole, gets neither.
func TestFunctionActionsOfferedWhereTheyApply(t *testing.T) {
	cases := []struct {
		name, path, lang, src string
		line                  int
		doc, body             bool
	}{
		{"Go, documented and whole", "/tmp/sum.go", "go", sumGo, 4, false, false},
		{"Go, neither", "/tmp/mean.go", "go", "package p\n\nfunc Mean(xs []float64) float64 {\n\tpanic(\"TODO\")\n}\n", 3, true, true},
		{"Go, a TODO comment", "/tmp/todo.go", "go", "package p\n\n// Max is the largest of xs.\nfunc Max(xs []int) int {\n\t// TODO: write it\n\treturn 0\n}\n", 5, false, true},
		{"Python, documented", "/tmp/a.py", "python", "def area(r):\n    \"\"\"The area of a circle of radius r.\"\"\"\n    return 3.14 * r * r\n", 2, false, false},
		{"Python, neither", "/tmp/b.py", "python", "@cache\ndef area(r):\n    pass\n", 2, true, true},
		{"Rust, documented above an attribute", "/tmp/c.rs", "rust", "/// Adds.\n#[inline]\nfn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n", 3, false, false},
		{"Go, a body that dereferences", "/tmp/set.go", "go", "// Set stores v in p.\nfunc Set(p *int, v int) {\n\t*p = v\n}\n", 2, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := startServer(t, echoModel{}, config.Default())
			e.initialize("initialize-helix-FROM-SOURCE.json", nil)
			uri := "file://" + c.path
			e.open(uri, c.lang, c.src)
			var actions []struct {
				Title string `json:"title"`
			}
			e.mustCall("textDocument/codeAction", map[string]any{
				"textDocument": map[string]any{"uri": uri},
				"range":        map[string]any{"start": map[string]any{"line": c.line, "character": 4}, "end": map[string]any{"line": c.line, "character": 4}},
				"context":      map[string]any{"diagnostics": []any{}},
			}, &actions)
			var doc, body bool
			for _, a := range actions {
				doc = doc || strings.HasPrefix(a.Title, "wisp: Add a doc comment")
				body = body || strings.HasPrefix(a.Title, "wisp: Complete the body")
			}
			if doc != c.doc || body != c.body {
				t.Errorf("doc comment offered %v, want %v; body offered %v, want %v (actions %v)", doc, c.doc, body, c.body, actions)
			}
		})
	}
}

// codeActionTitles opens sum.go with a wisp: comment and asks for the code
// actions on it, with one diagnostic; it returns each action's title with
// its instruction ("" when it has none).
func (e *fakeEditor) codeActionTitles() map[string]string {
	e.t.Helper()
	uri := "file:///tmp/sum.go"
	e.open(uri, "go", strings.Replace(sumGo, "\ttotal := 0\n", "\ttotal := 0 // wisp: use a range-over-func iterator\n", 1))
	var actions []struct {
		Title   string `json:"title"`
		Command struct {
			Command   string           `json:"command"`
			Arguments []map[string]any `json:"arguments"`
		} `json:"command"`
	}
	e.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": map[string]any{"line": 4, "character": 1}, "end": map[string]any{"line": 4, "character": 1}},
		"context": map[string]any{"diagnostics": []any{map[string]any{
			"range":   map[string]any{"start": map[string]any{"line": 4, "character": 1}, "end": map[string]any{"line": 4, "character": 6}},
			"message": "declared and not used: total"}}},
	}, &actions)
	titles := map[string]string{}
	for _, a := range actions {
		if a.Command.Command != "wisp.quickEdit" || len(a.Command.Arguments) != 1 {
			e.t.Fatalf("action %+v does not run wisp.quickEdit with one argument", a)
		}
		instr, _ := a.Command.Arguments[0]["instruction"].(string)
		titles[a.Title] = instr
	}
	return titles
}
