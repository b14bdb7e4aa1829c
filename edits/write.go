package edits

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// WriteAtomic replaces the file at path with content, provided the file
// still holds exactly original (the bytes that were read and edited);
// otherwise it returns an error wrapping ErrChangedOnDisk and writes
// nothing.
//
// The content goes to a temporary file in the same directory, which is
// synced and then renamed over path, so readers see the old file or the
// new one, never a mix, and a failure leaves the old file untouched and no
// temporary file behind. The file's permission bits are kept. WriteAtomic
// does not lock the file: a writer that changes it between the check and
// the rename loses its change.
func WriteAtomic(path string, original, content []byte) (err error) {
	// Write through a symbolic link, not over it.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("write %s: not a regular file", path)
	}
	current, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !bytes.Equal(current, original) {
		return fmt.Errorf("write %s: %w", path, ErrChangedOnDisk)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".wisp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(content); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(info.Mode().Perm()); err != nil {
		return fmt.Errorf("write %s: keep mode: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = renameFile(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// renameFile is os.Rename; tests replace it to make the last step fail.
var renameFile = os.Rename

// syncDir makes a rename in dir durable. It is best effort: some systems
// cannot sync a directory, and the rename has already happened.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
