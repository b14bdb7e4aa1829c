// Package local is wisp's embedded default model: an in-process engine
// with no network and no weights that predicts a continuation by retrieval
// over the open buffers and workspace files, backed by an n-gram model.
//
// It is a fallback, not a language model. It finds the place in the corpus
// whose preceding code looks most like the code before the cursor (same
// shape, as many identical tokens as possible; the cursor's own buffer
// first, then other buffers, then workspace files) and copies what
// followed it, renaming the names that differed. When nothing matches well
// it falls back to an n-gram model (up to 4-grams over code tokens with
// backoff) computed on demand from the same index. That makes it good at
// repetitive code — after the first of several similar lines or functions
// it proposes the next one — instant, and deterministic, and useless for
// anything that needs understanding: it cannot follow instructions, so
// quick edits come back unchanged with FinishReason "unsupported".
package local

import (
	"slices"
	"sync"

	"github.com/wisp-lsp/wisp/transport"
)

// Name describes the engine honestly, for status lines and wisp doctor.
const Name = "local (retrieval + n-gram fallback over your files; no neural model)"

// Options tune an Engine. Zero values mean the defaults.
type Options struct {
	// MaxTokens bounds a completion when the request does not (default 128).
	MaxTokens int
	// MaxLines bounds a multi-line completion (default 12). A completion is
	// multi-line only when the cursor ends a block opener ("{", "(", "[",
	// ":") or sits on an empty line; otherwise it stops at the end of the
	// line.
	MaxLines int
}

func (o Options) withDefaults() Options {
	if o.MaxTokens <= 0 {
		o.MaxTokens = 128
	}
	if o.MaxLines <= 0 {
		o.MaxLines = 12
	}
	return o
}

// Engine is the local model. It is safe for concurrent use.
type Engine struct {
	opts Options // immutable after New

	mu   sync.RWMutex
	bufs map[string]*buffer // open buffers by path; guarded by mu
	ws   *shard             // workspace index, replaced whole; guarded by mu; never nil
}

var _ transport.Model = (*Engine)(nil)

// New returns an Engine with an empty corpus.
func New(opts Options) *Engine {
	return &Engine{opts: opts.withDefaults(), bufs: map[string]*buffer{}, ws: buildShard(nil)}
}

// Name describes the engine (see the Name constant).
func (e *Engine) Name() string { return Name }

// buffer is an open document. Observe only records the new text; the
// tokens are brought up to date, incrementally, by the next generation
// that reads the buffer.
type buffer struct {
	mu      sync.Mutex
	pending string // latest text; guarded by mu
	indexed *doc   // tokens of some earlier (or the same) text; guarded by mu; never nil
}

// current returns the buffer's doc for its latest text.
func (b *buffer) current() *doc {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.indexed.text != b.pending {
		b.indexed = b.indexed.update(b.pending)
	}
	return b.indexed
}

// Observe records that the buffer at path was opened or changed to text.
// It is O(1): the buffer is re-tokenised lazily and incrementally (only
// around the changed bytes) when a generation next needs it.
func (e *Engine) Observe(path, text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.bufs[path]
	if b == nil {
		e.bufs[path] = &buffer{pending: text, indexed: tokenize(path, "")}
		return
	}
	b.mu.Lock()
	b.pending = text
	b.mu.Unlock()
}

// Forget drops the buffer at path (it was closed).
func (e *Engine) Forget(path string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.bufs, path)
}

// Close releases the corpus. Generations in flight finish normally: they
// hold their own snapshot.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.bufs = map[string]*buffer{}
	e.ws = buildShard(nil)
	return nil
}

// snapshot is what one generation reads: up-to-date buffer docs sorted by
// path, and the workspace index.
type snapshot struct {
	bufs []*doc
	ws   *shard
}

func (e *Engine) snapshot() snapshot {
	e.mu.RLock()
	paths := make([]string, 0, len(e.bufs))
	for p := range e.bufs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	bs := make([]*buffer, len(paths))
	for i, p := range paths {
		bs[i] = e.bufs[p]
	}
	ws := e.ws
	e.mu.RUnlock()
	s := snapshot{ws: ws, bufs: make([]*doc, len(bs))}
	for i, b := range bs {
		s.bufs[i] = b.current()
	}
	return s
}
