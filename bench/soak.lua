-- wrk script for bench/soak.sh. SOAK_KIND picks what this wrk process sends:
--   files   keyless company files (cards, the index, the slug map, the search index)
--   enrich  /v1/enrich by ticker with an API key (SOAK_KEY)
--   api     workspace reads and writes with an admin token (SOAK_TOKEN): memory (a bounded
--           set of keys, so the live index stays the same size), deals, workers
--   mcp     tools/call on one MCP session (SOAK_MCP_SESSION), several tools in turn
--   chat    Brain chat with the demo model
-- soak.sh prepends the tables `slugs`, `tickers` and `deals`. Each connection waits
-- SOAK_DELAY_MS between requests. Every answer that is not 2xx, and every MCP result with
-- isError or a JSON-RPC error, counts as an error; done() prints one `soak-errors` line.
local kind = os.getenv("SOAK_KIND") or "files"
local token = os.getenv("SOAK_TOKEN") or ""
local key = os.getenv("SOAK_KEY") or ""
local session = os.getenv("SOAK_MCP_SESSION") or ""
local delay_ms = tonumber(os.getenv("SOAK_DELAY_MS") or "0")

local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

n = 0
errors = 0
first_error = ""

local json = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }

local function pick(list)
  return list[(n % #list) + 1]
end

local function files()
  local k = n % 8
  if k == 0 then return wrk.format("GET", "/company/data/index.json", { ["Accept-Encoding"] = "gzip" }) end
  if k == 1 then return wrk.format("GET", "/company/_slugmap.json") end
  if k == 2 then return wrk.format("GET", "/company/search-index.json", { ["Accept-Encoding"] = "br" }) end
  return wrk.format("GET", "/company/data/" .. pick(slugs) .. ".json", { ["Accept-Encoding"] = "gzip" })
end

local function enrich()
  return wrk.format("GET", "/v1/enrich?ticker=" .. pick(tickers), { ["Authorization"] = "Bearer " .. key })
end

local function api()
  local k = n % 10
  if k == 0 then return wrk.format("GET", "/api/memory/tree", json) end
  if k == 1 then return wrk.format("GET", "/api/memory/search?q=pricing%20objections", json) end
  if k == 2 then return wrk.format("GET", "/api/deals", json) end
  if k == 3 then return wrk.format("GET", "/api/deals/" .. pick(deals), json) end
  if k == 4 then return wrk.format("GET", "/api/workers", json) end
  if k == 5 then
    local body = string.format('{"nextStep":"soak follow-up %d"}', n)
    return wrk.format("PATCH", "/api/deals/" .. pick(deals), json, body)
  end
  if k == 6 then return wrk.format("GET", string.format("/api/memory/org/soak-%d-%d", tid, n % 50), json) end
  local body = string.format('{"scope":"org","key":"soak-%d-%d","value":"soak write %d, pricing notes"}', tid, n % 50, n)
  return wrk.format("POST", "/api/memory", json, body)
end

local mcp_calls = {
  '{"name":"company_get","arguments":{"slug":"apple"}}',
  '{"name":"memory_search","arguments":{"q":"pricing objections"}}',
  '{"name":"deals_list","arguments":{}}',
  '{"name":"workers_list","arguments":{}}',
  '{"name":"pipeline_summary","arguments":{}}',
}

local function mcp()
  local headers = {
    ["Content-Type"] = "application/json",
    ["Accept"] = "application/json, text/event-stream",
    ["Authorization"] = "Bearer " .. token,
    ["Mcp-Session-Id"] = session,
    ["Mcp-Protocol-Version"] = "2025-06-18",
  }
  local body = string.format('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}', n, pick(mcp_calls))
  return wrk.format("POST", "/mcp", headers, body)
end

local function chat()
  local body = string.format('{"message":"What do we know about pricing objections, question %d?"}', n)
  return wrk.format("POST", "/api/brain/chat", json, body)
end

local kinds = { files = files, enrich = enrich, api = api, mcp = mcp, chat = chat }
local make = kinds[kind]

request = function()
  n = n + 1
  return make()
end

response = function(status, headers, body)
  local bad = status < 200 or status > 299
  if kind == "mcp" and not bad then
    bad = body:find('"isError":true', 1, true) ~= nil or body:find('"error":{', 1, true) ~= nil
  end
  if bad then
    errors = errors + 1
    if first_error == "" then first_error = status .. " " .. body:sub(1, 200):gsub("\n", " ") end
  end
end

if delay_ms > 0 then
  delay = function()
    return delay_ms
  end
end

done = function(summary, latency, requests)
  local total, sample = 0, ""
  for _, t in ipairs(threads) do
    total = total + (t:get("errors") or 0)
    local s = t:get("first_error") or ""
    if sample == "" then sample = s end
  end
  io.write(string.format("soak-errors %s %d %s\n", kind, total, sample))
end
