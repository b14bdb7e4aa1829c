-- wisp for Neovim: starts the wisp language server for the configured
-- filetypes and shows its inline completions as ghost text.
--
-- The plugin draws ghost text itself (lua/wisp/ghost.lua) from
-- textDocument/inlineCompletion and the streamed wisp/inlineCompletionPartial
-- notifications, on every Neovim from 0.7: the first tokens are on screen as
-- soon as wisp has them. On 0.12+ `builtin = true` uses Neovim's own
-- vim.lsp.inline_completion instead, which asks only after its fixed
-- ~200 ms pause and shows the whole reply at once.
local M = {}

local defaults = {
  -- The server command; "wisp" must be on PATH (go install ./cmd/wisp).
  cmd = { "wisp", "serve" },
  -- Filetypes to attach to; "*" (the default) means every file buffer.
  filetypes = { "*" },
  -- wisp's settings, e.g. { model = { provider = "openai-ws",
  -- endpoint = "wss://...", model = "...", apiKeyEnv = "MY_KEY" } }. The
  -- ones that decide where code and keys go (provider, endpoint,
  -- apiKeyEnv, allowInsecure, under model and edit.model, and
  -- trustedEndpoints) reach wisp through its environment (WISP_*), which
  -- wisp trusts; the rest are sent as initializationOptions, which wisp
  -- treats as workspace settings.
  init_options = {},
  -- Extra environment for the server process (WISP_* variables).
  cmd_env = nil,
  -- Insert-mode keys; set one to false to leave that key alone.
  keymaps = {
    accept = "<Tab>",
    accept_word = "<M-Right>",
    accept_line = "<M-C-Right>",
    dismiss = "<C-]>",
    -- Normal mode: dismisses a suggested edit (lua/wisp/nextedit.lua),
    -- which `accept` jumps to, then applies, when there is no ghost text.
    dismiss_edit = "<Esc>",
  },
  -- Ghost text highlight group. WispGhost links to Comment, or gets a
  -- colour of its own where Comment would look like code (lua/wisp/highlight.lua).
  hl_group = "WispGhost",
  -- Milliseconds of quiet typing before a request; 0 asks on every change
  -- (wisp cancels the request a keystroke supersedes).
  debounce = 0,
  -- On Neovim 0.12+, use the built-in vim.lsp.inline_completion (no
  -- streaming, no accept-word/line, a fixed ~200 ms pause before asking).
  builtin = false,
}

M.config = vim.deepcopy(defaults)

-- status is the last wisp/status notification: { state = ..., message = ... }.
M.status = { state = "idle", message = "" }

local function has(v)
  return vim.fn.has("nvim-" .. v) == 1
end

-- builtin reports whether Neovim's own inline completion is used.
function M.builtin()
  return M.config.builtin == true and has("0.12") and vim.lsp.inline_completion ~= nil
end

local client_id = nil

-- client returns the running wisp client, or nil.
function M.client()
  if client_id == nil then
    return nil
  end
  local c = vim.lsp.get_client_by_id(client_id)
  if c == nil or require("wisp.lsp").is_stopped(c) then
    return nil
  end
  return c
end

-- healthy lists the states of a working model; any other state (error,
-- unavailable, ...) is a problem the user hears about once. "generating"
-- says nothing either way: wisp sends it before every request.
local healthy = { idle = true, generating = true, ready = true, starting = true }
local neutral = { generating = true }

-- told_problem: the user was last told that the model is unavailable
-- (false until then: a working model is assumed).
local told_problem = false

-- held is the last message said while insert mode's "-- INSERT --" hid
-- it ({ msg, hl }), shown again once insert mode is left; nil otherwise.
local held = nil

-- hidden_by_mode reports whether a message echoed now would not be seen:
-- with 'showmode', Neovim keeps the mode's name in the message line in
-- insert and replace mode, over anything echoed there.
local function hidden_by_mode()
  local mode = vim.api.nvim_get_mode().mode:sub(1, 1)
  return vim.o.showmode and (mode == "i" or mode == "R")
end

-- fit cuts msg to one line of the command line, so that it never wraps
-- into a "Press ENTER" prompt that would swallow a keystroke.
local function fit(msg)
  local room = vim.v.echospace
  if room == nil or room <= 0 then
    room = vim.o.columns - 12
  end
  if vim.fn.strdisplaywidth(msg) > room then
    msg = vim.fn.strcharpart(msg, 0, math.max(room - 1, 1)) .. "…"
  end
  return msg
end

-- say shows msg on one line of the command line and keeps it in
-- :messages. Said in insert mode, where the mode's name hides it, it is
-- shown again (not kept twice) when insert mode is left.
local function say(msg, hl)
  vim.api.nvim_echo({ { fit(msg), hl } }, true, {})
  held = hidden_by_mode() and { msg, hl } or nil
end
M.say = say

-- show_held shows the message insert mode hid, if any.
local function show_held()
  if held == nil or hidden_by_mode() then
    return
  end
  local h = held
  held = nil
  vim.api.nvim_echo({ { fit(h[1]), h[2] } }, false, {})
end

-- announce tells the user msg when the model's health changes to problem
-- (true) or back to working (false), and nothing otherwise.
local function announce(problem, msg)
  if problem == told_problem then
    return
  end
  told_problem = problem
  vim.schedule(function()
    if problem then
      say(msg, "WarningMsg")
    else
      say("wisp: the model is back", "MoreMsg")
    end
  end)
end

-- on_status records wisp/status for the status line and tells the user
-- once when the model becomes unavailable and once when it is back, never
-- per keystroke: wisp sends a status with every request.
local function on_status(_, result)
  if type(result) ~= "table" then
    return
  end
  local state = type(result.state) == "string" and result.state or "idle"
  local message = type(result.message) == "string" and result.message or ""
  M.status = { state = state, message = message }
  vim.g.wisp_status = state
  if neutral[state] then
    return
  end
  announce(not healthy[state], "wisp: " .. (message ~= "" and message or state))
end

-- on_message shows wisp's window/showMessage on one line. A warning or
-- error about the model is a change of state like wisp/status's: said
-- once, whichever of the two comes first. Quick edits keep theirs for
-- their closing message.
local function on_message(err, params, ctx, cfg)
  if require("wisp.edit").on_show_message(params) then
    return
  end
  local msg = type(params) == "table" and type(params.message) == "string" and params.message or nil
  if msg == nil then
    return
  end
  if not msg:match("^wisp") then
    msg = "wisp: " .. msg
  end
  if (params.type == 1 or params.type == 2) and msg:match("model") then
    announce(true, msg)
    return
  end
  vim.schedule(function()
    say(msg, params.type == 1 and "ErrorMsg" or (params.type == 2 and "WarningMsg" or "Normal"))
  end)
end

-- statusline returns a short word for a status line: "" while all is
-- well, otherwise the state (e.g. `set statusline+=%{v:lua.require'wisp'.statusline()}`).
function M.statusline()
  if healthy[M.status.state] then
    return M.status.state == "generating" and "wisp …" or ""
  end
  return "wisp: " .. M.status.state
end

-- trusted maps the settings wisp takes only from its trusted layers to
-- their environment variables (wisp's DESIGN.md, Configuration).
local trusted = {
  { { "model", "provider" }, "WISP_PROVIDER" },
  { { "model", "endpoint" }, "WISP_ENDPOINT" },
  { { "model", "apiKeyEnv" }, "WISP_API_KEY_ENV" },
  { { "model", "allowInsecure" }, "WISP_ALLOW_INSECURE" },
  { { "edit", "model", "provider" }, "WISP_EDIT_PROVIDER" },
  { { "edit", "model", "endpoint" }, "WISP_EDIT_ENDPOINT" },
  { { "edit", "model", "apiKeyEnv" }, "WISP_EDIT_API_KEY_ENV" },
  { { "edit", "model", "allowInsecure" }, "WISP_EDIT_ALLOW_INSECURE" },
  { { "trustedEndpoints" }, "WISP_TRUSTED_ENDPOINTS" },
}

-- split_trusted moves the trusted settings out of init_options (changed in
-- place) into a copy of cmd_env, the server's environment, and returns it.
function M.split_trusted(init_options, cmd_env)
  local env = vim.deepcopy(cmd_env or {})
  for _, t in ipairs(trusted) do
    local path, var = t[1], t[2]
    local parent = init_options
    for i = 1, #path - 1 do
      parent = type(parent) == "table" and parent[path[i]] or nil
    end
    local value = nil
    if type(parent) == "table" then
      value = parent[path[#path]] -- may be false: no and/or idiom here
    end
    if value ~= nil then
      parent[path[#path]] = nil
      if type(value) == "table" then
        value = table.concat(value, ",")
      end
      env[var] = tostring(value)
    end
  end
  return env
end

local function client_config()
  local init_options = vim.deepcopy(M.config.init_options or {})
  local cmd_env = M.split_trusted(init_options, M.config.cmd_env)
  if init_options.streaming == nil then
    -- Partial ghost text matters only where this plugin draws it.
    init_options.streaming = not M.builtin()
  end
  if init_options.status == nil then
    -- on_status shows the model's state: wisp then sends it as wisp/status
    -- alone, not also as window/showMessage.
    init_options.status = true
  end
  if init_options.quickEditPrompt == nil then
    -- edit.on_command asks for the instruction of "Quick edit…".
    init_options.quickEditPrompt = true
  end
  local handlers = {
    ["wisp/status"] = on_status,
    ["workspace/applyEdit"] = require("wisp.edit").on_apply_edit,
    ["window/showMessage"] = on_message,
    ["wisp/inlineCompletionPartial"] = function(err, result, ctx)
      if not M.builtin() then
        require("wisp.ghost").on_partial(err, result, ctx)
      end
    end,
  }
  return {
    name = "wisp",
    cmd = M.config.cmd,
    cmd_env = cmd_env,
    root_dir = vim.fn.getcwd(),
    init_options = init_options,
    handlers = handlers,
    commands = { ["wisp.quickEdit"] = require("wisp.edit").on_command },
    on_exit = function()
      client_id = nil
    end,
  }
end

local function filetype_matches(ft)
  for _, want in ipairs(M.config.filetypes) do
    if want == "*" or want == ft then
      return true
    end
  end
  return false
end

-- attach starts wisp if needed and attaches it to bufnr.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.bo[bufnr].buftype ~= "" or vim.api.nvim_buf_get_name(bufnr) == "" then
    return
  end
  if not filetype_matches(vim.bo[bufnr].filetype) then
    return
  end
  if vim.lsp.start ~= nil then
    -- 0.8+: one client, reused for every buffer.
    client_id = vim.lsp.start(client_config(), {
      bufnr = bufnr,
      reuse_client = function(c, conf)
        return c.name == conf.name
      end,
    })
  else
    if M.client() == nil then
      client_id = vim.lsp.start_client(client_config())
    end
    if client_id ~= nil then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end
  if client_id == nil then
    vim.notify("wisp: cannot start " .. table.concat(M.config.cmd, " "), vim.log.levels.ERROR)
    return
  end
  if M.builtin() then
    require("wisp.builtin").attach(bufnr)
  else
    require("wisp.ghost").attach(bufnr, client_id)
  end
  require("wisp.nextedit").attach(bufnr, client_id)
  M.set_keymaps(bufnr)
end

-- accept takes the whole ghost text; it returns false when there was none.
function M.accept()
  if M.builtin() then
    return require("wisp.builtin").accept()
  end
  return require("wisp.ghost").accept("all")
end

-- map maps lhs (if set) in mode ("i" or "n") of bufnr to the keys the
-- expression fn returns.
function M.map(bufnr, mode, lhs, fn, desc)
  if not lhs then
    return
  end
  vim.keymap.set(mode, lhs, fn, { buffer = bufnr, expr = true, silent = true, desc = desc })
end

-- fallback returns the keys lhs gives when wisp has nothing for it: the
-- accept key jumps to a suggested edit if there is one, and every key
-- otherwise has its usual meaning.
function M.fallback(lhs)
  if lhs == (M.config.keymaps or {}).accept then
    local key = require("wisp.nextedit").tab_key(vim.api.nvim_get_current_buf())
    if key ~= nil then
      return key
    end
  end
  return vim.api.nvim_replace_termcodes(lhs, true, false, true)
end

-- set_keymaps installs the insert-mode keys for bufnr. Each key falls back
-- to its usual meaning when there is no ghost text.
function M.set_keymaps(bufnr)
  local keys = M.config.keymaps or {}
  local function map(lhs, fn, desc)
    M.map(bufnr, "i", lhs, fn, desc)
  end
  if M.builtin() then
    map(keys.accept, function()
      if not require("wisp.builtin").accept() then
        return M.fallback(keys.accept)
      end
      return ""
    end, "wisp: accept the ghost text")
    return
  end
  local ghost = require("wisp.ghost")
  local function via(kind, lhs)
    return function()
      if not ghost.visible(vim.api.nvim_get_current_buf()) then
        return M.fallback(lhs)
      end
      return "<Cmd>lua require('wisp.ghost').accept('" .. kind .. "')<CR>"
    end
  end
  map(keys.accept, via("all", keys.accept), "wisp: accept the ghost text")
  map(keys.accept_word, via("word", keys.accept_word), "wisp: accept a word of the ghost text")
  map(keys.accept_line, via("line", keys.accept_line), "wisp: accept a line of the ghost text")
  map(keys.dismiss, function()
    if not ghost.visible(vim.api.nvim_get_current_buf()) then
      return M.fallback(keys.dismiss)
    end
    return "<Cmd>lua require('wisp.ghost').dismiss()<CR>"
  end, "wisp: dismiss the ghost text")
end

-- setup configures wisp and attaches it to matching buffers from now on.
function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if type(M.config.cmd) == "string" then
    M.config.cmd = { M.config.cmd }
  end
  require("wisp.highlight").setup()
  local group = vim.api.nvim_create_augroup("wisp", { clear = true })
  vim.api.nvim_create_autocmd("InsertLeave", {
    group = group,
    pattern = "*",
    callback = function()
      vim.schedule(show_held)
    end,
  })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = "*",
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype ~= "" then
      M.attach(bufnr)
    end
  end
end

-- edit runs a quick edit: line1..line2 (1-based, inclusive) when range is
-- true, otherwise the syntax node under the cursor.
function M.edit(instruction, range, line1, line2)
  require("wisp.edit").run(instruction, range, line1, line2)
end

return M
