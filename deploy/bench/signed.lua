-- A wrk scenario that replays pre-signed carrier webhooks (deploy/bench/inbound), each at most once:
--   BENCH_PATH     request path (e.g. /twilio/inbound_call)
--   BENCH_SIGNED   file with one request per line: <X-Twilio-Signature> TAB <form-encoded body>
--   BENCH_THREADS  wrk's -t (each thread replays its own share of the lines, so no webhook is sent twice)
-- At the end it prints: RESULT <requests/s> <p50 ms> <p90 ms> <p99 ms> <requests> <non-2xx> <socket errors>
local path = os.getenv("BENCH_PATH") or "/twilio/inbound_call"
local threads_total = tonumber(os.getenv("BENCH_THREADS") or "2")
local threads = {}
local counter = 0

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local signatures, bodies, next_line = {}, {}, 1

function init(args)
  local n = 0
  for line in io.lines(os.getenv("BENCH_SIGNED")) do
    if n % threads_total == index then
      local tab = line:find("\t", 1, true)
      signatures[#signatures + 1] = line:sub(1, tab - 1)
      bodies[#bodies + 1] = line:sub(tab + 1)
    end
    n = n + 1
  end
end

function request()
  if next_line > #bodies then
    -- Out of distinct webhooks: stop this thread's requests by sending one the server refuses (counted as non-2xx).
    return wrk.format("POST", path, { ["Content-Type"] = "application/x-www-form-urlencoded" }, "")
  end
  local i = next_line
  next_line = next_line + 1
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["X-Twilio-Signature"] = signatures[i],
  }, bodies[i])
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local socket = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %.1f %.2f %.2f %.2f %d %d %d\n", summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.requests, summary.errors.status, socket))
end
