-- Mixed load for bench/hostile.py: health, a card, enrich with a real key, a bad login,
-- and a forged key, in turn.
local key = os.getenv("GTMS_KEY") or ""
local forged = key:gsub("_[0-9a-f]+$", "_" .. string.rep("0", 64))
local n = 0
request = function()
  n = n + 1
  local k = n % 5
  if k == 0 then return wrk.format("GET", "/api/health") end
  if k == 1 then return wrk.format("GET", "/company/data/index.json") end
  if k == 2 then return wrk.format("GET", "/v1/enrich?ticker=AAPL", { ["Authorization"] = "Bearer " .. key }) end
  if k == 3 then
    return wrk.format("POST", "/auth/login", { ["Content-Type"] = "application/json" }, '{"inviteCode":"inv_000000000000_00000000000000000000000000000000"}')
  end
  return wrk.format("GET", "/v1/enrich?ticker=AAPL", { ["Authorization"] = "Bearer " .. forged })
end
