package local

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"unicode/utf8"
)

// Workspace limits used when IndexDir is given zero or negative ones.
const (
	DefaultMaxFiles       = 5000
	DefaultMaxBytes int64 = 64 << 20
	// MaxFileBytes is the largest workspace file IndexDir reads.
	MaxFileBytes = 1 << 20
)

// Index key widths. A retrieval key is the skeleton of the retrievalKey
// tokens ending at a position; an n-gram key is the exact text of the
// ngramKey tokens ending there.
const (
	retrievalKey = 4
	ngramKey     = 2
	// maxPostings bounds how many positions one retrieval lookup examines,
	// maxGramPostings one n-gram count; larger posting lists are sampled
	// at an even, deterministic stride.
	maxPostings     = 2048
	maxGramPostings = 512
)

// shard is an immutable, indexed set of workspace files.
type shard struct {
	docs []*doc   // sorted by path
	base []int    // base[i] is the global position of docs[i]'s first token
	retr []uint64 // key<<32 | global position, sorted
	gram []uint64 // key<<32 | global position, sorted
}

func buildShard(docs []*doc) *shard {
	sh := &shard{docs: docs, base: make([]int, len(docs))}
	total := 0
	for i, d := range docs {
		sh.base[i] = total
		total += d.n()
	}
	sh.retr = make([]uint64, 0, total)
	sh.gram = make([]uint64, 0, total)
	for i, d := range docs {
		for j := 0; j < d.n(); j++ {
			g := uint64(sh.base[i] + j)
			if j >= retrievalKey-1 {
				sh.retr = append(sh.retr, uint64(keyAt(d.skel, j, retrievalKey))<<32|g)
			}
			if j >= ngramKey-1 {
				sh.gram = append(sh.gram, uint64(keyAt(d.exact, j, ngramKey))<<32|g)
			}
		}
	}
	slices.Sort(sh.retr)
	slices.Sort(sh.gram)
	return sh
}

// keyAt hashes hs[j-w+1 : j+1]; the caller ensures j >= w-1.
func keyAt(hs []uint32, j, w int) uint32 {
	h := uint32(w)
	for i := j - w + 1; i <= j; i++ {
		h = mix(h, hs[i])
	}
	return h
}

// lookup calls fn with (doc index, token index) for the positions filed
// under key, in position order, sampling when there are too many.
func (sh *shard) lookup(index []uint64, key uint32, limit int, fn func(di, j int)) {
	lo := sort.Search(len(index), func(i int) bool { return index[i]>>32 >= uint64(key) })
	hi := sort.Search(len(index), func(i int) bool { return index[i]>>32 > uint64(key) })
	step := 1
	if hi-lo > limit {
		step = (hi - lo + limit - 1) / limit
	}
	for i := lo; i < hi; i += step {
		g := int(uint32(index[i]))
		di := sort.Search(len(sh.base), func(k int) bool { return sh.base[k] > g }) - 1
		fn(di, g-sh.base[di])
	}
}

// IndexDir indexes the text files under root as the workspace corpus,
// replacing any earlier workspace index. It skips hidden directories (.git
// among them), node_modules and vendor, files over MaxFileBytes and binary
// files, and stops after maxFiles files or maxBytes bytes in all (zero or
// negative means DefaultMaxFiles, DefaultMaxBytes). An open buffer shadows
// the workspace file with the same path. Cancelling ctx abandons the walk
// and keeps the earlier index.
func (e *Engine) IndexDir(ctx context.Context, root string, maxFiles int, maxBytes int64) error {
	if maxFiles <= 0 {
		maxFiles = DefaultMaxFiles
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	var docs []*doc
	var total int64
	walk := func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // an unreadable entry is skipped, not fatal
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if de.IsDir() {
			if path != root && skipDir(de.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !de.Type().IsRegular() {
			return nil
		}
		info, err := de.Info()
		if err != nil || info.Size() > MaxFileBytes || total+info.Size() > maxBytes {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil || isBinary(data) {
			return nil
		}
		total += int64(len(data))
		docs = append(docs, tokenize(path, string(data)))
		if len(docs) >= maxFiles {
			return fs.SkipAll
		}
		return nil
	}
	if err := filepath.WalkDir(root, walk); err != nil {
		return fmt.Errorf("index workspace %s: %w", root, err)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].path < docs[j].path })
	sh := buildShard(docs)
	e.mu.Lock()
	e.ws = sh
	e.mu.Unlock()
	return nil
}

func skipDir(name string) bool {
	return name == "node_modules" || name == "vendor" || (len(name) > 1 && name[0] == '.')
}

// isBinary reports whether data looks like something other than text: a
// NUL byte or invalid UTF-8 in its first 8 KB.
func isBinary(data []byte) bool {
	head := data[:min(len(data), 8<<10)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	// A multi-byte rune cut at the 8 KB boundary is not a sign of binary.
	for i := 0; i < 3 && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	return !utf8.Valid(head)
}
