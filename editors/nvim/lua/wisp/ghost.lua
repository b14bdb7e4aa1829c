-- Ghost text for every Neovim from 0.7, drawn from textDocument/inlineCompletion
-- replies and the streamed wisp/inlineCompletionPartial notifications.
--
-- One ghost per buffer, anchored at the cursor (row, byte col). Typing what
-- the ghost shows keeps it (trimmed); any other change or cursor move clears
-- it and, after a short debounce, asks wisp again. Entering insert mode
-- (i, a, A, o, O) asks too, and so does a cursor move in insert mode to a
-- place not asked about yet: the ghost is there before the first key.
local bufstate = require("wisp.bufstate")
local lsp = require("wisp.lsp")

local M = {}

local ns = vim.api.nvim_create_namespace("wisp_ghost")
M.namespace = ns

-- state[bufnr] = {
--   client_id,          -- the wisp client attached to bufnr
--   timer,              -- debounce timer (a uv timer), never nil after attach
--   request_id,         -- in-flight inlineCompletion request, or nil
--   ghost,              -- { row, col, text } drawn now, or nil
--   asked,              -- { tick, row, col } of the last request, or nil
-- }
local state = {}

local function config()
  return require("wisp").config
end

local function cursor()
  local pos = vim.api.nvim_win_get_cursor(0)
  return pos[1] - 1, pos[2]
end

-- line_at returns the text of bufnr's line row ("" past the end).
local function line_at(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
end

local function in_insert()
  local mode = vim.api.nvim_get_mode().mode
  return mode:sub(1, 1) == "i"
end

-- clear removes the ghost of bufnr and cancels its request.
function M.clear(bufnr)
  local st = state[bufnr]
  if st == nil then
    return
  end
  st.timer:stop()
  st.ghost = nil
  st.asked = nil
  bufstate.reset(st, bufnr, ns)
end

local follow -- defined below, used by visible

-- draw shows text as ghost text at (row, col) of bufnr.
local function draw(bufnr, row, col, text)
  local st = state[bufnr]
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  st.ghost = nil
  if text == nil or text == "" then
    return
  end
  local hl = config().hl_group
  local lines = vim.split(text, "\n", { plain = true })
  local opts = { virt_text = { { lines[1], hl } }, hl_mode = "combine", priority = 200 }
  if vim.fn.has("nvim-0.10") == 1 then
    opts.virt_text_pos = "inline"
  else
    local line = line_at(bufnr, row)
    if col >= #line then
      -- At the end of the line: start exactly at the cursor's screen column.
      opts.virt_text_win_col = vim.fn.strdisplaywidth(line) - vim.fn.winsaveview().leftcol
    else
      opts.virt_text_pos = "eol"
    end
  end
  if #lines > 1 then
    local virt_lines = {}
    for i = 2, #lines do
      virt_lines[#virt_lines + 1] = { { lines[i], hl } }
    end
    opts.virt_lines = virt_lines
  end
  vim.api.nvim_buf_set_extmark(bufnr, ns, row, col, opts)
  st.ghost = { row = row, col = col, text = text }
end

-- visible reports whether bufnr shows ghost text at the cursor now.
function M.visible(bufnr)
  follow(bufnr)
  local st = state[bufnr]
  return st ~= nil and st.ghost ~= nil
end

-- rendered returns the ghost text as drawn in bufnr's extmarks ("" if none).
function M.rendered(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local out = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
    local details = mark[4] or {}
    local first = {}
    for _, chunk in ipairs(details.virt_text or {}) do
      first[#first + 1] = chunk[1]
    end
    out[#out + 1] = table.concat(first)
    for _, vline in ipairs(details.virt_lines or {}) do
      local parts = {}
      for _, chunk in ipairs(vline) do
        parts[#parts + 1] = chunk[1]
      end
      out[#out + 1] = table.concat(parts)
    end
  end
  return table.concat(out, "\n")
end

-- suggestion turns an inline completion item into the text to show after
-- the cursor, or nil when the item does not fit the text before it.
local function suggestion(bufnr, client, item, row, col)
  local text = item.insertText
  if type(text) == "table" then
    text = text.value
  end
  if type(text) ~= "string" then
    return nil
  end
  if item.range == nil then
    return text
  end
  local start = item.range.start
  if start.line ~= row then
    return nil
  end
  local line = line_at(bufnr, row)
  local start_col = lsp.byte_col(line, start.character, client.offset_encoding)
  if start_col > col then
    return nil
  end
  local typed = line:sub(start_col + 1, col)
  if text:sub(1, #typed) ~= typed then
    return nil
  end
  return text:sub(#typed + 1)
end

local function request(bufnr)
  local st = state[bufnr]
  if st == nil or not in_insert() or vim.api.nvim_get_current_buf() ~= bufnr then
    return
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if client == nil then
    return
  end
  if st.request_id ~= nil then
    lsp.cancel(client, st.request_id)
    st.request_id = nil
  end
  local row, col = cursor()
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  st.asked = { tick = tick, row = row, col = col }
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  params.context = { triggerKind = 2 }
  local id
  id = lsp.request(client, "textDocument/inlineCompletion", params, function(err, result)
    if st.request_id == id then
      st.request_id = nil
    end
    if err ~= nil or vim.api.nvim_buf_get_changedtick(bufnr) ~= tick then
      return
    end
    local r, c = cursor()
    if r ~= row or c ~= col or not in_insert() then
      return
    end
    local items = result and (result.items or result) or {}
    local text = items[1] and suggestion(bufnr, client, items[1], row, col) or nil
    if text ~= nil and text ~= "" then
      draw(bufnr, row, col, text)
    elseif st.ghost == nil or st.ghost.row ~= row or st.ghost.col ~= col then
      draw(bufnr, row, col, nil)
    end
  end, bufnr)
  st.request_id = id
end

-- on_partial draws a wisp/inlineCompletionPartial notification when it is
-- for the buffer's current version and the cursor is still where it was.
function M.on_partial(_, params)
  if type(params) ~= "table" or params.textDocument == nil or params.position == nil then
    return
  end
  local bufnr = vim.uri_to_bufnr(params.textDocument.uri)
  local st = state[bufnr]
  if st == nil or bufnr ~= vim.api.nvim_get_current_buf() or not in_insert() then
    return
  end
  if params.version ~= nil and params.version ~= lsp.version(bufnr) then
    return
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if client == nil then
    return
  end
  local row, col = cursor()
  local line = line_at(bufnr, row)
  if params.position.line ~= row or lsp.byte_col(line, params.position.character, client.offset_encoding) ~= col then
    return
  end
  if type(params.text) == "string" and params.text ~= "" then
    draw(bufnr, row, col, params.text)
  end
end

-- follow brings the ghost of bufnr up to date with the buffer and cursor
-- now: text typed into the ghost is trimmed from it, anything else clears
-- it. Autocommands wait while keys are pending, so the keys that act on the
-- ghost call this first: they act on what is on screen now, never on a
-- ghost the user has typed past.
function follow(bufnr)
  local st = state[bufnr]
  if st == nil or st.ghost == nil then
    return
  end
  local row, col = cursor()
  local g = st.ghost
  if g.row == row and g.col == col then
    return
  end
  local line = line_at(bufnr, row)
  local typed = (g.row == row and col > g.col) and line:sub(g.col + 1, col) or nil
  if typed ~= nil and #typed < #g.text and g.text:sub(1, #typed) == typed then
    draw(bufnr, row, col, g.text:sub(#typed + 1))
  else
    M.clear(bufnr)
  end
end

-- asked_here reports whether the last request of st was for bufnr's text
-- and cursor as they are now.
local function asked_here(st, bufnr)
  local a = st.asked
  if a == nil or a.tick ~= vim.api.nvim_buf_get_changedtick(bufnr) then
    return false
  end
  local row, col = cursor()
  return a.row == row and a.col == col
end

-- on_change keeps a ghost the user is typing into, clears any other, and
-- asks again (after config().debounce ms, if any) when the text changed,
-- or when the cursor is where nothing was asked yet and no ghost shows
-- (insert mode entered, the cursor moved): text_changed is false then.
local function on_change(bufnr, text_changed)
  local st = state[bufnr]
  if st == nil then
    return
  end
  follow(bufnr)
  if text_changed or (st.ghost == nil and not asked_here(st, bufnr)) then
    st.timer:stop()
    local wait = config().debounce or 0
    if wait <= 0 then
      request(bufnr)
    else
      st.timer:start(wait, 0, vim.schedule_wrap(function()
        request(bufnr)
      end))
    end
  end
end

-- trigger asks for a completion at the cursor now.
function M.trigger(bufnr)
  request((bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr)
end

-- reindents reports whether bufnr's indent rules re-indent a line whose
-- code starts with code when that is typed at its start: its 'indentkeys'
-- (or with 'cindent' its 'cinkeys') name the first character ("0}", "}")
-- or a word it starts with ("0=}" in Go, "=elif" in Python, "e" for else).
local function reindents(bufnr, code)
  local keys
  if vim.bo[bufnr].indentexpr ~= "" then
    keys = vim.bo[bufnr].indentkeys
  elseif vim.bo[bufnr].cindent then
    keys = vim.bo[bufnr].cinkeys
  else
    return false
  end
  local first = code:sub(1, 1)
  for _, key in ipairs(vim.split(keys, ",", { plain = true })) do
    key = key:gsub("^[*!]", ""):gsub("^0", "")
    local fold, word = key:match("^=(~?)(.+)$")
    if key == "e" then
      word = "else" -- "e" is else at a line's start
    end
    if word ~= nil then
      local start = code:sub(1, #word)
      if start == word or (fold == "~" and start:lower() == word:lower()) then
        return true
      end
    elseif key ~= "o" and key ~= "O" and (key == first or key == "<" .. first .. ">") then
      return true -- "o" and "O" are the commands, not the letters
    end
  end
  return false
end

-- indent_as_typed re-indents line row of bufnr, where text was inserted
-- at byte col, as the editor does when a key its indent rules name is
-- typed at the start of a line (see reindents), if the text starts the
-- line's code there: an accepted "}" after Enter's indentation goes back
-- to its block's level, as the typed "}" would. It returns the change in
-- the line's length.
local function indent_as_typed(bufnr, row, col)
  local line = line_at(bufnr, row)
  local indent = #line:match("^%s*")
  if indent ~= col or indent == #line or not reindents(bufnr, line:sub(indent + 1)) then
    return 0
  end
  if vim.api.nvim_get_option_value("equalprg", {}) ~= "" then
    return 0 -- "==" would run an external program
  end
  vim.api.nvim_win_set_cursor(0, { row + 1, 0 })
  vim.cmd("silent keepjumps normal! ==")
  local now = line_at(bufnr, row)
  return #now - #line
end

-- accept inserts the ghost text: "all", the next "word", or the next "line".
-- It returns false when there was no ghost text.
function M.accept(kind)
  local bufnr = vim.api.nvim_get_current_buf()
  follow(bufnr)
  local st = state[bufnr]
  if st == nil or st.ghost == nil then
    return false
  end
  local g = st.ghost
  local part = g.text
  if kind == "word" then
    part = g.text:match("^%s*[%w_]+") or g.text:match("^%s*[^%w_%s]+") or g.text:match("^%s+") or g.text
  elseif kind == "line" then
    part = g.text:match("^\n[^\n]*") or g.text:match("^[^\n]+") or g.text
  end
  local rest = g.text:sub(#part + 1)
  local lines = vim.split(part, "\n", { plain = true })
  M.clear(bufnr)
  vim.api.nvim_buf_set_text(bufnr, g.row, g.col, g.row, g.col, lines)
  local row = g.row + #lines - 1
  local col = #lines == 1 and g.col + #part or #lines[#lines]
  local moved = indent_as_typed(bufnr, g.row, g.col)
  if #lines == 1 then
    col = col + moved
  end
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  if rest ~= "" then
    draw(bufnr, row, col, rest)
  end
  return true
end

-- hold clears bufnr's ghost text and asks for none at the cursor until
-- the text changes or the cursor moves on: where the user dismissed it,
-- and where a suggested edit's jump put the cursor (<Tab> is for that
-- edit, not for ghost text).
function M.hold(bufnr)
  local st = state[bufnr]
  if st == nil then
    return
  end
  M.clear(bufnr)
  local row, col = cursor()
  st.asked = { tick = vim.api.nvim_buf_get_changedtick(bufnr), row = row, col = col }
end

-- dismiss hides the ghost text until the next change or cursor move.
function M.dismiss()
  M.hold(vim.api.nvim_get_current_buf())
end

-- attach starts drawing ghost text in bufnr from the wisp client client_id.
function M.attach(bufnr, client_id)
  local group = bufstate.attach(state, bufnr, client_id, "wisp_ghost_", M.clear)
  if group == nil then
    return
  end
  local last_tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local function changed()
    local tick = vim.api.nvim_buf_get_changedtick(bufnr)
    local text_changed = tick ~= last_tick
    last_tick = tick
    on_change(bufnr, text_changed)
  end
  vim.api.nvim_create_autocmd({ "TextChangedI", "TextChangedP", "CursorMovedI" }, {
    group = group,
    buffer = bufnr,
    callback = changed,
  })
  vim.api.nvim_create_autocmd("InsertEnter", {
    group = group,
    buffer = bufnr,
    callback = function()
      -- o and O open their line before InsertEnter: that is no typing,
      -- but the new place is asked about once insert mode has begun.
      last_tick = vim.api.nvim_buf_get_changedtick(bufnr)
      vim.schedule(function()
        if in_insert() and vim.api.nvim_get_current_buf() == bufnr then
          on_change(bufnr, false)
        end
      end)
    end,
  })
  vim.api.nvim_create_autocmd({ "InsertLeave", "BufLeave" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.clear(bufnr)
    end,
  })
end

return M
