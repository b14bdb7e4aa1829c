package lsp

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Errors from the document store.
var (
	// ErrNotOpen: a request named a document the client never opened.
	ErrNotOpen = errors.New("document is not open")
	// ErrStaleVersion: a didChange carried a version older than the one
	// the store holds. The document is then out of sync.
	ErrStaleVersion = errors.New("version goes backwards")
	// ErrOutOfSync: a didChange for a document out of sync carried no full
	// text, so it was not applied.
	ErrOutOfSync = errors.New("document is out of sync")
)

// maxPending bounds the edits a document's tree may lag behind its text;
// past it the tree is dropped and the next parse starts from scratch.
const maxPending = 1024

// document is one open document. Its text changes only on the
// connection's ordered read loop (didOpen, didChange), under the store's
// mu; its tree and index are brought up to date lazily, by whoever needs
// them, outside the store's mu (see trees.go).
type document struct {
	// uri, path, languageID and lang are immutable.
	uri        uri.URI
	path       string
	languageID string
	lang       *syntax.Language // nil: plain text

	// The fields below are guarded by the store's mu.

	version int32
	text    *text.Text
	// desync says why the document is out of sync with the client ("" when
	// in sync): no suggestions or edits are made for it until the client
	// sends its full text.
	desync string
	// tree was parsed from treeText. It is nil for plain text, for a text
	// past the parse limits, and for documents not among the maxTrees most
	// recently used. The store only copies, replaces and closes it under
	// mu; parsing happens on a copy.
	tree     *syntax.Tree
	treeText *text.Text
	// pending are the edits that turn pendingFrom into text, in order;
	// when pendingFrom is treeText the tree can be reparsed incrementally.
	// pendingFrom is nil when no edits are tracked (the next parse starts
	// from scratch).
	pending     []text.Edit
	pendingFrom *text.Text
	// parsing is non-nil while one goroutine parses the document; it is
	// closed when that parse is done. Others wait for it rather than parse
	// the same text again.
	parsing chan struct{}
	// refused is the last text the parser refused (too large); it is not
	// tried again.
	refused *text.Text
	// touched orders documents by last use (open, change, snapshot).
	touched uint64
	// index caches the definitions and imports of indexText; nil when
	// none was built yet.
	index     *syntax.Index
	indexText *text.Text
	// indexing is true while a request builds the index; others then use
	// the index they find (of an older text) rather than wait.
	indexing bool
	// moved is closed when the text stops being the one snapshots of this
	// version see (a change, a loss of sync, a close or a reopen), then
	// replaced by a fresh channel; never nil.
	moved chan struct{}
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
	// Index is the document's definitions and imports, read from Text;
	// set on the snapshots context returns, which carry no tree.
	Index *syntax.Index
	// OutOfSync: the server's text may differ from the client's; make no
	// suggestion or edit for it.
	OutOfSync bool
	// Moved is closed once the document is no longer at this snapshot's
	// version (changed, out of sync, closed or reopened).
	Moved <-chan struct{}
}

// Release frees the snapshot's tree. The snapshot must not be used after.
func (s *Snapshot) Release() {
	if s != nil && s.Tree != nil {
		s.Tree.Close()
		s.Tree = nil
	}
}

// store holds the open documents.
type store struct {
	mu    sync.Mutex // guards docs, clock and the guarded fields of every document
	docs  map[uri.URI]*document
	clock uint64 // last touched value handed out
	// parseHook, if set, is called before each parse, outside the lock;
	// tests use it to hold a parse. Set before the store is used.
	parseHook func(u uri.URI)
	// ready parses and indexes opened documents in the background.
	ready preparer
}

func newStore() *store {
	s := &store{docs: map[uri.URI]*document{}}
	s.ready.prepare = func(d *document) {
		if snap := s.indexed(d); snap != nil {
			snap.Release()
		}
	}
	return s
}

// open adds or replaces a document and has it parsed and indexed in the
// background (see preparer); a request that comes first parses it
// itself, outside the store's lock.
//
// u and languageID are copied: strings decoded from a message may share
// its memory (go.lsp.dev/protocol's decoders alias unescaped strings into
// one copy of the whole message), and a document's URI, kept for as long
// as the document is open, would otherwise keep all of its didOpen
// message, the full text as JSON, alive beside the text itself.
func (s *store) open(u uri.URI, languageID string, version int32, content string) *document {
	u, languageID = uri.URI(strings.Clone(string(u))), strings.Clone(languageID)
	d := &document{uri: u, path: pathOf(u), languageID: languageID, version: version, text: text.New(content),
		moved: make(chan struct{})}
	d.lang = syntax.Detect(languageID, d.path)
	s.mu.Lock()
	old := s.docs[u]
	s.docs[u] = d
	s.touchLocked(d)
	var drop *syntax.Tree
	if old != nil {
		drop, old.tree = old.tree, nil
		old.moveLocked()
	}
	s.mu.Unlock()
	freeTrees(drop)
	if d.lang != nil {
		s.ready.add(d)
	}
	return d
}

// changed is what an applied didChange did.
type changed struct {
	before, after *text.Text
	edits         []text.Edit
	// resynced: the change carried the full text of a document that was
	// out of sync, which is now in sync again.
	resynced bool
}

// change applies content changes, counted in enc, to the document at u.
// It is all or nothing: on error the document keeps its old text and
// version. A change with an older version than the document's, or one
// that cannot be applied, puts the document out of sync and returns the
// error that did; changes to a document out of sync are ignored
// (ErrOutOfSync) until one carries the full text, which is applied
// whatever its version. Only the ordered read loop calls change.
func (s *store) change(u uri.URI, version int32, changes []text.Change, enc text.Encoding) (changed, error) {
	s.mu.Lock()
	d := s.docs[u]
	var cur *text.Text
	var desync string
	var curVersion int32
	if d != nil {
		cur, desync, curVersion = d.text, d.desync, d.version
	}
	s.mu.Unlock()
	if d == nil {
		return changed{}, fmt.Errorf("%w: %s", ErrNotOpen, u)
	}
	full := -1 // the last change that replaces the whole text
	for i, c := range changes {
		if c.Range == nil {
			full = i
		}
	}
	var err error
	switch {
	case full >= 0:
		changes = changes[full:] // what came before is replaced anyway
	case desync != "":
		return changed{}, fmt.Errorf("%w: %s (%s); change to version %d ignored", ErrOutOfSync, u, desync, version)
	case version < curVersion:
		err = fmt.Errorf("%w: %s at version %d, change is for %d", ErrStaleVersion, u, curVersion, version)
	}
	var next *text.Text
	var edits []text.Edit
	if err == nil {
		// Apply copies the text; the read loop is the only writer of
		// d.text, so it may read it without the lock.
		if next, edits, err = cur.Apply(changes, enc); err != nil {
			err = fmt.Errorf("%s version %d: %w", u, version, err)
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs[u] != d {
		return changed{}, fmt.Errorf("%w: %s", ErrNotOpen, u)
	}
	if err != nil {
		d.desync = err.Error()
		d.moveLocked()
		return changed{}, err
	}
	d.text, d.version, d.desync = next, version, ""
	d.moveLocked()
	if d.pendingFrom != nil {
		d.pending = append(d.pending, edits...)
		if len(d.pending) > maxPending {
			d.pending, d.pendingFrom = nil, nil
		}
	}
	s.touchLocked(d)
	return changed{before: cur, after: next, edits: edits, resynced: desync != ""}, nil
}

// returnAfterClose is the size of a document whose close hands the Go
// heap's free memory back to the system at once (debug.FreeOSMemory, a
// garbage collection of a few milliseconds): otherwise a closed document
// of tens of megabytes would keep counting in the process's RSS until the
// runtime gets round to it, minutes later.
const returnAfterClose = syntax.MaxParseBytes

// close forgets the document at u and frees its tree and, for a large
// document, its text.
func (s *store) close(u uri.URI) {
	s.mu.Lock()
	d := s.docs[u]
	delete(s.docs, u)
	var drop *syntax.Tree
	large := false
	if d != nil {
		drop = d.dropTreeLocked()
		d.index, d.indexText = nil, nil
		d.moveLocked()
		large = d.text.Len() > returnAfterClose
	}
	s.mu.Unlock()
	freeTrees(drop)
	if large {
		debug.FreeOSMemory()
	}
}

// snapshot returns an immutable view of the document at u, with a tree
// for its text when it has a grammar and is within the parse limits. A
// parse it needs runs outside the store's lock.
func (s *store) snapshot(u uri.URI) (*Snapshot, error) {
	s.mu.Lock()
	d := s.docs[u]
	if d != nil {
		s.touchLocked(d)
	}
	s.mu.Unlock()
	if d == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotOpen, u)
	}
	s.parse(d)
	s.mu.Lock()
	defer s.mu.Unlock()
	return d.snapshotLocked(true), nil
}

// version returns the version the store holds for u; ok is false when u
// is not open or out of sync. Unlike snapshot it copies nothing.
func (s *store) version(u uri.URI) (v int32, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[u]; d != nil && d.desync == "" {
		return d.version, true
	}
	return 0, false
}

// moveLocked tells the snapshots taken so far that d has moved on; the
// store's mu must be held.
func (d *document) moveLocked() {
	close(d.moved)
	d.moved = make(chan struct{})
}

// snapshotLocked returns a view of d, with a copy of its tree if withTree
// and the tree is up to date.
func (d *document) snapshotLocked(withTree bool) *Snapshot {
	snap := &Snapshot{URI: d.uri, Path: d.path, LanguageID: d.languageID, Version: d.version, Text: d.text,
		OutOfSync: d.desync != "", Moved: d.moved}
	if withTree && d.currentTreeLocked() {
		snap.Tree = d.tree.Copy()
	}
	return snap
}

// all returns snapshots of every open document except skip, with trees
// only where they are already parsed. Release each.
func (s *store) all(skip uri.URI) []*Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Snapshot, 0, len(s.docs))
	for u, d := range s.docs {
		if u != skip {
			out = append(out, d.snapshotLocked(true))
		}
	}
	return out
}

// closeAll forgets every document, once no background parse is under way.
func (s *store) closeAll() {
	s.ready.close()
	s.mu.Lock()
	docs := s.docs
	s.docs = map[uri.URI]*document{}
	var drop []*syntax.Tree
	for _, d := range docs {
		if t := d.dropTreeLocked(); t != nil {
			drop = append(drop, t)
		}
	}
	s.mu.Unlock()
	freeTrees(drop...)
}

// pathOf returns the file path of a file: URI, or the URI itself.
func pathOf(u uri.URI) string {
	if u.IsFile() {
		return u.FsPath()
	}
	return string(u)
}
