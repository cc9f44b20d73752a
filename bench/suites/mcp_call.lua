-- wrk: `tools/call company_get {"slug":"apple"}` on one MCP session opened by mcp.sh
-- (session id and key in MCP_SESSION / MCP_KEY).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("MCP_KEY")
wrk.headers["Mcp-Session-Id"] = os.getenv("MCP_SESSION")
wrk.headers["Mcp-Protocol-Version"] = "2025-06-18"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"company_get","arguments":{"slug":"apple"}}}'
