package editors

import (
	"os/exec"
	"path/filepath"
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

// startTmux runs argv in a new 120×30 tmux session in dir, with env added
// to the environment through env(1). The tmux server is killed at cleanup.
func startTmux(t *testing.T, dir string, env []string, argv ...string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	args := append([]string{"new-session", "-d", "-s", "editor", "-x", "120", "-y", "30", "-c", dir, "--", "env"}, env...)
	if out, err := s.run(append(args, argv...)...); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() { s.run("kill-server") })
	return s
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

// screenLine returns the screen line (0-based) that contains want, or "".
func screenLine(screen, want string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}
