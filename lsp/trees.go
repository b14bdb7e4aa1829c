package lsp

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"go.lsp.dev/uri"

	"github.com/wisp-lsp/wisp/syntax"
	"github.com/wisp-lsp/wisp/text"
)

// Trees and indexes are built outside the store's lock: a parse or an
// index of a large document takes tens of milliseconds, and the ordered
// read loop takes the lock for every didChange. Under the lock the store
// only copies a tree (constant time: trees share their nodes), installs
// one, or detaches one to close after unlocking.
//
// Parsing never takes a request's context: tree-sitter watches the
// context from a goroutine of its own that can outlive the handler, and
// a request context dies with its handler. A parse is bounded by the
// parse limits (syntax.MaxParseBytes, syntax.MaxLineBytes).

// Limits that keep a large workspace cheap: context comes from the most
// recently used documents only, and only those keep a syntax tree (the
// largest thing a document holds); the others are parsed again on use.
const (
	maxContextDocs = 16
	maxTrees       = 8
)

// currentTreeLocked reports whether d's tree is parsed from d's text.
func (d *document) currentTreeLocked() bool {
	return d.tree != nil && d.treeText == d.text
}

// dropTreeLocked detaches d's tree and returns it for the caller to close
// after unlocking; nil when d had none.
func (d *document) dropTreeLocked() *syntax.Tree {
	t := d.tree
	d.tree, d.treeText, d.pending, d.pendingFrom = nil, nil, nil, nil
	return t
}

// parse brings d's tree up to date with d's text, reusing the old tree
// when the edits since its text are known. It parses outside s.mu; while
// it does, other callers for d wait for it instead of parsing the same
// text. It does nothing for a document without a grammar, past the parse
// limits, or closed. Called on the read loop, which alone changes text,
// it leaves d's tree current.
func (s *store) parse(d *document) {
	for {
		s.mu.Lock()
		if d.lang == nil || d.currentTreeLocked() || d.refused == d.text || s.docs[d.uri] != d {
			s.mu.Unlock()
			return
		}
		if wait := d.parsing; wait != nil {
			s.mu.Unlock()
			<-wait
			continue
		}
		done := make(chan struct{})
		d.parsing = done
		job := parseJob{src: d.text}
		if d.tree != nil && d.pendingFrom == d.treeText {
			job.from, job.n = d.treeText, len(d.pending)
			job.base, job.edits = d.tree.Copy(), d.pending[:job.n:job.n]
		} else {
			// From scratch: track the edits made from now on.
			d.pending, d.pendingFrom = nil, job.src
			job.from = job.src
		}
		s.mu.Unlock()

		tree, err := s.parseOutside(d, job, done)
		s.install(d, job, tree, err)
		return
	}
}

// parseJob is one parse of a document: src, parsed from scratch or from
// base, the tree of from, by the first n edits tracked from from.
type parseJob struct {
	src, from *text.Text
	base      *syntax.Tree // nil: from scratch; the job's own copy
	edits     []text.Edit
	n         int
}

// parseOutside runs job, and ends d's parsing mark however the parse
// ends.
func (s *store) parseOutside(d *document, job parseJob, done chan struct{}) (tree *syntax.Tree, err error) {
	defer func() {
		if job.base != nil {
			job.base.Close()
		}
		if tree == nil && err == nil {
			// The parse panicked: give up on this text rather than retry.
			err = errors.New("parse failed")
		}
		s.mu.Lock()
		d.parsing = nil
		close(done)
		if tree == nil {
			d.refused = job.src
		}
		s.mu.Unlock()
	}()
	if s.parseHook != nil {
		s.parseHook(d.uri)
	}
	if job.base != nil {
		tree, err = job.base.Reparse(context.Background(), job.src, job.edits)
	} else {
		tree, err = syntax.Parse(context.Background(), d.lang, job.src)
	}
	return tree, err
}

// install makes tree, parsed by job, d's tree, unless d was closed
// meanwhile. Trees past the maxTrees most recently used documents are
// then closed.
func (s *store) install(d *document, job parseJob, tree *syntax.Tree, err error) {
	if err != nil {
		s.dropTree(d) // refused: src is now d.refused and is not tried again
		return
	}
	s.mu.Lock()
	var replaced *syntax.Tree
	var trimmed []*syntax.Tree
	if s.docs[d.uri] != d {
		replaced = tree
	} else {
		replaced = d.tree
		d.tree, d.treeText = tree, job.src
		if d.pendingFrom == job.from && job.n <= len(d.pending) {
			// The edits after the first n lead from src to text.
			d.pending, d.pendingFrom = append([]text.Edit(nil), d.pending[job.n:]...), job.src
		} else {
			d.pending, d.pendingFrom = nil, nil // lost track: next parse from scratch
		}
		trimmed = s.trimLocked(d)
	}
	s.mu.Unlock()
	if replaced != nil {
		replaced.Close() // its memory serves the next parse
	}
	freeTrees(trimmed...)
}

// dropTree closes d's tree.
func (s *store) dropTree(d *document) {
	s.mu.Lock()
	t := d.dropTreeLocked()
	s.mu.Unlock()
	freeTrees(t)
}

// freeTrees closes trees that left the store (nil ones are skipped) and,
// if there were any, returns the C heap's free memory to the system: the
// C allocator would otherwise keep it, and the process would stay as
// large as its largest moment. Call it without the store's lock.
func freeTrees(trees ...*syntax.Tree) {
	closed := false
	for _, t := range trees {
		if t != nil {
			t.Close()
			closed = true
		}
	}
	if closed {
		syntax.ReleaseMemory()
	}
}

// touchLocked marks d as the most recently used document.
func (s *store) touchLocked(d *document) {
	s.clock++
	d.touched = s.clock
}

// trimLocked detaches the trees of documents that are not among the
// maxTrees most recently used, keeping keep's, and returns them for the
// caller to close after unlocking.
func (s *store) trimLocked(keep *document) []*syntax.Tree {
	var parsed []*document
	for _, d := range s.docs {
		if d.tree != nil && d != keep {
			parsed = append(parsed, d)
		}
	}
	limit := maxTrees
	if keep != nil && keep.tree != nil {
		limit--
	}
	if len(parsed) <= limit {
		return nil
	}
	slices.SortFunc(parsed, func(a, b *document) int { return cmp.Compare(b.touched, a.touched) })
	var drop []*syntax.Tree
	for _, d := range parsed[limit:] {
		drop = append(drop, d.dropTreeLocked())
	}
	return drop
}

// context returns, for completion context, snapshots of the most recently
// used documents other than skip, newest first: without trees, each with
// the definitions and imports of its Text indexed. Indexes are built
// outside the store's lock and cached per text. Release each.
func (s *store) context(skip uri.URI) []*Snapshot {
	s.mu.Lock()
	docs := make([]*document, 0, len(s.docs))
	for u, d := range s.docs {
		if u != skip {
			docs = append(docs, d)
		}
	}
	slices.SortFunc(docs, func(a, b *document) int { return cmp.Compare(b.touched, a.touched) })
	docs = docs[:min(len(docs), maxContextDocs)]
	s.mu.Unlock()

	out := make([]*Snapshot, 0, len(docs))
	for _, d := range docs {
		if snap := s.indexed(d); snap != nil {
			out = append(out, snap)
		}
	}
	return out
}

// indexed returns a tree-less snapshot of d with its index, building the
// index first if d's text has none. It never waits for another goroutine's
// parse or index of d: it then uses the index of an older text, if any.
// It returns nil if d was closed or has no index to offer.
func (s *store) indexed(d *document) *Snapshot {
	s.mu.Lock()
	if s.docs[d.uri] != d {
		s.mu.Unlock()
		return nil
	}
	if (d.index == nil || d.indexText != d.text) && d.parsing == nil && !d.indexing {
		d.indexing = true
		s.mu.Unlock()
		func() {
			defer func() {
				s.mu.Lock()
				d.indexing = false
				s.mu.Unlock()
			}()
			s.buildIndex(d)
		}()
		s.mu.Lock()
	}
	if s.docs[d.uri] != d || d.index == nil {
		s.mu.Unlock()
		return nil
	}
	defer s.mu.Unlock()
	snap := d.snapshotLocked(false)
	// The index belongs to indexText, which a change may have replaced
	// since: the snapshot is of that text, so offsets agree.
	snap.Text, snap.Index = d.indexText, d.index
	return snap
}

// buildIndex indexes d's text, parsing it first if need be; the tree
// stays only if d is among the maxTrees most recently used. The index is
// of the text the tree was parsed from, which a change may have replaced
// meanwhile; the next request then indexes again.
func (s *store) buildIndex(d *document) {
	s.parse(d)
	s.mu.Lock()
	src := d.text
	var tree *syntax.Tree
	if d.tree != nil {
		tree, src = d.tree.Copy(), d.treeText
	}
	s.mu.Unlock()
	idx := indexOf(tree)
	s.mu.Lock()
	d.index, d.indexText = idx, src
	drop := s.trimLocked(nil)
	s.mu.Unlock()
	freeTrees(drop...)
}

// indexOf indexes tree, a copy it closes; nil gives an empty index.
func indexOf(tree *syntax.Tree) *syntax.Index {
	if tree == nil {
		return syntax.NewIndex(nil)
	}
	defer tree.Close()
	return syntax.NewIndex(tree)
}
