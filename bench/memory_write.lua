-- POST /api/memory with a fresh key per request (per-thread prefix), durable writes.
local counter = 0
local thread_id = 0
local threads = 0
function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end
function init(args)
  thread_id = tid
end
request = function()
  counter = counter + 1
  local body = string.format('{"scope":"org","key":"bench-%d-%d","value":"a durable memory write number %d"}', thread_id, counter, counter)
  return wrk.format("POST", "/api/memory", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. os.getenv("GTMS_BENCH_TOKEN")}, body)
end
