-- PutItem of ~200-byte items, a unique key per request (thread id + counter).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
ddb_headers("PutItem")
local tbl = table_name("bench_put")

function request()
  local n = count_sent()
  return wrk.format(nil, nil, nil, string.format(
      '{"TableName":"%s","Item":{"pk":{"S":"t%d-%d"},"n":{"N":"%d"},' ..
      '"data":{"S":"%s"}}}', tbl, id, n, n, payload))
end
