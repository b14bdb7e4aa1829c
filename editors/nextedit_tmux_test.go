package editors

import (
	"fmt"
	"os"
	"path/filepath"
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

	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	config := filepath.Join(home, ".config", "nvim")
	for _, d := range []string{config, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// README steps 1 and 2, with the model server as the model and next
	// edits on as the README's Neovim section says.
	initLua := fmt.Sprintf(`vim.opt.rtp:append([==[%s]==])
require("wisp").setup{ init_options = { model = { provider = "openai-ws", endpoint = [==[%s]==], model = "test" }, nextEdit = { enabled = true } } }
`, repoFile(t, "nvim"), ms.endpoint())
	if err := os.WriteFile(filepath.Join(config, "init.lua"), []byte(initLua), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, "calc.go")
	if err := os.WriteFile(file, []byte(meanGo), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"HOME=" + home,
		"TERM=xterm-256color",
		"PATH=" + filepath.Dir(wispBinary(t)) + ":" + os.Getenv("PATH"),
	}
	env = append(env, wispLogEnv(t, dir)...)
	s := startTmux(t, proj, env, bin, "calc.go")
	deadline := time.Now().Add(30 * time.Second)
	for up := false; !up; {
		if time.Now().After(deadline) {
			t.Fatalf("wisp never came up in Neovim:\n%s", s.screen(false))
		}
		s.keys("Escape")
		s.text(`:lua print(((vim.lsp.get_clients({ name = "wisp" })[1] or {}).initialized and "wisp" or "not") .. "-up")`)
		s.keys("Enter")
		for wait := time.Now().Add(time.Second); !up && time.Now().Before(wait); {
			up = strings.Contains(s.screen(false), "wisp-up")
		}
	}

	// Line 5 is "\ttotal := 0.0": the screen shows tabs as 8 spaces.
	s.text("5G^ciwsum")
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
	waitFor(t, 10*time.Second, "Neovim quits", func() (bool, string) {
		out, err := s.run("has-session", "-t", "editor")
		return err != nil, out
	})
}
