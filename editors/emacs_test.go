package editors

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeElisp returns the Emacs init code of editors/README.md (its elisp
// block) with the placeholders a reader fills in filled in: where the
// repository is, and where install.sh put the editors.
func readmeElisp(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(data)
	start := strings.Index(section, "## Emacs")
	if start < 0 {
		t.Fatal("editors/README.md has no Emacs section")
	}
	section = section[start:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	m := regexp.MustCompile("(?s)```elisp\n(.*?)```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the Emacs section of editors/README.md has no elisp block")
	}
	var lines []string
	for _, l := range strings.Split(m[1], "\n") {
		lines = append(lines, strings.TrimPrefix(l, "   ")) // the block is indented under a list item
	}
	code := strings.Join(lines, "\n")
	code = strings.ReplaceAll(code, "~/.cache/wisp-editors", editorsDir())
	return strings.ReplaceAll(code, "/path/to/wisp", filepath.Dir(repoFile(t, ".")))
}

// TestEmacsLspModeInlineCompletion follows editors/README.md: Emacs 28 in a
// terminal, init.el as the README writes it, a Go file opened with `emacs
// main.go`; typing "hello" must bring ghost text by itself.
func TestEmacsLspModeInlineCompletion(t *testing.T) {
	src := filepath.Join(editorsDir(), "emacs-lsp-mode", "usr", "share", "emacs", "site-lisp", "elpa-src")
	requireFiles(t, "Emacs 28 with lsp-mode 10 and go-mode", "/usr/bin/emacs", "/usr/bin/tmux",
		filepath.Join(src, "lsp-mode-10.0.0"), filepath.Join(src, "f-0.21.0"),
		"/usr/share/emacs/site-lisp/elpa/go-mode-1.6.0")
	ms := startModelServer(t, []reply{completeHello}, measured)

	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(home, ".emacs.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".emacs.d", "init.el"), []byte(readmeElisp(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Not a set-up step: Emacs 28 compiles every Lisp file it loads to
	// native code in the background the first time, for minutes of CPU
	// that would make the figure below about this machine, not about wisp.
	early := "(setq native-comp-deferred-compilation nil)\n"
	if err := os.WriteFile(filepath.Join(home, ".emacs.d", "early-init.el"), []byte(early), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "main.go"), []byte(goSource), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append([]string{
		"HOME=" + home,
		"TERM=xterm-256color",
		"PATH=" + filepath.Dir(wispBinary(t)) + ":" + os.Getenv("PATH"),
	}, ms.env()...)
	env = append(env, wispLogEnv(t, dir)...)
	s := startTmux(t, proj, env, "emacs", "main.go")
	waitFor(t, 60*time.Second, "lsp-mode runs wisp (LSP[wisp…] in the mode line)", func() (bool, string) {
		screen := s.screen(false)
		return strings.Contains(screen, "LSP[wisp"), screen
	})
	// Only the Go buffer on screen (Emacs may show a *Warnings* window),
	// then the end of line 4, the empty line inside main.
	s.keys("C-x", "1", "M-g", "g", "4", "Enter", "C-e")
	waitFor(t, 10*time.Second, "the cursor is on line 4", func() (bool, string) {
		screen := s.screen(false)
		return strings.Contains(screen, "L4"), screen
	})

	s.text("hello")
	shown := s.waitScreen(20*time.Second, "hello_world()")
	t.Logf("keystroke → ghost text on screen: %.0f ms (model: %v to the first token, %v each way; screen read by tmux capture-pane)",
		float64(shown.Microseconds())/1000, measured.ttft, measured.delay)
	if line := screenLine(s.screen(true), "_world()"); !strings.Contains(line, "hello\x1b[") {
		t.Errorf("the ghost text is drawn like the code before it: %q", line)
	}
}
