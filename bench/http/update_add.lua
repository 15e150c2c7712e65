-- UpdateItem ADD n 1 on 10 hot keys (h0..h9), round robin per thread.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
ddb_headers("UpdateItem")
local tbl = table_name("bench_update")

function request()
  local n = count_sent()
  return wrk.format(nil, nil, nil, string.format(
      '{"TableName":"%s","Key":{"pk":{"S":"h%d"}},' ..
      '"UpdateExpression":"ADD n :one",' ..
      '"ExpressionAttributeValues":{":one":{"N":"1"}}}',
      tbl, (n + id) % 10))
end
