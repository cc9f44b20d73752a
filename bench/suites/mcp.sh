# Sourced by bench/run.sh: MCP tool calls per second (`company_get` through eight persistent
# sessions, the wrk connections taking them in turn; issue 27) beside the HTTP card route
# serving the same card, on one gtms instance started here with a tool-call limit high enough
# not to throttle the run.
mcp_port=$((GTMS_PORT + 10))
mcp_data=$work/mcp && mkdir -p "$mcp_data"
mcp_bin=${GTMS_BIN:-target/x86_64-unknown-linux-gnu/release/gtms}
GTMS_MCP_RATE_LIMIT=1000000000 "$mcp_bin" serve --listen 127.0.0.1:$mcp_port --data "$mcp_data/mcp.redb" \
  >/dev/null 2>"$mcp_data/gtms.log" &
pids+=($!)
wait_http "http://127.0.0.1:$mcp_port/api/health"
MCP_KEY=$("$mcp_bin" keys --data "$mcp_data/mcp.redb" create --tenant bench --name bench | awk 'NR==1 {print $1}')
mcp_url="http://127.0.0.1:$mcp_port/mcp"
mcp_post() {
  curl -sS -D "$mcp_data/headers" -o "$mcp_data/body" "$mcp_url" -H "Authorization: Bearer $MCP_KEY" \
    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' "$@"
}
MCP_SESSIONS=
for n in 1 2 3 4 5 6 7 8; do
  mcp_post -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
  session=$(awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}' "$mcp_data/headers" | tr -d '\r')
  mcp_post -H "Mcp-Session-Id: $session" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  mcp_post -H "Mcp-Session-Id: $session" -H 'Mcp-Protocol-Version: 2025-06-18' \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"company_get","arguments":{"slug":"apple"}}}'
  if ! grep -q '"isError":false' "$mcp_data/body"; then
    echo "bench: the MCP warm-up call of session $n failed: $(head -c 300 "$mcp_data/body")" >&2
    return 1
  fi
  MCP_SESSIONS=${MCP_SESSIONS:+$MCP_SESSIONS,}$session
done
export MCP_KEY MCP_SESSIONS

echo "MCP tool call vs HTTP card route:" >&2
measure "gtms card /company/data/apple.json" "http://127.0.0.1:$mcp_port/company/data/apple.json"
measure "gtms MCP tools/call company_get (8 sessions)" "$mcp_url" -s bench/suites/mcp_call.lua
