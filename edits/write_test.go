package edits

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestWriteBackKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.sh")
	if err := os.WriteFile(path, []byte("echo hi\n"), 0o751); err != nil {
		t.Fatal(err)
	}
	w, err := WriteBack(path, []byte("echo hi\n"), []byte("echo bye\n"))
	if err != nil {
		t.Fatalf("WriteBack: %v", err)
	}
	if w.Path != path || w.InPlaceWhy != "" {
		t.Errorf("written %+v, want %s replaced atomically", w, path)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "echo bye\n" {
		t.Errorf("file holds %q", got)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o751 {
		t.Errorf("mode = %v, want 0751", info.Mode().Perm())
	}
	assertOnlyFile(t, filepath.Dir(path), "run.sh")
}

func TestWriteBackRefusesChangedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(path, []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := WriteBack(path, []byte("package a\n"), []byte("package c\n"))
	if !errors.Is(err, ErrChangedOnDisk) {
		t.Fatalf("WriteBack = %v, want ErrChangedOnDisk", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "package b\n" {
		t.Errorf("file was changed to %q", got)
	}
	assertOnlyFile(t, filepath.Dir(path), "a.go")
}

func TestWriteBackNoTempLeftOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	renameFile = func(string, string) error { return errors.New("disk on fire") }
	defer func() { renameFile = os.Rename }()
	if _, err := WriteBack(path, []byte("x"), []byte("y")); err == nil {
		t.Fatal("WriteBack succeeded although the rename failed")
	}
	if got, _ := os.ReadFile(path); string(got) != "x" {
		t.Errorf("file was changed to %q", got)
	}
	if _, err := WriteBack(filepath.Join(dir, "missing.go"), nil, []byte("y")); err == nil {
		t.Fatal("WriteBack of a missing file succeeded")
	}
	assertOnlyFile(t, dir, "a.go")
}

// A file with two names is rewritten in place: both names show the new
// content, and it is still one file.
func TestWriteBackKeepsHardLinks(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
	if err := os.WriteFile(a, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	w, err := WriteBack(a, []byte("old\n"), []byte("new\n"))
	if err != nil {
		t.Fatalf("WriteBack: %v", err)
	}
	if !strings.Contains(w.InPlaceWhy, "2 hard links") {
		t.Errorf("InPlaceWhy = %q, want the hard links named", w.InPlaceWhy)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "new\n" {
			t.Errorf("%s holds %q", filepath.Base(p), got)
		}
	}
	ia, _ := os.Stat(a)
	ib, _ := os.Stat(b)
	if !os.SameFile(ia, ib) {
		t.Error("the names are no longer one file")
	}
	assertOnlyFile(t, dir, "a.go", "b.go")
}

// A shorter content in place leaves no tail of the old one.
func TestWriteBackInPlaceTruncates(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.go")
	if err := os.WriteFile(a, []byte("a long old content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, filepath.Join(dir, "b.go")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteBack(a, []byte("a long old content\n"), []byte("short\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a); string(got) != "short\n" {
		t.Errorf("file holds %q", got)
	}
}

// A FIFO is refused at once: neither reading nor writing waits for a
// writer on its other end.
func TestFIFORefusedWithoutBlocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.go")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := ReadRegular(p); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
		t.Errorf("ReadRegular = %v, want ErrNotRegular naming a FIFO", err)
	}
	if _, err := WriteBack(p, nil, []byte("x")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("WriteBack = %v, want ErrNotRegular", err)
	}
}

// A symbolic link is followed: its target is written and named, and the
// link stays a link.
func TestWriteBackThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.go")
	link := filepath.Join(dir, "link.go")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.go", link); err != nil {
		t.Fatal(err)
	}
	w, err := WriteBack(link, []byte("old\n"), []byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(target); w.Path != real {
		t.Errorf("Written.Path = %s, want the target %s", w.Path, real)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if got, _ := os.ReadFile(target); string(got) != "new\n" {
		t.Errorf("target holds %q", got)
	}
}

// Only a path that is a symbolic link is reported as leading elsewhere:
// a relative or uncleaned path to a file is the file written.
func TestWriteBackNamesThePathGiven(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("a.go", []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := WriteBack("./a.go", []byte("old\n"), []byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w.Path != "./a.go" {
		t.Errorf("Written.Path = %q, want the path given", w.Path)
	}
}

// Setuid, setgid and sticky bits survive the replacement.
func TestWriteBackKeepsSpecialBits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tool.sh")
	if err := os.WriteFile(path, []byte("echo a\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := 0o755 | os.ModeSetuid | os.ModeSetgid | os.ModeSticky
	if err := os.Chmod(path, want); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode()&keptBits != want {
		t.Skipf("this system does not keep mode %v (got %v)", want, fi.Mode())
	}
	if _, err := WriteBack(path, []byte("echo a\n"), []byte("echo b\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode()&keptBits != want {
		t.Errorf("mode after the write %v, want %v", fi.Mode()&keptBits, want)
	}
}

// assertOnlyFile fails unless dir holds exactly names.
func assertOnlyFile(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, names) {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}
