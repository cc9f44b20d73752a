-- POST /api/brain/chat for one user whose thread holds ~500 messages (demo model).
local counter = 0
request = function()
  counter = counter + 1
  local body = string.format('{"message":"What do we know about pricing objections, question %d?"}', counter)
  return wrk.format("POST", "/api/brain/chat", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. os.getenv("GTMS_BENCH_TOKEN")}, body)
end
