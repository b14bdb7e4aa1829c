package lsp

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// A document changed while another goroutine parses it (for context, held
// here) still ends up with the tree of its latest text: the edits made
// during the parse are tracked, and the next parse applies them to the
// parsed tree. The change keeps the text's length, so a reparse that
// missed it would reuse the old tree unchanged.
func TestChangesDuringAParseAreNotLost(t *testing.T) {
	s := newStore()
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	s.parseHook = func(uri.URI) {
		once.Do(func() {
			close(started)
			<-release
		})
	}
	u := uri.URI("file:///tmp/t.go")
	const before = "package t\n\nvar a = 123\n"
	const after = "package t\n\nfunc a() {}\n" // same length, other structure
	s.open(u, "go", 1, before)

	done := make(chan []*Snapshot)
	go func() { done <- s.context("file:///tmp/other.go") }()
	<-started
	start, end := len("package t\n\n"), len("package t\n\nvar a = 123")
	r := text.Range{Start: text.Position{Line: 2, Character: 0}, End: text.Position{Line: 2, Character: end - start}}
	if _, err := s.change(u, 2, []text.Change{{Range: &r, Text: "func a() {}"}}, text.UTF8); err != nil {
		t.Fatal(err)
	}
	close(release)
	for _, snap := range <-done {
		snap.Release()
	}

	snap, err := s.snapshot(u)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	if snap.Text.String() != after || snap.Tree == nil {
		t.Fatalf("snapshot %q, tree %v", snap.Text.String(), snap.Tree)
	}
	fresh, err := syntax.Parse(context.Background(), syntax.Detect("go", ""), text.New(after))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if snap.Tree.String() != fresh.String() {
		t.Fatalf("tree after a change during the parse:\n got %s\nwant %s", snap.Tree, fresh)
	}
	s.closeAll()
}

// An opened document is parsed and indexed in the background: the first
// request in it finds its tree and index made, and parses nothing.
func TestOpenedDocumentIsParsedBeforeItsFirstRequest(t *testing.T) {
	s := newStore()
	var parses atomic.Int32
	s.parseHook = func(uri.URI) { parses.Add(1) }
	u := uri.URI("file:///tmp/t.go")
	s.open(u, "go", 1, "package t\n\nfunc a() {}\n")
	s.ready.wg.Wait()
	if n := parses.Load(); n != 1 {
		t.Fatalf("%d parses once opened, want 1", n)
	}
	s.mu.Lock()
	idx := s.docs[u].index
	s.mu.Unlock()
	if idx == nil || len(idx.Defs) != 1 {
		t.Fatalf("index once opened: %+v, want func a", idx)
	}
	snap, err := s.snapshot(u)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Release()
	if snap.Tree == nil || parses.Load() != 1 {
		t.Fatalf("first request: tree %v after %d parses, want the tree made at open", snap.Tree, parses.Load())
	}
	s.closeAll()
}
