package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Snippet is a window of lines of a workspace file.
type Snippet struct {
	Path string
	// Line is the 0-based line the window starts at.
	Line int
	Text string
	// Score is the window's similarity to the query, in (0, 1].
	Score float64
}

// Shape of the windows Similar compares: windowLines lines, one starting
// every windowStride lines. Measured with bench/context at 1,024 tokens:
// 16 lines find more of what the continuation uses than 8, 12 or 24
// (recall 0.820 against 0.811, 0.818 and 0.816).
const (
	windowLines  = 16
	windowStride = 8
	// maxSimilarFiles bounds the files one call reads.
	maxSimilarFiles = 12
	// maxTextCacheBytes bounds the file texts kept between calls.
	maxTextCacheBytes = 16 << 20
)

// Similar returns up to max windows of the files related to fromPath (the
// same Go package, the files it imports, the files of its folder in its
// language), fromPath itself excluded, whose identifiers overlap words
// the most (Jaccard similarity), best first, at most two a file and never
// two overlapping. This is the "similar code elsewhere" a completion
// benefits from: sibling tests, the other handlers, the other call sites.
// Files are read from the editor's buffer text given to Update, else from
// the disk, and kept (bounded) for the next call.
func (ix *Index) Similar(fromPath string, words []string, max int) []Snippet {
	if max <= 0 || len(words) == 0 {
		return nil
	}
	fromPath = absPath(fromPath)
	query := wordSet(words)
	var out []Snippet
	for _, path := range ix.similarFiles(fromPath) {
		out = append(out, ix.bestWindows(path, query, 2, func(window) bool { return true })...)
	}
	slices.SortStableFunc(out, bySimilarity)
	return out[:min(max, len(out))]
}

// SimilarWithin returns up to max windows of path itself whose lines lie
// outside [from, to] (the code around the cursor, which the caller shows
// already), best first, never two overlapping: the sibling function, the
// other case of the same switch, far up or down the file. The windows
// are of the text last given to Update (or read from the disk), which
// may be a few keys behind the buffer; far from the cursor it is the same.
func (ix *Index) SimilarWithin(path string, words []string, from, to, max int) []Snippet {
	if max <= 0 || len(words) == 0 {
		return nil
	}
	return ix.bestWindows(absPath(path), wordSet(words), max, func(w window) bool {
		return w.line+windowLines <= from || w.line > to
	})
}

// bestWindows returns up to n windows of path that keep accepts, by their
// similarity to query, best first, never two overlapping.
func (ix *Index) bestWindows(path string, query map[string]bool, n int, keep func(window) bool) []Snippet {
	var best []Snippet
	for _, w := range ix.texts.windows(path) {
		if !keep(w) {
			continue
		}
		if s := jaccard(query, w.words); s > 0 {
			best = append(best, Snippet{Path: path, Line: w.line, Text: w.text, Score: s})
		}
	}
	slices.SortStableFunc(best, bySimilarity)
	var out []Snippet
	for _, s := range best {
		if len(out) == n {
			break
		}
		if !slices.ContainsFunc(out, func(o Snippet) bool { return abs(s.Line-o.Line) < windowLines }) {
			out = append(out, s)
		}
	}
	return out
}

func wordSet(words []string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

func bySimilarity(a, b Snippet) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// similarFiles lists the files Similar compares for fromPath, related
// ones first.
func (ix *Index) similarFiles(fromPath string) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	from := ix.files[fromPath]
	lang := ""
	if from != nil {
		lang = from.Lang
	}
	var paths []string
	seen := map[string]bool{fromPath: true}
	add := func(f *file) {
		if len(paths) < maxSimilarFiles && !seen[f.Path] && (lang == "" || f.Lang == lang) {
			seen[f.Path] = true
			paths = append(paths, f.Path)
		}
	}
	tiers := ix.relatedTiers(fromPath)
	related := make([]*file, 0, len(tiers))
	for f := range tiers {
		related = append(related, f)
	}
	slices.SortFunc(related, func(a, b *file) int {
		if c := tiers[a] - tiers[b]; c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	for _, f := range related {
		add(f)
	}
	for _, f := range ix.dirs[filepath.Dir(fromPath)] {
		add(f)
	}
	return paths
}

// jaccard is |a ∩ b| / |a ∪ b|.
func jaccard(a, b map[string]bool) float64 {
	n := 0
	for w := range b {
		if a[w] {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(n) / float64(len(a)+len(b)-n)
}

// window is one window of a file with its identifiers.
type window struct {
	line  int
	text  string
	words map[string]bool
}

// textCache keeps files' windows between Similar calls, bounded by the
// bytes of text it holds. Its methods are safe for concurrent use.
type textCache struct {
	mu    sync.Mutex
	files map[string]cachedText // guarded by mu
	bytes int                   // guarded by mu: the text held
}

// cachedText is one file's windows, valid while the file's size and
// modification time (or, for buffer text, the text itself) are unchanged.
type cachedText struct {
	size, mtime int64
	buffer      bool // set from an editor buffer: valid until the next set
	windows     []window
	// qualified counts the members used after each qualifier
	// (qualifiedUses).
	qualified map[string]map[string]int
	bytes     int
}

// windows returns path's windows, reading the file when it is not held
// or has changed on disk.
func (c *textCache) windows(path string) []window { return c.get(path).windows }

// uses returns the members used after each qualifier in path, reading
// the file when it is not held or has changed on disk.
func (c *textCache) uses(path string) map[string]map[string]int { return c.get(path).qualified }

// get returns what is held of path, reading the file when it is not held
// or has changed on disk; the zero cachedText when it cannot be read.
func (c *textCache) get(path string) cachedText {
	info, err := os.Stat(path)
	c.mu.Lock()
	t, ok := c.files[path]
	c.mu.Unlock()
	if ok && (t.buffer || err == nil && info.Size() == t.size && info.ModTime().UnixNano() == t.mtime) {
		return t
	}
	if err != nil || !info.Mode().IsRegular() || info.Size() > DefaultMaxFileBytes {
		return cachedText{}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return cachedText{}
	}
	return c.put(path, cachedText{size: info.Size(), mtime: info.ModTime().UnixNano()}, string(data))
}

// setBuffer holds an editor buffer's text for path.
func (c *textCache) setBuffer(path, src string) {
	c.put(path, cachedText{buffer: true}, src)
}

// forget drops path.
func (c *textCache) forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.files[path]; ok {
		c.bytes -= t.bytes
		delete(c.files, path)
	}
}

// put splits src into windows, counts its qualified uses and holds them
// as path's, emptying the cache first when it would pass its bound. It
// returns what it holds.
func (c *textCache) put(path string, t cachedText, src string) cachedText {
	t.windows, t.qualified, t.bytes = splitWindows(src), qualifiedUses(src), len(src)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]cachedText{}
	}
	if old, ok := c.files[path]; ok {
		c.bytes -= old.bytes
	}
	if c.bytes+t.bytes > maxTextCacheBytes {
		clear(c.files)
		c.bytes = 0
	}
	c.files[path] = t
	c.bytes += t.bytes
	return t
}

// splitWindows cuts src into windows of windowLines lines, one every
// windowStride lines.
func splitWindows(src string) []window {
	lines := strings.SplitAfter(src, "\n")
	var out []window
	for start := 0; start < len(lines); start += windowStride {
		end := min(start+windowLines, len(lines))
		text := strings.Join(lines[start:end], "")
		if words := identifierSet(text); len(words) > 0 {
			out = append(out, window{line: start, text: strings.TrimRight(text, "\n"), words: words})
		}
		if end == len(lines) {
			break
		}
	}
	return out
}

// identifierSet returns the identifiers of s longer than one byte.
func identifierSet(s string) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < len(s); {
		if !isIdentByte(s[i]) || s[i] >= '0' && s[i] <= '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && isIdentByte(s[j]) {
			j++
		}
		if j-i > 1 {
			out[s[i:j]] = true
		}
		i = j
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
