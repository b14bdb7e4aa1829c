package nextedit_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wisp-lsp/wisp/edits"
	"github.com/wisp-lsp/wisp/nextedit"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

const far = `package p

type Store struct {
	items map[string]int
}

func (s *Store) Get(k string) int {
	return s.items[k]
}

func (s *Store) Put(k string, v int) {
	s.items[k] = v
}

func total(s *Store) int {
	return s.Get("a") + s.Get("b")
}
`

func parse(t *testing.T, src string) (*text.Text, *syntax.Tree) {
	t.Helper()
	doc := text.New(src)
	tree, err := syntax.Parse(context.Background(), syntax.Detect("go", "p.go"), doc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return doc, tree
}

// A renamed field whose uses are out of the region's reach points to the
// nearest remaining use; while the region still holds one, it stays.
func TestTargetFollowsARename(t *testing.T) {
	src := strings.Replace(far, "\titems map", "\tentries map", 1)
	doc, tree := parse(t, src)
	h := nextedit.NewHistory()
	h.Record(text.New(far), doc, []text.Edit{{}})
	at, _ := h.Last()
	region := nextedit.Region(doc, tree, at, 1)
	got := nextedit.Target(doc, tree, h.Hunks(), at, region)
	if want := strings.Index(src, "items[k]"); got != want {
		t.Fatalf("target %d (%q), want the first use at %d", got, src[got:min(got+10, len(src))], want)
	}
	wide := edits.Region{Start: 0, End: strings.Index(src, "func (s *Store) Put")}
	if got := nextedit.Target(doc, tree, h.Hunks(), at, wide); got != at {
		t.Fatalf("target %d, want the edit's place %d while the region holds the uses", got, at)
	}
}

// A parameter added to a definition points to its nearest call, and an
// edit that changed part of a word is the change of the whole word.
func TestTargetFollowsADefinition(t *testing.T) {
	src := strings.Replace(far, "Get(k string) int", "Get(k string, def int) int", 1)
	doc, tree := parse(t, src)
	h := nextedit.NewHistory()
	h.Record(text.New(far), doc, []text.Edit{{}})
	at, _ := h.Last()
	got := nextedit.Target(doc, tree, h.Hunks(), at, nextedit.Region(doc, tree, at, 1))
	if want := strings.Index(src, `Get("a")`); got != want {
		t.Fatalf("target %d (%q), want the first call at %d", got, src[got:min(got+10, len(src))], want)
	}
}

// Edits that replace nothing (an insertion after a word) point nowhere
// else.
func TestTargetStaysForInsertions(t *testing.T) {
	src := strings.Replace(far, "return s.items[k]\n", "return s.items[k] // read\n", 1)
	doc, tree := parse(t, src)
	h := nextedit.NewHistory()
	h.Record(text.New(far), doc, []text.Edit{{}})
	at, _ := h.Last()
	if got := nextedit.Target(doc, tree, h.Hunks(), at, nextedit.Region(doc, tree, at, 0)); got != at {
		t.Fatalf("target %d, want %d", got, at)
	}
}
