// Query on secondary indexes (the DynamoDB API reference): GSI projections and
// pagination, LSI reads completed from the table, capacity, and every
// ExclusiveStartKey error.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/query_test_util.h"

namespace ddblab::engine::testing {
namespace {

TEST_F(QueryIndexTest, GsiProjections) {
  Json all = Query(G("gall"));
  EXPECT_EQ(Column(all["Items"], "gs"), (Strings{"10", "20", "30"}));
  EXPECT_EQ(all["Items"][0], (Json{{"pk", S("a")},
                                   {"sk", N("2")},
                                   {"g", S("G")},
                                   {"gs", N("10")},
                                   {"x", S("xa2")},
                                   {"lsk", S("k")}}));
  EXPECT_EQ(Query(G("gall", "H"))["Count"], 1);

  // KEYS_ONLY: table keys + index keys; order within a GSI partition by the
  // table key.
  Json keys = Query(G("gkeys"));
  EXPECT_EQ(keys["Items"],
            (Json{{{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}},
                  {{"pk", S("a")}, {"sk", N("2")}, {"g", S("G")}},
                  {{"pk", S("b")}, {"sk", N("1")}, {"g", S("G")}}}));
  // INCLUDE x.
  Json inc = Query(G("ginc"));
  EXPECT_EQ(inc["Items"][2], (Json{{"pk", S("a")},
                                   {"sk", N("1")},
                                   {"g", S("G")},
                                   {"gs", N("30")},
                                   {"x", S("xa1")}}));

  Json req = G("gkeys");
  req["Select"] = "ALL_ATTRIBUTES";
  EXPECT_EQ(QueryError(req),
            VE("One or more parameter values were invalid: Select type "
               "ALL_ATTRIBUTES is not supported for global secondary index "
               "gkeys because its projection type is not ALL"));
  req = G("gall");
  req["Select"] = "ALL_ATTRIBUTES";
  EXPECT_EQ(Query(req)["Count"], 3);
  req = G("gall");
  req["ConsistentRead"] = true;
  EXPECT_EQ(QueryError(req),
            VE("Consistent reads are not supported on global secondary "
               "indexes"));
  req = G("ginc");
  req["ProjectionExpression"] = "x, y, pk, z, y";
  EXPECT_EQ(QueryError(req),
            VE("Invalid ProjectionExpression: Two document paths overlap with "
               "each other; must remove or rewrite one of these paths; path "
               "one: [y], path two: [y]"));
  req["ProjectionExpression"] = "x, y, pk, z";
  EXPECT_EQ(QueryError(req),
            VE("One or more parameter values were invalid: Global secondary "
               "index ginc does not project [y, z]"));
  req["ProjectionExpression"] = "x, gs";
  EXPECT_EQ(Query(req)["Items"],
            Json::parse(R"([{"x":{"S":"xa2"},"gs":{"N":"10"}},
      {"gs":{"N":"20"}},{"x":{"S":"xa1"},"gs":{"N":"30"}}])"));
}

TEST_F(QueryIndexTest, GsiPaginationAcrossEqualKeys) {
  Json req = G("gkeys");
  req["Limit"] = 1;
  Json page = Query(req);
  EXPECT_EQ(page["LastEvaluatedKey"],
            (Json{{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}}));
  Json all = Json::array();
  EXPECT_EQ(PageCounts(req, &all), (std::vector<int64_t>{1, 1, 1, 0}));
  EXPECT_EQ(Column(all, "pk"), (Strings{"a", "a", "b"}));
  req["ScanIndexForward"] = false;
  all = Json::array();
  PageCounts(req, &all);
  EXPECT_EQ(Column(all, "pk"), (Strings{"b", "a", "a"}));
  EXPECT_EQ(Column(all, "sk"), (Strings{"1", "2", "1"}));
}

TEST_F(QueryIndexTest, LsiFetchesFromTheTable) {
  Json req{{"TableName", "tbl"},
           {"IndexName", "lsi"},
           {"KeyConditionExpression", "pk = :p"},
           {"ExpressionAttributeValues", {{":p", S("a")}}}};
  // Default: what the index stores, ordered by lsk.
  EXPECT_EQ(Query(req)["Items"],
            (Json{{{"pk", S("a")}, {"sk", N("2")}, {"lsk", S("k")}},
                  {{"pk", S("a")}, {"sk", N("1")}, {"lsk", S("m")}}}));
  req["Select"] = "ALL_ATTRIBUTES";
  req["ReturnConsumedCapacity"] = "INDEXES";
  Json r = Query(req);
  EXPECT_EQ(Column(r["Items"], "x"), (Strings{"xa2", "xa1"}));
  EXPECT_EQ(r["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":1.0,
                "Table":{"CapacityUnits":0.5},
                "LocalSecondaryIndexes":{"lsi":{"CapacityUnits":0.5}}})"));
  req.erase("Select");
  req["ProjectionExpression"] = "y";
  EXPECT_EQ(Query(req)["Items"], Json::parse(R"([{},{"y":{"S":"ya1"}}])"));
  req.erase("ProjectionExpression");
  req["FilterExpression"] = "x = :x";
  req["ExpressionAttributeValues"][":x"] = S("xa1");
  EXPECT_EQ(Query(req)["Items"],
            (Json{{{"pk", S("a")}, {"sk", N("1")}, {"lsk", S("m")}}}));
  // ConsistentRead is fine on an LSI.
  req["ConsistentRead"] = true;
  EXPECT_EQ(Query(req)["Count"], 1);
}

TEST_F(QueryIndexTest, Capacity) {
  Json req = Pk("a");
  req["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Query(req)["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":0.5})"));
  req["ConsistentRead"] = true;
  req["ReturnConsumedCapacity"] = "INDEXES";
  EXPECT_EQ(Query(req)["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":1.0,
                            "Table":{"CapacityUnits":1.0}})"));
  // Nothing read still costs one unit.
  req = Pk("nobody");
  req["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Query(req)["ConsumedCapacity"]["CapacityUnits"], 0.5);
  req = G("gall");
  req["ReturnConsumedCapacity"] = "INDEXES";
  EXPECT_EQ(Query(req)["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":0.5,
                "Table":{"CapacityUnits":0.0},
                "GlobalSecondaryIndexes":{"gall":{"CapacityUnits":0.5}}})"));
  // The table ARN is echoed.
  req = Pk("a");
  req["TableName"] = Describe("tbl")["TableArn"];
  req["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Query(req)["ConsumedCapacity"]["TableName"], req["TableName"]);
  // Rounded up per page, not per item.
  const std::string kb4(4090, 'q');
  for (int i = 0; i < 3; ++i) {
    Put("tbl", {{"pk", S("cap")}, {"sk", N(std::to_string(i))}, {"d", S(kb4)}});
  }
  req = Pk("cap");
  req["ReturnConsumedCapacity"] = "TOTAL";
  // Items of 4099, 4100, 4100 bytes: 12299 bytes, 4 units, halved.
  EXPECT_EQ(Query(req)["ConsumedCapacity"]["CapacityUnits"], 2.0);
}

// ---------------------------------------------------------------------------
// ExclusiveStartKey errors

TEST_F(QueryIndexTest, ExclusiveStartKeyErrors) {
  auto with = [&](Json req, Json esk) {
    req["ExclusiveStartKey"] = esk;
    return QueryError(req);
  };
  const std::string invalid = VE("The provided starting key is invalid");
  const std::string no_match =
      VE("The provided key element does not match the schema");
  const std::string invalid_no_match =
      VE("The provided starting key is invalid: The provided key element does "
         "not match the schema");
  Json table = Pk("a");
  EXPECT_EQ(with(table, Json::object()), invalid);
  EXPECT_EQ(with(table, {{"pk", S("a")}}), invalid);
  EXPECT_EQ(with(table, {{"pk", S("a")}, {"z", N("1")}}), invalid);
  EXPECT_EQ(with(table, {{"pk", S("a")}, {"sk", N("1")}, {"z", N("1")}}),
            invalid);
  EXPECT_EQ(with(table, {{"pk", N("1")}, {"sk", N("1")}}), no_match);
  EXPECT_EQ(with(table, {{"pk", S("a")}, {"sk", S("1")}}), no_match);
  EXPECT_EQ(with(table, {{"pk", S(std::string(2049, 'k'))}, {"sk", N("1")}}),
            VE("One or more parameter values were invalid: Size of hashkey "
               "has exceeded the maximum size limit of2048 bytes"));
  EXPECT_EQ(with(table, {{"pk", S("b")}, {"sk", N("1")}}),
            VE("The provided starting key is outside query boundaries based "
               "on provided conditions"));
  Json ranged = Pk("a");
  ranged["KeyConditionExpression"] = "pk = :p and sk > :n";
  ranged["ExpressionAttributeValues"][":n"] = N("5");
  EXPECT_EQ(with(ranged, {{"pk", S("a")}, {"sk", N("5")}}),
            VE("The provided starting key does not match the range key "
               "predicate"));
  EXPECT_EQ(with(ranged, {{"pk", S("b")}, {"sk", N("6")}}),
            VE("The query can return at most one row and cannot be "
               "restarted"));
  // The start key's hash is checked before the condition on it.
  EXPECT_EQ(with({{"KeyConditionExpression", "z = :p"},
                  {"ExpressionAttributeValues", {{":p", S("a")}}}},
                 {{"pk", S("a")}, {"sk", S("1")}}),
            VE("Query condition missed key schema element: pk"));

  // Indexes: table keys + index keys.
  Json lsi{{"IndexName", "lsi"},
           {"KeyConditionExpression", "pk = :p"},
           {"ExpressionAttributeValues", {{":p", S("a")}}}};
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", N("1")}}), invalid);
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", N("1")}, {"z", S("m")}}),
            invalid);
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", N("1")}, {"lsk", N("1")}}),
            no_match);
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", S("1")}, {"lsk", S("m")}}),
            invalid_no_match);
  EXPECT_EQ(with(lsi, {{"pk", S("b")}, {"sk", N("1")}, {"lsk", S("m")}}),
            VE("The provided starting key is outside query boundaries based "
               "on provided conditions"));
  Json gsi = G("gall");
  EXPECT_EQ(with(gsi, {{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}}),
            invalid);
  EXPECT_EQ(
      with(gsi, {{"x", S("a")}, {"y", N("1")}, {"g", S("G")}, {"gs", N("1")}}),
      invalid_no_match);
  EXPECT_EQ(
      with(gsi,
           {{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}, {"gs", S("1")}}),
      no_match);
  EXPECT_EQ(
      with(gsi,
           {{"pk", S("a")}, {"sk", N("1")}, {"g", S("X")}, {"gs", N("1")}}),
      VE("The provided starting key is outside query boundaries based "
         "on provided conditions"));
  // A round trip on the GSI with an ExclusiveStartKey that is no item.
  gsi["ExclusiveStartKey"] = {
      {"pk", S("a")}, {"sk", N("0")}, {"g", S("G")}, {"gs", N("15")}};
  EXPECT_EQ(Column(Query(gsi)["Items"], "gs"), (Strings{"20", "30"}));
  // Undecodable values.
  EXPECT_EQ(with(table, {{"pk", Json::object()}}),
            VE("The provided starting key is invalid: Supplied AttributeValue "
               "is empty, must contain exactly one of the supported "
               "datatypes"));
  EXPECT_EQ(with(table, {{"pk", {{"NS", Json::array()}}}}),
            VE("One or more parameter values were invalid: An number set  may "
               "not be empty"));
}

}  // namespace
}  // namespace ddblab::engine::testing
