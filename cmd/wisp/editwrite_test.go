package main

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// The --write cases on files a replacement would not be faithful to. Each
// runs the real binary against the loopback model server, which renames
// total to sum in sumSrc; sumRenamedSrc is the file after that edit.
var sumRenamedSrc = strings.NewReplacer("total", "sum").Replace(sumSrc)

func renameEnv(t *testing.T) []string {
	return modelEnv(t, modelserver.Reply{InstructionContains: "rename", Text: sumRenamed})
}

// editWrite runs `wisp edit TARGET:4 -m ... --write` as cred (nil: this
// process's user) and returns stderr and the exit code.
func editWrite(t *testing.T, cred *syscall.Credential, env []string, target string) (string, int) {
	t.Helper()
	_, errOut, code := runAs(t, cred, env, "", "edit", target+":4", "-m", "rename total to sum", "--write")
	return errOut, code
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func owner(t *testing.T, path string) (uid, gid uint32) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}

// otherUser returns the credentials of the unprivileged user "nobody", a
// folder that user owns, and an environment for the model server that the
// user can read; it skips unless the test runs as root, which alone can
// run a process as someone else.
func otherUser(t *testing.T) (*syscall.Credential, string, []string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to run wisp as another user (permission checks pass for root)")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	// Not t.TempDir: its parent is private to root.
	dir, err := os.MkdirTemp("", "wisp-edit-other")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir}
	for _, kv := range renameEnv(t) {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, dir, env
}

// A file the user may not write is refused, though its folder would let a
// new file take its place; it keeps its content, mode and name, and no
// temporary file is left.
func TestEditWriteRefusesReadOnlyFile(t *testing.T) {
	cred, dir, env := otherUser(t)
	p := writeFile(t, dir, "sum.go", sumSrc, 0o444)
	if err := os.Chown(p, int(cred.Uid), int(cred.Gid)); err != nil {
		t.Fatal(err)
	}
	errOut, code := editWrite(t, cred, env, p)
	if code != exitTrouble || !strings.Contains(errOut, "not writable") {
		t.Fatalf("exit %d, stderr %q; want %d and a refusal saying the file is not writable", code, errOut, exitTrouble)
	}
	if mustRead(t, p) != sumSrc {
		t.Fatal("a read-only file was rewritten")
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o444 {
		t.Fatalf("mode %v, want 0444", fi.Mode().Perm())
	}
	assertOnly(t, dir, "sum.go")
}

// Another user's files in a folder the user may write: one the user may
// not write is refused, and one the user may write is written in place, so
// its owner does not change.
func TestEditWriteKeepsOwnerOfOthersFiles(t *testing.T) {
	cred, dir, env := otherUser(t)
	locked := writeFile(t, dir, "locked.go", sumSrc, 0o644)
	open := writeFile(t, dir, "open.go", sumSrc, 0o666)
	if err := os.Chmod(open, 0o666); err != nil { // past the umask
		t.Fatal(err)
	}

	errOut, code := editWrite(t, cred, env, locked)
	if code != exitTrouble || !strings.Contains(errOut, "not writable") {
		t.Fatalf("root's 0644 file: exit %d, stderr %q; want a refusal", code, errOut)
	}
	if mustRead(t, locked) != sumSrc {
		t.Fatal("root's 0644 file was rewritten by nobody")
	}
	if uid, _ := owner(t, locked); uid != 0 {
		t.Fatalf("root's 0644 file now belongs to uid %d", uid)
	}

	errOut, code = editWrite(t, cred, env, open)
	if code != 0 {
		t.Fatalf("root's 0666 file: exit %d, stderr %s", code, errOut)
	}
	if mustRead(t, open) != sumRenamedSrc {
		t.Fatalf("root's 0666 file holds:\n%s", mustRead(t, open))
	}
	if uid, gid := owner(t, open); uid != 0 || gid != 0 {
		t.Fatalf("root's 0666 file now belongs to %d:%d", uid, gid)
	}
	if !strings.Contains(errOut, "in place") {
		t.Errorf("stderr does not say the file was written in place: %s", errOut)
	}

	// Written in place by nobody, root's setuid file would lose the bit
	// for good: refused.
	setuid := writeFile(t, dir, "setuid.go", sumSrc, 0o666)
	want := 0o666 | os.ModeSetuid
	if err := os.Chmod(setuid, want); err != nil {
		t.Fatal(err)
	}
	errOut, code = editWrite(t, cred, env, setuid)
	if code != exitTrouble || !strings.Contains(errOut, "only its owner may set again") {
		t.Fatalf("root's setuid file: exit %d, stderr %q; want a refusal saying why", code, errOut)
	}
	if fi, _ := os.Stat(setuid); mustRead(t, setuid) != sumSrc || fi.Mode()&(os.ModePerm|os.ModeSetuid) != want {
		t.Fatalf("root's setuid file was changed: mode %v", fi.Mode())
	}
	assertOnly(t, dir, "locked.go", "open.go", "setuid.go")
}

// Root editing another user's file leaves it that user's.
func TestEditWriteKeepsOwner(t *testing.T) {
	cred, dir, env := otherUser(t)
	p := writeFile(t, dir, "sum.go", sumSrc, 0o640)
	if err := os.Chown(p, int(cred.Uid), int(cred.Gid)); err != nil {
		t.Fatal(err)
	}
	if errOut, code := editWrite(t, nil, env, p); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if mustRead(t, p) != sumRenamedSrc {
		t.Fatal("not written")
	}
	if uid, gid := owner(t, p); uid != cred.Uid || gid != cred.Gid {
		t.Fatalf("owner %d:%d, want %d:%d", uid, gid, cred.Uid, cred.Gid)
	}
}

// A file with two names is written in place: both names show the edit,
// they are still one file, and the user is told why it was not atomic.
func TestEditWriteKeepsHardLinks(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "sum.go", sumSrc, 0o644)
	other := filepath.Join(dir, "other.go")
	if err := os.Link(p, other); err != nil {
		t.Fatal(err)
	}
	errOut, code := editWrite(t, nil, renameEnv(t), p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, name := range []string{p, other} {
		if mustRead(t, name) != sumRenamedSrc {
			t.Errorf("%s keeps the old content", filepath.Base(name))
		}
	}
	a, _ := os.Stat(p)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the link was broken")
	}
	if !strings.Contains(errOut, "hard links") {
		t.Errorf("stderr does not say why it wrote in place: %s", errOut)
	}
}

// The setuid and setgid bits survive --write.
func TestEditWriteKeepsSetuid(t *testing.T) {
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o755)
	want := 0o755 | os.ModeSetuid | os.ModeSetgid
	if err := os.Chmod(p, want); err != nil {
		t.Fatal(err)
	}
	if errOut, code := editWrite(t, nil, renameEnv(t), p); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if mustRead(t, p) != sumRenamedSrc {
		t.Fatal("not written")
	}
	if fi, _ := os.Stat(p); fi.Mode()&(os.ModePerm|os.ModeSetuid|os.ModeSetgid) != want {
		t.Fatalf("mode %v, want %v", fi.Mode(), want)
	}
}

// A symbolic link is followed: its target gets the edit, the link stays a
// link, and the user is told which file was written.
func TestEditWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, dir, "real.go", sumSrc, 0o644)
	link := filepath.Join(dir, "link.go")
	if err := os.Symlink("real.go", link); err != nil {
		t.Fatal(err)
	}
	errOut, code := editWrite(t, nil, renameEnv(t), link)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if mustRead(t, target) != sumRenamedSrc {
		t.Fatal("the target was not written")
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if !strings.Contains(errOut, "symbolic link") || !strings.Contains(errOut, target) {
		t.Fatalf("stderr does not name the file written: %s", errOut)
	}
}

// A FIFO is refused at once, in diff mode and with --write, instead of
// waiting for a writer that never comes.
func TestEditRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	env := renameEnv(t)
	for _, args := range [][]string{{"edit", fifo, "-m", "rename"}, {"edit", fifo, "-m", "rename", "--write"}} {
		_, errOut, code := run(t, env, "", args...)
		if code != exitTrouble || !strings.Contains(errOut, "not a regular file") || !strings.Contains(errOut, "FIFO") {
			t.Errorf("wisp %s: exit %d, stderr %q; want a refusal naming the FIFO", strings.Join(args, " "), code, errOut)
		}
	}
}

// assertOnly fails unless dir holds exactly names, in order.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}
