-- Next-edit suggestions, on every Neovim from 0.7: after a pause in
-- editing, asks wisp for the edit that follows the last one
-- (textDocument/copilotInlineEdit) and shows it at its place as an inline
-- diff: the text it replaces highlighted (WispNextEditDelete), the lines it
-- makes drawn under them (WispNextEdit). <Tab> jumps to it, a second
-- <Tab> applies it (one <Tab> when the cursor is on its lines already),
-- <Esc> in normal mode dismisses it. Ghost text at the cursor wins <Tab>.
--
-- Next edits are opt-in, and wisp knows whether they are on: they are
-- turned on in these settings (init_options = { nextEdit = { enabled =
-- true } }) or in wisp's own config.toml or WISP_NEXT_EDIT, and wisp
-- says so in its initialize result (capabilities.experimental.nextEdit).
-- This module asks after the pause nextEdit.minPause gives (300 ms when
-- unset) only while wisp says they are on.
local bufstate = require("wisp.bufstate")
local lsp = require("wisp.lsp")

local M = {}

local ns = vim.api.nvim_create_namespace("wisp_next_edit")
M.namespace = ns

M.group = "WispNextEdit"
M.delete_group = "WispNextEditDelete"

-- state[bufnr] = {
--   client_id,  -- the wisp client attached to bufnr
--   timer,      -- the pause timer (a uv timer), never nil after attach
--   request_id, -- the copilotInlineEdit request in flight, or nil
--   shown,      -- the suggestion drawn now, or nil: { edit (as wisp sent
--               -- it), tick (changedtick it is for), first, last (rows
--               -- the edit spans), jump = { row, col } (its first change) }
-- }
local state = {}

local function options()
  return (require("wisp").config.init_options or {}).nextEdit or {}
end

-- enabled reports whether next edits may be on: unless the settings sent
-- to wisp turn them off. Whether they are is wisp's to say (offered).
function M.enabled()
  return options().enabled ~= false
end

-- offered reports whether client, a wisp client, said in its initialize
-- result that next edits are on (its config.toml, WISP_NEXT_EDIT, or these
-- settings); while they are off it would answer every request with nothing.
local function offered(client)
  local caps = client.server_capabilities or {}
  return type(caps.experimental) == "table" and caps.experimental.nextEdit == true
end

-- pause returns how long editing must pause before asking, in ms:
-- nextEdit.minPause ("300ms", "0.5s" or a number of ms), or 300.
function M.pause()
  local p = options().minPause
  if type(p) == "number" then
    return math.max(p, 0)
  end
  if type(p) == "string" then
    local n, unit = p:match("^%s*([%d%.]+)%s*(m?s)%s*$")
    if n ~= nil and tonumber(n) ~= nil then
      return math.floor(tonumber(n) * (unit == "s" and 1000 or 1))
    end
  end
  return 300
end

-- define links the highlight groups to the diff colours unless the user
-- or a colour scheme defined them, now and after every colour scheme.
local defined = false
local function define()
  vim.cmd("highlight default link " .. M.group .. " DiffAdd")
  vim.cmd("highlight default link " .. M.delete_group .. " DiffDelete")
  if not defined then
    defined = true
    local group = vim.api.nvim_create_augroup("wisp_next_edit", { clear = true })
    vim.api.nvim_create_autocmd("ColorScheme", { group = group, callback = define })
  end
end

-- clear removes bufnr's suggestion and cancels its request.
function M.clear(bufnr)
  local st = state[bufnr]
  if st == nil then
    return
  end
  st.shown = nil
  bufstate.reset(st, bufnr, ns)
end

-- expand replaces the tabs of s by spaces, as the buffer shows them:
-- virtual text draws a tab as one cell.
local function expand(s, ts)
  local out, col = {}, 0
  for ch in s:gmatch("[^\t]*\t?") do
    local plain = ch:gsub("\t$", "")
    out[#out + 1] = plain
    col = col + vim.fn.strdisplaywidth(plain)
    if ch:sub(-1) == "\t" then
      local n = ts - col % ts
      out[#out + 1] = string.rep(" ", n)
      col = col + n
    end
  end
  return table.concat(out)
end

-- common returns the lengths of the common prefix and suffix of a and b
-- (bytes, never overlapping).
local function common(a, b)
  local p, n = 0, math.min(#a, #b)
  while p < n and a:byte(p + 1) == b:byte(p + 1) do
    p = p + 1
  end
  local s = 0
  while s < n - p and a:byte(#a - s) == b:byte(#b - s) do
    s = s + 1
  end
  return p, s
end

-- hunks returns the line hunks that turn the lines o into n, each
-- { oi, oc, ni, nc }: oc lines of o from oi become nc lines of n from ni
-- (1-based; when a count is 0, its start is the line before), by
-- Neovim's own line diff; one hunk of everything where there is none.
local function hunks(o, n)
  local diff = (vim.text ~= nil and vim.text.diff) or vim.diff
  if diff ~= nil and #o > 0 and #n > 0 then
    local ok, hs = pcall(diff, table.concat(o, "\n") .. "\n", table.concat(n, "\n") .. "\n", { result_type = "indices" })
    if ok and type(hs) == "table" and #hs > 0 then
      return hs
    end
  end
  return { { #o > 0 and 1 or 0, #o, #n > 0 and 1 or 0, #n } }
end

-- layout plans how the lines o become the lines n (an edit's region,
-- without the lines it keeps at either end) as an inline diff, rows
-- counted from o's first line (0-based):
--   marks: { row, col, end_col } spans of o to show as replaced;
--   draws: { row, lines } new lines to draw under row (-1: above o);
--   jump: { row, col } where <Tab> goes first.
-- A hunk that keeps the line count is shown line for line, each line's
-- changed part marked and its new text under it; one that does not,
-- whole lines marked and the new ones under the last. Lines the edit
-- keeps between its changes are neither marked nor drawn.
function M.layout(o, n)
  local plan = { marks = {}, draws = {} }
  for _, h in ipairs(hunks(o, n)) do
    local oi, oc, ni, nc = h[1], h[2], h[3], h[4]
    if oc == nc then
      for k = 0, oc - 1 do
        local row, before, after = oi + k - 1, o[oi + k], n[ni + k]
        if before ~= after then
          local p, s = common(before, after)
          if #before - s > p then
            plan.marks[#plan.marks + 1] = { row = row, col = p, end_col = #before - s }
          end
          plan.draws[#plan.draws + 1] = { row = row, lines = { after } }
          plan.jump = plan.jump or { row = row, col = p }
        end
      end
    else
      for k = 0, oc - 1 do
        plan.marks[#plan.marks + 1] = { row = oi + k - 1, col = 0, end_col = #o[oi + k] }
      end
      local lines = {}
      for k = 0, nc - 1 do
        lines[#lines + 1] = n[ni + k]
      end
      if #lines > 0 then
        -- Under the hunk's last line; when it only inserts, under the
        -- line before it (oi), above o when that is none.
        plan.draws[#plan.draws + 1] = { row = oc > 0 and oi + oc - 2 or oi - 1, lines = lines }
      end
      plan.jump = plan.jump or { row = oc > 0 and oi - 1 or oi, col = 0 }
    end
  end
  plan.jump = plan.jump or { row = 0, col = 0 }
  return plan
end

-- draw shows edit, against the buffer as it is, as an inline diff and
-- returns what it drew, or nil when the edit changes nothing there.
local function draw(bufnr, client, edit)
  local count = vim.api.nvim_buf_line_count(bufnr)
  local r = edit.range
  local first, last = r.start.line, r["end"].line
  if first >= count then
    return nil
  end
  last = math.min(last, count - 1)
  local old = vim.api.nvim_buf_get_lines(bufnr, first, last + 1, false)
  local sc = lsp.byte_col(old[1], r.start.character, client.offset_encoding)
  local ec = r["end"].line > last and #old[#old] or lsp.byte_col(old[#old], r["end"].character, client.offset_encoding)
  local new = vim.split(old[1]:sub(1, sc) .. edit.text .. old[#old]:sub(ec + 1), "\n", { plain = true })
  -- Drop the lines the edit leaves as they are, at either end.
  local top = 0
  while top < #old and top < #new and old[top + 1] == new[top + 1] do
    top = top + 1
  end
  local bottom = 0
  while bottom < #old - top and bottom < #new - top and old[#old - bottom] == new[#new - bottom] do
    bottom = bottom + 1
  end
  local o = vim.list_slice(old, top + 1, #old - bottom)
  local n = vim.list_slice(new, top + 1, #new - bottom)
  if #o == 0 and #n == 0 then
    return nil
  end
  local row0 = first + top
  local ts = vim.bo[bufnr].tabstop
  local plan = M.layout(o, n)
  for _, m in ipairs(plan.marks) do
    vim.api.nvim_buf_set_extmark(bufnr, ns, row0 + m.row, m.col, { end_col = m.end_col, hl_group = M.delete_group, priority = 200 })
  end
  for _, d in ipairs(plan.draws) do
    local lines = {}
    for i, line in ipairs(d.lines) do
      lines[i] = { { expand(line, ts), M.group } }
    end
    if row0 + d.row >= 0 then
      vim.api.nvim_buf_set_extmark(bufnr, ns, row0 + d.row, 0, { virt_lines = lines })
    else
      vim.api.nvim_buf_set_extmark(bufnr, ns, 0, 0, { virt_lines = lines, virt_lines_above = true })
    end
  end
  local jump = { row = math.max(0, math.min(row0 + plan.jump.row, count - 1)), col = plan.jump.col }
  return { edit = edit, tick = vim.api.nvim_buf_get_changedtick(bufnr), first = first, last = last, jump = jump }
end

-- show draws the first edit of a copilotInlineEdit result in bufnr, if it
-- is for the buffer as it is, and tells wisp it was shown.
local function show(bufnr, client, result)
  M.clear(bufnr)
  local edit = type(result) == "table" and type(result.edits) == "table" and result.edits[1] or nil
  if type(edit) ~= "table" or type(edit.text) ~= "string" or type(edit.range) ~= "table" then
    return
  end
  local doc = edit.textDocument
  if type(doc) == "table" and doc.version ~= nil and doc.version ~= lsp.version(bufnr) then
    return -- for a version the buffer has left
  end
  local shown = draw(bufnr, client, edit)
  if shown == nil then
    return
  end
  state[bufnr].shown = shown
  lsp.notify(client, "textDocument/didShowInlineEdit", { item = edit })
end

-- request asks wisp for the edit that follows, at the cursor.
local function request(bufnr)
  local st = state[bufnr]
  if st == nil or vim.api.nvim_get_current_buf() ~= bufnr then
    return
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if client == nil or not offered(client) then
    return
  end
  M.clear(bufnr)
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  params.textDocument.version = lsp.version(bufnr)
  local id
  id = lsp.request(client, "textDocument/copilotInlineEdit", params, function(err, result)
    if st.request_id == id then
      st.request_id = nil
    end
    if err ~= nil or state[bufnr] ~= st or vim.api.nvim_buf_get_changedtick(bufnr) ~= tick then
      return
    end
    show(bufnr, client, result)
  end, bufnr)
  st.request_id = id
end

-- current returns bufnr's suggestion if it is still for the buffer as it
-- is, clearing a stale one.
local function current(bufnr)
  local st = state[bufnr]
  if st == nil or st.shown == nil then
    return nil
  end
  if st.shown.tick ~= vim.api.nvim_buf_get_changedtick(bufnr) then
    M.clear(bufnr)
    return nil
  end
  return st.shown
end

-- visible reports whether bufnr shows a suggested edit now.
function M.visible(bufnr)
  return current(bufnr) ~= nil
end

-- tab_key returns the keys an expression mapping of <Tab> gives to jump to
-- or apply bufnr's suggestion, or nil when there is none.
function M.tab_key(bufnr)
  if current(bufnr) == nil then
    return nil
  end
  return "<Cmd>lua require('wisp.nextedit').tab()<CR>"
end

-- apply makes the suggestion shown in bufnr real text, puts the cursor at
-- its end and runs its command, which tells wisp it was accepted.
local function apply(bufnr, shown)
  local st = state[bufnr]
  local client = vim.lsp.get_client_by_id(st.client_id)
  if client == nil then
    return false
  end
  M.clear(bufnr)
  local edit = shown.edit
  vim.lsp.util.apply_text_edits({ { range = edit.range, newText = edit.text } }, bufnr, client.offset_encoding)
  local lines = vim.split(edit.text, "\n", { plain = true })
  local row = edit.range.start.line + #lines - 1
  local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
  local col = #lines[#lines]
  if #lines == 1 then
    local start = vim.api.nvim_buf_get_lines(bufnr, edit.range.start.line, edit.range.start.line + 1, false)[1] or ""
    col = col + lsp.byte_col(start, edit.range.start.character, client.offset_encoding)
  end
  if vim.api.nvim_get_current_buf() == bufnr then
    local mode = vim.api.nvim_get_mode().mode
    -- In normal mode the cursor rests on the last character changed.
    if mode:sub(1, 1) ~= "i" and col > 0 then
      col = col - 1
    end
    vim.api.nvim_win_set_cursor(0, { row + 1, math.min(col, #line) })
  end
  local cmd = edit.command
  if type(cmd) == "table" and type(cmd.command) == "string" then
    lsp.request(client, "workspace/executeCommand", { command = cmd.command, arguments = cmd.arguments }, function() end, bufnr)
  end
  return true
end

-- tab jumps to the suggestion of the current buffer, or applies it when the
-- cursor is on its lines. It returns false when there is none.
function M.tab()
  local bufnr = vim.api.nvim_get_current_buf()
  local shown = current(bufnr)
  if shown == nil then
    return false
  end
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  if row < shown.first or row > shown.last then
    pcall(vim.cmd, "normal! m'") -- a jump: '' and <C-o> come back
    vim.api.nvim_win_set_cursor(0, { shown.jump.row + 1, shown.jump.col })
    require("wisp.ghost").hold(bufnr) -- the next <Tab> applies the edit
    return true
  end
  return apply(bufnr, shown)
end

-- dismiss hides the current buffer's suggestion until the next change.
function M.dismiss()
  M.clear(vim.api.nvim_get_current_buf())
end

-- set_keymaps installs the normal-mode keys; in insert mode <Tab> reaches
-- tab through wisp's ghost-text key (init.lua), so that ghost text wins.
local function set_keymaps(bufnr)
  local wisp = require("wisp")
  local keys = wisp.config.keymaps or {}
  -- The accept key jumps to, then applies, a suggestion (wisp.fallback).
  wisp.map(bufnr, "n", keys.accept, function()
    return wisp.fallback(keys.accept)
  end, "wisp: jump to the suggested edit, then apply it")
  wisp.map(bufnr, "n", keys.dismiss_edit, function()
    if not M.visible(vim.api.nvim_get_current_buf()) then
      return wisp.fallback(keys.dismiss_edit)
    end
    return "<Cmd>lua require('wisp.nextedit').dismiss()<CR>"
  end, "wisp: dismiss the suggested edit")
end

-- attach asks for next edits in bufnr from the wisp client client_id, when
-- they are enabled.
function M.attach(bufnr, client_id)
  if not M.enabled() then
    return
  end
  local group = bufstate.attach(state, bufnr, client_id, "wisp_next_edit_", M.clear)
  if group == nil then
    return
  end
  define()
  set_keymaps(bufnr)
  vim.api.nvim_create_autocmd({ "TextChanged", "TextChangedI" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      local st = state[bufnr]
      if st == nil then
        return
      end
      current(bufnr) -- a change makes the suggestion stale
      st.timer:stop()
      st.timer:start(M.pause(), 0, vim.schedule_wrap(function()
        request(bufnr)
      end))
    end,
  })
end

return M
