package workspace

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Defaults for Options.
const (
	DefaultMaxFiles     = 5000
	DefaultMaxFileBytes = 1 << 20
	// maxWorkers bounds the parsing goroutines of a build.
	maxWorkers = 4
)

// Options configure an Index.
type Options struct {
	// MaxFiles bounds how many files are indexed; 0 means
	// DefaultMaxFiles.
	MaxFiles int
	// MaxFileBytes skips larger files; 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// CacheDir holds the disk cache: "" means os.UserCacheDir()/wisp/index,
	// "-" means no disk cache.
	CacheDir string
}

// Symbol is one definition, as Resolve returns it.
type Symbol struct {
	// Kind is "func", "method", "type", "class", "interface", "enum",
	// "field", "const" or "var".
	Name, Kind, Path, Parent string
	// Container is the header of what a member belongs to ("type Conn
	// struct", "impl Display for Point"), "" for top-level symbols.
	Container string
	// Signature is the header text, never a body; small types carry
	// their members compactly.
	Signature string
	// Doc is the first doc-comment line, or "".
	Doc string
	// Line is the 0-based line of the definition.
	Line int
	// Reason says why Resolve chose it: "same file", "same package",
	// "imported by <fromPath's file name>" or "workspace".
	Reason string
}

// Stats describe an index.
type Stats struct {
	Files   int `json:"files"`
	Symbols int `json:"symbols"`
	// Bytes is the total size of the indexed files.
	Bytes int64 `json:"bytes"`
	// Build is how long the initial build took (0 until it is done).
	Build time.Duration `json:"-"`
	// FromCache counts the files of the initial build read from the disk
	// cache rather than parsed.
	FromCache int `json:"fromCache"`
	// Truncated: the workspace holds more files than MaxFiles.
	Truncated bool `json:"truncated"`
	// Ready: the initial build is done.
	Ready bool `json:"ready"`
}

// Index is a workspace's definitions and imports. Its methods are safe
// for concurrent use.
type Index struct {
	root string // absolute, immutable
	opts Options

	mu sync.RWMutex // guards the fields below
	// files maps paths to their entries; byName maps a symbol name to
	// where it is defined; dirs maps folders to their files, sorted by
	// path (not in the order the build's workers happened to finish, so
	// that what is read of a folder is the same on every run).
	files  map[string]*file
	byName map[string][]symRef
	dirs   map[string][]*file
	// importers maps the last element of an import's path ("errors" of
	// "./errors.js" or "email.errors") to the files with such an import.
	importers map[string][]*file
	// goModules maps folders holding a go.mod to its module path.
	goModules map[string]string
	// crates holds the folders holding a Cargo.toml.
	crates map[string]bool
	stats  Stats
	// dirty: files changed since the disk cache was last written.
	dirty bool

	// texts holds files' windows for Similar; it has its own lock.
	texts textCache

	ready  chan struct{} // closed when the initial build is done
	cancel context.CancelFunc
	done   chan struct{} // closed when the build goroutine has returned
}

// symRef points at one symbol of one file.
type symRef struct {
	f *file
	i int
}

// Open returns an index of root at once and builds it in the background:
// it loads the disk cache, walks root, and parses every file the cache
// does not hold unchanged. Close it when done.
func Open(root string, opts Options) *Index {
	root = absPath(root)
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	ctx, cancel := context.WithCancel(context.Background())
	ix := &Index{root: root, opts: opts, files: map[string]*file{}, byName: map[string][]symRef{}, importers: map[string][]*file{},
		dirs: map[string][]*file{}, goModules: map[string]string{}, crates: map[string]bool{},
		ready: make(chan struct{}), cancel: cancel, done: make(chan struct{})}
	go ix.build(ctx)
	return ix
}

// Root returns the indexed folder.
func (ix *Index) Root() string { return ix.root }

// Wait returns when the initial build is done, or with ctx's error.
func (ix *Index) Wait(ctx context.Context) error {
	select {
	case <-ix.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stats returns the index's current size and its build figures.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.stats
}

// build runs the initial build.
func (ix *Index) build(ctx context.Context) {
	defer close(ix.done)
	defer close(ix.ready)
	start := time.Now()
	cached := ix.loadCache()
	w := walk(ctx, ix.root, ix.opts.MaxFiles, ix.opts.MaxFileBytes)
	ix.mu.Lock()
	ix.goModules, ix.crates = w.goModules, w.crates
	ix.stats.Truncated = w.truncated
	ix.mu.Unlock()

	todo := make(chan candidate)
	var wg sync.WaitGroup
	for range min(maxWorkers, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range todo {
				data, err := os.ReadFile(c.path)
				if err != nil || int64(len(data)) != c.size {
					continue // changed under us: the watcher will tell
				}
				if f, ok := parseFile(c.path, data); ok {
					f.Size, f.MTime = c.size, c.mtime
					ix.put(f, true)
				}
			}
		}()
	}
	fromCache := 0
	for _, c := range w.files {
		if ctx.Err() != nil {
			break
		}
		if f := cached[c.path]; f != nil && f.Size == c.size && f.MTime == c.mtime {
			ix.put(f, false)
			fromCache++
			continue
		}
		todo <- c
	}
	close(todo)
	wg.Wait()
	ix.mu.Lock()
	ix.stats.Build = time.Since(start)
	ix.stats.FromCache = fromCache
	ix.stats.Ready = true
	if len(cached) != fromCache {
		ix.dirty = true // entries went stale or vanished
	}
	ix.mu.Unlock()
	if ctx.Err() == nil {
		ix.saveCache()
	}
}

// Update indexes path's current text src: an open buffer's text, a saved
// file, a watched file's change. It parses outside any lock, so it costs
// readers nothing; paths outside the root or in languages wisp cannot
// parse are ignored.
func (ix *Index) Update(path string, src []byte) {
	path = absPath(path)
	if !ix.contains(path) || int64(len(src)) > ix.opts.MaxFileBytes {
		return
	}
	f, ok := parseFile(path, src)
	if !ok {
		ix.Remove(path)
		return
	}
	ix.texts.setBuffer(path, string(src))
	// Only text equal to the disk's may be cached under the disk's key.
	if info, err := os.Stat(path); err == nil && info.Size() == int64(len(src)) {
		if disk, err := os.ReadFile(path); err == nil && bytes.Equal(disk, src) {
			f.Size, f.MTime = info.Size(), info.ModTime().UnixNano()
		}
	}
	ix.put(f, true)
}

// Remove forgets path.
func (ix *Index) Remove(path string) {
	path = absPath(path)
	ix.texts.forget(path)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if old := ix.files[path]; old != nil {
		ix.dropLocked(old)
		delete(ix.files, path)
		ix.dirty = true
	}
}

// Close stops a build in progress, writes the disk cache if anything
// changed, and releases the index. It does not wait for updates that
// other goroutines are still making.
func (ix *Index) Close() error {
	ix.cancel()
	<-ix.done
	return ix.saveCache()
}

// contains reports whether path lies under the root.
func (ix *Index) contains(path string) bool {
	rel, err := filepath.Rel(ix.root, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && !startsWithDotDot(rel)
}

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}

// put adds or replaces f. changed marks the cache dirty.
func (ix *Index) put(f *file, changed bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if old := ix.files[f.Path]; old != nil {
		ix.dropLocked(old)
	} else if len(ix.files) >= ix.opts.MaxFiles {
		ix.stats.Truncated = true
		return
	}
	ix.files[f.Path] = f
	f.dir = filepath.Dir(f.Path)
	fs := ix.dirs[f.dir]
	at, _ := slices.BinarySearchFunc(fs, f.Path, func(g *file, path string) int { return strings.Compare(g.Path, path) })
	ix.dirs[f.dir] = slices.Insert(fs, at, f)
	for i, s := range f.Symbols {
		ix.byName[s.Name] = append(ix.byName[s.Name], symRef{f, i})
	}
	for _, base := range importBases(f) {
		ix.importers[base] = append(ix.importers[base], f)
	}
	ix.stats.Files++
	ix.stats.Symbols += len(f.Symbols)
	ix.stats.Bytes += f.Size
	if changed {
		ix.dirty = true
	}
}

// dropLocked removes old's symbols and folder entry; the caller holds mu
// and removes old from files.
func (ix *Index) dropLocked(old *file) {
	for _, s := range old.Symbols {
		kept := slices.DeleteFunc(ix.byName[s.Name], func(r symRef) bool { return r.f == old })
		if len(kept) == 0 {
			delete(ix.byName, s.Name)
		} else {
			ix.byName[s.Name] = kept
		}
	}
	ix.dirs[old.dir] = slices.DeleteFunc(ix.dirs[old.dir], func(f *file) bool { return f == old })
	for _, base := range importBases(old) {
		if kept := slices.DeleteFunc(ix.importers[base], func(f *file) bool { return f == old }); len(kept) == 0 {
			delete(ix.importers, base)
		} else {
			ix.importers[base] = kept
		}
	}
	ix.stats.Files--
	ix.stats.Symbols -= len(old.Symbols)
	ix.stats.Bytes -= old.Size
}
