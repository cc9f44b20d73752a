-- POST /api/brain/chat (demo model). GTMS_BENCH_TOKEN signs every request as one user (whose
-- thread holds ~500 messages in `make bench`); GTMS_BENCH_TOKENS, a comma-separated list, takes
-- the users in turn, so that concurrent connections post to different threads, as a team does
-- (`make bench-scale`).
local tokens = {}
for t in string.gmatch(os.getenv("GTMS_BENCH_TOKENS") or os.getenv("GTMS_BENCH_TOKEN"), "[^,]+") do
  tokens[#tokens + 1] = t
end
local counter = 0
request = function()
  counter = counter + 1
  local body = string.format('{"message":"What do we know about pricing objections, question %d?"}', counter)
  local token = tokens[(counter % #tokens) + 1]
  return wrk.format("POST", "/api/brain/chat", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}, body)
end
