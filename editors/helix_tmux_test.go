package editors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelixInTmux follows editors/README.md's Helix steps as a person does:
// Helix 25.07 in a terminal, helix/languages.toml and helix/config.toml as
// the user's own, the model in wisp's own config.toml, `hx main.go`,
// "hello" typed in insert mode a key every 80 ms (a fast typist); wisp's
// item must show in Helix's completion menu, and Tab then Enter must make
// it real text. Helix has no ghost text. With completion-timeout = 5 it
// asks after "he" and sends nothing more while that request is in flight;
// wisp's answer follows the keys typed since (the scripted model answers
// "hello" alone). TestHelixModelDownInTmux types faster, a key every 30
// ms, where without that the menu never comes.
func TestHelixInTmux(t *testing.T) {
	ms := startModelServer(t, []reply{completeHello}, measured)
	s, file := startHelixTmux(t, ms)

	// README step 2: at the end of line 4, the empty line inside main.
	s.keys("4", "g", "g", "A")
	s.waitScreen(10*time.Second, "INS")
	typeHelloInHelix(s, 80*time.Millisecond)

	// Tab picks the item, Enter accepts it; then save.
	s.keys("Tab")
	s.keys("Enter")
	s.keys("Escape")
	s.waitScreen(10*time.Second, "NOR")
	s.text(":w")
	s.keys("Enter")
	want := strings.Replace(goSource, "\t\n", "\thello_world()\n", 1)
	waitFor(t, 10*time.Second, "Helix saves the accepted item", func() (bool, string) {
		data, err := os.ReadFile(file)
		return err == nil && string(data) == want, fmt.Sprintf("%q; screen:\n%s", data, s.screen(false))
	})
}

// TestHelixModelDownInTmux: README steps 2 and 3, "hello" typed a key
// every 30 ms first (its item shows only because wisp's answer follows
// the keys Helix typed while its request was in flight). Helix shows no
// wisp/status, so
// when the model goes down the user is told once, as a message on
// Helix's bottom line, over 20 keys each of which may ask wisp; no request
// answers an error; when the model is back (same address, Helix not
// restarted) the user is told once again and the menu has wisp's item.
// The messages are counted in Helix's own log of its LSP traffic (a
// message stays on screen only until the next key).
func TestHelixModelDownInTmux(t *testing.T) {
	ms := startModelServer(t, []reply{completeHello}, measured)
	logFile := filepath.Join(t.TempDir(), "helix.log")
	s, _ := startHelixTmux(t, ms, "-vvv", "--log", logFile)
	received := func(what string) []string {
		data, _ := os.ReadFile(logFile)
		var out []string
		for _, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "transport") && strings.Contains(l, "wisp <- ") && strings.Contains(l, what) {
				out = append(out, l[strings.Index(l, "wisp <- "):])
			}
		}
		return out
	}

	s.keys("4", "g", "g", "A")
	s.waitScreen(10*time.Second, "INS")
	typeHelloInHelix(s, 30*time.Millisecond)

	ms.stop(t)
	s.keys("Escape")
	s.waitScreen(10*time.Second, "NOR")
	s.text("o")
	s.waitScreen(10*time.Second, "INS")
	s.typePaced(30*time.Millisecond, "abcdefghijklmnopqrst")
	waitFor(t, 10*time.Second, "Helix hears that the model is down", func() (bool, string) {
		return len(received("window/showMessage")) > 0, s.screen(false)
	})

	startModelServerAt(t, ms.addr, []reply{completeHello}, measured)
	// The model's connection retries on a backoff; Helix asks only on a
	// key, so ask again on a fresh line, every 3 s, until wisp's item
	// comes.
	var asked time.Time
	waitFor(t, 30*time.Second, "wisp's item in the menu after the model came back", func() (bool, string) {
		screen := s.screen(false)
		if strings.Contains(screen, "hello_world()") {
			return true, ""
		}
		if time.Since(asked) > 3*time.Second {
			s.keys("Escape")
			s.waitScreen(10*time.Second, "NOR")
			s.text("o")
			s.waitScreen(10*time.Second, "INS")
			s.typePaced(30*time.Millisecond, "hello")
			asked = time.Now()
		}
		return false, screen
	})
	waitFor(t, 10*time.Second, "Helix hears that the model is back", func() (bool, string) {
		return len(received("window/showMessage")) > 1, strings.Join(received("window/showMessage"), "\n")
	})
	msgs := received("window/showMessage")
	if len(msgs) != 2 || !strings.Contains(msgs[0], `"type":2,"message":"wisp: model unavailable`) ||
		!strings.Contains(msgs[1], `"type":3,"message":"wisp: the model answers again"`) {
		t.Errorf("messages Helix received: %q; want one warning that the model is unavailable and one that it is back", msgs)
	}
	if errs := received(`"error":`); len(errs) != 0 {
		t.Errorf("wisp answered Helix with errors: %q", errs)
	}
}

// typeHelloInHelix types "hello" a key every gap, waits for wisp's item in
// Helix's completion menu and logs how long after the last key it came.
func typeHelloInHelix(s *tmuxSession, gap time.Duration) {
	s.t.Helper()
	s.typePaced(gap, "hello")
	shown := s.waitScreen(20*time.Second, "hello_world()")
	s.t.Logf("last keystroke → completion menu on screen, keys %v apart: %.0f ms (model: %v to the first token, %v each way; screen read by tmux capture-pane)",
		gap, float64(shown.Microseconds())/1000, measured.ttft, measured.delay)
}

// startHelixTmux sets Helix 25.07 up as editors/README.md's Helix steps
// say — helix/languages.toml and helix/config.toml as the user's own, the
// model ms in ~/.config/wisp/config.toml — and runs `hx ARGS main.go` in
// tmux, in normal mode on main.go (goSource), which it returns.
func startHelixTmux(t *testing.T, ms *modelServer, args ...string) (*tmuxSession, string) {
	t.Helper()
	bin := filepath.Join(editorsDir(), "hx-25.07")
	requireFiles(t, "Helix 25.07", bin, "/usr/bin/tmux")
	// README step 1: the snippets as the whole languages.toml and
	// config.toml, and the model in ~/.config/wisp/config.toml.
	languages, err := os.ReadFile(repoFile(t, "helix/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	editorConfig, err := os.ReadFile(repoFile(t, "helix/config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return startTerminalEditor(t, terminalEditor{
		home: map[string]string{
			".config/helix/languages.toml": string(languages),
			".config/helix/config.toml":    string(editorConfig),
			".config/wisp/config.toml":     fmt.Sprintf("[model]\nprovider = \"openai-ws\"\nendpoint = %q\nmodel = \"test\"\n", ms.endpoint()),
		},
		file:    "main.go",
		content: goSource,
		argv:    append([]string{bin}, args...),
		ready:   func(s *tmuxSession) { s.waitScreen(30*time.Second, "NOR") },
	})
}
