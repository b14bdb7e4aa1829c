package edits

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// keptBits are the mode bits a written file keeps: permissions and the
// setuid, setgid and sticky bits.
const keptBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Written says where and how WriteBack wrote a file.
type Written struct {
	// Path is the file written: the path given or, when that names a
	// symbolic link, the file the link leads to.
	Path string
	// InPlaceWhy is empty when the file was replaced atomically, and
	// otherwise says why it was rewritten in place instead.
	InPlaceWhy string
}

// WriteBack writes content to the file at path, provided the file still
// holds exactly original (the bytes that were read and edited); otherwise
// it returns an error wrapping ErrChangedOnDisk and writes nothing. Only
// the content changes; what cannot be kept is refused:
//
//   - A symbolic link is followed, never replaced: the file it leads to is
//     written, and Written.Path names it.
//   - Anything but a regular file is refused (ErrNotRegular) without
//     blocking: a FIFO is never opened in a way that waits for a writer.
//   - A file the system does not let the user write (its mode, an ACL, a
//     read-only mount) is refused (ErrNotWritable), even where the folder
//     would allow a new file in its place.
//
// The content normally goes to a temporary file in the same folder, given
// the file's owner, group and mode (setuid, setgid and sticky bits
// included), synced and renamed over the file: readers see the old file or
// the new one, never a mix, and a failure leaves the old file untouched and
// no temporary file behind. The new file does not carry the old one's
// extended attributes (ACLs, security labels): the system gives it the
// folder's defaults.
//
// Where a new file could not be faithful, the file is rewritten in place
// instead and Written.InPlaceWhy says why: it has other hard links (which
// a new file would leave holding the old content), the new file could not
// be given its owner, group or special bits (a file of another user's in a
// folder the user may write), or the folder takes no new files. In place
// keeps the file itself, its links, owner and ACLs, but is not atomic: a
// crash midway can leave it partly written. A setuid or setgid file that
// only its owner could mark again after the write is refused
// (ErrNotFaithful).
//
// WriteBack does not lock the file: a writer that changes it between the
// check and the write loses its change.
func WriteBack(path string, original, content []byte) (Written, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return Written{Path: path}, fmt.Errorf("write %s: %w", path, err)
	}
	w := Written{Path: path}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		w.Path = real
	}
	f, info, err := openForWrite(real)
	if err != nil {
		return w, fmt.Errorf("write: %w", err)
	}
	defer f.Close()
	current, err := io.ReadAll(f)
	if err != nil {
		return w, fmt.Errorf("write %s: read: %w", real, err)
	}
	if !bytes.Equal(current, original) {
		return w, fmt.Errorf("write %s: %w", real, ErrChangedOnDisk)
	}
	st := info.Sys().(*syscall.Stat_t)
	if st.Nlink > 1 {
		w.InPlaceWhy = fmt.Sprintf("it has %d hard links, which a new file would leave with the old content", st.Nlink)
	} else if w.InPlaceWhy, err = replace(real, info, content); err != nil {
		return w, fmt.Errorf("write %s: %w", real, err)
	}
	if w.InPlaceWhy == "" {
		return w, nil
	}
	if err := rewrite(f, info, content); err != nil {
		return w, fmt.Errorf("write %s in place: %w", real, err)
	}
	return w, nil
}

// openForWrite opens the regular file at path for reading and writing, as
// the system allows the user; a refusal wraps ErrNotWritable and names the
// mode, unless the file cannot even be read.
func openForWrite(path string) (*os.File, fs.FileInfo, error) {
	f, info, err := openRegular(path, os.O_RDWR)
	if err == nil {
		return f, info, nil
	}
	if !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
		return nil, nil, err
	}
	r, rinfo, rerr := openRegular(path, os.O_RDONLY)
	if rerr != nil {
		return nil, nil, err // not even readable: the plain error says it
	}
	r.Close()
	var cause error = syscall.EACCES
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		cause = pe.Err
	}
	return nil, nil, fmt.Errorf("%s: %w (mode %v, owner uid %d): %v", path, ErrNotWritable,
		rinfo.Mode(), rinfo.Sys().(*syscall.Stat_t).Uid, cause)
}

// replace writes content to a new file beside path, gives it info's
// owner, group and mode and renames it over path. When the new file would
// not be faithful it leaves path alone and returns why, for the caller to
// write in place; a failure to write the new file is an error.
func replace(path string, info fs.FileInfo, content []byte) (inPlaceWhy string, err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".wisp-*")
	if err != nil {
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return "its folder takes no new files", nil
		}
		return "", err
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(content); err != nil {
		return "", err
	}
	// Owner before mode: changing the owner clears setuid and setgid.
	st := info.Sys().(*syscall.Stat_t)
	if err := tmp.Chown(int(st.Uid), int(st.Gid)); err != nil {
		return fmt.Sprintf("a new file cannot be given its owner (uid %d, gid %d)", st.Uid, st.Gid), nil
	}
	if err = tmp.Chmod(info.Mode() & keptBits); err != nil {
		return "", fmt.Errorf("keep mode: %w", err)
	}
	got, err := tmp.Stat()
	if err != nil {
		return "", err
	}
	if got.Mode()&keptBits != info.Mode()&keptBits {
		// The system dropped a bit silently (setgid for a group the user
		// is not in).
		return fmt.Sprintf("a new file cannot be given its mode %v", info.Mode()&keptBits), nil
	}
	if err = tmp.Sync(); err != nil {
		return "", fmt.Errorf("sync: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return "", err
	}
	if err = renameFile(tmp.Name(), path); err != nil {
		return "", err
	}
	renamed = true
	syncDir(dir)
	return "", nil
}

// rewrite writes content over f, opened read-write on the file info
// describes, and restores special bits the system clears on a write.
func rewrite(f *os.File, info fs.FileInfo, content []byte) error {
	special := info.Mode() & (fs.ModeSetuid | fs.ModeSetgid)
	euid := os.Geteuid()
	if special != 0 && euid != 0 && int(info.Sys().(*syscall.Stat_t).Uid) != euid {
		return fmt.Errorf("%w: writing would clear its %s, which only its owner may set again", ErrNotFaithful, specialNames(special))
	}
	if _, err := f.WriteAt(content, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(content))); err != nil {
		return err
	}
	if got, err := f.Stat(); err == nil && got.Mode()&keptBits != info.Mode()&keptBits {
		if err := f.Chmod(info.Mode() & keptBits); err != nil {
			return fmt.Errorf("restore mode %v: %w", info.Mode()&keptBits, err)
		}
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return nil
}

// specialNames names the setuid and setgid bits of m.
func specialNames(m fs.FileMode) string {
	switch m & (fs.ModeSetuid | fs.ModeSetgid) {
	case fs.ModeSetuid:
		return "setuid bit"
	case fs.ModeSetgid:
		return "setgid bit"
	}
	return "setuid and setgid bits"
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
