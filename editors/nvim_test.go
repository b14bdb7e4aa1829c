package editors

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// goSource is the file the editor tests type into; line 4 is "\t".
const goSource = "package main\n\nfunc main() {\n\t\n}\n"

// Canned model replies shared by the editor tests.
var (
	completeHello = reply{PrefixEndsWith: "hello", Text: "_world()"}
	// longHello is long enough to arrive in several streamed pieces.
	longHello = reply{PrefixEndsWith: "hello", Text: `_world("streamed to the editor token by token")`}
	// closeIf closes the if block acceptCloserIndented leaves open, on
	// a line Enter indented to the block's body.
	closeIf       = reply{PrefixEndsWith: "hello()\n\t\t", Text: "}"}
	renameToGreet = reply{
		InstructionContains: "rename hello_world to greet",
		Text:                "```go\nfunc main() {\n\tgreet()\n}\n```",
	}
	renameToHi = reply{
		InstructionContains: "rename greet to hi",
		Text:                "```go\nfunc main() {\n\thi()\n}\n```",
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

	measured bool // keystroke → ghost text was logged (the first time only)
}

// startNvim opens dir/main.go (goSource) in a headless bin with the plugin
// from ./nvim set up against wisp and ms, as editors/README.md says.
// builtin asks for Neovim 0.12's own inline completion instead of the
// plugin's streamed ghost text.
func startNvim(t *testing.T, bin string, ms *modelServer, builtin bool) *nvim {
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
require("vim.lsp.log").set_level("debug")
require("wisp").setup({
  cmd = { [==[%s]==], "serve" },
  filetypes = { "go" },
  init_options = vim.fn.json_decode([==[%s]==]),
  builtin = %t,
})
_G.wisp_test = {}

-- Latency probe: the time from the last key to the first ghost text drawn
-- that starts what wisp_test.want says (streamed lines may carry closing
-- brackets). Every ghost is an extmark, drawn on screen in the same turn
-- of the event loop, so the extmark call is the moment it appears.
local last_key = nil
vim.on_key(function()
  last_key = vim.loop.hrtime()
end)
local set_extmark = vim.api.nvim_buf_set_extmark
vim.api.nvim_buf_set_extmark = function(buf, ns, row, col, opts)
  local want = _G.wisp_test.want
  if want ~= nil and _G.wisp_test.latency == nil and last_key ~= nil and type(opts) == "table" and opts.virt_text then
    local first = (opts.virt_text[1] or {})[1] or ""
    local open = first:gsub("[\"%%)%%]}]+$", "")
    if first ~= "" and want:sub(1, #open) == open then
      _G.wisp_test.latency = (vim.loop.hrtime() - last_key) / 1e6
    end
  end
  return set_extmark(buf, ns, row, col, opts)
end
function _G.wisp_test.expect(text)
  _G.wisp_test.want = text
  _G.wisp_test.latency = nil
  return 0
end

-- messages returns the lines of :messages that come from wisp.
function _G.wisp_test.messages()
  local out
  if vim.api.nvim_exec2 ~= nil then
    out = vim.api.nvim_exec2("messages", { output = true }).output
  else
    out = vim.api.nvim_exec("messages", true)
  end
  local lines = {}
  for line in out:gmatch("[^\n]+") do
    if line:match("wisp") then
      lines[#lines + 1] = line
    end
  end
  return lines
end

-- ghost_hl returns the highlight group the ghost text is drawn with, after
-- the window's 'winhighlight' mapping.
function _G.wisp_test.ghost_hl()
  local ns = vim.fn.has("nvim-0.10") == 1 and -1 or require("wisp.ghost").namespace
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, { details = true })) do
    local chunk = (m[4].virt_text or {})[1]
    if chunk ~= nil then
      local group = chunk[2]
      for from, to in vim.wo.winhighlight:gmatch("([%%w_]+):([%%w_]+)") do
        if from == group then
          group = to
        end
      end
      return group
    end
  end
  return ""
end
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
`, repoFile(t, "nvim"), wispBinary(t), opts, builtin)
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
		n.t.Fatalf("%v: %s", err, out)
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

// typeHello types "hello" on line 4 (made "\t" first) and waits for the ghost text
// wantGhost. It returns every distinct ghost text seen on the way, in
// order, and logs the time from the last key to the first ghost text.
func (n *nvim) typeHello(wantGhost string) []string {
	n.t.Helper()
	n.send("<Esc>")
	n.expr(`luaeval("vim.api.nvim_buf_set_lines(0, 3, 4, false, {'\t'})")`)
	n.send("4GA")
	n.exprJSON(fmt.Sprintf(`luaeval("wisp_test.expect(_A)", %q)`, wantGhost), new(int))
	n.send("hello")
	var seen []string
	waitFor(n.t, 20*time.Second, fmt.Sprintf("ghost text %q is shown", wantGhost), func() (bool, string) {
		var ghost string
		n.exprJSON(`luaeval("wisp_test.ghost()")`, &ghost)
		if ghost != "" && (len(seen) == 0 || seen[len(seen)-1] != ghost) {
			seen = append(seen, ghost)
		}
		return ghost == wantGhost, ghost
	})
	if n.measured {
		return seen // later figures may come from wisp's cache
	}
	n.measured = true
	var ms float64
	n.exprJSON(`luaeval("wisp_test.latency or -1")`, &ms)
	n.t.Logf("keystroke → ghost text on screen: %.0f ms (model: %v to the first token, %v each way)", ms, measured.ttft, measured.delay)
	return seen
}

// checkGhostColour checks that the ghost text on screen is drawn in a
// highlight that differs from Normal with and without 'termguicolors'.
func (n *nvim) checkGhostColour() {
	n.t.Helper()
	var group string
	n.exprJSON(`luaeval("wisp_test.ghost_hl()")`, &group)
	if group == "" {
		n.t.Fatal("no ghost text to check the colour of")
	}
	for _, mode := range []struct{ set, name string }{{"notermguicolors", "cterm"}, {"termguicolors", "gui"}} {
		n.expr(fmt.Sprintf(`execute("set %s")`, mode.set))
		var differs bool
		n.exprJSON(fmt.Sprintf(`luaeval("require('wisp.highlight').differs(_A, '%s')", %q)`, mode.name, group), &differs)
		if !differs {
			n.t.Errorf("with %s the ghost text (highlight %s) looks like Normal text", mode.set, group)
		}
	}
}

// typeAndAccept types "hello" on line 4, waits for the ghost text, accepts it
// with <Tab> and checks the line. It returns every distinct ghost text seen
// on the way, in order.
func (n *nvim) typeAndAccept(wantGhost string) []string {
	n.t.Helper()
	seen := n.typeHello(wantGhost)
	n.send("<Tab>")
	// A separate <Esc>: in the same input InsertLeave would cancel the
	// scheduled accept.
	n.waitLine(4, "\thello"+wantGhost)
	n.send("<Esc>")
	return seen
}

// quickEdit runs :WispEdit on the function and checks the edit landed and
// what the user was told, then runs it again, which changes nothing.
func (n *nvim) quickEdit() {
	n.t.Helper()
	n.send("<Esc>:3,5WispEdit rename hello_world to greet<CR>")
	n.waitLine(4, "\tgreet()")
	if got, want := strings.Join(n.lines(), "\n"), "package main\n\nfunc main() {\n\tgreet()\n}"; got != want {
		n.t.Fatalf("after the quick edit the buffer is\n%s\nwant\n%s", got, want)
	}
	n.waitMessage(`^wisp: applied [1-9][0-9]* edits?$`)
	n.send(":3,5WispEdit rename hello_world to greet<CR>")
	n.waitMessage(`^wisp: the quick edit changed nothing$`)
	var said []string
	n.exprJSON(`luaeval("wisp_test.messages()")`, &said)
	for _, m := range said {
		if strings.Contains(m, "deprecated") || strings.Contains(m, "edit applied") {
			n.t.Errorf("the quick edits said %q; all messages:\n%s", m, strings.Join(said, "\n"))
		}
	}
	var all string
	n.exprJSON(`execute("messages")`, &all)
	if strings.Contains(all, "deprecated") {
		n.t.Errorf(":messages has a deprecation warning:\n%s", all)
	}
}

// waitMessage waits until wisp's last message matches the pattern want.
func (n *nvim) waitMessage(want string) {
	n.t.Helper()
	re := regexp.MustCompile(want)
	waitFor(n.t, 20*time.Second, fmt.Sprintf("the last message matches %s", want), func() (bool, string) {
		var said []string
		n.exprJSON(`luaeval("wisp_test.messages()")`, &said)
		return len(said) > 0 && re.MatchString(said[len(said)-1]), strings.Join(said, " | ")
	})
}

// acceptCloserIndented accepts a "}" shown on a line indented as the
// block's body, as Enter leaves it: like the "}" typed there, which the
// editor's Go indent rules move back ('indentkeys' "0=}"), the accepted
// one lands at its block's level, with the cursor after it.
func (n *nvim) acceptCloserIndented() {
	n.t.Helper()
	n.send("<Esc>")
	n.expr(`luaeval("vim.api.nvim_buf_set_lines(0, 3, -1, false, {'\tif true {', '\t\thello()', '\t\t'})")`)
	n.send("6GA")
	n.waitGhost(closeIf.Text)
	n.send("<Tab>")
	n.waitLine(6, "\t}")
	if col := n.expr(`col(".")`); col != "3" {
		n.t.Errorf("after the accept the cursor is at column %s of %q, want 3 (after the brace)", col, n.lines()[5])
	}
	n.send("<Esc>")
	n.expr(`luaeval("vim.api.nvim_buf_set_lines(0, 3, -1, false, {'\t', '}'})")`)
}

// typeThroughAndAccept types the first three characters of the ghost text
// and <Tab> in one go, as a fast typist does, and checks that what was
// accepted is the ghost text on screen now, not the item from before.
func (n *nvim) typeThroughAndAccept(wantGhost string) {
	n.t.Helper()
	n.typeHello(wantGhost)
	n.send(wantGhost[:3] + "<Tab>")
	n.waitLine(4, "\thello"+wantGhost)
	n.send("<Esc>")
	if got := n.lines()[3]; got != "\thello"+wantGhost {
		n.t.Fatalf("line 4 is %q after typing into the ghost text and <Tab>; want %q", got, "\thello"+wantGhost)
	}
}

func nvim012(t *testing.T) string {
	bin := filepath.Join(editorsDir(), "nvim-0.12.4")
	requireFiles(t, "Neovim 0.12.4", bin)
	return bin
}

func TestNeovim012InlineCompletion(t *testing.T) {
	bin := nvim012(t)
	long := longHello
	ms := startModelServer(t, []reply{long, renameToGreet, closeIf}, measured)
	n := startNvim(t, bin, ms, false)
	if v := n.expr(`has("nvim-0.12")`); v != "1" {
		t.Fatalf("%s is not Neovim 0.12+", bin)
	}
	n.acceptCloserIndented()
	n.typeHello(long.Text)
	n.checkGhostColour()
	n.send("<Esc>")
	n.typeThroughAndAccept(long.Text)
	n.acceptWordLineDismiss(long.Text)
	n.ghostWithoutTyping(long.Text)
	n.quickEdit()
}

// ghostWithoutTyping checks that ghost text comes without a key typed:
// on entering insert mode where a suggestion belongs (A at the end of
// "\thello", and again after <Esc>), and on moving the cursor back there
// in insert mode. Copilot and Neovim's own inline completion ask then
// too; before, only typing asked.
func (n *nvim) ghostWithoutTyping(wantGhost string) {
	n.t.Helper()
	n.send("<Esc>")
	n.expr(`luaeval("vim.api.nvim_buf_set_lines(0, 3, 4, false, {'\thello'})")`)
	n.send("4GA")
	n.waitGhost(wantGhost)
	n.send("<Esc>")
	n.waitGhost("")
	n.send("A")
	n.waitGhost(wantGhost)
	n.send("<Left>")
	n.waitGhost("")
	n.send("<Right>")
	n.waitGhost(wantGhost)
	n.send("<Esc>")
}

// acceptWordLineDismiss takes a word of the ghost text with <M-Right>,
// hides the rest with <C-]>, then takes a whole line with <M-C-Right>.
func (n *nvim) acceptWordLineDismiss(wantGhost string) {
	n.t.Helper()
	word := wantGhost[:strings.IndexAny(wantGhost, "(\"")]
	n.typeHello(wantGhost)
	n.send("<M-Right>")
	n.waitLine(4, "\thello"+word)
	n.waitGhost(wantGhost[len(word):])
	n.send("<C-]>")
	n.waitGhost("")
	n.send("<Esc>")
	n.typeHello(wantGhost)
	n.send("<M-C-Right>")
	n.waitLine(4, "\thello"+wantGhost)
	n.send("<Esc>")
}

// waitGhost waits until the ghost text drawn is want.
func (n *nvim) waitGhost(want string) {
	n.t.Helper()
	waitFor(n.t, 20*time.Second, fmt.Sprintf("ghost text %q", want), func() (bool, string) {
		var ghost string
		n.exprJSON(`luaeval("wisp_test.ghost()")`, &ghost)
		return ghost == want, ghost
	})
}

func TestNeovim012BuiltinInlineCompletion(t *testing.T) {
	bin := nvim012(t)
	ms := startModelServer(t, []reply{completeHello, renameToGreet, renameToHi}, measured)
	n := startNvim(t, bin, ms, true)
	n.typeHello(completeHello.Text)
	n.checkGhostColour()
	n.send("<Esc>")
	n.typeThroughAndAccept(completeHello.Text)
	n.typeAndAccept(completeHello.Text)
	n.quickEdit()
	n.quickEditAction()
}

// quickEditAction runs wisp's "Quick edit…" code action on the function
// (after quickEdit): the plugin asks for its instruction, and the edit
// lands.
func (n *nvim) quickEditAction() {
	n.t.Helper()
	n.send(`<Esc>:3<CR>:lua vim.lsp.buf.code_action({ apply = true, filter = function(a) return a.title:find("Quick edit", 1, true) ~= nil end })<CR>`)
	waitFor(n.t, 20*time.Second, "the plugin asks for the instruction", func() (bool, string) {
		m := n.expr("mode()")
		return m == "c", m
	})
	n.send("rename greet to hi<CR>")
	n.waitLine(4, "\thi()")
	n.waitMessage(`^wisp: applied [1-9][0-9]* edits?$`)
}

func TestNeovim07StreamedGhostText(t *testing.T) {
	bin := "/usr/bin/nvim"
	requireFiles(t, "Neovim 0.7.2", bin)
	long := longHello
	// Slow enough that several partial updates are drawn before the end.
	ms := startModelServer(t, []reply{long, renameToGreet, closeIf}, pace{rate: 25, ttft: measured.ttft, delay: measured.delay})
	n := startNvim(t, bin, ms, false)
	if v := n.expr(`has("nvim-0.8")`); v != "0" {
		t.Fatalf("%s is not Neovim 0.7", bin)
	}
	n.acceptCloserIndented()
	seen := n.typeAndAccept(long.Text)
	n.typeHello(long.Text)
	n.checkGhostColour()
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

// TestNeovimModelDownIsQuiet types 20 keys while the model is down, then
// brings it back: the user hears once that it is down and once that it is
// back, every key lands where it was typed (no "Press ENTER" prompt eats
// one), and ghost text returns without restarting anything.
func TestNeovimModelDownIsQuiet(t *testing.T) {
	t.Run("0.12.4", func(t *testing.T) { modelDownIsQuiet(t, nvim012(t)) })
	t.Run("0.7.2", func(t *testing.T) {
		requireFiles(t, "Neovim 0.7.2", "/usr/bin/nvim")
		modelDownIsQuiet(t, "/usr/bin/nvim")
	})
}

func modelDownIsQuiet(t *testing.T, bin string) {
	ms := startModelServer(t, []reply{completeHello}, measured)
	n := startNvim(t, bin, ms, false)
	n.expr(`execute("set columns=120")`)
	ms.stop(t)
	n.send("<Esc>4GA")
	const typed = "fmt.Println(x, y, z)"
	for i := range len(typed) {
		n.send(typed[i : i+1])
		n.waitLine(4, "\t"+typed[:i+1])
	}
	waitFor(t, 20*time.Second, "wisp reports the model unavailable", func() (bool, string) {
		var state string
		n.exprJSON(`get(g:, "wisp_status", "")`, &state)
		return state != "" && state != "idle" && state != "generating", state
	})
	var mode string
	n.exprJSON(`mode()`, &mode)
	if mode != "i" {
		t.Errorf("after 20 keys with the model down Neovim is in mode %q, want i (a prompt would swallow keys)", mode)
	}
	var said []string
	n.exprJSON(`luaeval("wisp_test.messages()")`, &said)
	if len(said) > 1 {
		t.Errorf("with the model down the user was told %d things over 20 keys, want at most 1:\n%s", len(said), strings.Join(said, "\n"))
	}

	startModelServerAt(t, ms.addr, []reply{completeHello}, measured)
	// wisp waits a little before it reconnects; a person keeps typing.
	n.send("<Esc>")
	n.expr(`luaeval("vim.api.nvim_buf_set_lines(0, 3, 4, false, {'\t'})")`)
	n.send("4GAhell")
	deadline := time.Now().Add(30 * time.Second)
	for back := false; !back; {
		if time.Now().After(deadline) {
			t.Fatal("ghost text did not come back with the model")
		}
		n.send("o")
		for wait := time.Now().Add(2 * time.Second); !back && time.Now().Before(wait); {
			var ghost string
			n.exprJSON(`luaeval("wisp_test.ghost()")`, &ghost)
			back = ghost == completeHello.Text
		}
		if !back {
			n.send("<BS>")
		}
	}
	n.exprJSON(`luaeval("wisp_test.messages()")`, &said)
	back := 0
	for _, m := range said {
		if strings.Contains(m, "back") {
			back++
		}
	}
	if back != 1 || len(said) > 2 {
		t.Errorf("after the model came back the user was told:\n%s\nwant one message that it is down and one that it is back", strings.Join(said, "\n"))
	}
	// Quiet is not silent: the outage itself was said, before the return.
	if len(said) != 2 || strings.Contains(said[0], "back") {
		t.Errorf("the user was told:\n%s\nwant first that the model is down, then that it is back", strings.Join(said, "\n"))
	}
}
