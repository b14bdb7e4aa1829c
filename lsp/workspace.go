package lsp

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/wisp-lsp/wisp/completion"
	"github.com/wisp-lsp/wisp/text"
	"github.com/wisp-lsp/wisp/workspace"
)

// indexSettle is how long a buffer must stay unchanged before its
// definitions are indexed again: never on the keystroke path.
const indexSettle = 750 * time.Millisecond

// watchedGlob names the files whose changes on disk the index follows.
const watchedGlob = "**/*.{go,py,pyi,js,mjs,cjs,jsx,ts,mts,cts,tsx,rs,c,h,java}"

// workspaceIndexes are the indexes of the workspace folders. They answer
// Resolve for the folder holding the asking file, keep current through
// saves, watched-file events and settled buffer edits, and close with
// the server.
type workspaceIndexes struct {
	// list is set once at initialize and never changed; its indexes are
	// safe for concurrent use.
	list []*workspace.Index
	log  *zap.Logger

	mu sync.Mutex // guards the fields below
	// timers hold the pending settled-buffer update of each document.
	timers map[uri.URI]*time.Timer
	closed bool
	// work counts updates in flight, so close can wait for them.
	work sync.WaitGroup
}

// openIndexes starts indexing each root in the background.
func openIndexes(roots []string, opts workspace.Options, log *zap.Logger) *workspaceIndexes {
	w := &workspaceIndexes{log: log, timers: map[uri.URI]*time.Timer{}}
	for _, r := range roots {
		w.list = append(w.list, workspace.Open(r, opts))
	}
	return w
}

// Resolve answers from the index of the folder holding fromPath (the
// deepest one when folders nest); nothing for files outside them.
func (w *workspaceIndexes) Resolve(fromPath string, names []string, max int) []workspace.Symbol {
	if w == nil {
		return nil
	}
	if ix := w.indexFor(fromPath); ix != nil {
		return ix.Resolve(fromPath, names, max)
	}
	return nil
}

// ResolvePrefix is Resolve for the word being typed (see
// workspace.Index.ResolvePrefix).
func (w *workspaceIndexes) ResolvePrefix(fromPath, prefix string, max int) []workspace.Symbol {
	if w == nil {
		return nil
	}
	if ix := w.indexFor(fromPath); ix != nil {
		return ix.ResolvePrefix(fromPath, prefix, max)
	}
	return nil
}

// The workspace indexes serve every lookup the context builder makes.
var _ completion.Workspace = (*workspaceIndexes)(nil)

// Members lists a type's members from the index of the folder holding
// fromPath (see workspace.Index.Members).
func (w *workspaceIndexes) Members(fromPath, typeName string, max int) []workspace.Symbol {
	if w == nil {
		return nil
	}
	if ix := w.indexFor(fromPath); ix != nil {
		return ix.Members(fromPath, typeName, max)
	}
	return nil
}

// Similar finds code like the cursor's in the index of the folder holding
// fromPath (see workspace.Index.Similar).
func (w *workspaceIndexes) Similar(fromPath string, words []string, max int) []workspace.Snippet {
	if w == nil {
		return nil
	}
	if ix := w.indexFor(fromPath); ix != nil {
		return ix.Similar(fromPath, words, max)
	}
	return nil
}

// anyRoot reports whether any indexed root exists as a folder: there is
// nothing to watch otherwise.
func (w *workspaceIndexes) anyRoot() bool {
	for _, ix := range w.list {
		if info, err := os.Stat(ix.Root()); err == nil && info.IsDir() {
			return true
		}
	}
	return false
}

// indexFor returns the index whose root holds path, or nil.
func (w *workspaceIndexes) indexFor(path string) *workspace.Index {
	var best *workspace.Index
	for _, ix := range w.list {
		root := ix.Root()
		if (path == root || strings.HasPrefix(path, root+string(filepath.Separator))) &&
			(best == nil || len(root) > len(best.Root())) {
			best = ix
		}
	}
	return best
}

// async runs f off the read loop unless the indexes are closed.
func (w *workspaceIndexes) async(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.work.Add(1)
	go func() {
		defer w.work.Done()
		f()
	}()
}

// refresh re-reads path from the disk into its index, or forgets it when
// it is gone. It runs off the read loop.
func (w *workspaceIndexes) refresh(path string) {
	ix := w.indexFor(path)
	if ix == nil {
		return
	}
	w.async(func() {
		data, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			ix.Remove(path)
		case err != nil:
			w.log.Debug("index refresh failed", zap.String("path", path), zap.Error(err))
		default:
			ix.Update(path, data)
		}
	})
}

// edited schedules the index update of an open buffer once its text has
// stayed unchanged for indexSettle; each edit restarts the wait.
func (w *workspaceIndexes) edited(u uri.URI, path string, doc *text.Text) {
	ix := w.indexFor(path)
	if ix == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if t := w.timers[u]; t != nil {
		t.Stop()
	}
	w.timers[u] = time.AfterFunc(indexSettle, func() {
		w.mu.Lock()
		delete(w.timers, u)
		w.mu.Unlock()
		w.async(func() { ix.Update(path, []byte(doc.String())) })
	})
}

// close stops pending updates, waits for running ones, and closes the
// indexes (writing their disk caches).
func (w *workspaceIndexes) close() {
	w.mu.Lock()
	w.closed = true
	for u, t := range w.timers {
		t.Stop()
		delete(w.timers, u)
	}
	w.mu.Unlock()
	w.work.Wait()
	for _, ix := range w.list {
		if err := ix.Close(); err != nil {
			w.log.Warn("closing the workspace index", zap.Error(err))
		}
	}
}

// registerWatcher asks the client to report changes to source files in
// the workspace (workspace/didChangeWatchedFiles). Clients that cannot
// register dynamically are not asked.
func (s *Server) registerWatcher(ctx context.Context) {
	params := map[string]any{"registrations": []any{map[string]any{
		"id":     "wisp-watched-files",
		"method": protocol.MethodWorkspaceDidChangeWatchedFiles,
		"registerOptions": map[string]any{"watchers": []any{
			map[string]any{"globPattern": watchedGlob},
		}},
	}}}
	if err := s.call(ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil && ctx.Err() == nil {
		s.log.Info("the client refused the file watcher", zap.Error(err))
	}
}

func (s *Server) didSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	if w := s.currentIndexes(); w != nil && p.TextDocument.URI.IsFile() {
		w.refresh(pathOf(p.TextDocument.URI))
	}
	return nil
}

func (s *Server) didChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	w := s.currentIndexes()
	if w == nil {
		return nil
	}
	for _, c := range p.Changes {
		if c.URI.IsFile() {
			w.refresh(pathOf(c.URI))
		}
	}
	return nil
}

func (s *Server) currentIndexes() *workspaceIndexes {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.indexes
}
