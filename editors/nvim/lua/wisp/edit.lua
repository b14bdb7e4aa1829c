-- :WispEdit — quick edits. wisp answers workspace/executeCommand
-- "wisp.quickEdit" by sending workspace/applyEdit, which Neovim applies.
local lsp = require("wisp.lsp")

local M = {}

-- pending is the quick edit waiting for its answer, or nil:
-- { edits = number of edits applied, refused = reason or nil,
--   said = what wisp said about it (window/showMessage) or nil }.
local pending = nil

-- count returns how many text edits a WorkspaceEdit holds.
local function count(edit)
  local n = 0
  for _, edits in pairs((edit or {}).changes or {}) do
    n = n + #edits
  end
  for _, change in ipairs((edit or {}).documentChanges or {}) do
    n = n + #(change.edits or {})
  end
  return n
end

-- on_apply_edit applies wisp's workspace/applyEdit as Neovim does and
-- notes the outcome for the quick edit's closing message.
function M.on_apply_edit(err, params, ctx, cfg)
  local result = vim.lsp.handlers["workspace/applyEdit"](err, params, ctx, cfg)
  if pending ~= nil and type(params) == "table" then
    if type(result) == "table" and result.applied then
      pending.edits = pending.edits + count(params.edit)
    else
      pending.refused = (type(result) == "table" and result.failureReason) or "Neovim could not apply it"
    end
  end
  return result
end

-- on_show_message keeps wisp's word about the running quick edit (it
-- changed nothing, could not be applied, ...) for the closing message, so
-- that the user reads one message that is true. It reports whether it
-- kept params (a window/showMessage).
function M.on_show_message(params)
  local msg = type(params) == "table" and params.message or nil
  if pending ~= nil and type(msg) == "string" and msg:match("^wisp: .*quick edit") then
    pending.said = { msg, params.type == 1 and "ErrorMsg" or (params.type == 2 and "WarningMsg" or "Comment") }
    return true
  end
  return false
end

-- ask asks the user for the instruction; "" when none is given. The
-- prompt and the answer are cleared from the command line, or the next
-- message would be a second line behind them and a "Press ENTER" prompt.
local function ask()
  local instruction = vim.trim(vim.fn.input("wisp edit: "))
  vim.cmd("redraw")
  return instruction
end

-- send asks wisp to run wisp.quickEdit with args ({textDocument, range,
-- instruction}) in bufnr and says how it went, once, when it is done.
local function send(client, bufnr, args)
  local params = { command = "wisp.quickEdit", arguments = { args } }
  local say = require("wisp").say
  say("wisp: editing…", "Comment")
  local this = { edits = 0 }
  pending = this
  lsp.request(client, "workspace/executeCommand", params, function(err)
    if pending == this then
      pending = nil
    end
    if this.said ~= nil then
      say(this.said[1], this.said[2])
    elseif err ~= nil then
      say("wisp: quick edit failed: " .. (err.message or vim.inspect(err)), "ErrorMsg")
    elseif this.refused ~= nil then
      say("wisp: quick edit refused: " .. this.refused, "WarningMsg")
    elseif this.edits == 0 then
      say("wisp: the quick edit changed nothing", "Comment")
    else
      say(("wisp: applied %d edit%s"):format(this.edits, this.edits == 1 and "" or "s"), "Comment")
    end
  end, bufnr)
end

-- run asks wisp to rewrite lines line1..line2 (1-based, inclusive) of the
-- current buffer when range is true, else the syntax node under the cursor.
function M.run(instruction, range, line1, line2)
  local wisp = require("wisp")
  local client = wisp.client()
  if client == nil then
    vim.notify("wisp: the server is not running in this buffer (see :checkhealth wisp)", vim.log.levels.ERROR)
    return
  end
  if instruction == nil or vim.trim(instruction) == "" then
    instruction = ask()
    if instruction == "" then
      return
    end
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local lsp_range
  if range then
    local last = vim.api.nvim_buf_line_count(bufnr)
    local end_pos
    if line2 < last then
      end_pos = { line = line2, character = 0 }
    else
      local text = vim.api.nvim_buf_get_lines(bufnr, line2 - 1, line2, false)[1] or ""
      end_pos = { line = line2 - 1, character = vim.lsp.util.character_offset(bufnr, line2 - 1, #text, client.offset_encoding) }
    end
    lsp_range = { start = { line = line1 - 1, character = 0 }, ["end"] = end_pos }
  else
    local pos = vim.lsp.util.make_position_params(0, client.offset_encoding).position
    lsp_range = { start = pos, ["end"] = pos }
  end
  send(client, bufnr, {
    textDocument = { uri = vim.uri_from_bufnr(bufnr), version = lsp.version(bufnr) },
    range = lsp_range,
    instruction = instruction,
  })
end

-- on_command runs wisp's quick-edit code actions (the client's command
-- handler for wisp.quickEdit): "Quick edit…" comes without an instruction,
-- which this asks for; the others carry their own.
function M.on_command(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local args = vim.deepcopy((command.arguments or {})[1])
  if client == nil or type(args) ~= "table" then
    return
  end
  if type(args.instruction) ~= "string" or vim.trim(args.instruction) == "" then
    args.instruction = ask()
    if args.instruction == "" then
      return
    end
  end
  send(client, ctx.bufnr or vim.api.nvim_get_current_buf(), args)
end

return M
