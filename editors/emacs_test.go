package editors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// emacsDriver is the Emacs Lisp the test runs in `emacs --batch`: it opens
// main.py with lsp-mode and wisp.el, types "hello", asks for the inline
// completion, reads the ghost text from lsp-mode's overlay, accepts it, and
// writes what it saw to the result file as JSON.
const emacsDriver = `
(setq lsp-session-file (expand-file-name "lsp-session" wisp-test-dir)
      lsp-enabled-clients '(wisp)
      lsp-keep-workspace-alive nil
      lsp-enable-file-watchers nil
      lsp-headerline-breadcrumb-enable nil
      lsp-modeline-code-actions-enable nil
      lsp-modeline-diagnostics-enable nil
      lsp-enable-snippet nil
      lsp-log-io nil)
(require 'lsp-mode)
(require 'lsp-inline-completion)
(load wisp-test-el)
(defvar wisp-test-result nil)
(defvar wisp-test-t0 (float-time))
(defun wisp-test-note (key value) (push (cons key value) wisp-test-result))
(defun wisp-test-finish ()
  (with-temp-file wisp-test-result-file (insert (json-encode wisp-test-result)))
  (kill-emacs 0))
(condition-case err
    (progn
      (find-file wisp-test-file)
      (lsp-workspace-folders-add wisp-test-dir)
      (lsp)
      (with-timeout (30 (error "wisp did not start in lsp-mode"))
        (while (not (and lsp--buffer-workspaces
                         (eq (lsp--workspace-status (car lsp--buffer-workspaces)) 'initialized)))
          (accept-process-output nil 0.05)))
      (wisp-test-note "startedAfter" (- (float-time) wisp-test-t0))
      (goto-char (point-min))
      (forward-line 1)
      (end-of-line)
      (insert "hello")
      (wisp-test-note "typed" (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
      (with-timeout (20 (error "no inline completion was shown"))
        (while (not (and lsp-inline-completion--overlay (overlay-buffer lsp-inline-completion--overlay)))
          (lsp-inline-completion-display)
          (accept-process-output nil 0.1)))
      (wisp-test-note "ghost" (substring-no-properties
                               (or (overlay-get lsp-inline-completion--overlay 'after-string) "")))
      (wisp-test-note "shownAfter" (- (float-time) wisp-test-t0))
      (lsp-inline-completion-accept)
      (wisp-test-note "accepted" (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
  (error (wisp-test-note "error" (error-message-string err))))
(wisp-test-finish)
`

// pySource is the Python file the Emacs test types into; line 2 is "    ".
const pySource = "def main():\n    \n"

func TestEmacsLspModeInlineCompletion(t *testing.T) {
	src := filepath.Join(editorsDir(), "emacs-lsp-mode", "usr", "share", "emacs", "site-lisp", "elpa-src")
	lspMode, fLib := filepath.Join(src, "lsp-mode-10.0.0"), filepath.Join(src, "f-0.21.0")
	requireFiles(t, "Emacs 28 with lsp-mode 10", "/usr/bin/emacs", lspMode, fLib, "/usr/share/emacs/site-lisp/elpa/dash-2.19.1")
	ms := startModelServer(t, []reply{completeHello}, pace{})

	dir := t.TempDir()
	file := filepath.Join(dir, "main.py")
	if err := os.WriteFile(file, []byte(pySource), 0o644); err != nil {
		t.Fatal(err)
	}
	// lsp-mode 10 and f 0.21 from the unpacked sid packages first, then
	// Debian stable's byte-compiled elpa packages (dash, s, ht, spinner, ...).
	loadPath := []string{lspMode, fLib}
	stable, _ := filepath.Glob("/usr/share/emacs/site-lisp/elpa/*")
	loadPath = append(loadPath, stable...)
	var quoted []string
	for _, p := range loadPath {
		quoted = append(quoted, strconv.Quote(p))
	}
	result := filepath.Join(dir, "result.json")
	prelude := fmt.Sprintf(`(setq load-path (append (list %s) load-path)
      wisp-test-dir %q wisp-test-file %q wisp-test-result-file %q wisp-test-el %q
      wisp-program %q
      wisp-initialization-options '(:model (:provider "openai-ws" :endpoint %q :model "test")))
`, strings.Join(quoted, " "), dir, file, result, repoFile(t, "emacs/wisp.el"), wispBinary(t), ms.endpoint())
	script := filepath.Join(dir, "driver.el")
	if err := os.WriteFile(script, []byte(prelude+emacsDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := startProcess(t, "emacs", dir, []string{"HOME=" + dir}, "/usr/bin/emacs", "--batch", "-Q", "-l", script)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("emacs did not finish in 90s")
	}
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("emacs wrote no result: %v", err)
	}
	var res struct {
		Typed, Ghost, Accepted, Error string
		StartedAfter, ShownAfter      float64
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("result %s: %v", data, err)
	}
	t.Logf("lsp-mode started wisp after %.1fs, ghost text shown after %.1fs", res.StartedAfter, res.ShownAfter)
	if res.Error != "" {
		t.Fatalf("emacs: %s (typed %q)", res.Error, res.Typed)
	}
	if res.Typed != "    hello" {
		t.Errorf("typed line = %q, want %q", res.Typed, "    hello")
	}
	if want := "_world()"; res.Ghost != want {
		t.Errorf("ghost text = %q, want %q", res.Ghost, want)
	}
	if want := "    hello_world()"; res.Accepted != want {
		t.Errorf("line after accepting = %q, want %q", res.Accepted, want)
	}
}
