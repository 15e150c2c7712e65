-- Shared by the wrk workload scripts (loaded with dofile from each one).
-- Every request is a POST of DynamoDB JSON with a fixed, well-formed SigV4
-- header: ddblab (--auth accept), dynalite and DynamoDB Local accept it.
-- wrk runs one Lua state per thread plus the main state: setup() and done()
-- run in the main state, the rest per thread, so done() sums the counters
-- of every thread through thread:get().

local zeros = string.rep("0", 64)

function ddb_headers(target)
  wrk.method = "POST"
  wrk.path = "/"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["X-Amz-Target"] = "DynamoDB_20120810." .. target
  wrk.headers["X-Amz-Date"] = "20240101T000000Z"
  wrk.headers["Authorization"] =
      "AWS4-HMAC-SHA256 Credential=dummy/20240101/us-east-1/dynamodb/" ..
      "aws4_request, SignedHeaders=host;x-amz-date, Signature=" .. zeros
end

-- Table name: $BENCH_TABLE overrides the script's default.
function table_name(default)
  return os.getenv("BENCH_TABLE") or default
end

-- A ~180-byte payload so an item is ~200 bytes with its key.
payload = string.rep("x", 180)

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

-- Per-thread counters.
sent = 0    -- requests built by request()
ok = 0      -- 200 responses
non200 = 0  -- any other status
bad = 0     -- 200 responses whose body failed check(body)
check = nil -- optional per-workload body check

function count_sent()
  sent = sent + 1
  return sent
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
    if check ~= nil and not check(body) then
      bad = bad + 1
      if bad <= 2 then io.stderr:write("unexpected body: ", body, "\n") end
    end
  else
    non200 = non200 + 1
    if non200 <= 2 then
      io.stderr:write("status ", status, ": ", body or "", "\n")
    end
  end
end

function done(summary, latency, requests)
  local s, o, n, b = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    s = s + t:get("sent")
    o = o + t:get("ok")
    n = n + t:get("non200")
    b = b + t:get("bad")
  end
  local e = summary.errors
  local socket_errors = e.connect + e.read + e.write + e.timeout
  local seconds = summary.duration / 1e6
  print(string.format(
      "RESULT requests=%d rps=%.0f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f " ..
      "non200=%d ok=%d sent=%d bad=%d socket_errors=%d",
      summary.requests, summary.requests / seconds,
      latency:percentile(50) / 1000, latency:percentile(99) / 1000,
      latency.max / 1000,
      n, o, s, b, socket_errors))
end
