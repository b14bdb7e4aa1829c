package editors

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestNeovim012InTmux follows editors/README.md's Neovim steps as a person
// does: Neovim 0.12.4 in a terminal, an init.lua with the two lines the
// README gives (the model in init_options), `nvim main.go`, "hello" typed
// in insert mode; the ghost text must show on screen in a colour of its
// own, and <Tab> must make it real text. The other Neovim tests drive
// Neovim headless over RPC; this one reads what a person would see.
func TestNeovim012InTmux(t *testing.T) {
	bin := nvim012(t)
	requireFiles(t, "tmux", "/usr/bin/tmux")
	ms := startModelServer(t, []reply{completeHello}, measured)

	s, file := startNvimTmux(t, bin, ms, "", "main.go", goSource)

	// README step 3: type in insert mode; ghost text appears; Tab accepts.
	s.keys("4G", "A")
	s.typeHelloForGhost()
	if data, _ := os.ReadFile(file); strings.Contains(string(data), "_world") {
		t.Fatal("the ghost text reached the file before it was accepted")
	}
	s.keys("Tab")
	// The accept is scheduled, and <Esc> before it would abort it: wait
	// until the text is real (no colour change inside it).
	// (Only the name: Neovim highlights the matching brackets.)
	waitFor(t, 10*time.Second, "hello_world drawn as text after <Tab>", func() (bool, string) {
		line := screenLine(s.screen(true), "_world")
		return strings.Contains(line, "hello_world"), line
	})
	s.keys("Escape")
	s.text(":w")
	s.keys("Enter")
	waitFor(t, 10*time.Second, "main.go saved with the accepted text", func() (bool, string) {
		data, _ := os.ReadFile(file)
		lines := strings.Split(string(data), "\n")
		return len(lines) > 3 && lines[3] == "\thello_world()", string(data)
	})
	// Quit as a person does, so that Neovim has written its state in HOME
	// before the test removes it.
	s.text(":qa")
	s.keys("Enter")
	s.waitQuit("Neovim")
}

// startNvimTmux follows editors/README.md's Neovim steps 1 and 2 as a
// person does: an init.lua that puts the plugin on the runtime path and
// calls setup with the model server ms as the model, plus initOptions
// (more init_options fields in Lua, or ""); name written with content in a
// project folder; `nvim name` with Neovim bin in tmux. It returns once
// Neovim says its wisp client is initialized, with the file's path. Tests
// end by quitting Neovim (:qa, then waitQuit).
func startNvimTmux(t *testing.T, bin string, ms *modelServer, initOptions, name, content string) (*tmuxSession, string) {
	t.Helper()
	if initOptions != "" {
		initOptions = ", " + initOptions
	}
	initLua := fmt.Sprintf(`vim.opt.rtp:append([==[%s]==])
require("wisp").setup{ init_options = { model = { provider = "openai-ws", endpoint = [==[%s]==], model = "test" }%s } }
`, repoFile(t, "nvim"), ms.endpoint(), initOptions)
	return startTerminalEditor(t, terminalEditor{
		home:    map[string]string{".config/nvim/init.lua": initLua},
		file:    name,
		content: content,
		argv:    []string{bin},
		ready: func(s *tmuxSession) {
			// Ready when Neovim says its wisp client is initialized.
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
		},
	})
}

// TestNeovim012ModelDownIsSaidOnScreen: the model goes down while the
// user types in insert mode, where Neovim keeps "-- INSERT --" in the
// message line over anything the plugin echoes. The plugin says it again
// once insert mode is left, so the person sees it on screen, not only in
// :messages.
func TestNeovim012ModelDownIsSaidOnScreen(t *testing.T) {
	bin := nvim012(t)
	requireFiles(t, "tmux", "/usr/bin/tmux")
	ms := startModelServer(t, []reply{completeHello}, measured)
	s, _ := startNvimTmux(t, bin, ms, "", "main.go", goSource)
	ms.stop(t)
	s.keys("4G", "A")
	// Two seconds of typing: wisp learns of the refused connection at the
	// first key, long before the last.
	s.typePaced(100*time.Millisecond, "fmt.Println(x, y, z)")
	s.keys("Escape")
	s.waitScreen(10*time.Second, "wisp: model unavailable")
	s.text(":qa!")
	s.keys("Enter")
	s.waitQuit("Neovim")
}
