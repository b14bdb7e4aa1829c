-- Small shims over the Neovim LSP client API, which changed between 0.7
-- and 0.12 (method call style, str_byteindex, document versions).
local M = {}

local colon = vim.fn.has("nvim-0.11") == 1

-- request sends method to client and returns the request id (or nil).
function M.request(client, method, params, handler, bufnr)
  local ok, id
  if colon then
    ok, id = client:request(method, params, handler, bufnr)
  else
    ok, id = client.request(method, params, handler, bufnr)
  end
  return ok and id or nil
end

-- notify sends the notification method to client.
function M.notify(client, method, params)
  if colon then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

-- cancel cancels request id of client.
function M.cancel(client, id)
  if colon then
    client:cancel_request(id)
  else
    client.cancel_request(id)
  end
end

-- is_stopped reports whether client has stopped (a method from 0.11,
-- where calling it as a field is deprecated).
function M.is_stopped(client)
  if client.is_stopped == nil then
    return false
  end
  if colon then
    return client:is_stopped()
  end
  return client.is_stopped()
end

-- byte_col converts an LSP character offset on line into a byte column.
function M.byte_col(line, character, encoding)
  if encoding == nil or encoding == "utf-8" then
    return math.min(character, #line)
  end
  local ok, col = pcall(vim.str_byteindex, line, encoding, character, false)
  if ok and type(col) == "number" then
    return col
  end
  ok, col = pcall(vim.str_byteindex, line, character, encoding == "utf-16")
  if ok and type(col) == "number" then
    return col
  end
  return #line
end

-- version returns the document version Neovim last sent for bufnr.
function M.version(bufnr)
  local versions = vim.lsp.util.buf_versions
  local v = versions and versions[bufnr]
  if v ~= nil then
    return v
  end
  return vim.api.nvim_buf_get_changedtick(bufnr)
end

return M
