-- wrk script: /v1/enrich over every ticker with a card (the table `tickers` is prepended by
-- the suite). With ENRICH_DELAY_MS set, each connection waits that long between requests.
local i = 0
local delay_ms = tonumber(os.getenv("ENRICH_DELAY_MS") or "0")

request = function()
  i = i + 1
  local t = tickers[(i % #tickers) + 1]
  return wrk.format("GET", "/v1/enrich?ticker=" .. t)
end

if delay_ms > 0 then
  delay = function()
    return delay_ms
  end
end
