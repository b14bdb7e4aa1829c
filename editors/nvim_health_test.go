package editors

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// :checkhealth wisp, as the README sets the plugin up (setup{} with the
// model given through cmd_env, no init_options), runs wisp doctor and
// says that the model answers; with the model down it says what failed.
// Lua encodes the empty settings table as [], which wisp doctor once
// refused, failing every such check.
func TestNeovimCheckhealthRunsDoctor(t *testing.T) {
	bin := nvim012(t)
	ms := startModelServer(t, []reply{{Text: "x"}}, pace{})
	if out := checkhealth(t, bin, ms); !strings.Contains(out, "wisp doctor: the model answers") || strings.Contains(out, "ERROR") {
		t.Fatalf(":checkhealth wisp with the model up:\n%s", out)
	}
	ms.stop(t)
	if out := checkhealth(t, bin, ms); !strings.Contains(out, "ERROR") || strings.Contains(out, "the model answers") || strings.Contains(out, "must be a JSON object") {
		t.Fatalf(":checkhealth wisp with the model down:\n%s", out)
	}
}

// checkhealth runs :checkhealth wisp in a headless Neovim and returns
// its report.
func checkhealth(t *testing.T, bin string, ms *modelServer) string {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{}
	for _, kv := range ms.env() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	var envLua strings.Builder
	for k, v := range env {
		fmt.Fprintf(&envLua, "%s = [==[%s]==], ", k, v)
	}
	initLua := filepath.Join(dir, "init.lua")
	report := filepath.Join(dir, "health.txt")
	if err := os.WriteFile(initLua, []byte(fmt.Sprintf(`
vim.opt.rtp:prepend([==[%s]==])
require("wisp").setup({ cmd = { [==[%s]==], "serve" }, cmd_env = { %s } })
`, repoFile(t, "nvim"), wispBinary(t), envLua.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--clean", "-u", initLua,
		"-c", "checkhealth wisp", "-c", "write! "+report, "-c", "qa!")
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
