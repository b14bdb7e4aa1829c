package editors

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEmacsLspModeNextEditCodeAction follows editors/README.md's Emacs
// section with next edits on: Emacs 28 and lsp-mode in a terminal, total
// renamed to sum at its declaration, a pause, then `M-x
// lsp-execute-code-action` and "wisp: apply suggested edit" picked from its
// list: the uses must be renamed on screen and in the saved file.
func TestEmacsLspModeNextEditCodeAction(t *testing.T) {
	src := filepath.Join(editorsDir(), "emacs-lsp-mode", "usr", "share", "emacs", "site-lisp", "elpa-src")
	requireFiles(t, "Emacs 28 with lsp-mode 10 and go-mode", "/usr/bin/emacs", "/usr/bin/tmux",
		filepath.Join(src, "lsp-mode-10.0.0"), filepath.Join(src, "f-0.21.0"),
		"/usr/share/emacs/site-lisp/elpa/go-mode-1.6.0")
	ms := startOracleModelServer(t, map[string]string{"calc.go": meanRenamed}, []reply{completeHello})

	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for _, d := range []string{filepath.Join(home, ".emacs.d"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The README's init.el, and the setting its next-edit paragraph gives.
	initEl := readmeElisp(t) + "\n(setq wisp-initialization-options '(:nextEdit (:enabled t)))\n"
	if err := os.WriteFile(filepath.Join(home, ".emacs.d", "init.el"), []byte(initEl), 0o644); err != nil {
		t.Fatal(err)
	}
	// As in TestEmacsLspModeInlineCompletion: no background native compilation.
	early := "(setq native-comp-deferred-compilation nil)\n"
	if err := os.WriteFile(filepath.Join(home, ".emacs.d", "early-init.el"), []byte(early), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, "calc.go")
	if err := os.WriteFile(file, []byte(meanGo), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append([]string{
		"HOME=" + home,
		"TERM=xterm-256color",
		"PATH=" + filepath.Dir(wispBinary(t)) + ":" + os.Getenv("PATH"),
	}, ms.env()...)
	env = append(env, wispLogEnv(t, dir)...)
	s := startTmux(t, proj, env, "emacs", "calc.go")
	waitFor(t, 60*time.Second, "lsp-mode runs wisp (LSP[wisp…] in the mode line)", func() (bool, string) {
		screen := s.screen(false)
		return strings.Contains(screen, "LSP[wisp"), screen
	})
	// Line 5 is "\ttotal := 0.0": to the end of total, delete it, type sum.
	s.keys("C-x", "1", "M-g", "g", "5", "Enter", "C-a", "M-f", "M-BSpace")
	s.text("sum")
	s.waitScreen(10*time.Second, "sum := 0.0")

	// seen reports whether the screen shows want within a second.
	seen := func(want string) bool {
		for wait := time.Now().Add(time.Second); time.Now().Before(wait); {
			if strings.Contains(s.screen(false), want) {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(30 * time.Second)
	for applied := false; !applied; {
		if time.Now().After(deadline) {
			t.Fatalf("the code action never renamed the uses:\n%s", s.screen(false))
		}
		// C-g leaves a minibuffer left open; Emacs drops the keys typed
		// while it quits, so M-x waits for its "Quit".
		s.keys("C-g")
		s.waitScreen(10*time.Second, "Quit")
		s.keys("Escape", "x") // M-x, spelled out as emacsCount does M-:
		if !seen("M-x") {
			continue
		}
		s.text("lsp-execute-code-action")
		s.keys("Enter")
		if !seen("code action") {
			continue
		}
		s.text("wisp: apply suggested edit")
		s.keys("Enter")
		for wait := time.Now().Add(2 * time.Second); !applied && time.Now().Before(wait); {
			screen := s.screen(false)
			applied = strings.Contains(screen, "return sum / float64(len(xs))") && !strings.Contains(screen, "total")
		}
	}
	// No C-g first: Emacs would drop the keys typed while it quits.
	s.keys("C-x", "C-s")
	waitFor(t, 10*time.Second, "calc.go saved with the uses renamed", func() (bool, string) {
		data, _ := os.ReadFile(file)
		return string(data) == meanRenamed, string(data) + "\nscreen:\n" + s.screen(false)
	})
	// Quit, so that Emacs has written its state in HOME before the test
	// removes it.
	s.keys("C-x", "C-c")
	waitFor(t, 10*time.Second, "Emacs quits", func() (bool, string) {
		out, err := s.run("has-session", "-t", "editor")
		return err != nil, out
	})
}
