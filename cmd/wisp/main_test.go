package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-lsp/wisp/transport/modelserver"
)

// wispBin is the wisp binary built once for these tests.
var wispBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wisp-cmd-test")
	if err != nil {
		panic(err)
	}
	// Other users run the binary too (see asUser).
	if err := os.Chmod(dir, 0o755); err != nil {
		panic(err)
	}
	wispBin = filepath.Join(dir, "wisp")
	if out, err := exec.Command("go", "build", "-o", wispBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build wisp: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// modelEnv starts a loopback model server with replies and returns the
// environment that points wisp at it.
func modelEnv(t *testing.T, replies ...modelserver.Reply) []string {
	t.Helper()
	ms := modelserver.New(modelserver.Options{Script: &modelserver.Script{Replies: replies}})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ms.Serve(l)
	t.Cleanup(ms.Close)
	return wsEnv(t, l.Addr().String())
}

// wsEnv returns the environment that points wisp's openai-ws model at a
// server listening at addr, with a configuration of its own.
func wsEnv(t *testing.T, addr string) []string {
	return []string{"WISP_PROVIDER=openai-ws", "WISP_ENDPOINT=ws://" + addr + "/v1/responses", "WISP_MODEL=test",
		"XDG_CONFIG_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
}

// run runs wisp with args and env, returning stdout, stderr and the exit code.
func run(t *testing.T, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runAs(t, nil, env, stdin, args...)
}

// runAs is run as the user cred names; nil means this process's user. A
// run that does not end within hangGuard is killed and fails the test.
func runAs(t *testing.T, cred *syscall.Credential, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runProc(t, cred, "", env, stdin, args...)
}

// runIn is run in the working directory dir.
func runIn(t *testing.T, dir string, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runProc(t, nil, dir, env, stdin, args...)
}

func runProc(t *testing.T, cred *syscall.Credential, dir string, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, wispBin, args...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin = strings.NewReader(stdin)
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("wisp %s hung and was killed; stderr:\n%s", strings.Join(args, " "), errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

const sumSrc = "package p\n\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n"

const sumRenamed = "```go\nfunc Sum(xs []int) int {\n\tsum := 0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum\n}\n```"

func writeFile(t *testing.T, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEditPrintsDiffAndExitsChanged(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{InstructionContains: "rename", Text: sumRenamed})
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o640)
	out, errOut, code := run(t, env, "", "edit", p+":4", "-m", "rename total to sum")
	if code != exitChanged {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitChanged, errOut)
	}
	if !strings.Contains(out, "-\ttotal := 0") || !strings.Contains(out, "+\tsum := 0") || !strings.HasPrefix(out, "---") {
		t.Fatalf("not a unified diff:\n%s", out)
	}
	if data, _ := os.ReadFile(p); string(data) != sumSrc {
		t.Fatal("the file changed without --write")
	}
}

// A successful --write exits 0: scripts under set -e go on.
func TestEditWriteKeepsModeAndJSON(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{InstructionContains: "rename", Text: sumRenamed})
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o640)
	out, errOut, code := run(t, env, "", "edit", p+":4", "-m", "rename total to sum", "--write", "--json")
	if code != 0 {
		t.Fatalf("exit %d; stderr %s", code, errOut)
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), "sum += x") || strings.Contains(string(data), "total") {
		t.Fatalf("file after --write:\n%s", data)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", st.Mode().Perm())
	}
	var res []struct {
		File   string `json:"file"`
		Status string `json:"status"`
		Edits  []struct {
			NewText string `json:"newText"`
		} `json:"edits"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if len(res) != 1 || res[0].Status != "changed" || len(res[0].Edits) != 3 || res[0].Edits[0].NewText != "sum" {
		t.Fatalf("json %+v", res)
	}
}

func TestEditSeveralFilesFromStdin(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{InstructionContains: "rename", Text: sumRenamed})
	dir := t.TempDir()
	var list []string
	for i := range 3 {
		list = append(list, writeFile(t, dir, fmt.Sprintf("s%d.go", i), sumSrc, 0o644)+":4")
	}
	out, errOut, code := run(t, env, strings.Join(list, "\n"), "edit", "-", "-m", "rename total to sum")
	if code != exitChanged || strings.Count(out, "+++ ") != 3 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "3 files: would change 3, unchanged 0, failed 0") {
		t.Fatalf("no summary on stderr: %s", errOut)
	}
}

func TestEditNoChange(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{InstructionContains: "nothing", Text: "```go\n" + strings.Split(sumSrc, "\n\n")[1] + "```"})
	p := writeFile(t, t.TempDir(), "sum.go", sumSrc, 0o644)
	out, errOut, code := run(t, env, "", "edit", p+":4", "-m", "change nothing")
	if code != exitNoChange || out != "" {
		t.Fatalf("exit %d, out %q, err %s", code, out, errOut)
	}
}

func TestEditErrors(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{InstructionContains: "rename", Text: sumRenamed},
		modelserver.Reply{InstructionContains: "refuse", Text: "I'm sorry, I can't help with that."})
	dir := t.TempDir()
	good := writeFile(t, dir, "sum.go", sumSrc, 0o644)
	bin := writeFile(t, dir, "blob.go", "package p\x00\x01\x02", 0o644)
	unreadable := writeFile(t, dir, "secret.go", sumSrc, 0o000)
	cases := []struct {
		name, target, instruction, want string
	}{
		{"missing file", filepath.Join(dir, "nope.go"), "rename", "no such file"},
		{"binary file", bin, "rename", "not a text file"},
		{"range outside the file", good + ":99:1", "rename", "line"},
		{"reply is not code", good + ":4", "refuse", "did not reply with code"},
	}
	if os.Geteuid() != 0 { // root reads anything
		cases = append(cases, struct{ name, target, instruction, want string }{"unreadable", unreadable, "rename", "permission denied"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := run(t, env, "", "edit", c.target, "-m", c.instruction, "--write")
			if code != exitTrouble || !strings.Contains(errOut, c.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d mentioning %q", code, errOut, exitTrouble, c.want)
			}
			if data, _ := os.ReadFile(good); string(data) != sumSrc {
				t.Fatal("a failed edit wrote the file")
			}
		})
	}
	if _, errOut, code := run(t, env, "", "edit", good); code != exitTrouble || !strings.Contains(errOut, "usage") {
		t.Fatalf("no instruction: exit %d %s", code, errOut)
	}
}

func TestCompleteJSON(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{PrefixEndsWith: "\treturn ", Text: "total"})
	p := writeFile(t, t.TempDir(), "sum.go", strings.Replace(sumSrc, "return total", "return ", 1), 0o644)
	out, errOut, code := run(t, env, "", "complete", p+":8:9", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Text  string `json:"text"`
		Range struct {
			Start struct{ Line, Col int } `json:"start"`
		} `json:"range"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Text != "total" || res.Range.Start.Line != 8 || res.Range.Start.Col != 9 {
		t.Fatalf("complete --json: %+v, %v\n%s", res, err, out)
	}
}

// Scripts may name the model with --set, as editors do for serve, and put
// flags that take a value after the file: the model here is set by flags
// alone, after the cursor, with --timeout's value as a separate argument.
func TestCompleteTakesSetAndValuedFlagsAfterTheFile(t *testing.T) {
	env := modelEnv(t, modelserver.Reply{PrefixEndsWith: "\treturn ", Text: "total"})
	var endpoint string
	var kept []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "WISP_ENDPOINT="); ok {
			endpoint = v
		} else if !strings.HasPrefix(kv, "WISP_") {
			kept = append(kept, kv)
		}
	}
	p := writeFile(t, t.TempDir(), "sum.go", strings.Replace(sumSrc, "return total", "return ", 1), 0o644)
	out, errOut, code := run(t, kept, "", "complete", p+":8:9", "--timeout", "20s",
		"--set", "model.provider=openai-ws", "--set", "model.endpoint="+endpoint, "--set", "model.model=test")
	if code != 0 || strings.TrimSpace(out) != "total" {
		t.Fatalf("complete with --set: exit %d, %q, %s", code, out, errOut)
	}
	out, errOut, code = run(t, kept, "", "context", p+":8:9", "--set", "model.provider=openai-ws", "--set", "model.endpoint="+endpoint, "--budget", "300")
	if code != 0 || !strings.Contains(out, `"provider": "openai-ws"`) {
		t.Fatalf("context with --set: exit %d, %s %s", code, out, errOut)
	}
}

func TestContextJSONNamesItsPieces(t *testing.T) {
	p := writeFile(t, t.TempDir(), "sum.go", "package p\n\nimport \"fmt\"\n\n"+sumSrc[len("package p\n\n"):], 0o644)
	out, errOut, code := run(t, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, "", "context", p+":7:3", "--budget", "300", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Context struct {
			Pieces []struct {
				Kind, Why string
				Tokens    int
			} `json:"pieces"`
		} `json:"context"`
		// Wire is what the local provider (the default) receives: the
		// request itself.
		Wire struct{ Prefix, Suffix string } `json:"wire"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, pc := range res.Context.Pieces {
		kinds[pc.Kind] = true
		if pc.Why == "" || pc.Tokens <= 0 {
			t.Errorf("piece %+v lacks a reason or a token count", pc)
		}
	}
	if !kinds["prefix"] || !kinds["suffix"] {
		t.Fatalf("pieces %v", kinds)
	}
	if !strings.HasSuffix(res.Wire.Prefix, "\ttotal := 0\n\tf") || !strings.HasPrefix(res.Wire.Suffix, "or _, x := range xs {") {
		t.Fatalf("wire has no prefix and suffix at the cursor: %+v", res.Wire)
	}
}

// The built binary speaks LSP on stdio: initialize, shutdown, exit 0.
func TestServeOverStdio(t *testing.T) {
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	}
	var in strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	out, errOut, code := run(t, env, in.String(), "--stdio")
	if code != 0 {
		t.Fatalf("exit %d; stderr %s", code, errOut)
	}
	if !strings.Contains(out, `"inlineCompletionProvider"`) || !strings.HasPrefix(out, "Content-Length: ") {
		t.Fatalf("stdout is not LSP:\n%s", out)
	}
	// Editors record every stderr line as an error: a session that went
	// well writes none unless a log level was asked for.
	if errOut != "" {
		t.Errorf("a normal session wrote to stderr (editors log it as errors):\n%s", errOut)
	}
	_, errOut, _ = run(t, append(env, "WISP_LOG_LEVEL=info"), in.String(), "--stdio")
	if !strings.Contains(errOut, "INFO") {
		t.Errorf("WISP_LOG_LEVEL=info wrote no INFO line to stderr:\n%s", errOut)
	}
}
