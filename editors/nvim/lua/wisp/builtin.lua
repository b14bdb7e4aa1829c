-- Neovim 0.12+'s own vim.lsp.inline_completion, chosen with setup{ builtin =
-- true }. It asks only after its fixed ~200 ms pause and shows whole
-- replies; what this module adds is an accept that never inserts a stale
-- item, and the ghost text colour.
local M = {}

local function config()
  return require("wisp").config
end

-- paint makes Neovim's ghost text (highlight ComplHint) use hl_group in
-- the current window, through 'winhighlight', unless the user mapped
-- ComplHint there already.
local function paint()
  local hl = config().hl_group
  if hl == nil or hl == "" or hl == "ComplHint" then
    return
  end
  local wh = vim.wo.winhighlight
  if wh:match("ComplHint:") then
    return
  end
  vim.wo.winhighlight = (wh == "" and "" or wh .. ",") .. "ComplHint:" .. hl
end

-- attach enables inline completion in bufnr.
function M.attach(bufnr)
  vim.lsp.inline_completion.enable(true, { bufnr = bufnr })
  if vim.api.nvim_get_current_buf() == bufnr then
    paint()
  end
  local group = vim.api.nvim_create_augroup("wisp_builtin_" .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd("BufWinEnter", { group = group, buffer = bufnr, callback = paint })
end

-- current inserts item as it stands with the buffer now. Neovim keeps the
-- item's range from when it was asked for, so after typing into the ghost
-- text its own accept would insert the whole item at the old position;
-- here the range runs to the cursor, provided what was typed since is the
-- start of the item, and a stale item is dropped rather than inserted.
local function current(item)
  local text = item.insert_text
  if type(text) ~= "string" or item.range == nil then
    return item -- snippets and range-less items: Neovim's own accept
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local srow, scol, erow, ecol = item.range:to_extmark()
  local pos = vim.api.nvim_win_get_cursor(0)
  local row, col = pos[1] - 1, pos[2]
  if srow ~= row or erow ~= row or col < ecol then
    return nil
  end
  local line = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
  local typed = line:sub(scol + 1, col)
  if text:sub(1, #typed) ~= typed then
    return nil
  end
  local lines = vim.split(text, "\n", { plain = true })
  vim.api.nvim_buf_set_text(bufnr, row, scol, row, col, lines)
  local last = #lines == 1 and scol + #lines[1] or #lines[#lines]
  vim.api.nvim_win_set_cursor(0, { row + #lines, last })
  return nil
end

-- accept takes the ghost text shown now; false when there is none.
function M.accept()
  return vim.lsp.inline_completion.get({ on_accept = current }) and true or false
end

return M
