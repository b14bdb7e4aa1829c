package editors

import (
	"encoding/json"
	"maps"
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

// codeServerEntry is code-server 4.100.3 (VS Code 1.100.3) as
// editors/install/install.sh installs it.
func codeServerEntry() string {
	return filepath.Join(editorsDir(), "code-server", "out", "node", "entry.js")
}

// requireCodeServer skips the test unless code-server, headless Chromium
// and the extension's build tools are installed.
func requireCodeServer(t *testing.T) {
	t.Helper()
	requireFiles(t, "code-server 4.100.3 (VS Code 1.100.3)", codeServerEntry(), chromium,
		repoFile(t, "vscode/node_modules/.bin/vsce"))
}

// codeServerSetup is what a VS Code test chooses of its set-up.
type codeServerSetup struct {
	scenario string            // the driver's scenario: testdata/vscode-driver/<scenario>.js
	files    map[string]string // the opened folder's files: name → content
	file     string            // the name of the file the driver opens
	settings map[string]any    // the test's settings, on top of those every test has
	env      []string          // more environment for the driver (WISP_TEST_…)
	// wispConfig is wisp's own config.toml (the user's), or "" for none.
	wispConfig string
}

// codeServer is VS Code (code-server) showing a folder in headless
// Chromium, with the packaged wisp extension and the driver extension
// (testdata/vscode-driver) installed; the driver runs its scenario as soon
// as VS Code has started.
type codeServer struct {
	folder      string // the folder VS Code shows, holding the setup's files
	result      string // where the driver writes its result, $WISP_TEST_RESULT
	addr        string // code-server's loopback address
	chromiumDir string // Chromium's user data folder, where it names its DevTools port
}

// startCodeServer sets VS Code up as a user of the extension would: wisp
// with the model server ms as the model and the setup's settings in the
// user's (and the machine's) settings.json, then the two extensions
// packaged and installed, code-server started on the setup's folder and
// Chromium opened on it, with the setup's wisp config as the user's.
// The driver gets WISP_TEST_SCENARIO,
// WISP_TEST_FILE (the file's path) and WISP_TEST_RESULT, and wisp logs
// into the test's folder.
func startCodeServer(t *testing.T, ms *modelServer, setup codeServerSetup) *codeServer {
	t.Helper()
	dir := t.TempDir()
	ud, exts := filepath.Join(dir, "ud"), filepath.Join(dir, "ext")
	cs := &codeServer{folder: filepath.Join(dir, "work"), result: filepath.Join(dir, "result.json"),
		addr: freeAddr(t), chromiumDir: filepath.Join(dir, "chromium")}
	for _, d := range []string{filepath.Join(ud, "User"), filepath.Join(ud, "Machine"), exts, cs.folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range setup.files {
		if err := os.WriteFile(filepath.Join(cs.folder, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settings := map[string]any{
		"wisp.path":     wispBinary(t),
		"wisp.provider": "openai-ws",
		"wisp.endpoint": ms.endpoint(),
		"wisp.model":    "test",
		// VS Code's own word suggestions open a list now and then while
		// "hello" is typed, and an open list hides ghost text that does
		// not extend its item: the tests read the ghost text, not that.
		// wisp itself offers VS Code no list item (TestInitializeRealClients).
		"editor.quickSuggestions":          map[string]any{"other": false, "comments": false, "strings": false},
		"workbench.startupEditor":          "none",
		"security.workspace.trust.enabled": false,
		"extensions.autoCheckUpdates":      false,
		"extensions.autoUpdate":            false,
		"files.hotExit":                    "off",
		"telemetry.telemetryLevel":         "off",
		"update.mode":                      "none",
		"git.enabled":                      false,
	}
	maps.Copy(settings, setup.settings)
	data, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	// Machine-scoped settings live in the remote machine's settings too.
	for _, f := range []string{filepath.Join(ud, "User", "settings.json"), filepath.Join(ud, "Machine", "settings.json")} {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	wispVsix := vsix(t, repoFile(t, "vscode"), dir, true)
	driver := filepath.Join(dir, "vscode-driver")
	if err := os.CopyFS(driver, os.DirFS(repoFile(t, "testdata/vscode-driver"))); err != nil {
		t.Fatal(err)
	}
	driverVsix := vsix(t, driver, dir, false)
	base := []string{codeServerEntry(), "--auth", "none", "--disable-telemetry", "--disable-update-check",
		"--disable-workspace-trust", "--user-data-dir", ud, "--extensions-dir", exts}
	for _, v := range []string{wispVsix, driverVsix} {
		run(t, dir, "node", append(base, "--install-extension", v)...)
	}

	env := append([]string{"WISP_TEST_SCENARIO=" + setup.scenario,
		"WISP_TEST_FILE=" + filepath.Join(cs.folder, setup.file), "WISP_TEST_RESULT=" + cs.result}, setup.env...)
	env = append(env, wispLogEnv(t, dir)...)
	if setup.wispConfig != "" {
		// Where wisp, started by the extension, finds the user's config.
		xdg := filepath.Join(dir, "config")
		if err := os.MkdirAll(filepath.Join(xdg, "wisp"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(xdg, "wisp", "config.toml"), []byte(setup.wispConfig), 0o644); err != nil {
			t.Fatal(err)
		}
		env = append(env, "XDG_CONFIG_HOME="+xdg)
	}
	startProcess(t, "code-server", dir, env, "node", append(base, "--bind-addr", cs.addr, cs.folder)...)
	waitFor(t, 30*time.Second, "code-server listens", func() (bool, string) {
		c, err := net.DialTimeout("tcp", cs.addr, time.Second)
		if err != nil {
			return false, err.Error()
		}
		c.Close()
		return true, ""
	})
	startProcess(t, "chromium", dir, nil, chromium, "--no-sandbox", "--disable-gpu", "--log-level=3",
		"--user-data-dir="+cs.chromiumDir, "--remote-debugging-port=0",
		"http://"+cs.addr+"/?folder="+cs.folder)
	return cs
}

// waitResult waits for the driver's result and decodes it into res; each,
// if not nil, runs before every look at the result file.
func (cs *codeServer) waitResult(t *testing.T, res any, each func()) {
	t.Helper()
	waitFor(t, 90*time.Second, "the driver extension writes its result", func() (bool, string) {
		if each != nil {
			each()
		}
		data, err := os.ReadFile(cs.result)
		if err != nil {
			return false, err.Error()
		}
		return json.Unmarshal(data, res) == nil, string(data)
	})
}
