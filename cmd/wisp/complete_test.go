package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// complete and context refuse a file that is not text, as edit does,
// rather than sending its bytes to the model.
func TestCompleteRefusesBinary(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{Text: "garbage"})
	elf, err := os.ReadFile(wispBin)
	if err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, t.TempDir(), "bin.go", string(elf[:4096]), 0o644)
	for _, args := range [][]string{{"complete", p + ":3:1"}, {"context", p + ":3:1", "--json"}, {"edit", p, "-m", "x"}} {
		out, errOut, code := run(t, env, "", args...)
		if code == 0 || out != "" || !strings.Contains(errOut, "bin.go: not a text file: NUL byte at offset 7") {
			t.Errorf("wisp %s: exit %d, stdout %q, stderr %q; want a refusal naming the NUL byte", args[0], code, out, errOut)
		}
	}
}

// A cursor is reported on the line it was given on, whatever breaks the
// lines: a lone "\r" counts as a line break both ways.
func TestCompletePositionWithLoneCR(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{Text: "x"})
	dir := t.TempDir()
	for _, src := range []string{"a\rb\rc\n", "a\r\nb\nc\n", "a\nb\nc"} {
		p := writeFile(t, dir, "cr.txt", src, 0o644)
		for _, args := range [][]string{{"complete", p + ":3:1", "--json"}, {"context", p + ":3:1", "--json"}} {
			out, errOut, code := run(t, env, "", args...)
			if code != 0 {
				t.Fatalf("wisp %s on %q: exit %d: %s", args[0], src, code, errOut)
			}
			var res struct {
				Range  struct{ Start jsonPos } `json:"range"`
				Cursor *jsonPos                `json:"cursor"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			got := res.Range.Start
			if res.Cursor != nil {
				got = *res.Cursor
			}
			if got != (jsonPos{Line: 3, Col: 1}) {
				t.Errorf("wisp %s on %q at 3:1 reported %+v", args[0], src, got)
			}
		}
	}
}

// What complete and context show the model does not depend on the
// working directory: paths are relative to the workspace however the
// file was named, and so are the pieces context prints.
func TestContextPathsIndependentOfWorkingDirectory(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{Text: "x"})
	top := t.TempDir()
	ws := filepath.Join(top, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, ws, "conn.go", contextSrc, 0o644)
	sibling := filepath.Join(top, "other")
	if err := os.Mkdir(sibling, 0o755); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(contextSrc[:strings.Index(contextSrc, "\tcount := \n")], "\n") + 1
	cursor := "conn.go:" + itoa(line) + ":11"
	var first string
	for _, c := range []struct{ dir, path string }{
		{ws, cursor}, {top, "ws/" + cursor}, {sibling, "../ws/" + cursor}, {sibling, filepath.Join(ws, cursor)},
	} {
		out, errOut, code := runIn(t, c.dir, env, "", "context", c.path, "--json")
		if code != 0 {
			t.Fatalf("context %s in %s: exit %d: %s", c.path, c.dir, code, errOut)
		}
		var res struct {
			File    string `json:"file"`
			Context struct {
				Pieces []struct{ Path string } `json:"pieces"`
			} `json:"context"`
			Request json.RawMessage `json:"request"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if res.File != strings.TrimSuffix(c.path, ":"+itoa(line)+":11") {
			t.Errorf("file %q, want the file as named, %q", res.File, c.path)
		}
		for _, p := range res.Context.Pieces {
			if p.Path != "conn.go" {
				t.Errorf("context %s in %s: a piece's path is %q, want conn.go", c.path, c.dir, p.Path)
			}
		}
		if first == "" {
			first = string(res.Request)
			if !strings.Contains(first, `"path": "conn.go"`) || strings.Contains(first, top) {
				t.Fatalf("the request does not name the file relative to the workspace:\n%s", first)
			}
		} else if string(res.Request) != first {
			t.Errorf("context %s in %s: the request differs from the one made in the workspace:\n%s\nwant\n%s", c.path, c.dir, res.Request, first)
		}
	}
}

// withConfig returns env with XDG_CONFIG_HOME pointing at a folder whose
// wisp/config.toml holds toml.
func withConfig(t *testing.T, env []string, toml string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "wisp"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "wisp"), "config.toml", toml, 0o644)
	return append(slices.Clone(env), "XDG_CONFIG_HOME="+dir) // the last one wins
}

// complete, context and edit say on stderr, once each, which settings
// they ignored, and keep stdout for their result.
func TestCommandsPrintConfigWarnings(t *testing.T) {
	env := withConfig(t, modelEnv(t, modelserver.Reply{Text: "x"}),
		"[model]\nprovider = 5\nendpont = \"wss://example.com\"\n\n[completion]\nbudgt = 3000\nbudget = \"big\"\n")
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o644)
	for _, args := range [][]string{{"complete", p + ":4:2"}, {"context", p + ":4:2", "--json"}, {"edit", p + ":4", "-m", "x"}} {
		out, errOut, code := run(t, env, "", args...)
		if code == 2 && args[0] != "edit" || code > 2 {
			t.Fatalf("wisp %s: exit %d: %s", args[0], code, errOut)
		}
		for _, key := range []string{`"model.provider"`, `"model.endpont"`, `"completion.budgt"`, `"completion.budget"`} {
			if n := strings.Count(errOut, key); n != 1 {
				t.Errorf("wisp %s: stderr names %s %d times, want once:\n%s", args[0], key, n, errOut)
			}
			if strings.Contains(out, key) {
				t.Errorf("wisp %s: a warning on stdout:\n%s", args[0], out)
			}
		}
		if !strings.Contains(errOut, "wisp "+args[0]+": warning: ") {
			t.Errorf("wisp %s: warnings not attributed to the command:\n%s", args[0], errOut)
		}
	}
}

// A key set as apiKeyEnv (or as apiKey) by mistake is refused, and no
// output of doctor or complete repeats it, whichever layer it came from.
func TestKeyInSettingsNeverPrinted(t *testing.T) {
	const secret = "sk-secret-123"
	base := modelEnv(t, modelserver.Reply{Text: "x"})
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o644)
	file := withConfig(t, base, "apiKey = \""+secret+"\"\n[model]\napiKeyEnv = \""+secret+"\"\n")
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"file, doctor", file, []string{"doctor"}},
		{"file, complete", file, []string{"complete", p + ":4:2"}},
		{"file, context", file, []string{"context", p + ":4:2", "--json"}},
		{"file, edit", file, []string{"edit", p + ":4", "-m", "x"}},
		{"--set", base, []string{"doctor", "--set", "model.apiKeyEnv=" + secret}},
		{"environment", append(slices.Clone(base), "WISP_API_KEY_ENV="+secret), []string{"complete", p + ":4:2"}},
		{"editor settings", base, []string{"doctor", "--settings", `{"model":{"apiKeyEnv":"` + secret + `"}}`}},
	} {
		out, errOut, _ := run(t, c.env, "", c.args...)
		if strings.Contains(out+errOut, secret) {
			t.Errorf("%s: the key was printed:\n%s\n%s", c.name, out, errOut)
		}
		if !strings.Contains(out+errOut, "must name an environment variable") {
			t.Errorf("%s: the apiKeyEnv refusal is not said:\n%s\n%s", c.name, out, errOut)
		}
		if c.env[len(c.env)-1] == file[len(file)-1] && !strings.Contains(out+errOut, "keys live only in the environment") {
			t.Errorf("%s: apiKey in the file is not told where keys live:\n%s\n%s", c.name, out, errOut)
		}
	}
}

// A negative budget is a usage error, not a silent default.
func TestContextRefusesNegativeBudget(t *testing.T) {
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o644)
	out, errOut, code := run(t, modelEnv(t), "", "context", p+":4:2", "--budget", "-5", "--json")
	if code != 2 || out != "" || !strings.Contains(errOut, "--budget -5") {
		t.Errorf("exit %d, stdout %q, stderr %q; want a usage error (2) naming --budget", code, out, errOut)
	}
}

// With stderr a file or a pipe, edit draws no progress bar: its carriage
// returns would fill the file.
func TestEditNoProgressBarUnlessTerminal(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{InstructionContains: "rename", Text: sumRenamed})
	dir := t.TempDir()
	a, b := writeFile(t, dir, "a.go", sumSrc, 0o644), writeFile(t, dir, "b.go", sumSrc, 0o644)
	_, errOut, code := run(t, env, "", "edit", a+":4", b+":4", "-m", "rename total to sum")
	if code != exitChanged {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(errOut, "\r") || strings.Contains(errOut, "editing") {
		t.Errorf("a progress bar on a stderr that is no terminal: %q", errOut)
	}
}

// complete says why it gave up: its --timeout, or a signal (Ctrl-C).
func TestCompleteSaysTimeoutOrInterrupt(t *testing.T) {
	received := make(chan struct{}, 8)
	ms := modelserver.New(modelserver.Options{
		Script:   &modelserver.Script{Replies: []modelserver.Reply{{Text: "late"}}},
		TTFT:     time.Hour, // never answers while the test runs
		Received: func([]byte) { received <- struct{}{} },
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	t.Cleanup(ms.Close)
	env := []string{"WISP_PROVIDER=openai-ws", "WISP_ENDPOINT=ws://" + l.Addr().String() + "/v1/responses", "WISP_MODEL=test",
		"WISP_FIRST_TOKEN_TIMEOUT=1h", "XDG_CONFIG_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o644)

	_, errOut, code := run(t, env, "", "complete", p+":4:2", "--timeout", "300ms")
	if code != 1 || !strings.Contains(errOut, "wisp complete: timed out after 300ms") {
		t.Errorf("--timeout: exit %d, stderr %q; want 1 and \"timed out after 300ms\"", code, errOut)
	}

	for len(received) > 0 {
		<-received // the run above's request
	}
	cmd := exec.Command(wispBin, "complete", p+":4:2", "--timeout", "1h")
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-received:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		t.Fatal("the model was never asked")
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		<-done
		t.Fatal("complete did not stop on SIGINT")
	}
	if got := stderr.String(); !strings.Contains(got, "wisp complete: interrupted") || strings.Contains(got, "timed out") {
		t.Errorf("SIGINT: stderr %q, want \"interrupted\"", got)
	}
}

// A negative line or column is a bad position, not a file name; a file
// whose name holds a colon still opens.
func TestCompleteNegativePosition(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{Text: "x"})
	dir := t.TempDir()
	p := writeFile(t, dir, "sum.go", sumSrc, 0o644)
	for _, pos := range []string{":-1:1", ":1:-1", ":-1"} {
		out, errOut, code := run(t, env, "", "complete", p+pos)
		if code == 0 || out != "" || !strings.Contains(errOut, "give the cursor as FILE:LINE:COL") || strings.Contains(errOut, "no such file") {
			t.Errorf("complete sum.go%s: exit %d, stdout %q, stderr %q; want a bad position", pos, code, out, errOut)
		}
	}
	odd := writeFile(t, dir, "odd.go:-1", sumSrc, 0o644)
	if out, errOut, code := run(t, env, "", "complete", odd+":4:2"); code != 0 || out == "" {
		t.Errorf("complete odd.go:-1:4:2: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// edit names a file it cannot edit once, with the target's position.
func TestEditFailureNamesFileOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.go")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]string{
		fifo + ":3": fifo + ":3: not a regular file (a FIFO)",
		dir:         dir + ": not a regular file (a folder)",
	} {
		_, errOut, code := run(t, modelEnv(t), "", "edit", target, "-m", "x")
		if code != exitTrouble || !strings.Contains(errOut, "wisp edit: "+want+"\n") {
			t.Errorf("edit %s: exit %d, stderr %q; want %q", target, code, errOut, want)
		}
	}
}
