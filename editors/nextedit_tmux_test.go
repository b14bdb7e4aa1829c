package editors

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestNeovim012NextEditInTmux follows editors/README.md's Neovim steps
// with next edits turned on, as a person does: Neovim 0.12.4 in a
// terminal, `nvim calc.go`, total renamed to sum at its declaration in
// insert mode, then a pause. The renamed uses must show on screen under
// the lines they replace, in a colour of their own; <Tab> must move the
// cursor to the first of them and change nothing, and a second <Tab> must
// make them real text.
func TestNeovim012NextEditInTmux(t *testing.T) {
	bin := nvim012(t)
	requireFiles(t, "tmux", "/usr/bin/tmux")
	ms := startOracleModelServer(t, map[string]string{"calc.go": meanRenamed}, []reply{completeHello})

	// With next edits on, as the README's Neovim section says.
	s, file := startNvimTmux(t, bin, ms, "nextEdit = { enabled = true }", "calc.go", meanGo)

	// Line 5 is "\ttotal := 0.0": the screen shows tabs as 8 spaces.
	s.text("5G^ciwsum")
	// Back to normal mode, as one does after a rename: the model may
	// offer ghost text after "sum" (the rest of the line), which is drawn
	// in the line while in insert mode.
	s.keys("Escape")
	s.waitScreen(20*time.Second, "        sum := 0.0")
	shown := s.waitScreen(20*time.Second, "                sum += x")
	t.Logf("pause → suggestion on screen: %.0f ms after the rename was on screen (the plugin waits nextEdit.minPause, 300 ms, first)",
		float64(shown.Microseconds())/1000)
	colours := s.screen(true)
	if line := screenLine(colours, "sum += x"); !strings.HasPrefix(line, "\x1b[") {
		t.Errorf("the suggested line is drawn like the code: %q", line)
	}
	// The first line showing total is line 7; its total has a colour.
	if line := screenLine(colours, "total"); !strings.Contains(line, "mtotal\x1b[") {
		t.Errorf("what the suggestion replaces is not marked: %q", line)
	}
	s.keys("Tab")
	waitFor(t, 10*time.Second, "the first <Tab> moves the cursor to total on line 7", func() (bool, string) {
		out, _ := s.run("display-message", "-p", "-t", "editor", "#{cursor_y} #{cursor_x}")
		return strings.TrimSpace(out) == "6 16", "cursor at (y x) " + out
	})
	if screen := s.screen(false); !strings.Contains(screen, "total += x") {
		t.Fatalf("the first <Tab> changed the text:\n%s", screen)
	}
	s.keys("Tab")
	waitFor(t, 10*time.Second, "the second <Tab> makes the suggestion real text", func() (bool, string) {
		screen := s.screen(false)
		return !strings.Contains(screen, "total") && strings.Contains(screen, "return sum / float64(len(xs))"), screen
	})
	s.keys("Escape")
	s.text(":w")
	s.keys("Enter")
	waitFor(t, 10*time.Second, "calc.go saved with the uses renamed", func() (bool, string) {
		data, _ := os.ReadFile(file)
		return string(data) == meanRenamed, string(data)
	})
	s.text(":qa")
	s.keys("Enter")
	s.waitQuit("Neovim")
}
