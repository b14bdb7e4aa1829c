package editors

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxSession is a terminal editor running in its own tmux server, driven
// with send-keys and read with capture-pane, as a person at a terminal
// would see it.
type tmuxSession struct {
	t      *testing.T
	socket string // tmux -S: the server of this session alone
}

// terminalEditor is a terminal editor as a person sets it up: their own
// configuration files, a file in a project folder, and the command that
// opens it.
type terminalEditor struct {
	home    map[string]string // the user's files: path in the home folder → content
	file    string            // the name of the file opened, in the project folder
	content string            // the file's content
	argv    []string          // the command, which gets the file's name last
	env     []string          // more environment, after terminal's own
	// ready returns once the editor is ready to type into, or fails the
	// test.
	ready func(*tmuxSession)
}

// startTerminalEditor writes e's files into a new home folder and project
// folder and runs e's command on its file in a new 120×30 tmux session in
// the project folder, in a person's terminal environment: the home folder
// as HOME (and its .config as XDG_CONFIG_HOME), a colour terminal, the wisp under test first on PATH, wisp
// logging into the test's folder (shown if the test fails), then e.env.
// It returns once e.ready does, with the file's path. The tmux server is
// killed at cleanup.
func startTerminalEditor(t *testing.T, e terminalEditor) (*tmuxSession, string) {
	t.Helper()
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	file := filepath.Join(proj, e.file)
	files := map[string]string{file: e.content}
	for name, content := range e.home {
		files[filepath.Join(home, name)] = content
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append([]string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"TERM=xterm-256color",
		"PATH=" + filepath.Dir(wispBinary(t)) + ":" + os.Getenv("PATH"),
	}, wispLogEnv(t, dir)...)
	env = append(env, e.env...)

	s := &tmuxSession{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	args := append([]string{"new-session", "-d", "-s", "editor", "-x", "120", "-y", "30", "-c", proj, "--", "env"}, env...)
	args = append(append(args, e.argv...), e.file)
	if out, err := s.run(args...); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	out, err := s.run("display-message", "-p", "-t", "editor", "#{pane_pid}")
	sid, convErr := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || convErr != nil {
		t.Fatalf("tmux display-message: %v %v: %s", err, convErr, out)
	}
	t.Cleanup(func() {
		s.run("kill-server")
		// The editor and what it started (its language servers) may still
		// be writing into the test's folders; wait until they are gone,
		// or removing those folders fails.
		for end := time.Now().Add(10 * time.Second); sessionAlive(sid) && time.Now().Before(end); {
			time.Sleep(20 * time.Millisecond)
		}
	})
	e.ready(s)
	return s, file
}

// sessionAlive reports whether a process of session sid (the pane's
// process, which tmux made a session leader) is still running.
func sessionAlive(sid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...; comm may hold spaces.
		rest := string(data)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		if fields := strings.Fields(rest); len(fields) > 3 && fields[3] == strconv.Itoa(sid) {
			return true
		}
	}
	return false
}

func (s *tmuxSession) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	return string(out), err
}

// keys sends tmux key names (e.g. "C-x", "Enter").
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	if out, err := s.run(append([]string{"send-keys", "-t", "editor"}, keys...)...); err != nil {
		s.t.Fatalf("tmux send-keys %q: %v: %s", keys, err, out)
	}
}

// text types text literally.
func (s *tmuxSession) text(text string) {
	s.t.Helper()
	if out, err := s.run("send-keys", "-t", "editor", "-l", text); err != nil {
		s.t.Fatalf("tmux send-keys -l %q: %v: %s", text, err, out)
	}
}

// typePaced types text one key at a time, gap apart, as a person types;
// it returns once the last key is sent.
func (s *tmuxSession) typePaced(gap time.Duration, text string) {
	s.t.Helper()
	for i, r := range text {
		if i > 0 {
			time.Sleep(gap) // paces the input; nothing is timed by it
		}
		s.text(string(r))
	}
}

// screen returns what the terminal shows, with colours as escape
// sequences when colours is true.
func (s *tmuxSession) screen(colours bool) string {
	s.t.Helper()
	args := []string{"capture-pane", "-p", "-t", "editor"}
	if colours {
		args = append(args, "-e")
	}
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v: %s", err, out)
	}
	return out
}

// waitScreen reads the screen as fast as tmux answers until it shows want,
// and returns how long that took (the figure the editor tests report as
// keystroke → ghost text), or fails the test after timeout.
func (s *tmuxSession) waitScreen(timeout time.Duration, want string) time.Duration {
	s.t.Helper()
	start := time.Now()
	for {
		screen := s.screen(false)
		if strings.Contains(screen, want) {
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			s.t.Fatalf("the screen never showed %q; last seen:\n%s", want, screen)
		}
	}
}

// typeHelloForGhost types "hello" where the cursor is, waits for the ghost
// text "_world()" after it (a model server with completeHello and the
// measured pace), logs how long that took, and checks that the ghost text
// is drawn in a colour of its own.
func (s *tmuxSession) typeHelloForGhost() {
	s.t.Helper()
	s.text("hello")
	shown := s.waitScreen(20*time.Second, "hello_world()")
	s.t.Logf("keystroke → ghost text on screen: %.0f ms (model: %v to the first token, %v each way; screen read by tmux capture-pane)",
		float64(shown.Microseconds())/1000, measured.ttft, measured.delay)
	if line := screenLine(s.screen(true), "_world()"); !strings.Contains(line, "hello\x1b[") {
		s.t.Errorf("the ghost text is drawn like the code before it: %q", line)
	}
}

// waitQuit waits until the editor has quit (its tmux session is gone);
// what names the editor in the failure.
func (s *tmuxSession) waitQuit(what string) {
	s.t.Helper()
	waitFor(s.t, 10*time.Second, what+" quits", func() (bool, string) {
		out, err := s.run("has-session", "-t", "editor")
		return err != nil, out
	})
}

// screenLine returns the screen line (0-based) that contains want, or "".
func screenLine(screen, want string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}
