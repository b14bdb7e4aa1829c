package editors

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

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
	requireCodeServer(t)
	// Slow enough after the first token that VS Code's ghost text grows.
	long := longHello
	streamed := pace{rate: 25, ttft: measured.ttft, delay: measured.delay}
	ms := startModelServer(t, []reply{long, renameToGreet}, streamed)

	cs := startCodeServer(t, ms, codeServerSetup{
		scenario: "inline",
		files:    map[string]string{"main.go": goSource},
		file:     "main.go",
		settings: map[string]any{
			"editor.inlineSuggest.enabled":                     true,
			"workbench.enableExperiments":                      false,
			"chat.commandCenter.enabled":                       false,
			"workbench.tips.enabled":                           false,
			"extensions.ignoreRecommendations":                 true,
			"workbench.welcomePage.walkthroughs.openOnInstall": false,
		},
		env: []string{"WISP_TEST_INSTRUCTION=" + renameToGreet.InstructionContains},
	})

	// Once the driver has opened the file, watch the page's DOM and type as
	// a person does.
	page := connectDevtools(t, cs.chromiumDir, cs.addr)
	waitFor(t, 90*time.Second, "the driver opens the file", func() (bool, string) {
		_, err := os.Stat(cs.result + ".opened")
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
	if err := os.WriteFile(cs.result+".typed", nil, 0o644); err != nil {
		t.Fatal(err)
	}

	// While waiting, tell the driver once the whole suggestion is on screen.
	var res vscodeResult
	cs.waitResult(t, &res, func() {
		if screen.Whole == 0 {
			if err := page.eval(`window.__wispScreen`, &screen); err == nil && screen.Whole != 0 {
				os.WriteFile(cs.result+".ghost", nil, 0o644)
			}
		}
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

// TestVSCodeModelDownAtStart starts VS Code with the model already down:
// wisp says so while it starts, before the extension's client has
// finished starting, and the status bar must keep saying it (turn red)
// rather than show wisp idle, which it said no more after.
func TestVSCodeModelDownAtStart(t *testing.T) {
	requireCodeServer(t)
	ms := startModelServer(t, []reply{completeHello}, measured)
	ms.stop(t)
	cs := startCodeServer(t, ms, codeServerSetup{
		scenario: "inline",
		files:    map[string]string{"main.go": goSource},
		file:     "main.go",
		settings: map[string]any{"workbench.enableExperiments": false, "workbench.tips.enabled": false},
	})
	page := connectDevtools(t, cs.chromiumDir, cs.addr)
	waitFor(t, 90*time.Second, "the driver opens the file", func() (bool, string) {
		_, err := os.Stat(cs.result + ".opened")
		return err == nil, fmt.Sprint(err)
	})
	page.waitJS(t, 20*time.Second, "the status bar shows wisp's trouble", vscodeWispTrouble)
}
