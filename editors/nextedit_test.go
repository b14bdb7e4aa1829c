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

// meanGo is the file the next-edit tests edit: the user renames total at
// its declaration (line 5), and the uses on lines 7 and 9 should follow.
const meanGo = `package calc

// Mean returns the mean of xs.
func Mean(xs []float64) float64 {
	total := 0.0
	for _, x := range xs {
		total += x
	}
	return total / float64(len(xs))
}
`

// meanRenamed is meanGo with total renamed to sum: the "after" version
// the model server's oracle answers next-edit requests from.
var meanRenamed = strings.ReplaceAll(meanGo, "total", "sum")

// meanDeclRenamed is meanGo right after the user's edit: the declaration
// renamed, the uses not yet.
var meanDeclRenamed = strings.Replace(meanGo, "total", "sum", 1)

// nextEditSettings turn next edits on, as a user does in their editor's
// settings for wisp (they are opt-in).
var nextEditSettings = map[string]any{"enabled": true, "minPause": "100ms"}

// startOracleModelServer starts a model server that answers next-edit
// requests from afters, the "after" version of each file by name (wisp
// model-server --workspace), and the completion script replies otherwise;
// editors set up from it turn next edits on. With
// WISP_EDITORS_SELFCHECK=empty the oracle has no after versions, so
// nothing follows and every next-edit test must fail.
func startOracleModelServer(t *testing.T, afters map[string]string, replies []reply) *modelServer {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "after")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, after := range afters {
		if selfCheckEmpty() {
			break
		}
		if err := os.WriteFile(filepath.Join(ws, name), []byte(after), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ms := startModelServerAt(t, freeAddr(t), replies, pace{}, "--workspace", ws)
	ms.settings = map[string]any{"nextEdit": nextEditSettings}
	return ms
}

// nvimNextEditHelpers are Lua helpers for reading what the next-edit
// module draws and what wisp counted.
const nvimNextEditHelpers = `
-- wisp_test.next_edit returns the suggested edit as drawn: the text each
-- marked span replaces and the lines drawn under the buffer's lines.
function _G.wisp_test.next_edit()
  local ns = require("wisp.nextedit").namespace
  local marked, drawn = {}, {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, { details = true })) do
    local row, col, d = m[2], m[3], m[4]
    if d.hl_group ~= nil and d.end_col ~= nil then
      local line = vim.api.nvim_buf_get_lines(0, row, row + 1, false)[1] or ""
      marked[#marked + 1] = { row = row, text = line:sub(col + 1, d.end_col), hl = d.hl_group }
    end
    for _, vl in ipairs(d.virt_lines or {}) do
      local parts, hl = {}, ""
      for _, chunk in ipairs(vl) do
        parts[#parts + 1] = chunk[1]
        hl = chunk[2]
      end
      drawn[#drawn + 1] = { row = row, text = table.concat(parts), hl = hl }
    end
  end
  return { marked = marked, drawn = drawn }
end

-- wisp_test.next_stats asks wisp for its next-edit counters.
function _G.wisp_test.next_stats()
  local c = require("wisp").client()
  local resp
  if vim.fn.has("nvim-0.11") == 1 then
    resp = c:request_sync("wisp/stats", vim.empty_dict(), 5000, 0)
  else
    resp = c.request_sync("wisp/stats", vim.empty_dict(), 5000, 0)
  end
  return ((resp or {}).result or {}).nextEdit or {}
end

-- wisp_test.watch_pause sets wisp_test.paused once a change in the
-- current buffer has been followed by the next-edit module's pause. Its
-- timer starts after the module's (this autocommand comes later), with
-- the same length, so the module's has fired, and sent any request, first.
function _G.wisp_test.watch_pause()
  local timer = vim.loop.new_timer()
  _G.wisp_test.paused = false
  vim.api.nvim_create_autocmd({ "TextChanged", "TextChangedI" }, {
    buffer = 0,
    callback = function()
      timer:stop()
      timer:start(require("wisp.nextedit").pause(), 0, vim.schedule_wrap(function()
        _G.wisp_test.paused = true
      end))
    end,
  })
  return 0
end

-- wisp_test.attached reports whether wisp is attached to the buffer.
function _G.wisp_test.attached()
  local c = require("wisp").client()
  return (c ~= nil and vim.lsp.buf_is_attached(0, c.id)) and 1 or 0
end
`

// nvimSuggestion is a suggested edit as the Neovim plugin draws it.
type nvimSuggestion struct {
	Marked []struct {
		Row  int
		Text string
		Hl   string
	}
	Drawn []struct {
		Row  int
		Text string
		Hl   string
	}
}

// nextEditStats are wisp/stats' next-edit counters.
type nextEditStats struct {
	Asked, Requests, Suggested, Shown, Accepted, Dismissed int
}

// openCalc writes meanGo as calc.go in Neovim's folder, opens it and waits
// until wisp is attached to it.
func (n *nvim) openCalc() string {
	n.t.Helper()
	file := filepath.Join(n.dir, "calc.go")
	if err := os.WriteFile(file, []byte(meanGo), 0o644); err != nil {
		n.t.Fatal(err)
	}
	n.expr(`luaeval("loadstring(_A)()", "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(nvimNextEditHelpers) + `")`)
	n.send("<Esc>:edit calc.go<CR>")
	waitFor(n.t, 20*time.Second, "wisp is attached to calc.go", func() (bool, string) {
		out, err := n.tryExpr(`luaeval("wisp_test.attached()")`)
		return err == nil && strings.TrimSpace(out) == "1", out
	})
	return file
}

// waitSuggestion waits until Neovim draws a suggested edit.
func (n *nvim) waitSuggestion() nvimSuggestion {
	n.t.Helper()
	var s nvimSuggestion
	waitFor(n.t, 20*time.Second, "a suggested edit is drawn", func() (bool, string) {
		s = nvimSuggestion{}
		n.exprJSON(`luaeval("wisp_test.next_edit()")`, &s)
		return len(s.Drawn) > 0, fmt.Sprintf("%+v", s)
	})
	return s
}

// cursor returns the cursor's line (1-based) and byte column (0-based).
func (n *nvim) cursor() (int, int) {
	n.t.Helper()
	var pos []int
	n.exprJSON(`[line("."), col(".") - 1]`, &pos)
	return pos[0], pos[1]
}

// checkRenameSuggestion checks that s marks each use of total still to
// rename and draws its renamed line under it.
func checkRenameSuggestion(t *testing.T, s nvimSuggestion) {
	t.Helper()
	var marked, drawn []string
	for _, m := range s.Marked {
		marked = append(marked, fmt.Sprintf("%d:%s:%s", m.Row+1, m.Text, m.Hl))
	}
	for _, d := range s.Drawn {
		drawn = append(drawn, fmt.Sprintf("%d:%s:%s", d.Row+1, d.Text, d.Hl))
	}
	wantMarked := []string{"7:total:WispNextEditDelete", "9:total:WispNextEditDelete"}
	// Tabs drawn as the buffer shows them ('tabstop' 8).
	wantDrawn := []string{"7:                sum += x:WispNextEdit", "9:        return sum / float64(len(xs)):WispNextEdit"}
	if strings.Join(marked, "|") != strings.Join(wantMarked, "|") {
		t.Errorf("marked for replacement: %q, want %q", marked, wantMarked)
	}
	if strings.Join(drawn, "|") != strings.Join(wantDrawn, "|") {
		t.Errorf("drawn as the suggestion: %q, want %q", drawn, wantDrawn)
	}
}

// nvimNextEdit renames total at its declaration in normal mode (in insert
// mode with builtin, where <Tab> goes through Neovim's own inline
// completion first); the suggestion for its uses must be drawn, <Tab>
// must jump to it, a second <Tab> apply it, and wisp must have counted it
// shown and accepted. Then,
// in insert mode, ghost text must win <Tab> over a suggestion (the
// plugin's ghost text; with builtin, Neovim's own is not checked), and
// <Esc> in normal mode must dismiss one.
func nvimNextEdit(t *testing.T, bin string, builtin, wispSettings bool) {
	ms := startOracleModelServer(t, map[string]string{"calc.go": meanRenamed}, []reply{
		{PrefixEndsWith: "0.0 // ", Text: "running total"},
		{PrefixEndsWith: "sum", Text: ""}, // no ghost text after the rename
	})
	if wispSettings {
		ms.settings = nil
		t.Setenv("WISP_NEXT_EDIT", "true")
	}
	n := startNvim(t, bin, ms, builtin)
	file := n.openCalc()

	if builtin {
		n.send("5G^ciwsum")
	} else {
		n.send("5G^ciwsum<Esc>")
	}
	n.waitLine(5, "\tsum := 0.0")
	checkRenameSuggestion(t, n.waitSuggestion())
	if got := strings.Join(n.lines(), "\n") + "\n"; got != meanDeclRenamed {
		t.Fatalf("the suggestion reached the buffer before <Tab>:\n%s", got)
	}
	n.send("<Tab>")
	waitFor(t, 10*time.Second, "the first <Tab> jumps to the suggestion (line 7, at total)", func() (bool, string) {
		line, col := n.cursor()
		return line == 7 && col == 2, fmt.Sprintf("cursor at %d:%d", line, col)
	})
	if got := strings.Join(n.lines(), "\n") + "\n"; got != meanDeclRenamed {
		t.Fatalf("the first <Tab> changed the buffer:\n%s", got)
	}
	n.send("<Tab>")
	waitFor(t, 10*time.Second, "the second <Tab> applies the suggestion", func() (bool, string) {
		got := strings.Join(n.lines(), "\n") + "\n"
		return got == meanRenamed, got
	})
	var st nextEditStats
	waitFor(t, 10*time.Second, "wisp counted the suggestion shown and accepted", func() (bool, string) {
		n.exprJSON(`luaeval("wisp_test.next_stats()")`, &st)
		return st.Shown >= 1 && st.Accepted >= 1, fmt.Sprintf("%+v", st)
	})
	n.send("<Esc>:w<CR>")
	waitFor(t, 10*time.Second, "calc.go saved with the uses renamed", func() (bool, string) {
		data, _ := os.ReadFile(file)
		return string(data) == meanRenamed, string(data)
	})

	if builtin {
		return
	}
	// Ghost text wins <Tab>: with a comment typed after the declaration
	// the model completes it, and the oracle suggests removing it.
	n.send("5GA // ")
	waitFor(t, 20*time.Second, "ghost text and a suggested edit are both shown", func() (bool, string) {
		var ghost string
		var s nvimSuggestion
		n.exprJSON(`luaeval("require('wisp.ghost').rendered(0)")`, &ghost)
		n.exprJSON(`luaeval("wisp_test.next_edit()")`, &s)
		return ghost == "running total" && len(s.Drawn) > 0, fmt.Sprintf("ghost %q, suggestion %+v", ghost, s)
	})
	n.send("<Tab>")
	n.waitLine(5, "\tsum := 0.0 // running total")
	n.send("<Esc>")
	// <Esc> in normal mode dismisses a suggestion.
	s := n.waitSuggestion()
	if len(s.Drawn) == 0 {
		t.Fatal("no suggestion to dismiss")
	}
	n.send("<Esc>")
	waitFor(t, 10*time.Second, "<Esc> dismisses the suggestion", func() (bool, string) {
		var s nvimSuggestion
		n.exprJSON(`luaeval("wisp_test.next_edit()")`, &s)
		return len(s.Drawn) == 0 && len(s.Marked) == 0, fmt.Sprintf("%+v", s)
	})
	var all string
	n.exprJSON(`execute("messages")`, &all)
	if strings.Contains(all, "deprecated") || strings.Contains(all, "rror") {
		t.Errorf(":messages after the next edits:\n%s", all)
	}
}

// TestNeovimNextEditFromInsertMode renames total and stays in insert
// mode: the first <Tab> jumps to the suggestion and the second applies
// it. The cursor moves in insert mode with the jump, and the model has
// ghost text for that place ("sum += x", as the file will read); the
// ghost text must not be asked for there, or the second <Tab> takes it
// and line 7 reads "sum += xtotal += x".
func TestNeovimNextEditFromInsertMode(t *testing.T) {
	ms := startOracleModelServer(t, map[string]string{"calc.go": meanRenamed}, []reply{
		{PrefixEndsWith: "sum", Text: ""},
		{PrefixEndsWith: "range xs {\n\t\t", Text: "sum += x"},
	})
	n := startNvim(t, nvim012(t), ms, false)
	n.openCalc()
	n.send("5G^ciwsum")
	n.waitLine(5, "\tsum := 0.0")
	checkRenameSuggestion(t, n.waitSuggestion())
	n.send("<Tab>")
	waitFor(t, 10*time.Second, "the first <Tab> jumps to the suggestion (line 7, at total)", func() (bool, string) {
		line, col := n.cursor()
		return line == 7 && col == 2, fmt.Sprintf("cursor at %d:%d", line, col)
	})
	// Time for ghost text to come, were it asked for: the model answers
	// at once.
	time.Sleep(time.Second)
	n.send("<Tab>")
	waitFor(t, 10*time.Second, "the second <Tab> applies the suggestion", func() (bool, string) {
		got := strings.Join(n.lines(), "\n") + "\n"
		return got == meanRenamed, got
	})
}

// TestNeovimNextEdit drives the next-edit suggestions of the Neovim plugin
// on Neovim 0.12.4 (with the plugin's ghost text and with Neovim's own)
// and 0.7.2 (headless, over RPC) against wisp and the model server's
// oracle.
func TestNeovimNextEdit(t *testing.T) {
	t.Run("0.12.4", func(t *testing.T) { nvimNextEdit(t, nvim012(t), false, false) })
	t.Run("0.12.4-builtin", func(t *testing.T) { nvimNextEdit(t, nvim012(t), true, false) })
	t.Run("0.7.2", func(t *testing.T) {
		requireFiles(t, "Neovim 0.7.2", "/usr/bin/nvim")
		nvimNextEdit(t, "/usr/bin/nvim", false, false)
	})
	// Turned on in wisp's own settings (WISP_NEXT_EDIT, as config.toml
	// would), not in the plugin's: the plugin asks all the same.
	t.Run("0.12.4-wisp-settings", func(t *testing.T) { nvimNextEdit(t, nvim012(t), false, true) })
}

// TestNeovimNextEditOff renames total with next edits left off (wisp's
// default, the plugin's settings unset): wisp says so in its initialize
// result, so the pause after the rename must send it no next-edit request.
func TestNeovimNextEditOff(t *testing.T) {
	ms := startModelServer(t, []reply{{PrefixEndsWith: "sum", Text: ""}}, pace{})
	n := startNvim(t, nvim012(t), ms, false)
	n.openCalc()
	n.expr(`luaeval("wisp_test.watch_pause()")`)
	n.send("5G^ciwsum<Esc>")
	n.waitLine(5, "\tsum := 0.0")
	waitFor(t, 10*time.Second, "the pause after the rename runs out", func() (bool, string) {
		var paused bool
		n.exprJSON(`luaeval("wisp_test.paused")`, &paused)
		return paused, "no pause ran out"
	})
	var st nextEditStats
	n.exprJSON(`luaeval("wisp_test.next_stats()")`, &st)
	if st.Asked != 0 {
		t.Errorf("with next edits off the plugin asked wisp for them %d times", st.Asked)
	}
}

// TestNeovimNextEditLayout plans, in Neovim itself (0.12.4, and 0.7.2
// where the line diff is vim.diff), how a suggested edit that removes a
// line and renames a use below it is drawn: the removed line marked
// whole, the renamed word marked and its new line drawn under it, and the
// lines the edit keeps between the two neither marked nor drawn again.
func TestNeovimNextEditLayout(t *testing.T) {
	const script = `
vim.opt.rtp:append(REPO)
local o = { "// Mean returns the mean of xs.", "func Mean(xs []float64) float64 {", "\tsum := 0.0", "\tfor _, x := range xs {", "\t\ttotal += x" }
local n = { "func Mean(xs []float64) float64 {", "\tsum := 0.0", "\tfor _, x := range xs {", "\t\tsum += x" }
io.stdout:write(vim.fn.json_encode(require("wisp.nextedit").layout(o, n)))
`
	bins := []string{nvim012(t)}
	if _, err := os.Stat("/usr/bin/nvim"); err == nil {
		bins = append(bins, "/usr/bin/nvim")
	}
	for _, bin := range bins {
		lua := filepath.Join(t.TempDir(), "layout.lua")
		if err := os.WriteFile(lua, []byte(strings.Replace(script, "REPO", fmt.Sprintf("%q", repoFile(t, "nvim")), 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile "+lua, "-c", "qa!").Output()
		if err != nil {
			t.Fatalf("%s: %v", bin, err)
		}
		var plan struct {
			Marks []struct{ Row, Col, End_col int }
			Draws []struct {
				Row   int
				Lines []string
			}
			Jump struct{ Row, Col int }
		}
		if err := json.Unmarshal(out, &plan); err != nil {
			t.Fatalf("%s: %v: %q", bin, err, out)
		}
		got := fmt.Sprintf("marks %v draws %v jump %v", plan.Marks, plan.Draws, plan.Jump)
		want := "marks [{0 0 31} {4 2 7}] draws [{4 [\t\tsum += x]}] jump {0 0}"
		if got != want {
			t.Errorf("%s: %s\nwant %s", bin, got, want)
		}
	}
}
