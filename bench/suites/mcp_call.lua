-- wrk: `tools/call company_get {"slug":"apple"}` on the MCP sessions mcp.sh opened (their ids,
-- comma-separated, in MCP_SESSIONS; the key in MCP_KEY), each request on the next session.
local sessions = {}
for id in string.gmatch(os.getenv("MCP_SESSIONS"), "[^,]+") do
  sessions[#sessions + 1] = id
end
local body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"company_get","arguments":{"slug":"apple"}}}'
local turn = 0
request = function()
  turn = turn % #sessions + 1
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
    ["Authorization"] = "Bearer " .. os.getenv("MCP_KEY"),
    ["Mcp-Session-Id"] = sessions[turn],
    ["Mcp-Protocol-Version"] = "2025-06-18",
  }, body)
end
