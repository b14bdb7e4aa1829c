package editors

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
	requireEmacsLspMode(t)
	ms := startModelServer(t, []reply{completeHello}, measured)

	s, _ := startEmacsTmux(t, ms, "", "main.go", goSource)
	// The end of line 4, the empty line inside main.
	toLineEnd(t, s, 4)

	s.typeHelloForGhost()

	// The model goes down: 20 keys, each asking wisp, tell the user once
	// (the echo area and the mode line), and print no request errors.
	ms.stop(t)
	s.keys("C-g", "End", "Enter")
	const typed = "fmt.Println(x, y, z)"
	for i := range len(typed) {
		s.text(typed[i : i+1])
		s.waitScreen(10*time.Second, strings.TrimRight(typed[:i+1], " ")) // the screen drops trailing spaces
	}
	waitFor(t, 20*time.Second, "the mode line shows wisp's trouble", func() (bool, string) {
		screen := s.screen(false)
		return strings.Contains(screen, " wisp:"), screen
	})
	if screen := s.screen(false); strings.Contains(screen, "Could not fetch") {
		t.Errorf("a request error reached the echo area:\n%s", screen)
	}
	if n := emacsCount(t, s, "^wisp:"); n > 1 {
		t.Errorf("with the model down wisp spoke %d times over 20 keys, want at most 1", n)
	}

	// It comes back: ghost text again, and one message saying so. wisp.el
	// asks on every change, so "hell" is asked on its own when the test's
	// keys come apart: the model answers it as a model would (with the
	// local engine, which reads the file, it would say "o" alone, and
	// typing that "o" leaves nothing to show).
	completeHell := reply{PrefixEndsWith: "hell", Text: "o_world()"}
	startModelServerAt(t, ms.addr, []reply{completeHello, completeHell}, measured)
	s.keys("Enter")
	s.text("hell")
	deadline := time.Now().Add(30 * time.Second)
	for back := false; !back; {
		if time.Now().After(deadline) {
			t.Fatalf("ghost text did not come back with the model:\n%s", s.screen(false))
		}
		s.text("o")
		for wait := time.Now().Add(2 * time.Second); !back && time.Now().Before(wait); {
			back = strings.Contains(s.screen(false), "hello_world()")
		}
		if !back {
			s.keys("BSpace")
		}
	}
	// wisp tells that the model is back once it has answered, which may
	// be just after the ghost text is drawn.
	waitFor(t, 10*time.Second, "the mode line drops wisp's trouble", func() (bool, string) {
		screen := s.screen(false)
		return !strings.Contains(screen, " wisp:"), screen
	})
	if n := emacsCount(t, s, "model is back"); n != 1 {
		t.Errorf("wisp said %d times that the model is back, want 1", n)
	}
}

// TestEmacsLspModeAcceptedCloserIndented accepts a "}" shown where Enter
// left the if block's body indentation: like a typed "}", which go-mode's
// electric indentation moves back, the accepted one lands at the if's
// level.
func TestEmacsLspModeAcceptedCloserIndented(t *testing.T) {
	requireEmacsLspMode(t)
	ms := startModelServer(t, []reply{closeIf}, measured)
	const src = "package main\n\nfunc main() {\n\tif true {\n\t\thello()\n"
	s, file := startEmacsTmux(t, ms, "", "main.go", src)
	toLineEnd(t, s, 5)
	s.keys("Enter")
	waitFor(t, 20*time.Second, "the ghost \"}\" on line 6", func() (bool, string) {
		screen := s.screen(false)
		return strings.TrimSpace(screenLine(screen, "}")) == "}", screen
	})
	s.keys("Tab")
	data := saved(t, s, file, func(data string) bool { return strings.Contains(data, "}") })
	if lines := strings.Split(data, "\n"); len(lines) < 6 || lines[5] != "\t}" {
		t.Fatalf("the accepted brace is not at the if's level; the file is:\n%s", data)
	}
}

// toLineEnd shows only the file's buffer (Emacs may show a *Warnings*
// window) and puts the cursor at the end of line n.
func toLineEnd(t *testing.T, s *tmuxSession, n int) {
	t.Helper()
	s.keys("C-x", "1", "M-g", "g", strconv.Itoa(n), "Enter", "C-e")
	waitFor(t, 10*time.Second, fmt.Sprintf("the cursor is on line %d", n), func() (bool, string) {
		screen := s.screen(false)
		return strings.Contains(screen, fmt.Sprintf("L%d", n)), screen
	})
}

// saved saves the buffer with C-x C-s and returns file once whole says
// its content is what was saved: Emacs writes the file in place, so a
// read may see it half written.
func saved(t *testing.T, s *tmuxSession, file string, whole func(data string) bool) string {
	t.Helper()
	s.keys("C-x", "C-s")
	var data []byte
	waitFor(t, 10*time.Second, "Emacs saves the file", func() (bool, string) {
		var err error
		data, err = os.ReadFile(file)
		return err == nil && whole(string(data)), string(data) + "\nscreen:\n" + s.screen(false)
	})
	return string(data)
}

// requireEmacsLspMode skips the test unless Emacs 28, lsp-mode 10, go-mode
// and tmux are installed.
func requireEmacsLspMode(t *testing.T) {
	t.Helper()
	src := filepath.Join(editorsDir(), "emacs-lsp-mode", "usr", "share", "emacs", "site-lisp", "elpa-src")
	requireFiles(t, "Emacs 28 with lsp-mode 10 and go-mode", "/usr/bin/emacs", "/usr/bin/tmux",
		filepath.Join(src, "lsp-mode-10.0.0"), filepath.Join(src, "f-0.21.0"),
		"/usr/share/emacs/site-lisp/elpa/go-mode-1.6.0")
}

// startEmacsTmux follows editors/README.md's Emacs steps as a person does:
// the README's init.el followed by extraInit (more Emacs Lisp, or ""),
// name written with content in a project folder, `emacs name` in tmux with
// the model server ms as the model. It returns once lsp-mode runs wisp,
// with the file's path.
func startEmacsTmux(t *testing.T, ms *modelServer, extraInit, name, content string) (*tmuxSession, string) {
	t.Helper()
	return startTerminalEditor(t, terminalEditor{
		home: map[string]string{
			".emacs.d/init.el": readmeElisp(t) + extraInit,
			// Not a set-up step: Emacs 28 compiles every Lisp file it loads
			// to native code in the background the first time, for minutes
			// of CPU that would make the figures the tests log about this
			// machine, not about wisp.
			".emacs.d/early-init.el": "(setq native-comp-deferred-compilation nil)\n",
		},
		file:    name,
		content: content,
		argv:    []string{"emacs"},
		env:     ms.env(),
		ready: func(s *tmuxSession) {
			waitFor(t, 60*time.Second, "lsp-mode runs wisp (LSP[wisp…] in the mode line)", func() (bool, string) {
				screen := s.screen(false)
				return strings.Contains(screen, "LSP[wisp"), screen
			})
		},
	})
}

// TestEmacsAcceptKeysBoundOnce loads editors/README.md's init.el in Emacs
// (batch): wisp-accept-keys must accept ghost text as soon as lsp-mode's
// inline completion is loaded, Customize must move them, and
// lsp-inline-completion-mode starting in a wisp buffer must leave the
// user's own bindings in lsp-inline-completion-active-map alone.
func TestEmacsAcceptKeysBoundOnce(t *testing.T) {
	requireEmacsLspMode(t)
	home := t.TempDir()
	init := filepath.Join(home, "init.el")
	if err := os.WriteFile(init, []byte(readmeElisp(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	const script = `(progn
  (require 'lsp-inline-completion)
  (defun wisp-test-keys (&rest keys)
    (mapconcat (lambda (key) (format "%s=%s" key (lookup-key lsp-inline-completion-active-map (kbd key)))) keys " "))
  (princ (format "loaded: %s\n" (wisp-test-keys "TAB")))
  (customize-set-variable 'wisp-accept-keys '("C-j"))
  (princ (format "customized: %s\n" (wisp-test-keys "TAB" "C-j")))
  (define-key lsp-inline-completion-active-map (kbd "C-j") #'ignore)
  (with-temp-buffer
    (cl-letf (((symbol-function 'wisp--lsp-buffer-p) (lambda () t)))
      (setq-local lsp-inline-completion-mode t)
      (wisp--inline-completion-setup)))
  (princ (format "mode started: %s\n" (wisp-test-keys "C-j"))))`
	cmd := exec.Command("emacs", "--batch", "-q", "-l", init, "--eval", script)
	cmd.Env = append(os.Environ(), "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("emacs --batch: %v\n%s", err, out)
	}
	for _, want := range []string{
		"loaded: TAB=lsp-inline-completion-accept",
		"customized: TAB=nil C-j=lsp-inline-completion-accept",
		"mode started: C-j=ignore",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("Emacs printed no %q:\n%s", want, out)
		}
	}
}

// emacsCount evaluates, in the Emacs of s, how many lines of *Messages*
// match re.
func emacsCount(t *testing.T, s *tmuxSession, re string) int {
	t.Helper()
	// M-:, spelled out: tmux may send M-: in a form Emacs does not read.
	// Keys that come while lsp-mode waits for a reply can be lost, so
	// ask again until the prompt shows.
	for try := 0; ; try++ {
		s.keys("C-g")
		s.keys("Escape", ":")
		deadline := time.Now().Add(2 * time.Second)
		for !strings.Contains(s.screen(false), "Eval:") && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if strings.Contains(s.screen(false), "Eval:") {
			break
		}
		if try == 4 {
			t.Fatalf("Emacs never showed the M-: prompt:\n%s", s.screen(false))
		}
	}
	s.text(fmt.Sprintf(`(message "count=%%d=" (with-current-buffer "*Messages*" (how-many %q (point-min) (point-max))))`, re))
	s.keys("Enter")
	var n int
	waitFor(t, 10*time.Second, "Emacs answers the count", func() (bool, string) {
		screen := s.screen(false)
		m := regexp.MustCompile(`count=(\d+)=`).FindStringSubmatch(screen)
		if m == nil {
			return false, screen
		}
		n, _ = strconv.Atoi(m[1])
		return true, ""
	})
	return n
}

// TestEmacsLspModeStreamedGhostText follows editors/README.md with a reply
// that streams: the ghost text grows piece by piece as the model writes
// it, Tab (the README's key that a terminal passes on) accepts what is on
// screen, C-g dismisses it for good while it streams, and Tab pressed
// right after a key typed into a suggestion on screen never inserts that
// suggestion, only the one for the text as it is now.
func TestEmacsLspModeStreamedGhostText(t *testing.T) {
	requireEmacsLspMode(t)
	long := longHello
	other := reply{PrefixEndsWith: "greet", Text: `_all("streamed to the editor token by token")`}
	// Slow enough that several pieces are drawn before the end.
	ms := startModelServer(t, []reply{long, other}, pace{rate: 25, ttft: measured.ttft, delay: measured.delay})
	s, file := startEmacsTmux(t, ms, "", "main.go", goSource)
	toLineEnd(t, s, 4)

	full := "hello" + long.Text
	s.text("hello")
	start := time.Now()
	var seen []string
	var first time.Duration // until the first piece of ghost text
	for len(seen) == 0 || seen[len(seen)-1] != full {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the whole reply never showed; seen %q", seen)
		}
		line := strings.TrimSpace(screenLine(s.screen(false), "hello"))
		if len(seen) == 0 || seen[len(seen)-1] != line {
			seen = append(seen, line)
			if first == 0 && strings.HasPrefix(line, "hello_") {
				first = time.Since(start)
			}
		}
	}
	t.Logf("keystroke → streamed ghost text on screen: %.0f ms (model: %v to the first token, %v each way, then 25 tokens/s; the whole reply at %.0f ms)",
		float64(first.Microseconds())/1000, measured.ttft, measured.delay, float64(time.Since(start).Microseconds())/1000)
	var partial []string
	for _, g := range seen[:len(seen)-1] {
		if g == "hello" {
			continue
		}
		// wisp closes the brackets and quotes a partial line leaves open.
		if open := strings.TrimRight(g, `")]}`); !strings.HasPrefix(full, open) {
			t.Errorf("ghost text %q does not start a prefix of the reply %q", g, full)
		}
		partial = append(partial, g)
	}
	if len(partial) < 2 {
		t.Errorf("ghost text grew in %d step(s) before the end (%q); want streamed growth in at least 2", len(partial), seen)
	}

	s.keys("Tab")
	// A new line: C-g dismisses the ghost text while it streams, and the
	// rest of the stream does not bring it back.
	s.keys("End", "Enter")
	s.text("greet")
	s.waitScreen(20*time.Second, "greet_")
	s.keys("C-g")
	greetLine := func() string { return strings.TrimSpace(screenLine(s.screen(false), "greet")) }
	waitFor(t, 5*time.Second, "C-g takes the ghost text away", func() (bool, string) {
		line := greetLine()
		return line == "greet", line
	})
	// The reply streams for about half a second more.
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		if line := greetLine(); line != "greet" {
			t.Fatalf("ghost text %q came back after C-g dismissed it", line)
		}
	}
	// Typing goes on: a suggestion for "greet_" shows (the rest of the
	// same reply), then a key typed into it and Tab at once.
	s.text("_")
	s.waitScreen(20*time.Second, "greet_all(")
	s.text("a")
	s.keys("Tab")
	data := saved(t, s, file, func(data string) bool { return data != goSource && strings.HasSuffix(data, "}\n") })
	lines := strings.Split(data, "\n")
	if len(lines) < 5 || lines[3] != "\t"+full {
		t.Fatalf("Tab did not accept the ghost text on screen; the file is:\n%s", data)
	}
	// Tab right after the "a" accepts the suggestion drawn for "greet_a"
	// (the rest of the reply) or, none being drawn yet, indents; never
	// the one on screen for "greet_", which would leave "greet_all(…)a"
	// or "greet_aall(…)".
	rest := "greet" + other.Text
	got := strings.TrimLeft(lines[4], "\t")
	switch {
	case !strings.HasPrefix(rest, got) || !strings.HasPrefix(got, "greet_a"):
		t.Errorf("Tab right after typing inserted %q; want a prefix of %q that starts with greet_a", got, rest)
	case got == "greet_a":
		t.Logf("Tab came before the suggestion for greet_a was drawn: it indented")
	default:
		t.Logf("Tab accepted the suggestion drawn for greet_a")
	}
}

// TestEmacsModelDownAtStartIsSeen: with the model down as Emacs starts,
// wisp's one message saying so comes while lsp-mode is still starting,
// and lsp-mode's own messages ("Unable to autoconfigure company-mode")
// take the echo area from it. wisp.el shows it again once Emacs is idle,
// so the person sees it, and *Messages* still holds it once.
func TestEmacsModelDownAtStartIsSeen(t *testing.T) {
	requireEmacsLspMode(t)
	ms := startModelServer(t, []reply{completeHello}, measured)
	ms.stop(t)
	s, _ := startEmacsTmux(t, ms, "", "main.go", goSource)
	time.Sleep(3 * time.Second) // lsp-mode's start-up messages come and go; nothing is timed by it
	s.waitScreen(10*time.Second, "wisp: model unavailable")
	if n := emacsCount(t, s, "^wisp:"); n != 1 {
		t.Errorf("*Messages* holds %d messages from wisp, want 1", n)
	}
}

// TestEmacsEglotOneServerPerMode runs wisp-eglot-setup in Emacs (batch)
// with Debian's eglot 1.9: every mode of wisp-eglot-modes must get an
// entry of its own in eglot-server-programs. One entry for all of them
// makes eglot 1.9 send every file with the language of the first one it
// opened (main.go as python), and wisp then reads Go as Python.
func TestEmacsEglotOneServerPerMode(t *testing.T) {
	eglot := "/usr/share/emacs/site-lisp/elpa/eglot-1.9"
	requireFiles(t, "Emacs 28 with eglot 1.9", "/usr/bin/emacs", eglot)
	out, err := exec.Command("emacs", "--batch", "-Q", "-L", eglot, "-l", repoFile(t, "emacs/wisp.el"), "--eval", `(progn
  (wisp-eglot-setup)
  (dolist (entry eglot-server-programs)
    (when (eq (cdr entry) #'wisp--eglot-contact)
      (princ (format "%S\n" (car entry))))))`).CombinedOutput()
	if err != nil {
		t.Fatalf("emacs: %v\n%s", err, out)
	}
	var entries []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !strings.HasPrefix(l, "Loading") && l != "" {
			entries = append(entries, l)
		}
	}
	for _, mode := range []string{"python-mode", "go-mode", "rust-mode", "js-mode", "typescript-mode"} {
		if !slices.Contains(entries, mode) {
			t.Errorf("no eglot entry of its own for %s; wisp's entries: %q", mode, entries)
		}
	}
}

// TestEmacsEglot follows editors/README.md's eglot steps in Emacs 28 with
// Debian's eglot 1.9 (wisp.el loaded, wisp-eglot-setup, eglot for Go
// files) and uses it as a person would:
//   - wisp's suggestion is a completion candidate: "hello", then M-Tab
//     (completion-at-point), writes hello_world();
//   - no error comes up in the echo area: eglot 1.9 asks its server for
//     document symbols each time the menu bar is redrawn, which wisp
//     does not offer, and the refusal used to be an error on every
//     command;
//   - with the model gone, the mode line says so and keeps saying it.
func TestEmacsEglot(t *testing.T) {
	eglot := "/usr/share/emacs/site-lisp/elpa/eglot-1.9"
	requireFiles(t, "Emacs 28 with eglot 1.9 and go-mode", "/usr/bin/emacs", "/usr/bin/tmux", eglot,
		"/usr/share/emacs/site-lisp/elpa/go-mode-1.6.0")
	ms := startModelServer(t, []reply{completeHello}, measured)
	init := fmt.Sprintf("(setq native-comp-async-report-warnings-errors 'silent)\n(load %q)\n(wisp-eglot-setup)\n(add-hook 'go-mode-hook #'eglot-ensure)\n",
		repoFile(t, "emacs/wisp.el"))
	s, file := startTerminalEditor(t, terminalEditor{
		home: map[string]string{
			".emacs.d/init.el":       init,
			".emacs.d/early-init.el": "(setq native-comp-deferred-compilation nil)\n", // see startEmacsTmux
		},
		file: "main.go", content: goSource, argv: []string{"emacs"}, env: ms.env(),
		ready: func(s *tmuxSession) {
			waitFor(t, 60*time.Second, "eglot runs wisp ([eglot:proj…] in the mode line)", func() (bool, string) {
				screen := s.screen(false)
				return strings.Contains(screen, "[eglot:proj"), screen
			})
		},
	})
	noError := func(when string) {
		t.Helper()
		if screen := s.screen(false); strings.Contains(screen, "Error") || strings.Contains(screen, "[eglot:proj/error]") {
			t.Fatalf("%s, the screen shows an error:\n%s", when, screen)
		}
	}
	s.keys("Down", "Down", "Down", "C-e")
	s.text("hello")
	time.Sleep(500 * time.Millisecond) // the menu bar is redrawn after each command
	noError("after typing")
	s.keys("M-Tab")
	s.waitScreen(20*time.Second, "hello_world()")
	noError("after completion-at-point")
	saved(t, s, file, func(data string) bool { return strings.Contains(data, "\thello_world()\n") })

	ms.stop(t)
	s.keys("C-e", "Enter")
	s.text("hello")
	s.keys("M-Tab")
	s.waitScreen(20*time.Second, "wisp:")
	s.text("x")
	time.Sleep(1500 * time.Millisecond)
	if line := screenLine(s.screen(false), "[eglot:proj"); !strings.Contains(line, "wisp:") {
		t.Fatalf("with the model gone, the mode line reads %q; want wisp's state in it", line)
	}
}
