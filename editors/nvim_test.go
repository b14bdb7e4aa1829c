package editors

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// goSource is the file the editor tests type into; line 4 is "\t".
const goSource = "package main\n\nfunc main() {\n\t\n}\n"

// Canned model replies shared by the editor tests.
var (
	completeHello = reply{PrefixEndsWith: "hello", Text: "_world()"}
	renameToGreet = reply{
		InstructionContains: "rename hello_world to greet",
		Text:                "```go\nfunc main() {\n\tgreet()\n}\n```",
	}
)

// nvim is a headless Neovim driven over its RPC socket by the nvim client
// itself (--remote-send, --remote-expr).
type nvim struct {
	t    *testing.T
	bin  string
	sock string
	dir  string   // the test's folder: Neovim's working directory
	env  []string // XDG folders and log files inside dir
}

// startNvim opens dir/main.go (goSource) in a headless bin with the plugin
// from ./nvim set up against wisp and ms. ownGhost forces the plugin's own
// ghost text even where Neovim has its own.
func startNvim(t *testing.T, bin string, ms *modelServer, ownGhost bool) *nvim {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte(goSource), 0o644); err != nil {
		t.Fatal(err)
	}
	opts, err := json.Marshal(ms.initOptions())
	if err != nil {
		t.Fatal(err)
	}
	initLua := fmt.Sprintf(`
vim.opt.rtp:prepend([==[%s]==])
vim.o.swapfile = false
vim.lsp.set_log_level("debug")
require("wisp").setup({
  cmd = { [==[%s]==], "serve" },
  filetypes = { "go" },
  init_options = vim.fn.json_decode([==[%s]==]),
  own_ghost = %t,
})
_G.wisp_test = {}
function _G.wisp_test.ready()
  local c = require("wisp").client()
  return (c ~= nil and c.initialized) and 1 or 0
end
-- ghost returns the ghost text drawn in the current buffer, whoever drew it.
function _G.wisp_test.ghost()
  if vim.fn.has("nvim-0.10") == 0 then
    return require("wisp.ghost").rendered(0)
  end
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, -1, 0, -1, { details = true })) do
    for _, chunk in ipairs(m[4].virt_text or {}) do
      out[#out + 1] = chunk[1]
    end
    for _, line in ipairs(m[4].virt_lines or {}) do
      out[#out + 1] = "\n"
      for _, chunk in ipairs(line) do
        out[#out + 1] = chunk[1]
      end
    end
  end
  return table.concat(out)
end
`, repoFile(t, "nvim"), wispBinary(t), opts, ownGhost)
	initPath := filepath.Join(dir, "init.lua")
	if err := os.WriteFile(initPath, []byte(initLua), 0o644); err != nil {
		t.Fatal(err)
	}
	n := &nvim{t: t, bin: bin, sock: filepath.Join(dir, "nvim.sock"), dir: dir}
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		xdg := filepath.Join(dir, "xdg", strings.ToLower(v))
		if err := os.MkdirAll(xdg, 0o755); err != nil {
			t.Fatal(err)
		}
		n.env = append(n.env, v+"="+xdg)
	}
	n.env = append(n.env, "NVIM_LOG_FILE="+filepath.Join(dir, "nvim.log"))
	n.env = append(n.env, wispLogEnv(t, dir)...)
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		logs, _ := filepath.Glob(filepath.Join(dir, "xdg", "*", "nvim", "lsp.log"))
		for _, l := range logs {
			if data, err := os.ReadFile(l); err == nil {
				t.Logf("Neovim's lsp.log (last 4000 bytes):\n%s", tail(string(data), 4000))
			}
		}
	})
	startProcess(t, "nvim", dir, n.env, bin, "--headless", "--clean", "-n", "-i", "NONE",
		"-u", initPath, "--listen", n.sock, file)
	waitFor(t, 20*time.Second, "wisp is attached and initialized in Neovim", func() (bool, string) {
		out, err := n.tryExpr(`luaeval("wisp_test.ready()")`)
		return err == nil && out == "1", out
	})
	return n
}

func (n *nvim) remote(args ...string) (string, error) {
	cmd := exec.Command(n.bin, append([]string{"--server", n.sock}, args...)...)
	cmd.Env = append(os.Environ(), n.env...)
	cmd.Dir = n.dir
	// Neovim 0.7 prints --remote-expr results on stderr, later ones on stdout.
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("nvim %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

func (n *nvim) tryExpr(expr string) (string, error) {
	return n.remote("--remote-expr", expr)
}

// expr evaluates a Vimscript expression in Neovim.
func (n *nvim) expr(expr string) string {
	n.t.Helper()
	out, err := n.tryExpr(expr)
	if err != nil {
		n.t.Fatal(err)
	}
	return out
}

// exprJSON evaluates expr in Neovim and decodes its value into v, through
// JSON, so that tabs and newlines survive the trip.
func (n *nvim) exprJSON(expr string, v any) {
	n.t.Helper()
	out := n.expr("json_encode(" + expr + ")")
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), v); err != nil {
		n.t.Fatalf("%s = %q: %v", expr, out, err)
	}
}

// send types keys (in <Key> notation) into Neovim.
func (n *nvim) send(keys string) {
	n.t.Helper()
	if _, err := n.remote("--remote-send", keys); err != nil {
		n.t.Fatal(err)
	}
}

// lines returns the buffer's lines.
func (n *nvim) lines() []string {
	n.t.Helper()
	var lines []string
	n.exprJSON(`getline(1, "$")`, &lines)
	return lines
}

// waitLine waits until line (1-based) of the buffer is want.
func (n *nvim) waitLine(line int, want string) {
	n.t.Helper()
	waitFor(n.t, 20*time.Second, fmt.Sprintf("line %d is %q", line, want), func() (bool, string) {
		lines := n.lines()
		return len(lines) >= line && lines[line-1] == want, strings.Join(lines, "⏎")
	})
}

// typeAndAccept types "hello" on line 4, waits for the ghost text, accepts it
// with <Tab> and checks the line. It returns every distinct ghost text seen
// on the way, in order.
func (n *nvim) typeAndAccept(wantGhost string) []string {
	n.t.Helper()
	n.send("<Esc>4GAhello")
	var seen []string
	waitFor(n.t, 20*time.Second, fmt.Sprintf("ghost text %q is shown", wantGhost), func() (bool, string) {
		var ghost string
		n.exprJSON(`luaeval("wisp_test.ghost()")`, &ghost)
		if ghost != "" && (len(seen) == 0 || seen[len(seen)-1] != ghost) {
			seen = append(seen, ghost)
		}
		return ghost == wantGhost, ghost
	})
	n.send("<Tab>")
	// A separate <Esc>: in the same input InsertLeave would cancel the
	// scheduled accept.
	n.waitLine(4, "\thello"+wantGhost)
	n.send("<Esc>")
	return seen
}

// quickEdit runs :WispEdit on the function and checks the edit landed.
func (n *nvim) quickEdit() {
	n.t.Helper()
	n.send("<Esc>:3,5WispEdit rename hello_world to greet<CR>")
	n.waitLine(4, "\tgreet()")
	if got, want := strings.Join(n.lines(), "\n"), "package main\n\nfunc main() {\n\tgreet()\n}"; got != want {
		n.t.Fatalf("after the quick edit the buffer is\n%s\nwant\n%s", got, want)
	}
}

func TestNeovim012InlineCompletion(t *testing.T) {
	bin := filepath.Join(editorsDir(), "nvim-0.12.4")
	requireFiles(t, "Neovim 0.12.4", bin)
	ms := startModelServer(t, []reply{completeHello, renameToGreet}, pace{})
	n := startNvim(t, bin, ms, false)
	if v := n.expr(`has("nvim-0.12")`); v != "1" {
		t.Fatalf("%s is not Neovim 0.12+", bin)
	}
	n.typeAndAccept("_world()")
	n.quickEdit()
}

func TestNeovim07StreamedGhostText(t *testing.T) {
	bin := "/usr/bin/nvim"
	requireFiles(t, "Neovim 0.7.2", bin)
	long := reply{PrefixEndsWith: "hello", Text: `_world("streamed to the editor token by token")`}
	// Slow enough that several partial updates are drawn before the end.
	ms := startModelServer(t, []reply{long, renameToGreet}, pace{rate: 25})
	n := startNvim(t, bin, ms, false)
	if v := n.expr(`has("nvim-0.8")`); v != "0" {
		t.Fatalf("%s is not Neovim 0.7", bin)
	}
	seen := n.typeAndAccept(long.Text)
	var partial []string
	for _, g := range seen[:len(seen)-1] {
		// wisp closes the brackets and quotes a partial line leaves open.
		if open := strings.TrimRight(g, `")]}`); !strings.HasPrefix(long.Text, open) {
			t.Errorf("ghost text %q does not start a prefix of the reply %q", g, long.Text)
		}
		partial = append(partial, g)
	}
	if len(partial) < 2 {
		t.Errorf("ghost text grew in %d step(s) before the end (%q); want streamed growth in at least 2", len(partial), seen)
	}
	n.quickEdit()
}
