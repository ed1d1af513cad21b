-- Headless Neovim (0.7+) as a real LSP client of `fullgraph serve`.
-- Env: LSP_CMD_JSON (argv as a JSON list), TEST_FILE, OUT (result JSON), FIX_CODE (rule whose
-- preferred quick fix is applied), TIMEOUT_MS (default 20000).
-- Attaches to TEST_FILE, waits for diagnostics, asks for code actions on the FIX_CODE diagnostic,
-- applies the preferred one's WorkspaceEdit, waits for the re-published diagnostics, never writes
-- the file, and exits 0 (ok) or 1, with what it saw in OUT.

vim.cmd('filetype on')
vim.g.loaded_python3_provider = 0

local out_path = assert(os.getenv('OUT'), 'OUT not set')
local test_file = assert(os.getenv('TEST_FILE'), 'TEST_FILE not set')
local cmd = vim.fn.json_decode((assert(os.getenv('LSP_CMD_JSON'), 'LSP_CMD_JSON not set')))
local fix_code = os.getenv('FIX_CODE') or 'FG101'
local timeout = tonumber(os.getenv('TIMEOUT_MS') or '20000')
local result = { nvim = tostring(vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch) }

local batches = {}
local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']

local function finish(ok)
  result.ok = ok
  local f = assert(io.open(out_path, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd(ok and 'qall!' or 'cquit!')
end

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = 'fullgraph',
    cmd = cmd,
    root_dir = vim.fn.fnamemodify(test_file, ':p:h'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, res, ctx, config)
        table.insert(batches, res)
        return default_handler(e, res, ctx, config)
      end,
    },
  })
  assert(client_id, 'start_client failed')
  vim.cmd('edit ' .. vim.fn.fnameescape(test_file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)

  assert(vim.wait(timeout, function() return #batches > 0 end, 20), 'no publishDiagnostics')
  local first = batches[#batches]
  result.diagnostics = first.diagnostics
  result.nvim_diagnostics = vim.tbl_map(function(d)
    return { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, code = d.code }
  end, vim.diagnostic.get(bufnr))

  local target
  for _, d in ipairs(first.diagnostics) do
    if d.code == fix_code then target = d end
  end
  assert(target, 'no ' .. fix_code .. ' diagnostic')
  local client = vim.lsp.get_client_by_id(client_id)
  local resp = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = target.range,
    context = { diagnostics = { target } },
  }, timeout, bufnr)
  assert(resp and not resp.err, 'codeAction failed: ' .. vim.inspect(resp))
  result.titles = vim.tbl_map(function(a) return a.title end, resp.result or {})
  local chosen
  for _, a in ipairs(resp.result or {}) do
    if a.isPreferred then chosen = a end
  end
  assert(chosen and chosen.edit, 'no preferred quick fix with an edit')

  local before = #batches
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or 'utf-16')
  result.lines_after_fix = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  assert(vim.wait(timeout, function() return #batches > before end, 20), 'no diagnostics after the fix')
  result.diagnostics_after_fix = batches[#batches].diagnostics
  result.version_after_fix = batches[#batches].version
  vim.cmd('edit!')
  vim.lsp.stop_client(client_id)
  vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end)

if not ok then result.error = tostring(err) end
finish(ok)
