package editors

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const chromium = "/usr/lib/chromium/chromium-headless-shell"

// vsix packages the extension folder src (compiling TypeScript first when
// compile is set) into dir with the vsce from ./vscode/node_modules.
func vsix(t *testing.T, src, dir string, compile bool) string {
	t.Helper()
	tools := repoFile(t, "vscode/node_modules/.bin")
	if compile {
		run(t, src, filepath.Join(tools, "tsc"), "-p", ".")
	}
	out := filepath.Join(dir, filepath.Base(src)+".vsix")
	run(t, src, filepath.Join(tools, "vsce"), "package", "--allow-missing-repository", "--skip-license", "-o", out)
	return out
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
}

// vscodeResult is what the driver extension (testdata/vscode-driver) saw in
// its inline scenario.
type vscodeResult struct {
	Typed, Completed, Edited string
	QuickEditReturned        any
	Error                    string
	// ShownByItself is whether the test saw ghost text before the driver
	// gave up waiting and asked for it explicitly.
	ShownByItself bool
}

// watchScreen makes the page record, in window.__wispScreen, the wall-clock
// milliseconds when a line first shows "hello" (the typed keys on screen),
// when ghost text first shows (and what it showed then) and when it shows
// the whole suggestion (the %q filled in). The ghost text is the text of
// all ghost-text spans (VS Code splits it by syntax colour, and draws
// spaces as no-break spaces). A
// MutationObserver runs in the same task that changed the DOM, before the
// frame is painted.
const watchScreen = `((whole) => {
  const s = window.__wispScreen = { typed: 0, ghost: 0, first: "", whole: 0 };
  new MutationObserver(() => {
    const now = Date.now();
    if (!s.typed && Array.from(document.querySelectorAll(".view-line")).some((e) => e.textContent.includes("hello"))) s.typed = now;
    const ghost = Array.from(document.querySelectorAll(".ghost-text-decoration")).map((e) => e.textContent).join("").replaceAll("\u00a0", " ");
    if (!s.ghost && ghost !== "") { s.ghost = now; s.first = ghost; }
    if (!s.whole && ghost.includes(whole)) s.whole = now;
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})(%q)`

func TestVSCodeInlineCompletionAndQuickEdit(t *testing.T) {
	server := filepath.Join(editorsDir(), "code-server", "out", "node", "entry.js")
	requireFiles(t, "code-server 4.100.3 (VS Code 1.100.3)", server, chromium,
		repoFile(t, "vscode/node_modules/.bin/vsce"))
	// Slow enough after the first token that VS Code's ghost text grows.
	long := longHello
	streamed := pace{rate: 25, ttft: measured.ttft, delay: measured.delay}
	ms := startModelServer(t, []reply{long, renameToGreet}, streamed)

	dir := t.TempDir()
	ud, exts, folder := filepath.Join(dir, "ud"), filepath.Join(dir, "ext"), filepath.Join(dir, "work")
	file := filepath.Join(folder, "main.go")
	for _, d := range []string{filepath.Join(ud, "User"), filepath.Join(ud, "Machine"), exts, folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte(goSource), 0o644); err != nil {
		t.Fatal(err)
	}
	settings, err := json.Marshal(map[string]any{
		"wisp.path":                                        wispBinary(t),
		"wisp.provider":                                    "openai-ws",
		"wisp.endpoint":                                    ms.endpoint(),
		"wisp.model":                                       "test",
		"editor.inlineSuggest.enabled":                     true,
		"editor.quickSuggestions":                          map[string]any{"other": false, "comments": false, "strings": false},
		"workbench.startupEditor":                          "none",
		"security.workspace.trust.enabled":                 false,
		"extensions.autoCheckUpdates":                      false,
		"extensions.autoUpdate":                            false,
		"files.hotExit":                                    "off",
		"workbench.enableExperiments":                      false,
		"telemetry.telemetryLevel":                         "off",
		"chat.commandCenter.enabled":                       false,
		"workbench.tips.enabled":                           false,
		"update.mode":                                      "none",
		"git.enabled":                                      false,
		"extensions.ignoreRecommendations":                 true,
		"workbench.welcomePage.walkthroughs.openOnInstall": false,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Machine-scoped settings live in the remote machine's settings too.
	for _, f := range []string{filepath.Join(ud, "User", "settings.json"), filepath.Join(ud, "Machine", "settings.json")} {
		if err := os.WriteFile(f, settings, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	wispVsix := vsix(t, repoFile(t, "vscode"), dir, true)
	driver := filepath.Join(dir, "vscode-driver")
	if err := os.CopyFS(driver, os.DirFS(repoFile(t, "testdata/vscode-driver"))); err != nil {
		t.Fatal(err)
	}
	driverVsix := vsix(t, driver, dir, false)

	base := []string{server, "--auth", "none", "--disable-telemetry", "--disable-update-check",
		"--disable-workspace-trust", "--user-data-dir", ud, "--extensions-dir", exts}
	for _, v := range []string{wispVsix, driverVsix} {
		run(t, dir, "node", append(base, "--install-extension", v)...)
	}

	resultPath := filepath.Join(dir, "result.json")
	addr := freeAddr(t)
	env := []string{"WISP_TEST_SCENARIO=inline", "WISP_TEST_FILE=" + file, "WISP_TEST_RESULT=" + resultPath,
		"WISP_TEST_INSTRUCTION=" + renameToGreet.InstructionContains}
	startProcess(t, "code-server", dir, env, "node", append(base, "--bind-addr", addr, folder)...)
	waitFor(t, 30*time.Second, "code-server listens", func() (bool, string) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false, err.Error()
		}
		c.Close()
		return true, ""
	})
	chromiumDir := filepath.Join(dir, "chromium")
	startProcess(t, "chromium", dir, nil, chromium, "--no-sandbox", "--disable-gpu", "--log-level=3",
		"--user-data-dir="+chromiumDir, "--remote-debugging-port=0",
		"http://"+addr+"/?folder="+folder)

	// Once the driver has opened the file, watch the page's DOM and type as
	// a person does.
	page := connectDevtools(t, chromiumDir, addr)
	waitFor(t, 90*time.Second, "the driver opens the file", func() (bool, string) {
		_, err := os.Stat(resultPath + ".opened")
		return err == nil, fmt.Sprint(err)
	})
	if err := page.eval(fmt.Sprintf(watchScreen, long.Text), nil); err != nil {
		t.Fatal(err)
	}
	// To the end of line 4 (the last line is empty), then type.
	for _, err := range []error{
		page.press("End", "End", 35, ctrlKey, ""),
		page.press("ArrowUp", "ArrowUp", 38, 0, ""),
		page.press("ArrowUp", "ArrowUp", 38, 0, ""),
		page.press("End", "End", 35, 0, ""),
		page.typeKeys("hello"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	var screen struct {
		Typed, Ghost, Whole int64
		First               string
	}
	waitFor(t, 10*time.Second, "the typed keys are on screen", func() (bool, string) {
		err := page.eval(`window.__wispScreen`, &screen)
		return err == nil && screen.Typed != 0, fmt.Sprint(screen, err)
	})
	if err := os.WriteFile(resultPath+".typed", nil, 0o644); err != nil {
		t.Fatal(err)
	}

	var res vscodeResult
	waitFor(t, 90*time.Second, "the driver extension writes its result", func() (bool, string) {
		if screen.Whole == 0 {
			if err := page.eval(`window.__wispScreen`, &screen); err == nil && screen.Whole != 0 {
				os.WriteFile(resultPath+".ghost", nil, 0o644)
			}
		}
		data, err := os.ReadFile(resultPath)
		if err != nil {
			return false, err.Error()
		}
		return json.Unmarshal(data, &res) == nil, string(data)
	})
	if res.Error != "" {
		t.Fatalf("driver: %s (line 4 typed %q, after commit %q)", res.Error, res.Typed, res.Completed)
	}
	if res.ShownByItself {
		t.Logf("keystroke → ghost text on screen: %d ms, whole suggestion %d ms (model: %v to the first token, %v each way, %d tokens/s after; from the typed text to the ghost text in the page's DOM)",
			screen.Ghost-screen.Typed, screen.Whole-screen.Typed, measured.ttft, measured.delay, 25)
	} else {
		t.Errorf("VS Code showed no whole ghost text by itself after typing (only when triggered); page saw %+v", screen)
	}
	// wisp closes the brackets and quotes a partial line leaves open.
	if open := strings.TrimRight(screen.First, `")]}`); screen.First == long.Text || !strings.HasPrefix(long.Text, open) {
		t.Errorf("the first ghost text was %q; want the start of %q, streamed before the whole", screen.First, long.Text)
	}
	if res.Typed != "\thello" {
		t.Errorf("typed line = %q, want %q", res.Typed, "\thello")
	}
	if want := "\thello" + long.Text; res.Completed != want {
		t.Errorf("after committing the ghost text line 4 = %q, want %q", res.Completed, want)
	}
	if want := "package main\n\nfunc main() {\n\tgreet()\n}\n"; res.Edited != want {
		t.Errorf("after the quick edit the file reads\n%q\nwant\n%q", res.Edited, want)
	}

	modelDownIsQuietInVSCode(t, page, ms, []reply{long, renameToGreet}, streamed)
}

// The page's ghost text, its status bar's wisp item, and its pop-ups.
const (
	vscodeGhost       = `Array.from(document.querySelectorAll(".ghost-text-decoration")).map((e) => e.textContent).join("")`
	vscodeWispTrouble = `Array.from(document.querySelectorAll(".statusbar-item")).some((e) => e.textContent.includes("wisp") && e.querySelector(".codicon-error") !== null)`
	vscodeToasts      = `Array.from(document.querySelectorAll(".notification-toast")).map((e) => e.textContent)`
)

// modelDownIsQuietInVSCode stops the model, types 20 keys on a new line at
// the end of the file, and requires: every key lands, wisp's trouble shows in the
// status bar, and no pop-up appears (a request error would raise one).
// Then the model comes back at the same address: ghost text returns
// without restarting anything, and the status bar is well again.
func modelDownIsQuietInVSCode(t *testing.T, page *devtools, ms *modelServer, replies []reply, p pace) {
	t.Helper()
	ms.stop(t)
	press := func(key, code string, keyCode, modifiers int) {
		t.Helper()
		text := ""
		if key == "Enter" {
			text = "\r"
		}
		if err := page.press(key, code, keyCode, modifiers, text); err != nil {
			t.Fatal(err)
		}
	}
	press("End", "End", 35, ctrlKey)
	press("Enter", "Enter", 13, 0)
	const typed = "fmt.Println(x, y, z)"
	if err := page.typeKeys(typed); err != nil {
		t.Fatal(err)
	}
	page.waitJS(t, 10*time.Second, "the 20 keys are on screen", fmt.Sprintf(
		`Array.from(document.querySelectorAll(".view-line")).some((e) => e.textContent.replaceAll("\u00a0", " ").includes(%q))`, typed))
	page.waitJS(t, 20*time.Second, "the status bar shows wisp's trouble", vscodeWispTrouble)
	var toasts []string
	if err := page.eval(vscodeToasts, &toasts); err != nil {
		t.Fatal(err)
	}
	if len(toasts) > 0 {
		t.Errorf("with the model down VS Code showed pop-ups: %q", toasts)
	}

	// It comes back: ghost text again, as soon as wisp asks the model anew.
	startModelServerAt(t, ms.addr, replies, p)
	press("End", "End", 35, 0)
	press("Enter", "Enter", 13, 0)
	if err := page.typeKeys("hell"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for back := false; !back; {
		if time.Now().After(deadline) {
			t.Fatal("ghost text did not come back with the model")
		}
		if err := page.typeKeys("o"); err != nil {
			t.Fatal(err)
		}
		for wait := time.Now().Add(2 * time.Second); !back && time.Now().Before(wait); time.Sleep(40 * time.Millisecond) {
			var ghost string
			back = page.eval(vscodeGhost, &ghost) == nil && ghost != ""
		}
		if !back {
			press("Backspace", "Backspace", 8, 0)
		}
	}
	page.waitJS(t, 10*time.Second, "the status bar is well again", "!("+vscodeWispTrouble+")")
}
