package lsp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/completion/gather"
	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Errors from the document store.
var (
	// ErrNotOpen: a request named a document the client never opened.
	ErrNotOpen = errors.New("document is not open")
	// ErrStaleVersion: a didChange carried a version older than the one
	// the store holds.
	ErrStaleVersion = errors.New("version goes backwards")
)

// maxRecent is how many recently edited spans a document remembers.
const maxRecent = 8

// document is one open document. It is owned by the store and changed
// only on the connection's ordered read loop (didOpen, didChange).
type document struct {
	uri        uri.URI
	path       string
	languageID string
	lang       *syntax.Language // nil: plain text
	version    int32
	text       *text.Text
	tree       *syntax.Tree // nil for plain text or when parsing failed
	// recent holds recently edited byte spans of text, newest first.
	recent []syntax.Span
	// touched orders documents by last use (open, change, snapshot).
	touched uint64
	// index caches the definitions and imports of text; nil when stale.
	index *gather.Index
}

// Snapshot is an immutable view of a document at one version. Its Tree is
// the snapshot's own copy (tree-sitter trees are not safe to share), so a
// handler may use it on any one goroutine. Release it when done.
type Snapshot struct {
	URI        uri.URI
	Path       string
	LanguageID string
	Version    int32
	Text       *text.Text
	Tree       *syntax.Tree // nil for plain text
	Recent     []syntax.Span
	// Index is the document's definitions and imports; set on the
	// snapshots all returns, which carry no tree.
	Index *gather.Index
}

// Release frees the snapshot's tree. The snapshot must not be used after.
func (s *Snapshot) Release() {
	if s != nil && s.Tree != nil {
		s.Tree.Close()
		s.Tree = nil
	}
}

// Limits that keep a large workspace cheap: context comes from the most
// recently used documents only, and only those keep a syntax tree (the
// largest thing a document holds); the others are parsed again on use.
const (
	maxContextDocs = 16
	maxTrees       = 8
)

// store holds the open documents.
type store struct {
	mu    sync.Mutex // guards docs, clock and every document's tree
	docs  map[uri.URI]*document
	clock uint64 // last touched value handed out
}

func newStore() *store { return &store{docs: map[uri.URI]*document{}} }

// Parsing never takes a request's context: tree-sitter watches the
// context from a goroutine of its own that can outlive the handler, and
// a request context dies with its handler. A parse is fast and bounded.

// open adds or replaces a document and parses it.
func (s *store) open(u uri.URI, languageID string, version int32, content string) *document {
	d := &document{uri: u, path: pathOf(u), languageID: languageID, version: version, text: text.New(content)}
	d.lang = syntax.Detect(languageID, d.path)
	s.mu.Lock()
	old := s.docs[u]
	s.docs[u] = d
	s.touchLocked(d)
	s.mu.Unlock()
	if old != nil && old.tree != nil {
		old.tree.Close()
	}
	return d
}

// change applies content changes, counted in enc, to the document at u.
// It is all or nothing: on error the document keeps its old text and
// version. It returns the text before and after and the byte edits made.
func (s *store) change(u uri.URI, version int32, changes []text.Change, enc text.Encoding) (before, after *text.Text, edits []text.Edit, err error) {
	s.mu.Lock()
	d := s.docs[u]
	s.mu.Unlock()
	if d == nil {
		return nil, nil, nil, fmt.Errorf("%w: %s", ErrNotOpen, u)
	}
	if version < d.version {
		return nil, nil, nil, fmt.Errorf("%w: %s at version %d, change is for %d", ErrStaleVersion, u, d.version, version)
	}
	next, edits, err := d.text.Apply(changes, enc)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s version %d: %w", u, version, err)
	}
	// The document's tree is used under mu only: tree-sitter trees are not
	// safe to share, even for reading, and snapshots copy it under mu.
	s.mu.Lock()
	defer s.mu.Unlock()
	var tree *syntax.Tree
	if d.tree != nil {
		if tree, err = d.tree.Reparse(context.Background(), next, edits); err != nil {
			tree = nil // fall back to a fresh parse below
		}
	}
	if tree == nil && d.lang != nil {
		tree, _ = syntax.Parse(context.Background(), d.lang, next)
	}
	before = d.text
	if d.tree != nil {
		d.tree.Close()
	}
	d.text, d.tree, d.version, d.index = next, tree, version, nil
	d.recent = noteRecent(d.recent, edits)
	s.touchLocked(d)
	return before, next, edits, nil
}

// noteRecent records edited spans (in the final text's offsets), newest
// first, shifting older spans past later edits.
func noteRecent(recent []syntax.Span, edits []text.Edit) []syntax.Span {
	for _, e := range edits {
		delta := e.NewEnd - e.OldEnd
		kept := recent[:0:0]
		for _, r := range recent {
			switch {
			case r.End <= e.Start:
			case r.Start >= e.OldEnd:
				r.Start += delta
				r.End += delta
			default:
				continue // overwritten by this edit; the new span covers it
			}
			kept = append(kept, r)
		}
		recent = append([]syntax.Span{{Start: e.Start, End: e.NewEnd}}, kept...)
		if len(recent) > maxRecent {
			recent = recent[:maxRecent]
		}
	}
	return recent
}

// close forgets the document at u.
func (s *store) close(u uri.URI) {
	s.mu.Lock()
	d := s.docs[u]
	delete(s.docs, u)
	s.mu.Unlock()
	if d != nil && d.tree != nil {
		d.tree.Close()
	}
}

// snapshot returns an immutable view of the document at u.
func (s *store) snapshot(u uri.URI) (*Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotOpen, u)
	}
	s.touchLocked(d)
	d.parseLocked()
	return d.snapshotLocked(), nil
}

// version returns the version the store holds for u; ok is false when u
// is not open. Unlike snapshot it copies nothing.
func (s *store) version(u uri.URI) (v int32, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[u]; d != nil {
		return d.version, true
	}
	return 0, false
}

// touchLocked marks d as the most recently used document and drops the
// trees of documents that fell out of the most recent maxTrees.
func (s *store) touchLocked(d *document) {
	s.clock++
	d.touched = s.clock
	if len(s.docs) <= maxTrees {
		return
	}
	for _, old := range s.docs {
		if old.tree != nil && old.touched+maxTrees <= s.clock && old != d {
			if old.index == nil {
				old.index = gather.NewIndex(old.tree)
			}
			old.tree.Close()
			old.tree = nil
		}
	}
}

// parseLocked gives d a tree if its language has a grammar.
func (d *document) parseLocked() {
	if d.tree == nil && d.lang != nil {
		d.tree, _ = syntax.Parse(context.Background(), d.lang, d.text)
	}
}

func (d *document) snapshotLocked() *Snapshot {
	snap := &Snapshot{URI: d.uri, Path: d.path, LanguageID: d.languageID, Version: d.version, Text: d.text,
		Recent: append([]syntax.Span(nil), d.recent...)}
	if d.tree != nil {
		snap.Tree = d.tree.Copy()
	}
	return snap
}

// context returns, for completion context, snapshots of the most recently
// used documents other than skip, newest first: without trees, with their
// definitions and imports indexed. Release each.
func (s *store) context(skip uri.URI) []*Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	docs := make([]*document, 0, len(s.docs))
	for u, d := range s.docs {
		if u != skip {
			docs = append(docs, d)
		}
	}
	slices.SortFunc(docs, func(a, b *document) int { return cmp.Compare(b.touched, a.touched) })
	docs = docs[:min(len(docs), maxContextDocs)]
	out := make([]*Snapshot, 0, len(docs))
	for _, d := range docs {
		if d.index == nil {
			fresh := d.tree == nil
			d.parseLocked()
			d.index = gather.NewIndex(d.tree)
			if fresh && d.tree != nil {
				d.tree.Close() // parsed only to index: keep memory for recent trees
				d.tree = nil
			}
		}
		out = append(out, &Snapshot{URI: d.uri, Path: d.path, LanguageID: d.languageID, Version: d.version, Text: d.text,
			Recent: append([]syntax.Span(nil), d.recent...), Index: d.index})
	}
	return out
}

// all returns snapshots of every open document except skip, with trees
// only where they are already parsed. Release each.
func (s *store) all(skip uri.URI) []*Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Snapshot, 0, len(s.docs))
	for u, d := range s.docs {
		if u != skip {
			out = append(out, d.snapshotLocked())
		}
	}
	return out
}

// closeAll forgets every document.
func (s *store) closeAll() {
	s.mu.Lock()
	docs := s.docs
	s.docs = map[uri.URI]*document{}
	s.mu.Unlock()
	for _, d := range docs {
		if d.tree != nil {
			d.tree.Close()
		}
	}
}

// pathOf returns the file path of a file: URI, or the URI itself.
func pathOf(u uri.URI) string {
	if u.IsFile() {
		return u.FsPath()
	}
	return string(u)
}
