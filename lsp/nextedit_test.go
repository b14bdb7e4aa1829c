package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/config"
	"github.com/wisp-lsp/wisp/transport"
	"github.com/wisp-lsp/wisp/transport/modelserver"
)

const meanGo = `package calc

// Mean returns the mean of xs.
func Mean(xs []float64) float64 {
	total := 0.0
	for _, x := range xs {
		total += x
	}
	return total / float64(len(xs))
}
`

// meanRenamed is meanGo once total is renamed to sum: the oracle's
// "after" version.
var meanRenamed = strings.ReplaceAll(meanGo, "total", "sum")

// oracleModel starts a loopback model server answering next-edit
// requests from after, the "after" version of calc.go, over the
// Responses WebSocket.
func oracleModel(t *testing.T, opts modelserver.Options, after string) (*modelserver.Server, transport.Model) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte(after), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Backend = modelserver.Oracle{Root: dir}
	ms := modelserver.New(opts)
	return ms, serveModel(t, ms)
}

// serveModel serves ms on loopback and returns a model that talks to it
// over the Responses WebSocket; both close with the test.
func serveModel(t testing.TB, ms *modelserver.Server) transport.Model {
	t.Helper()
	return wsModel(t, listenModel(t, ms, "127.0.0.1:0"))
}

// nextEditSession starts a server with next edits on (asking after a
// pause of pause), opens meanGo as calc.go and renames total at its
// declaration (version 2).
func nextEditSession(t *testing.T, model transport.Model, pause string) (*fakeEditor, string) {
	t.Helper()
	return nextEditSessionAs(t, model, pause, "initialize-nvim-0.12.4.json")
}

// nextEditSessionAs is nextEditSession with the initialize params of
// the client profile.
func nextEditSessionAs(t *testing.T, model transport.Model, pause, profile string) (*fakeEditor, string) {
	t.Helper()
	e := startServer(t, model, config.Default())
	caps := e.initialize(profile, map[string]any{"nextEdit": map[string]any{"enabled": true, "minPause": pause}})
	if exp, _ := caps["capabilities"].(map[string]any)["experimental"].(map[string]any); exp["copilotInlineEdit"] != true {
		t.Fatalf("capabilities do not advertise copilotInlineEdit: %v", caps["capabilities"])
	}
	uri := "file:///tmp/proj/calc.go"
	e.open(uri, "go", meanGo)
	e.change(uri, 2, 4, 1, 4, 6, "sum")
	return e, uri
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type inlineEditResult struct {
	Edits []struct {
		Text  string `json:"text"`
		Range struct {
			Start lspPos `json:"start"`
			End   lspPos `json:"end"`
		} `json:"range"`
		TextDocument struct {
			URI     string `json:"uri"`
			Version int32  `json:"version"`
		} `json:"textDocument"`
		Command *struct {
			Command   string `json:"command"`
			Arguments []any  `json:"arguments"`
		} `json:"command"`
	} `json:"edits"`
}

func (e *fakeEditor) nextEdit(method, uri string, version, line, char int) inlineEditResult {
	e.t.Helper()
	var res inlineEditResult
	e.mustCall(method, map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version},
		"position":     map[string]any{"line": line, "character": char},
	}, &res)
	if res.Edits == nil {
		e.t.Fatalf("%s answered no edits list (want [] when nothing follows)", method)
	}
	return res
}

type nextEditStats struct {
	NextEdit struct {
		Asked, Requests, Suggested, Silent, Cancelled, Shown, Accepted, Dismissed int64
	} `json:"nextEdit"`
	Queries *int64 `json:"queries"` // the completion engine's, still at the top
}

func (e *fakeEditor) nextStats() nextEditStats {
	e.t.Helper()
	var st nextEditStats
	e.mustCall("wisp/stats", map[string]any{}, &st)
	if st.Queries == nil {
		e.t.Fatalf("wisp/stats lost the completion counters")
	}
	return st
}

// After a rename at the declaration, copilotInlineEdit answers one edit
// (the clients written for it show only the first) that renames the
// uses, for the version it was computed for, with the accept command;
// wisp/nextEdit answers the same as minimal edits.
func TestNextEditShape(t *testing.T) {
	ms, model := oracleModel(t, modelserver.Options{}, meanRenamed)
	e, uri := nextEditSession(t, model, "1h")

	res := e.nextEdit("textDocument/copilotInlineEdit", uri, 2, 4, 4)
	if len(res.Edits) != 1 {
		t.Fatalf("copilotInlineEdit answered %d edits, want 1: %+v", len(res.Edits), res)
	}
	ed := res.Edits[0]
	if ed.Text != "sum += x\n\t}\n\treturn sum" || ed.Range.Start != (lspPos{6, 2}) || ed.Range.End != (lspPos{8, 13}) {
		t.Errorf("edit %q at %+v, want the uses renamed from 6:2 to 8:13", ed.Text, ed.Range)
	}
	if ed.TextDocument.URI != uri || ed.TextDocument.Version != 2 {
		t.Errorf("edit is for %+v, want %s version 2", ed.TextDocument, uri)
	}
	if ed.Command == nil || ed.Command.Command != "wisp.nextEdit.accepted" || len(ed.Command.Arguments) != 1 {
		t.Errorf("edit command %+v, want wisp.nextEdit.accepted with the suggestion's id", ed.Command)
	}

	minimal := e.nextEdit("wisp/nextEdit", uri, 2, 4, 4)
	if len(minimal.Edits) != 2 || minimal.Edits[0].Text != "sum" || minimal.Edits[1].Text != "sum" ||
		minimal.Edits[0].Range.Start != (lspPos{6, 2}) || minimal.Edits[1].Range.End != (lspPos{8, 13}) {
		t.Errorf("wisp/nextEdit answered %+v, want two minimal renames", minimal.Edits)
	}
	if n := ms.Stats().Requests; n != 1 {
		t.Errorf("the model was asked %d times, want once: the second request is answered from the first", n)
	}

	// A request for a version the document has left is answered empty.
	if stale := e.nextEdit("textDocument/copilotInlineEdit", uri, 1, 4, 4); len(stale.Edits) != 0 {
		t.Errorf("a request for version 1 answered %+v, want no edits", stale.Edits)
	}
}

// "Nothing follows" is an empty edits list, and the model was asked.
func TestNextEditNothingFollows(t *testing.T) {
	ms, model := oracleModel(t, modelserver.Options{}, strings.Replace(meanGo, "\ttotal := 0.0", "\tsum := 0.0", 1))
	e, uri := nextEditSession(t, model, "1h")
	if res := e.nextEdit("textDocument/copilotInlineEdit", uri, 2, 4, 4); len(res.Edits) != 0 {
		t.Fatalf("answered %+v, want no edits", res.Edits)
	}
	if ms.Stats().Requests != 1 {
		t.Fatalf("the model was not asked")
	}
	// Asking again about the same version does not ask the model again.
	if res := e.nextEdit("wisp/nextEdit", uri, 2, 4, 4); len(res.Edits) != 0 || ms.Stats().Requests != 1 {
		t.Fatalf("the second request answered %+v after %d model requests, want none and 1", res.Edits, ms.Stats().Requests)
	}
	if st := e.nextStats(); st.NextEdit.Silent != 1 || st.NextEdit.Suggested != 0 {
		t.Fatalf("stats %+v, want one silent prediction", st.NextEdit)
	}
}

// Next edits are opt-in: without nextEdit.enabled the methods answer
// empty and the model is never asked.
func TestNextEditOff(t *testing.T) {
	ms, model := oracleModel(t, modelserver.Options{}, meanRenamed)
	e := startServer(t, model, config.Default())
	e.initialize("initialize-nvim-0.12.4.json", nil)
	uri := "file:///tmp/proj/calc.go"
	e.open(uri, "go", meanGo)
	e.change(uri, 2, 4, 1, 4, 6, "sum")
	if res := e.nextEdit("wisp/nextEdit", uri, 2, 4, 4); len(res.Edits) != 0 || ms.Stats().Requests != 0 {
		t.Fatalf("disabled next edits answered %+v after %d model requests", res.Edits, ms.Stats().Requests)
	}
	if st := e.nextStats(); st.NextEdit.Asked != 1 || st.NextEdit.Requests != 0 {
		t.Errorf("stats %+v, want the request counted as asked, and no prediction", st.NextEdit)
	}
}

// The experimental capability tells a client whether next edits are on,
// from wisp's own settings or the client's, so that it asks after each
// pause only when they are.
func TestNextEditCapability(t *testing.T) {
	on := config.Default()
	on.NextEdit.Enabled = true
	fim := on
	fim.Model.Provider = config.ProviderFIM // cannot rewrite a region
	enable := func(enabled bool) map[string]any {
		return map[string]any{"nextEdit": map[string]any{"enabled": enabled}}
	}
	for _, tc := range []struct {
		name string
		cfg  config.Config  // wisp's own settings
		opts map[string]any // the client's initializationOptions
		want bool
	}{
		{"default", config.Default(), nil, false},
		{"on in wisp's settings", on, nil, true},
		{"on in the client's", config.Default(), enable(true), true},
		{"off in the client's", on, enable(false), false},
		{"on with a fill-in-the-middle model", fim, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := startServer(t, transport.Unavailable(context.Canceled), tc.cfg)
			caps := e.initialize("initialize-vscode-1.100.3-code-server-languageclient-11.json", tc.opts)
			exp, _ := caps["capabilities"].(map[string]any)["experimental"].(map[string]any)
			if exp["nextEdit"] != tc.want || exp["copilotInlineEdit"] != tc.want {
				t.Errorf("experimental capabilities %v, want nextEdit and copilotInlineEdit %v", exp, tc.want)
			}
		})
	}
}

// A keystroke in the region while the model writes cancels the
// generation at the model, and the request answers no edits.
func TestNextEditCancelledByDivergentKeystroke(t *testing.T) {
	ms, model := oracleModel(t, modelserver.Options{Rate: 20}, meanRenamed)
	e, uri := nextEditSession(t, model, "1h")
	got := make(chan inlineEditResult, 1)
	go func() { got <- e.nextEdit("textDocument/copilotInlineEdit", uri, 2, 4, 4) }()
	waitModel(t, ms, "the model to write", func(st modelserver.Stats) bool { return st.Tokens > 0 })
	e.change(uri, 3, 4, 4, 4, 4, "s") // "sums": the user went another way
	if res := <-got; len(res.Edits) != 0 {
		t.Fatalf("answered %+v after a divergent keystroke, want no edits", res.Edits)
	}
	waitCancels(t, ms, 1)
	if st := e.nextStats(); st.NextEdit.Cancelled != 1 {
		t.Fatalf("stats %+v, want one cancelled prediction", st.NextEdit)
	}
}

// A change outside the region while the model writes does not cancel:
// the edits are rebased over it and carry the new version.
func TestNextEditRebasedOverTypingElsewhere(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte(meanRenamed), 0o644); err != nil {
		t.Fatal(err)
	}
	held := newHeldBackend(modelserver.Oracle{Root: dir}, nil)
	ms := modelserver.New(modelserver.Options{Backend: held})
	e, uri := nextEditSession(t, serveModel(t, ms), "1h")
	got := make(chan inlineEditResult, 1)
	go func() { got <- e.nextEdit("wisp/nextEdit", uri, 2, 4, 4) }()
	held.waitStarted(t)                                         // the model is working
	e.change(uri, 3, 0, 0, 0, 0, "// Package calc computes.\n") // above the region: every line moves down
	if v := e.documentVersion(uri); v != 3 {
		t.Fatalf("server at version %d after typing, want 3", v)
	}
	held.let(t)
	res := <-got
	if len(res.Edits) != 2 || res.Edits[0].TextDocument.Version != 3 ||
		res.Edits[0].Range.Start != (lspPos{7, 2}) || res.Edits[1].Range.Start != (lspPos{9, 8}) {
		t.Fatalf("answered %+v, want the two renames moved down a line, for version 3", res.Edits)
	}
	if ms.Stats().Cancels != 0 {
		t.Fatalf("typing outside the region cancelled the generation")
	}
}

type codeActionResult []struct {
	Title string `json:"title"`
	Edit  *struct {
		Changes map[string][]struct {
			Range struct {
				Start lspPos `json:"start"`
			} `json:"range"`
			NewText string `json:"newText"`
		} `json:"changes"`
	} `json:"edit"`
	Command struct {
		Command string `json:"command"`
	} `json:"command"`
}

func (e *fakeEditor) suggestedAction(uri string) (codeActionResult, bool) {
	e.t.Helper()
	var actions codeActionResult
	e.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	for i, a := range actions {
		if a.Title == "wisp: apply suggested edit" {
			return actions[i : i+1], true
		}
	}
	return nil, false
}

// After a pause in typing the server predicts on its own and offers the
// suggestion as the code action every client has; a later change that
// leaves the suggested edits alone rebases it, one that touches them
// drops it.
func TestNextEditCodeActionAfterPause(t *testing.T) {
	_, model := oracleModel(t, modelserver.Options{}, meanRenamed)
	e, uri := nextEditSession(t, model, "1ms")
	deadline := time.Now().Add(10 * time.Second)
	var action codeActionResult
	for ok := false; !ok; action, ok = e.suggestedAction(uri) {
		if time.Now().After(deadline) {
			t.Fatal("no suggested edit was offered after the pause")
		}
		// No event exists: the server predicts on its own after the
		// pause and tells the client nothing until it asks for code
		// actions (LSP has no code-action refresh), so the test asks
		// again. The sleep spaces the questions; it times nothing.
		time.Sleep(5 * time.Millisecond)
	}
	a := action[0]
	if a.Edit == nil || len(a.Edit.Changes[uri]) != 2 || a.Command.Command != "wisp.nextEdit.accepted" {
		t.Fatalf("action %+v, want the two renames and the accept command", a)
	}
	if st := e.nextStats(); st.NextEdit.Shown != 1 {
		t.Fatalf("stats %+v, want the offered suggestion counted shown", st.NextEdit)
	}

	// Typing on the first use itself: the suggestion no longer applies.
	// (The pause is long now, so no new prediction replaces it.)
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wisp": map[string]any{"nextEdit": map[string]any{"minPause": "1h"}}}})
	e.change(uri, 3, 6, 2, 6, 7, "tot")
	if _, ok := e.suggestedAction(uri); ok {
		t.Fatal("a suggestion the user typed over is still offered")
	}
	if st := e.nextStats(); st.NextEdit.Dismissed != 1 {
		t.Fatalf("stats %+v, want the shown suggestion counted dismissed", st.NextEdit)
	}
}

// Shown, accepted and dismissed reach wisp/stats: the client's
// didShowInlineEdit counts a suggestion shown, applying it counts it
// accepted once, though the accept command follows.
func TestNextEditStats(t *testing.T) {
	ms, model := oracleModel(t, modelserver.Options{}, meanRenamed)
	e, uri := nextEditSession(t, model, "1h")
	res := e.nextEdit("textDocument/copilotInlineEdit", uri, 2, 4, 4)
	if len(res.Edits) != 1 {
		t.Fatalf("no suggestion: %+v", res)
	}
	ed := res.Edits[0]
	e.notify("textDocument/didShowInlineEdit", map[string]any{"item": map[string]any{"command": ed.Command}})
	e.change(uri, 3, ed.Range.Start.Line, ed.Range.Start.Character, ed.Range.End.Line, ed.Range.End.Character, ed.Text)
	e.mustCall("workspace/executeCommand", map[string]any{"command": ed.Command.Command, "arguments": ed.Command.Arguments}, nil)
	var doc struct {
		Text string `json:"text"`
	}
	e.mustCall("wisp/document", map[string]any{"textDocument": map[string]any{"uri": uri}}, &doc)
	if doc.Text != meanRenamed {
		t.Fatalf("after applying the suggestion the document is\n%s\nwant\n%s", doc.Text, meanRenamed)
	}
	// Right after the accepted suggestion the server asks what follows
	// it (here: nothing), without waiting for the hour-long pause.
	waitModel(t, ms, "the prediction after the accept", func(st modelserver.Stats) bool { return st.Requests == 2 })
	deadline := time.Now().Add(10 * time.Second)
	st := e.nextStats().NextEdit
	for st.Silent == 0 && time.Now().Before(deadline) {
		// No event exists between the model's empty answer and the
		// server counting it silent, so the test asks again. The
		// sleep spaces the questions; it times nothing.
		time.Sleep(5 * time.Millisecond)
		st = e.nextStats().NextEdit
	}
	if st.Requests != 2 || st.Suggested != 1 || st.Silent != 1 || st.Shown != 1 || st.Accepted != 1 || st.Dismissed != 0 {
		t.Fatalf("stats %+v, want one suggestion shown and accepted once, then a silent prediction", st)
	}
}

// A next edit in flight never holds up ghost text: an inline completion
// asked while the model is still writing the next edit is answered first.
func TestNextEditNeverDelaysInlineCompletion(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "calc.go"), []byte(meanRenamed), 0o644); err != nil {
		t.Fatal(err)
	}
	// The model keeps writing the next edit until it is cancelled.
	ghost := "int {\n\t"
	held := newHeldBackend(modelserver.Oracle{Root: dir, Fallback: modelserver.ScriptBackend{
		Script: &modelserver.Script{Replies: []modelserver.Reply{{PrefixEndsWith: ghost, Text: "return a + b"}}}}},
		func(q modelserver.Query) bool { return !strings.HasSuffix(q.Prefix, ghost) })
	e, uri := nextEditSession(t, serveModel(t, modelserver.New(modelserver.Options{Backend: held})), "1h")
	next := make(chan inlineEditResult, 1)
	go func() { next <- e.nextEdit("textDocument/copilotInlineEdit", uri, 2, 4, 4) }()
	held.waitStarted(t)
	// A completion that waits for the next edit would wait forever: after
	// ten seconds the model finishes the next edit, so the test fails below
	// instead of hanging.
	watchdog := time.AfterFunc(10*time.Second, func() {
		select {
		case held.release <- struct{}{}:
		default:
		}
	})
	defer watchdog.Stop()
	add := "file:///tmp/proj/add.go"
	e.open(add, "go", addGo)
	got, err := e.inline(context.Background(), add, 3, 1)
	if err != nil || got != "return a + b" {
		t.Fatalf("ghost text %q, %v", got, err)
	}
	select {
	case res := <-next:
		t.Fatalf("the next edit (%d edits) finished before the ghost text: the completion waited for it", len(res.Edits))
	default:
	}
	e.change(uri, 3, 4, 4, 4, 4, "s") // done waiting: stop it
	<-next
}

// For a client that takes versioned edits (VS Code), the code action's edit
// names the version the suggestion is for.
func TestNextEditCodeActionIsVersioned(t *testing.T) {
	_, model := oracleModel(t, modelserver.Options{}, meanRenamed)
	e, uri := nextEditSessionAs(t, model, "1h", "initialize-vscode-1.100.3-code-server-languageclient-11.json")
	if res := e.nextEdit("wisp/nextEdit", uri, 2, 4, 4); len(res.Edits) != 2 {
		t.Fatalf("no suggestion: %+v", res)
	}
	var actions []struct {
		Title string `json:"title"`
		Edit  struct {
			DocumentChanges []struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int32  `json:"version"`
				} `json:"textDocument"`
				Edits []struct {
					NewText string `json:"newText"`
				} `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	e.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	for _, a := range actions {
		if a.Title != "wisp: apply suggested edit" {
			continue
		}
		dc := a.Edit.DocumentChanges
		if len(dc) != 1 || dc[0].TextDocument.URI != uri || dc[0].TextDocument.Version != 2 || len(dc[0].Edits) != 2 || dc[0].Edits[0].NewText != "sum" {
			t.Fatalf("action edit %+v, want the two renames for version 2", a.Edit)
		}
		return
	}
	t.Fatalf("no suggested-edit action among %+v", actions)
}
