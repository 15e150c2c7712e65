-- GetItem of preloaded keys g0..g(BENCH_KEYS-1) (run.sh preloads them).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
ddb_headers("GetItem")
local tbl = table_name("bench_get")
local keys = tonumber(os.getenv("BENCH_KEYS") or "1000")

-- A 200 without the item means the key was not found.
check = function(body) return body:find('"Item"', 1, true) ~= nil end

function init(args)
  math.randomseed(1234 + id)
end

function request()
  count_sent()
  return wrk.format(nil, nil, nil, string.format(
      '{"TableName":"%s","Key":{"pk":{"S":"g%d"}}}', tbl,
      math.random(0, keys - 1)))
end
