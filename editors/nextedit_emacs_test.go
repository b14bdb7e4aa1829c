package editors

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestEmacsLspModeNextEditCodeAction follows editors/README.md's Emacs
// section with next edits on: Emacs 28 and lsp-mode in a terminal, total
// renamed to sum at its declaration, a pause, then `M-x
// lsp-execute-code-action`, which runs "wisp: apply suggested edit" at
// once, the only action there (or, among others, has it picked from its
// list): the uses must be renamed on screen and in the saved file.
func TestEmacsLspModeNextEditCodeAction(t *testing.T) {
	requireEmacsLspMode(t)
	ms := startOracleModelServer(t, map[string]string{"calc.go": meanRenamed}, []reply{completeHello})

	// The README's init.el, and the setting its next-edit paragraph gives.
	s, file := startEmacsTmux(t, ms, "\n(setq wisp-initialization-options '(:nextEdit (:enabled t)))\n", "calc.go", meanGo)
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
		// while it quits, so M-x waits for its "Quit". A message of
		// lsp-mode's can take the echo area from it at once, and then
		// the M-x prompt below is what tells whether the keys arrived.
		s.keys("C-g")
		seen("Quit")
		s.keys("Escape", "x") // M-x, spelled out as emacsCount does M-:
		if !seen("M-x") {
			continue
		}
		s.text("lsp-execute-code-action")
		s.keys("Enter")
		// The only action there (Mean has its doc comment and its body)
		// lsp-mode runs at once (lsp-auto-execute-action); among others,
		// it asks which. Before the suggestion is ready it says "No code
		// actions", and the next round asks again.
		if applied = renamedWithin(s, 2*time.Second); applied {
			break
		}
		if !seen("Select code action") {
			continue
		}
		s.text("wisp: apply suggested edit")
		s.keys("Enter")
		applied = renamedWithin(s, 2*time.Second)
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
	s.waitQuit("Emacs")
}

// renamedWithin reports whether the screen of s shows Mean's uses renamed
// within d.
func renamedWithin(s *tmuxSession, d time.Duration) bool {
	for wait := time.Now().Add(d); time.Now().Before(wait); {
		screen := s.screen(false)
		if strings.Contains(screen, "return sum / float64(len(xs))") && !strings.Contains(screen, "total") {
			return true
		}
	}
	return false
}
