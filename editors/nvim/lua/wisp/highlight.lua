-- The WispGhost highlight group: ghost text that never looks like code.
--
-- WispGhost links to Comment where Comment differs from Normal in the
-- colour mode in use. Neovim 0.10+'s default colour scheme gives Comment
-- (and NonText, which Neovim's own inline completion uses) a GUI colour
-- only, so without 'termguicolors' it would look like real code; there
-- WispGhost gets a terminal colour of its own. A colour scheme or the user
-- may define WispGhost themselves: a definition that is not ours is kept.
local M = {}

M.group = "WispGhost"

-- ours records the last definition this module made, so that a user's own
-- definition (anything else) is never overwritten.
local ours = nil

local function attr(group, what, mode)
  local id = vim.fn.synIDtrans(vim.fn.hlID(group))
  return vim.fn.synIDattr(id, what, mode)
end

-- differs reports whether group is drawn differently from Normal in mode
-- ("gui" or "cterm").
function M.differs(group, mode)
  for _, what in ipairs({ "fg", "bg", "italic", "bold", "underline", "reverse" }) do
    if attr(group, what, mode) ~= attr("Normal", what, mode) then
      return true
    end
  end
  return false
end

-- current returns how `:highlight WispGhost` shows the group now.
local function current()
  local cmd = "silent highlight " .. M.group
  if vim.api.nvim_exec2 ~= nil then
    return vim.api.nvim_exec2(cmd, { output = true }).output
  end
  return vim.api.nvim_exec(cmd, true)
end

-- define (re)defines WispGhost for the colour mode in use.
function M.define()
  local now = vim.fn.hlexists(M.group) == 1 and current() or ""
  if now ~= "" and not now:match("cleared") and now ~= ours then
    return -- a colour scheme or the user defined it
  end
  local mode = vim.o.termguicolors and "gui" or "cterm"
  if M.differs("Comment", mode) then
    vim.api.nvim_set_hl(0, M.group, { link = "Comment" })
  else
    -- Colour 8 is the terminal's dark grey in 16 and 256 colours alike.
    local gui = attr("Comment", "fg", "gui")
    local def = { ctermfg = 8, italic = true }
    if gui ~= "" then
      def.fg = gui
    end
    vim.api.nvim_set_hl(0, M.group, def)
  end
  ours = current()
end

-- setup defines WispGhost now and again whenever the colours change.
function M.setup()
  M.define()
  local group = vim.api.nvim_create_augroup("wisp_highlight", { clear = true })
  vim.api.nvim_create_autocmd("ColorScheme", { group = group, callback = M.define })
  vim.api.nvim_create_autocmd("OptionSet", { group = group, pattern = "termguicolors", callback = M.define })
end

return M
