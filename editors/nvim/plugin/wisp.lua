-- wisp's commands. Call require("wisp").setup{} to start the server.
if vim.g.loaded_wisp then
  return
end
vim.g.loaded_wisp = true

vim.api.nvim_create_user_command("WispEdit", function(opts)
  require("wisp").edit(opts.args, opts.range > 0, opts.line1, opts.line2)
end, { nargs = "*", range = true, desc = "wisp: rewrite the range (or the code at the cursor) following an instruction" })

vim.api.nvim_create_user_command("WispStatus", function()
  local s = require("wisp").status
  print("wisp: " .. s.state .. (s.message ~= "" and (" — " .. s.message) or ""))
end, { desc = "wisp: show what the server is doing" })
