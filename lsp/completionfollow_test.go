package lsp_test

import (
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// completionList is a textDocument/completion answer, as a test reads it.
type completionList struct {
	IsIncomplete bool `json:"isIncomplete"`
	Items        []struct {
		FilterText string `json:"filterText"`
		TextEdit   struct {
			NewText string         `json:"newText"`
			Range   protocol.Range `json:"range"`
		} `json:"textEdit"`
	} `json:"items"`
}

// startCompletion sends textDocument/completion at line:char and returns
// a channel that receives its answer, so the test can type meanwhile, as
// Helix lets the user do.
func (e *fakeEditor) startCompletion(uri string, line, char int) <-chan completionList {
	e.t.Helper()
	out := make(chan completionList, 1)
	params := map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": line, "character": char}, "context": map[string]any{"triggerKind": 1}}
	go func() {
		var l completionList
		if err := e.call("textDocument/completion", params, &l); err != nil {
			e.t.Errorf("completion at %d:%d: %v", line, char, err)
		}
		out <- l
	}()
	return out
}

// typeHelloWhileAsked plays Helix on e: it asks for a completion after
// "he", types "llo" while held keeps the model's answer for "he", lets
// that answer go and returns the request's answer.
func typeHelloWhileAsked(t *testing.T, e *fakeEditor, held *heldBackend) completionList {
	t.Helper()
	e.initialize("initialize-helix-FROM-SOURCE.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", strings.Replace(addGo, "\t\n", "\the\n", 1))
	answer := e.startCompletion(uri, 3, 3)
	held.waitStarted(t) // the model works on "he"
	for i, ch := range []string{"l", "l", "o"} {
		e.change(uri, 2+i, 3, 3+i, 3, 3+i, ch)
	}
	if v := e.documentVersion(uri); v != 4 {
		t.Fatalf("document version %d, want 4", v)
	}
	held.let(t)
	select {
	case got := <-answer:
		return got
	case <-time.After(10 * time.Second):
		t.Fatal("the completion request never answered")
		return completionList{}
	}
}

// Helix sends no completion request while one is in flight: it filters
// that request's answer by the keys typed meanwhile. So the answer must be
// for the text as it is when the model answers: keys typed at the cursor
// while the model works go into the item, whose textEdit still replaces
// the word as it was when Helix asked (Helix restores that text before
// applying the item).
func TestCompletionFollowsTypingWhileInFlight(t *testing.T) {
	held := heldScript(modelserver.Reply{PrefixEndsWith: "\the", Text: "llo_world()"})
	ms := modelserver.New(modelserver.Options{Backend: held})
	cfg := countingConfig()
	cfg.Completion.ItemBudget = time.Minute // only the model's answer ends the wait
	// Between two steps of the follow the generation has no request
	// waiting on it; it must be kept, not stopped when the grace runs out
	// (on a starved CPU, under the race detector in CI, a step outlasted
	// the 250 ms grace, the generation was stopped and the answer was
	// empty). A nanosecond grace makes every step outlast it.
	cfg.Completion.Grace = time.Nanosecond
	got := typeHelloWhileAsked(t, startServer(t, serveModel(t, ms), cfg), held)
	if len(got.Items) != 1 {
		t.Fatalf("typed while the model worked: %+v; want the item for \"hello\"", got)
	}
	it := got.Items[0]
	if it.TextEdit.NewText != "hello_world()" || !strings.HasPrefix(it.FilterText, "hello") {
		t.Fatalf("item %+v: want newText and filterText hello_world()", it)
	}
	if r := it.TextEdit.Range; r.Start.Line != 3 || r.Start.Character != 1 || r.End.Character != 3 {
		t.Fatalf("textEdit range %+v: want the word as Helix asked for it (3:1-3:3)", r)
	}
	if n := ms.Stats().Requests; n != 1 {
		t.Fatalf("model requests = %d, want the one generation, followed by typing", n)
	}
}

// Anything but typing at the cursor (here, a deleted letter) ends the
// request with an empty list: its item would replace text that is gone.
func TestCompletionStopsFollowingOtherEdits(t *testing.T) {
	held := heldScript(modelserver.Reply{PrefixEndsWith: "\the", Text: "llo_world()"})
	ms := modelserver.New(modelserver.Options{Backend: held})
	cfg := countingConfig()
	cfg.Completion.ItemBudget = time.Minute
	cfg.Completion.Grace = time.Nanosecond // as above
	e := startServer(t, serveModel(t, ms), cfg)
	e.initialize("initialize-helix-FROM-SOURCE.json", nil)
	uri := "file:///tmp/add.go"
	e.open(uri, "go", strings.Replace(addGo, "\t\n", "\the\n", 1))

	answer := e.startCompletion(uri, 3, 3)
	held.waitStarted(t)
	// A key at the cursor is followed; then the word is deleted.
	e.change(uri, 2, 3, 3, 3, 3, "l")
	if v := e.documentVersion(uri); v != 2 {
		t.Fatalf("document version %d, want 2", v)
	}
	e.change(uri, 3, 3, 1, 3, 4, "")
	select {
	case got := <-answer:
		if len(got.Items) != 0 || got.IsIncomplete {
			t.Fatalf("after a deletion: %+v; want an empty complete list", got)
		}
		if n := ms.Stats().Requests; n != 1 {
			t.Fatalf("model requests = %d: the request asked again for the changed text", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the completion request never answered")
	}
}

// When the model's answer for the text Helix asked about does not agree
// with the keys typed meanwhile (here it has nothing to say for "he"), the
// follow asks again for the text as it is, within the same request: an
// empty list would leave the finished word without a suggestion until the
// user types another key.
func TestCompletionFollowAsksAgainWhenTheAnswerDisagrees(t *testing.T) {
	held := newHeldBackend(modelserver.ScriptBackend{Script: &modelserver.Script{Replies: []modelserver.Reply{
		{PrefixEndsWith: "\thello", Text: "_world()"},
		{PrefixEndsWith: "\the", Text: ""},
	}}}, func(q modelserver.Query) bool { return strings.HasSuffix(q.Prefix, "\the") })
	ms := modelserver.New(modelserver.Options{Backend: held})
	cfg := countingConfig()
	cfg.Completion.ItemBudget = time.Minute // only the model's answers end the wait
	// The model has nothing for "he".
	got := typeHelloWhileAsked(t, startServer(t, serveModel(t, ms), cfg), held)
	if len(got.Items) != 1 || got.Items[0].TextEdit.NewText != "hello_world()" {
		t.Fatalf("typed past the model's answer: %+v; want the item for \"hello\", asked anew", got)
	}
}
