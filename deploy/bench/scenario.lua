-- One wrk scenario, configured from the environment:
--   BENCH_METHOD   GET | POST | PUT (default GET)
--   BENCH_PATH     request path; "{id}" is replaced by an id from BENCH_IDS, "{uuid}" by a fresh random UUID
--   BENCH_IDS      file with one id per line (for "{id}")
--   BENCH_BODY     file whose content is the request body
--   BENCH_KEY      API key
--   BENCH_CONTENT_TYPE  Content-Type of the body (default application/json; uploads send multipart/form-data)
--   BENCH_EXPECT_STATUS the status every answer must have (e.g. 401 for a wrong key); unset: any 2xx
-- At the end it prints one line: RESULT <requests/s> <p50 ms> <p90 ms> <p99 ms> <requests> <unexpected> <socket errors>
-- ("unexpected": non-2xx answers, or with BENCH_EXPECT_STATUS answers of another status)
local method = os.getenv("BENCH_METHOD") or "GET"
local path = os.getenv("BENCH_PATH") or "/"
local key = os.getenv("BENCH_KEY") or ""
local ids = {}
local body = nil

local ids_file = os.getenv("BENCH_IDS")
if ids_file then
  for line in io.lines(ids_file) do
    if #line > 0 then ids[#ids + 1] = line end
  end
end
local body_file = os.getenv("BENCH_BODY")
if body_file then
  local f = assert(io.open(body_file, "rb"))
  body = f:read("*a")
  f:close()
end

local expect = tonumber(os.getenv("BENCH_EXPECT_STATUS") or "")
local content_type = os.getenv("BENCH_CONTENT_TYPE") or "application/json"
local headers = { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = content_type }

local function uuid()
  local t = {}
  for i = 1, 16 do t[i] = math.random(0, 255) end
  t[7] = (t[7] % 16) + 0x40
  t[9] = (t[9] % 64) + 0x80
  local h = string.format(string.rep("%02x", 16), unpack(t))
  return h:sub(1, 8) .. "-" .. h:sub(9, 12) .. "-" .. h:sub(13, 16) .. "-" .. h:sub(17, 20) .. "-" .. h:sub(21, 32)
end

local threads = {}

function setup(thread)
  thread:set("seed", math.random(1, 2147483647))
  thread:set("unexpected", 0)
  table.insert(threads, thread)
end

-- Only defined when a status is expected: wrk then has the script look at every answer (which costs it some time).
if expect then
  function response(status, headers, body)
    if status ~= expect then unexpected = unexpected + 1 end
  end
end

function init(args)
  math.randomseed(seed or os.time())
end

function request()
  local p = path
  if p:find("{id}", 1, true) then p = p:gsub("{id}", ids[math.random(1, #ids)]) end
  if p:find("{uuid}", 1, true) then p = p:gsub("{uuid}", uuid()) end
  return wrk.format(method, p, headers, body)
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local non2xx = summary.errors.status
  if expect then
    non2xx = 0
    for _, thread in ipairs(threads) do non2xx = non2xx + thread:get("unexpected") end
  end
  local socket = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %.1f %.2f %.2f %.2f %d %d %d\n", summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.requests, non2xx, socket))
end
