-- Query 10 of the 100 items of a partition (preloaded: partitions p0..p9,
-- sort keys 0..99), starting at a random sort key.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
ddb_headers("Query")
local tbl = table_name("bench_query")

check = function(body) return body:find('"Count":%s*10[,}]') ~= nil end

function init(args)
  math.randomseed(4321 + id)
end

function request()
  count_sent()
  return wrk.format(nil, nil, nil, string.format(
      '{"TableName":"%s","KeyConditionExpression":"pk = :p AND sk >= :s",' ..
      '"ExpressionAttributeValues":{":p":{"S":"p%d"},":s":{"N":"%d"}},' ..
      '"Limit":10}', tbl, math.random(0, 9), math.random(0, 90)))
end
