-- PutItem with attribute_not_exists(pk) on unique keys: every condition holds.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
ddb_headers("PutItem")
local tbl = table_name("bench_cond")

function request()
  local n = count_sent()
  return wrk.format(nil, nil, nil, string.format(
      '{"TableName":"%s","Item":{"pk":{"S":"t%d-%d"},"n":{"N":"%d"},' ..
      '"data":{"S":"%s"}},"ConditionExpression":"attribute_not_exists(pk)"}',
      tbl, id, n, n, payload))
end
