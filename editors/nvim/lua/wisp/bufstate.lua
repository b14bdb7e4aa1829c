-- Per-buffer state of the plugin's features (ghost text, next edits): its
-- making when wisp attaches to a buffer, its teardown when the buffer goes,
-- and the cancelling of the request it has in flight and of what it drew.
local lsp = require("wisp.lsp")

local M = {}

-- attach gives bufnr an entry in state, { client_id, timer } with timer a
-- new uv timer, and an autocommand group named prefix .. bufnr for the
-- feature's autocommands. When bufnr is unloaded or wiped out, clear(bufnr)
-- runs, then the entry, its timer and the group go. It returns the group,
-- or nil when bufnr had an entry already: then only its client_id changes.
function M.attach(state, bufnr, client_id, prefix, clear)
  if state[bufnr] ~= nil then
    state[bufnr].client_id = client_id
    return nil
  end
  state[bufnr] = { client_id = client_id, timer = vim.loop.new_timer() }
  local group = vim.api.nvim_create_augroup(prefix .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ "BufWipeout", "BufUnload" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      clear(bufnr)
      local st = state[bufnr]
      state[bufnr] = nil
      if st ~= nil then
        st.timer:stop()
        st.timer:close()
      end
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })
  return group
end

-- cancel cancels the request the entry st has in flight (st.request_id),
-- if any, and forgets it.
local function cancel(st)
  if st.request_id == nil then
    return
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if client ~= nil then
    lsp.cancel(client, st.request_id)
  end
  st.request_id = nil
end

-- reset cancels the request of bufnr's entry st, if any, and removes what
-- the feature drew in bufnr (the extmarks of its namespace ns).
function M.reset(st, bufnr, ns)
  cancel(st)
  if vim.api.nvim_buf_is_valid(bufnr) then
    vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  end
end

return M
