package lsp_test

import (
	"context"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// Tests wait on events, never on the clock: what the model server has
// counted (waitModel), a generation the test holds open (heldBackend),
// or a notification the server sent (fakeEditor.waitFor).

// waitModel waits until cond accepts the model server's counters, failing
// the test if they do not get there within ten seconds (a bound on a hang,
// not a timing assertion).
func waitModel(t *testing.T, ms *modelserver.Server, what string, cond func(modelserver.Stats) bool) modelserver.Stats {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := ms.WaitStats(ctx, cond)
	if err != nil {
		t.Fatalf("timed out waiting for %s: model server stats %+v", what, st)
	}
	return st
}

// heldBackend answers through next, except that the generations hold
// accepts send no token until the test releases them (one per release)
// or they are cancelled. Each held generation is announced on started,
// so "the model is working" is a state the test holds, not a duration it
// hopes outlasts a keystroke.
type heldBackend struct {
	next    modelserver.Backend
	hold    func(modelserver.Query) bool // nil holds every generation
	started chan modelserver.Query       // buffered; one per held generation, sent before it waits
	release chan struct{}                // unbuffered; each send lets one held generation go
}

func newHeldBackend(next modelserver.Backend, hold func(modelserver.Query) bool) *heldBackend {
	return &heldBackend{next: next, hold: hold, started: make(chan modelserver.Query, 16), release: make(chan struct{})}
}

// heldScript is a heldBackend holding every generation of a script.
func heldScript(replies ...modelserver.Reply) *heldBackend {
	return newHeldBackend(modelserver.ScriptBackend{Script: &modelserver.Script{Replies: replies}}, nil)
}

// Generate implements modelserver.Backend.
func (h *heldBackend) Generate(ctx context.Context, q modelserver.Query, yield func(string) bool) error {
	if h.hold == nil || h.hold(q) {
		select {
		case h.started <- q:
		case <-ctx.Done():
			return nil
		}
		select {
		case <-h.release:
		case <-ctx.Done():
			return nil
		}
	}
	return h.next.Generate(ctx, q, yield)
}

// waitStarted waits until a held generation has reached the model.
func (h *heldBackend) waitStarted(t *testing.T) modelserver.Query {
	t.Helper()
	select {
	case q := <-h.started:
		return q
	case <-time.After(10 * time.Second):
		t.Fatal("no generation reached the model")
		return modelserver.Query{}
	}
}

// let releases one held generation.
func (h *heldBackend) let(t *testing.T) {
	t.Helper()
	select {
	case h.release <- struct{}{}:
	case <-time.After(10 * time.Second):
		t.Fatal("no held generation to release")
	}
}

// documentVersion asks wisp/document for the server's version of uri.
// Messages are handled in order, so once it answers, every change sent
// before it has been applied.
func (e *fakeEditor) documentVersion(uri string) int32 {
	e.t.Helper()
	var doc struct {
		Version int32 `json:"version"`
	}
	e.mustCall("wisp/document", map[string]any{"textDocument": map[string]any{"uri": uri}}, &doc)
	return doc.Version
}
