package edits

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ReadRegular reads the file at path, following symbolic links, provided
// it is a regular file. Anything else (a FIFO, a device, a socket, a
// folder) is refused with an error wrapping ErrNotRegular, and opening
// never blocks: the type is checked before the file is opened, and the
// open itself does not wait (O_NONBLOCK), in case the path was swapped for
// a FIFO in between.
func ReadRegular(path string) ([]byte, error) {
	f, _, err := openRegular(path, os.O_RDONLY)
	return readAndClose(f, path, err)
}

// readAndClose reads all of f, opened on path, and closes it; a non-nil
// openErr is returned as it is.
func readAndClose(f *os.File, path string, openErr error) ([]byte, error) {
	if openErr != nil {
		return nil, openErr
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// openRegular opens the regular file at path with flag (plus O_NONBLOCK,
// which regular files ignore) and returns it with its FileInfo, taken from
// the open file. It refuses what is not a regular file before opening it,
// and what was swapped for something else while it was being opened.
func openRegular(path string, flag int) (*os.File, fs.FileInfo, error) {
	before, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, describeType(before.Mode()))
	}
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if !info.Mode().IsRegular() || !os.SameFile(before, info) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w (replaced while it was opened)", path, ErrNotRegular)
	}
	return f, info, nil
}

// describeType names the kind of a file that is not a regular one.
func describeType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "type " + m.Type().String()
}
