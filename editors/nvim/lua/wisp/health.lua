-- :checkhealth wisp
local M = {}

local health = vim.health or require("health")
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local err = health.error or health.report_error
local info = health.info or health.report_info
local start = health.start or health.report_start

-- doctor runs `wisp doctor` with the plugin's environment and settings,
-- which connects to the model as wisp would, and reports what it found.
function M.doctor(bin, env, init_options)
  local argv = { "env" }
  for name, value in pairs(env) do
    argv[#argv + 1] = name .. "=" .. value
  end
  vim.list_extend(argv, { bin, "doctor", "--timeout", "5s", "--settings", vim.fn.json_encode(init_options) })
  local out = vim.fn.system(argv)
  local failed = vim.v.shell_error ~= 0
  local said = false
  for line in out:gmatch("[^\n]+") do
    if line:match("^%S.* model: ") then
      info(line)
    elseif line:match("^%s+problem: ") then
      err(vim.trim(line))
      said = true
    end
  end
  if not failed then
    ok("wisp doctor: the model answers")
  elseif not said then
    err("wisp doctor failed: " .. vim.trim(out))
  end
end

function M.check()
  start("wisp")
  if vim.fn.has("nvim-0.7") ~= 1 then
    err("Neovim 0.7 or newer is needed")
    return
  end
  local wisp = require("wisp")
  if wisp.builtin() then
    ok("Neovim " .. tostring(vim.version()) .. ": ghost text through vim.lsp.inline_completion (builtin = true; asks after its own ~200 ms pause)")
  else
    ok("Neovim: ghost text drawn by this plugin, streamed as wisp has it")
  end
  local cmd = wisp.config.cmd or {}
  if cmd[1] == nil or vim.fn.executable(cmd[1]) ~= 1 then
    err(("server command %q is not executable"):format(tostring(cmd[1])), {
      "run `go install ./cmd/wisp` in the wisp repository and put $(go env GOPATH)/bin on PATH",
      "or pass setup{ cmd = { '/path/to/wisp', 'serve' } }",
    })
  else
    ok("server: " .. vim.fn.exepath(cmd[1]))
  end
  local init_options = vim.deepcopy(wisp.config.init_options or {})
  local env = wisp.split_trusted(init_options, wisp.config.cmd_env)
  local names = vim.tbl_keys(env)
  table.sort(names)
  for _, name in ipairs(names) do
    info(("server environment: %s=%s"):format(name, env[name]))
  end
  if cmd[1] ~= nil and vim.fn.executable(cmd[1]) == 1 then
    M.doctor(cmd[1], env, init_options)
  end
  local client = wisp.client()
  if client == nil then
    warn("wisp is not running; open a file of a configured filetype (" .. table.concat(wisp.config.filetypes, ", ") .. ")")
  elseif not client.initialized then
    warn("wisp is starting (initialize not answered yet); run :checkhealth wisp again")
  else
    ok(("running (client id %d, position encoding %s)"):format(client.id, tostring(client.offset_encoding)))
    local caps = client.server_capabilities or {}
    if caps.inlineCompletionProvider then
      ok("server offers inline completion")
    else
      err("server does not offer inline completion")
    end
    info("status: " .. wisp.status.state .. (wisp.status.message ~= "" and (" — " .. wisp.status.message) or ""))
  end
end

return M
