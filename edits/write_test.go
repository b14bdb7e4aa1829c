package edits

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAtomicKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.sh")
	if err := os.WriteFile(path, []byte("echo hi\n"), 0o751); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("echo hi\n"), []byte("echo bye\n")); err != nil {
		t.Fatalf("WriteAtomic: %v", err)
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

func TestWriteAtomicRefusesChangedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(path, []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteAtomic(path, []byte("package a\n"), []byte("package c\n"))
	if !errors.Is(err, ErrChangedOnDisk) {
		t.Fatalf("WriteAtomic = %v, want ErrChangedOnDisk", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "package b\n" {
		t.Errorf("file was changed to %q", got)
	}
	assertOnlyFile(t, filepath.Dir(path), "a.go")
}

func TestWriteAtomicNoTempLeftOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	renameFile = func(string, string) error { return errors.New("disk on fire") }
	defer func() { renameFile = os.Rename }()
	if err := WriteAtomic(path, []byte("x"), []byte("y")); err == nil {
		t.Fatal("WriteAtomic succeeded although the rename failed")
	}
	if got, _ := os.ReadFile(path); string(got) != "x" {
		t.Errorf("file was changed to %q", got)
	}
	if err := WriteAtomic(filepath.Join(dir, "missing.go"), nil, []byte("y")); err == nil {
		t.Fatal("WriteAtomic of a missing file succeeded")
	}
	assertOnlyFile(t, dir, "a.go")
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
	if len(got) != len(names) {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
	for i := range got {
		if got[i] != names[i] {
			t.Fatalf("%s holds %v, want %v", dir, got, names)
		}
	}
}
