package workspace

import (
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// cacheVersion changes whenever what a cached file holds changes (the
// symbol rules included); a cache of another version is ignored.
const cacheVersion = 6

// cacheFile is the disk cache of one root.
type cacheFile struct {
	Version int
	Root    string
	Files   []*file
}

// cachePath returns where root's cache lives, or "" when caching is off
// or no cache folder is known.
func (ix *Index) cachePath() string {
	dir := ix.opts.CacheDir
	switch dir {
	case "-":
		return ""
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "wisp", "index")
	}
	sum := sha256.Sum256([]byte(ix.root))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".gob")
}

// loadCache reads the disk cache, by path. A missing, unreadable, corrupt
// or foreign cache gives an empty map: the build then parses everything.
func (ix *Index) loadCache() map[string]*file {
	p := ix.cachePath()
	if p == "" {
		return nil
	}
	fh, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer fh.Close()
	var c cacheFile
	if err := gob.NewDecoder(fh).Decode(&c); err != nil || c.Version != cacheVersion || c.Root != ix.root {
		return nil
	}
	out := make(map[string]*file, len(c.Files))
	for _, f := range c.Files {
		if f != nil && ix.contains(f.Path) {
			out[f.Path] = f
		}
	}
	return out
}

// saveCache writes the files read from disk to the cache, atomically
// (a temporary file renamed over the old cache), when anything changed.
func (ix *Index) saveCache() error {
	p := ix.cachePath()
	if p == "" {
		return nil
	}
	ix.mu.Lock()
	if !ix.dirty {
		ix.mu.Unlock()
		return nil
	}
	c := cacheFile{Version: cacheVersion, Root: ix.root, Files: make([]*file, 0, len(ix.files))}
	for _, f := range ix.files {
		if f.MTime != 0 { // buffer text that differs from the disk is never cached
			c.Files = append(c.Files, f)
		}
	}
	ix.dirty = false
	ix.mu.Unlock()
	if err := writeAtomic(p, &c); err != nil {
		ix.mu.Lock()
		ix.dirty = true
		ix.mu.Unlock()
		return fmt.Errorf("write index cache %s: %w", p, err)
	}
	return nil
}

// writeAtomic gob-encodes c into a temporary file next to p and renames it
// to p, so a reader sees the old cache or the new one, never half of one.
func writeAtomic(p string, c *cacheFile) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".index-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if err := gob.NewEncoder(tmp).Encode(c); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
