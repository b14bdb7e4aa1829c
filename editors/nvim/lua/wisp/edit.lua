-- :WispEdit — quick edits. wisp answers workspace/executeCommand
-- "wisp.quickEdit" by sending workspace/applyEdit, which Neovim applies.
local lsp = require("wisp.lsp")

local M = {}

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
    instruction = vim.fn.input("wisp edit: ")
    if vim.trim(instruction) == "" then
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
  local params = {
    command = "wisp.quickEdit",
    arguments = {
      {
        textDocument = { uri = vim.uri_from_bufnr(bufnr), version = lsp.version(bufnr) },
        range = lsp_range,
        instruction = instruction,
      },
    },
  }
  vim.api.nvim_echo({ { "wisp: editing…", "Comment" } }, false, {})
  lsp.request(client, "workspace/executeCommand", params, function(err)
    if err ~= nil then
      vim.notify("wisp: quick edit failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    vim.api.nvim_echo({ { "wisp: edit applied", "Comment" } }, false, {})
  end, bufnr)
end

return M
