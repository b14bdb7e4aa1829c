package editors

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startProcess starts name (a label for logs) as its own process group in
// dir with extra environment env, logging its output to a file that is
// printed if the test fails. The whole group is killed at cleanup.
func startProcess(t *testing.T, label, dir string, env []string, name string, args ...string) *exec.Cmd {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), label+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
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
		logFile.Close()
		if t.Failed() {
			if data, err := os.ReadFile(logPath); err == nil && len(data) > 0 {
				t.Logf("%s output (last 3000 bytes):\n%s", label, tail(string(data), 3000))
			}
		}
	})
	return cmd
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
