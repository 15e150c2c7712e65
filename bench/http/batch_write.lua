-- BatchWriteItem of 25 puts of ~200-byte items, unique keys.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
ddb_headers("BatchWriteItem")
local tbl = table_name("bench_batch")

-- A batch counts as good only if nothing came back unprocessed.
check = function(body)
  return body:find('"UnprocessedItems":%s*{}') ~= nil
end

function request()
  local n = count_sent()
  local puts = {}
  for i = 1, 25 do
    puts[i] = string.format(
        '{"PutRequest":{"Item":{"pk":{"S":"t%d-%d-%d"},"data":{"S":"%s"}}}}',
        id, n, i, payload)
  end
  return wrk.format(nil, nil, nil, string.format(
      '{"RequestItems":{"%s":[%s]}}', tbl, table.concat(puts, ",")))
end
