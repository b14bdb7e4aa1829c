package editors

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startProcess starts name (a label for logs) as its own process group in
// dir with extra environment env, logging its output to a file that is
// printed if the test fails. At cleanup the whole group is killed, and so
// is every process that inherited its environment in a group of its own:
// Neovim starts its language servers detached, and a wisp left running
// after its editor would still be writing under the test's directories
// while they are removed.
func startProcess(t *testing.T, label, dir string, env []string, name string, args ...string) *exec.Cmd {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), label+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	owner := ownerVar + "=" + logPath
	cmd.Env = append(append(os.Environ(), env...), owner)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("start %s: %v", label, err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		killDescendants(t, owner)
		logFile.Close()
		if t.Failed() {
			if data, err := os.ReadFile(logPath); err == nil && len(data) > 0 {
				t.Logf("%s output (last 3000 bytes):\n%s", label, tail(string(data), 3000))
			}
		}
	})
	return cmd
}

// ownerVar marks, in its environment, each process a test started and
// everything those processes started in turn.
const ownerVar = "WISP_EDITORS_TEST_OWNER"

// killDescendants kills every process whose environment holds owner (a
// ownerVar=value entry) and waits, up to ten seconds, until none is left.
func killDescendants(t *testing.T, owner string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		pids := processesWith(owner)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes %v outlived their test", pids)
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processesWith returns the live processes whose environment holds entry.
// A killed process that its parent has not reaped yet is not live.
func processesWith(entry string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []int
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !slices.Contains(strings.Split(string(env), "\x00"), entry) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join(d, "stat")); err == nil && zombie(string(stat)) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(d))
		if err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// zombie reports whether a /proc/PID/stat line is a process that has
// exited: its state, after the command name in parentheses, is Z or X.
func zombie(stat string) bool {
	rest := stat[strings.LastIndexByte(stat, ')')+1:]
	state := strings.TrimSpace(rest)
	return strings.HasPrefix(state, "Z") || strings.HasPrefix(state, "X")
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// waitFor polls cond until it holds or timeout passes; then the test fails
// with what and cond's last note. Polling is the only way to see into an
// editor; nothing here asserts on how long anything took.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() (ok bool, note string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(40 * time.Millisecond)
	defer tick.Stop()
	var note string
	for {
		var ok bool
		ok, note = cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s; last seen: %s", what, strings.TrimSpace(note))
		}
		<-tick.C
	}
}

// wispLogEnv makes a wisp started by an editor log to dir at debug level,
// and prints the end of that log if the test fails.
func wispLogEnv(t *testing.T, dir string) []string {
	t.Helper()
	logPath := filepath.Join(dir, "wisp.log")
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		if data, err := os.ReadFile(logPath); err == nil && len(data) > 0 {
			t.Logf("wisp log (last 4000 bytes):\n%s", tail(string(data), 4000))
		}
	})
	return []string{"WISP_LOG_FILE=" + logPath, "WISP_LOG_LEVEL=debug"}
}
