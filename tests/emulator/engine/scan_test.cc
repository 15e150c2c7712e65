// Scan through the engine (the DynamoDB API reference), parallel scans
// included.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "emulator/engine/ops/read_common.h"
#include "emulator/value/attribute_value.h"
#include "emulator/value/key_codec.h"
#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json S(const std::string& s) { return {{"S", s}}; }
Json N(const std::string& n) { return {{"N", n}}; }

std::string VE(const std::string& message) {
  return "ValidationException: " + message;
}

// "<pk>/<sk>" of each item.
std::vector<std::string> Keys(const Json& items) {
  std::vector<std::string> out;
  for (const Json& item : items) {
    out.push_back(item["pk"]["S"].get<std::string>() + "/" +
                  item["sk"]["N"].get<std::string>());
  }
  return out;
}

class ScanTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    // "tbl": pk S, sk N; GSI "gkeys" (g S; KEYS_ONLY), GSI "gall" (g; ALL),
    // LSI "lsi" (pk, lsk S; INCLUDE x).
    Ok("CreateTable",
       {{"TableName", "tbl"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
          {{"AttributeName", "sk"}, {"AttributeType", "N"}},
          {{"AttributeName", "lsk"}, {"AttributeType", "S"}},
          {{"AttributeName", "g"}, {"AttributeType", "S"}}}},
        {"KeySchema",
         {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
          {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}}},
        {"LocalSecondaryIndexes",
         {{{"IndexName", "lsi"},
           {"KeySchema",
            {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
             {{"AttributeName", "lsk"}, {"KeyType", "RANGE"}}}},
           {"Projection",
            {{"ProjectionType", "INCLUDE"}, {"NonKeyAttributes", {"x"}}}}}}},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "gkeys"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}},
          {{"IndexName", "gall"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "ALL"}}}}}}});
  }

  void Put(const Json& item) {
    Ok("PutItem", {{"TableName", "tbl"}, {"Item", item}});
  }

  // 20 partitions p00..p19 of 3 items each; g on the even partitions.
  void Fill() {
    for (int p = 0; p < 20; ++p) {
      char name[8];
      std::snprintf(name, sizeof(name), "p%02d", p);
      for (int s = 1; s <= 3; ++s) {
        Json item{{"pk", S(name)},
                  {"sk", N(std::to_string(s))},
                  {"x", N(std::to_string(p * 10 + s))}};
        if (p % 2 == 0) item["g"] = S(s == 1 ? "one" : "many");
        Put(item);
      }
    }
  }

  Json Scan(Json request) {
    if (!request.contains("TableName")) request["TableName"] = "tbl";
    return Ok("Scan", request);
  }
  std::string ScanError(Json request) {
    if (!request.contains("TableName")) request["TableName"] = "tbl";
    return FailText("Scan", request);
  }

  // Every page until LastEvaluatedKey is absent.
  Json All(Json request, std::vector<int64_t>* counts = nullptr) {
    Json items = Json::array();
    for (int guard = 0; guard < 1000; ++guard) {
      Json page = Scan(request);
      if (counts != nullptr) counts->push_back(page["Count"].get<int64_t>());
      for (const Json& item : page["Items"]) items.push_back(item);
      if (!page.contains("LastEvaluatedKey")) break;
      request["ExclusiveStartKey"] = page["LastEvaluatedKey"];
    }
    return items;
  }
};

TEST_F(ScanTest, WholeTableInKeyOrderWithinPartitions) {
  Fill();
  Json r = Scan({});
  EXPECT_EQ(r["Count"], 60);
  EXPECT_EQ(r["ScannedCount"], 60);
  EXPECT_FALSE(r.contains("LastEvaluatedKey"));
  std::vector<std::string> keys = Keys(r["Items"]);
  EXPECT_EQ(keys.front(), "p00/1");
  EXPECT_EQ(keys[1], "p00/2");
  EXPECT_EQ(keys.back(), "p19/3");
}

TEST_F(ScanTest, LimitPagination) {
  Fill();
  std::vector<int64_t> counts;
  Json items = All({{"Limit", 7}}, &counts);
  EXPECT_EQ(counts, (std::vector<int64_t>{7, 7, 7, 7, 7, 7, 7, 7, 4}));
  std::vector<std::string> keys = Keys(items);
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), 60u);
  EXPECT_EQ(keys, Keys(Scan({})["Items"]));
  // Limit met at the very end: a last, empty page.
  counts.clear();
  All({{"Limit", 30}}, &counts);
  EXPECT_EQ(counts, (std::vector<int64_t>{30, 30, 0}));
  Json first = Scan({{"Limit", 2}});
  EXPECT_EQ(first["LastEvaluatedKey"],
            (Json{{"pk", S("p00")}, {"sk", N("2")}}));
}

TEST_F(ScanTest, OneMegabytePages) {
  const std::string big(100000, 'z');
  for (int i = 0; i < 23; ++i) {
    Put({{"pk", S("big")}, {"sk", N(std::to_string(i))}, {"data", S(big)}});
  }
  std::vector<int64_t> counts;
  Json items = All({{"ProjectionExpression", "sk"}}, &counts);
  EXPECT_EQ(counts, (std::vector<int64_t>{11, 11, 1}));
  EXPECT_EQ(items.size(), 23u);
  Json page = Scan({{"ReturnConsumedCapacity", "TOTAL"}, {"Select", "COUNT"}});
  EXPECT_EQ(page["Count"], 11);
  // 11 items: pk 5, sk 3 (for 0) or 4, data 100004; 1,100,142 bytes -> 269
  // units, halved.
  EXPECT_EQ(page["ConsumedCapacity"],
            (Json{{"TableName", "tbl"}, {"CapacityUnits", 134.5}}));
}

TEST_F(ScanTest, FilterCountsAndKeyAttributes) {
  Fill();
  Json r = Scan(
      {{"FilterExpression", "sk = :one AND pk < :p05"},
       {"ExpressionAttributeValues", {{":one", N("1")}, {":p05", S("p05")}}},
       {"Limit", 10}});
  EXPECT_EQ(r["ScannedCount"], 10);
  EXPECT_EQ(r["Count"], 4);
  EXPECT_EQ(Keys(r["Items"]),
            (std::vector<std::string>{"p00/1", "p01/1", "p02/1", "p03/1"}));
  EXPECT_EQ(r["LastEvaluatedKey"], (Json{{"pk", S("p03")}, {"sk", N("1")}}));
  r = Scan({{"FilterExpression", "attribute_exists(nothing)"}, {"Limit", 5}});
  EXPECT_EQ(r["Items"], Json::array());
  EXPECT_TRUE(r.contains("LastEvaluatedKey"));
  EXPECT_EQ(ScanError({{"FilterExpression", "attribute_exists(pk.b)"}}),
            VE("Key attributes must be scalars; list random access '[]' and "
               "map lookup '.' are not allowed: Key: pk"));
  EXPECT_EQ(ScanError({{"ProjectionExpression", "g[1]"}}),
            VE("Key attributes must be scalars; list random access '[]' and "
               "map lookup '.' are not allowed: IndexKey: g"));
}

TEST_F(ScanTest, SegmentErrors) {
  EXPECT_EQ(ScanError({{"Segment", 0}}),
            VE("The TotalSegments parameter is required but was not present "
               "in the request when Segment parameter is present"));
  EXPECT_EQ(ScanError({{"TotalSegments", 2}}),
            VE("The Segment parameter is required but was not present in the "
               "request when parameter TotalSegments is present"));
  // us-east-1's texts (DynamoDB's default Region): both values named, and
  // Limit with its value ("Value at 'Limit'" and no values is the newer
  // wording only some Regions give).
  EXPECT_EQ(ScanError({{"Segment", 1}, {"TotalSegments", 1}}),
            VE("The Segment parameter is zero-based and must be less than "
               "parameter TotalSegments: Segment: 1 is not less than "
               "TotalSegments: 1"));
  EXPECT_EQ(ScanError({{"Segment", 5}, {"TotalSegments", 5}}),
            VE("The Segment parameter is zero-based and must be less than "
               "parameter TotalSegments: Segment: 5 is not less than "
               "TotalSegments: 5"));
  EXPECT_EQ(ScanError({{"Segment", -1}, {"TotalSegments", 1000001}}),
            VE("2 validation errors detected: Value '1000001' at "
               "'totalSegments' failed to satisfy constraint: Member must "
               "have value less than or equal to 1000000; Value at 'Segment' "
               "failed to satisfy constraint: Member must have value greater "
               "than or equal to 0"));
  EXPECT_EQ(ScanError({{"Limit", 0}}),
            VE("1 validation error detected: Value '0' at 'limit' failed to "
               "satisfy constraint: Member must have value greater than or "
               "equal to 1"));
  EXPECT_EQ(ScanError({{"Limit", -3}}),
            VE("1 validation error detected: Value '-3' at 'limit' failed to "
               "satisfy constraint: Member must have value greater than or "
               "equal to 1"));
  // Segment checks come before the expressions, and the table.
  EXPECT_EQ(ScanError({{"TableName", "nope"},
                       {"Segment", 3},
                       {"TotalSegments", 2},
                       {"FilterExpression", ""}}),
            VE("The Segment parameter is zero-based and must be less than "
               "parameter TotalSegments: Segment: 3 is not less than "
               "TotalSegments: 2"));
}

TEST_F(ScanTest, SegmentsAreDisjointCoverAndKeepPartitionsWhole) {
  Fill();
  for (int total : {1, 2, 3, 4, 7}) {
    std::map<std::string, int> segment_of_item;
    std::map<std::string, std::set<int>> segments_of_partition;
    for (int s = 0; s < total; ++s) {
      Json items =
          All({{"Segment", s}, {"TotalSegments", total}, {"Limit", 2}});
      for (const std::string& key : Keys(items)) {
        EXPECT_TRUE(segment_of_item.emplace(key, s).second)
            << key << " in two segments of " << total;
        segments_of_partition[key.substr(0, 3)].insert(s);
      }
    }
    EXPECT_EQ(segment_of_item.size(), 60u) << total;
    for (const auto& [partition, segments] : segments_of_partition) {
      EXPECT_EQ(segments.size(), 1u) << partition << " of " << total;
    }
  }
  // With 4 segments, no segment holds everything (the hash spreads).
  for (int s = 0; s < 4; ++s) {
    EXPECT_LT(All({{"Segment", s}, {"TotalSegments", 4}}).size(), 60u);
  }
}

TEST_F(ScanTest, ExclusiveStartKeyFromAnotherSegment) {
  Fill();
  // Find a partition of segment 1 of 2.
  Json seg1 = Scan({{"Segment", 1}, {"TotalSegments", 2}, {"Limit", 1}});
  ASSERT_EQ(seg1["Count"], 1);
  Json key = seg1["LastEvaluatedKey"];
  EXPECT_EQ(key, (Json{{"pk", seg1["Items"][0]["pk"]},
                       {"sk", seg1["Items"][0]["sk"]}}));
  EXPECT_EQ(
      ScanError(
          {{"Segment", 0}, {"TotalSegments", 2}, {"ExclusiveStartKey", key}}),
      VE("The provided starting key is invalid: Invalid "
         "ExclusiveStartKey. Please use ExclusiveStartKey with correct "
         "Segment. TotalSegments: 2 Segment: 0"));
  EXPECT_EQ(Scan({{"Segment", 1},
                  {"TotalSegments", 2},
                  {"ExclusiveStartKey", key}})["Count"]
                    .get<int64_t>() +
                1,
            Scan({{"Segment", 1}, {"TotalSegments", 2}})["Count"]);
  // The segment of a key is that of its encoded partition key.
  const std::string encoded = value::EncodeKey(
      value::AttributeValue::S(key["pk"]["S"].get<std::string>()));
  EXPECT_EQ(SegmentOf(encoded, 2), 1);
}

TEST_F(ScanTest, SegmentOfIsStableAndInRange) {
  EXPECT_EQ(SegmentOf("", 1), 0);
  EXPECT_EQ(SegmentOf("abc", 1), 0);
  for (int64_t total : {2, 3, 1000000}) {
    for (const char* k : {"", "a", "b", "abc", "\xff\xff"}) {
      int64_t s = SegmentOf(k, total);
      EXPECT_GE(s, 0);
      EXPECT_LT(s, total);
      EXPECT_EQ(s, SegmentOf(k, total));
    }
  }
  // Ranges of one hash: a key's segment of 2 is its segment of 4 halved.
  for (const char* k : {"a", "b", "c", "d", "p00", "p01"}) {
    EXPECT_EQ(SegmentOf(k, 4) / 2, SegmentOf(k, 2)) << k;
  }
}

TEST_F(ScanTest, Indexes) {
  Fill();
  Json r = Scan({{"IndexName", "gkeys"}});
  EXPECT_EQ(r["Count"], 30);  // sparse: only the even partitions
  // Ordered by the index key, then the table key.
  EXPECT_EQ(r["Items"][0],
            (Json{{"pk", S("p00")}, {"sk", N("2")}, {"g", S("many")}}));
  EXPECT_EQ(r["Items"][20],
            (Json{{"pk", S("p00")}, {"sk", N("1")}, {"g", S("one")}}));
  std::vector<int64_t> counts;
  Json items = All({{"IndexName", "gkeys"}, {"Limit", 8}}, &counts);
  EXPECT_EQ(counts, (std::vector<int64_t>{8, 8, 8, 6}));
  EXPECT_EQ(items, r["Items"]);
  Json page = Scan({{"IndexName", "gkeys"}, {"Limit", 1}});
  EXPECT_EQ(page["LastEvaluatedKey"],
            (Json{{"pk", S("p00")}, {"sk", N("2")}, {"g", S("many")}}));
  EXPECT_EQ(Scan({{"IndexName", "gall"}, {"Limit", 1}})["Items"][0]["x"],
            N("2"));
  // Segments work on an index too (by the index partition key).
  size_t total = 0;
  for (int s = 0; s < 3; ++s) {
    total += All({{"IndexName", "gkeys"}, {"Segment", s}, {"TotalSegments", 3}})
                 .size();
  }
  EXPECT_EQ(total, 30u);

  EXPECT_EQ(ScanError({{"IndexName", "gkeys"}, {"Select", "ALL_ATTRIBUTES"}}),
            VE("One or more parameter values were invalid: Select type "
               "ALL_ATTRIBUTES is not supported for global secondary index "
               "gkeys because its projection type is not ALL"));
  EXPECT_EQ(ScanError({{"IndexName", "gall"}, {"ConsistentRead", true}}),
            VE("Consistent reads are not supported on global secondary "
               "indexes"));
  EXPECT_EQ(ScanError({{"IndexName", "nope"}}),
            VE("The table does not have the specified index: nope"));
  EXPECT_EQ(ScanError({{"IndexName", "gkeys"}, {"ProjectionExpression", "x"}}),
            VE("One or more parameter values were invalid: Global secondary "
               "index gkeys does not project [x]"));
  // An LSI completes rows from the table when asked for more.
  Put({{"pk", S("l")},
       {"sk", N("1")},
       {"lsk", S("b")},
       {"x", N("1")},
       {"y", N("2")}});
  Put({{"pk", S("l")}, {"sk", N("2")}, {"lsk", S("a")}, {"y", N("3")}});
  EXPECT_EQ(Scan({{"IndexName", "lsi"}})["Items"],
            Json::parse(R"([{"pk":{"S":"l"},"sk":{"N":"2"},"lsk":{"S":"a"}},
                {"pk":{"S":"l"},"sk":{"N":"1"},"lsk":{"S":"b"},"x":{"N":"1"}}])"));
  EXPECT_EQ(Scan({{"IndexName", "lsi"},
                  {"ProjectionExpression", "y"},
                  {"ReturnConsumedCapacity", "INDEXES"}}),
            Json::parse(R"({"Items":[{"y":{"N":"3"}},{"y":{"N":"2"}}],
                "Count":2,"ScannedCount":2,
                "ConsumedCapacity":{"TableName":"tbl","CapacityUnits":2.5,
                  "Table":{"CapacityUnits":0.5},
                  "LocalSecondaryIndexes":{"lsi":{"CapacityUnits":2.0}}}})"));
}

TEST_F(ScanTest, ExclusiveStartKeyErrors) {
  Fill();
  auto with = [&](Json req, Json esk) {
    req["ExclusiveStartKey"] = esk;
    return ScanError(req);
  };
  const std::string invalid = VE("The provided starting key is invalid");
  const std::string invalid_no_match =
      VE("The provided starting key is invalid: The provided key element does "
         "not match the schema");
  EXPECT_EQ(with({}, Json::object()), invalid_no_match);
  EXPECT_EQ(with({}, {{"pk", S("a")}}), invalid_no_match);
  EXPECT_EQ(with({}, {{"pk", S("a")}, {"z", N("1")}}), invalid_no_match);
  EXPECT_EQ(with({}, {{"pk", N("1")}, {"sk", N("1")}}), invalid_no_match);
  Json gsi{{"IndexName", "gkeys"}};
  EXPECT_EQ(with(gsi, {{"pk", S("a")}, {"sk", N("1")}}), invalid);
  EXPECT_EQ(with(gsi, {{"pk", S("a")}, {"sk", N("1")}, {"z", S("1")}}),
            invalid);
  EXPECT_EQ(with(gsi, {{"pk", S("a")}, {"sk", N("1")}, {"g", N("1")}}),
            VE("The provided key element does not match the schema"));
  EXPECT_EQ(with(gsi, {{"pk", S("a")}, {"sk", S("1")}, {"g", S("1")}}),
            invalid_no_match);
  Json lsi{{"IndexName", "lsi"}};
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", N("1")}, {"lsk", N("1")}}),
            VE("The provided key element does not match the schema"));
  // The start key need not exist; the scan goes on after it.
  Json r = Scan({{"ExclusiveStartKey", {{"pk", S("p18")}, {"sk", N("2.5")}}}});
  EXPECT_EQ(Keys(r["Items"]),
            (std::vector<std::string>{"p18/3", "p19/1", "p19/2", "p19/3"}));
  EXPECT_EQ(with({}, {{"pk", {{"S", "a"}, {"N", "1"}}}}),
            VE("The provided starting key is invalid: Supplied AttributeValue "
               "has more than one datatypes set, must contain exactly one of "
               "the supported datatypes"));
}

TEST_F(ScanTest, SelectAndLegacy) {
  Fill();
  Json r = Scan({{"Select", "COUNT"}});
  EXPECT_FALSE(r.contains("Items"));
  EXPECT_EQ(r["Count"], 60);
  // No "1 validation error detected: " prefix on Scan.
  EXPECT_EQ(ScanError({{"Select", "COUNT"}, {"ProjectionExpression", "x"}}),
            VE("Cannot specify the ProjectionExpression when choosing to get "
               "only the Count"));
  EXPECT_EQ(
      ScanError({{"Select", "ALL_ATTRIBUTES"}, {"AttributesToGet", {"x"}}}),
      VE("Cannot specify the AttributesToGet when choosing to get "
         "ALL_ATTRIBUTES"));
  EXPECT_EQ(ScanError({{"Select", "ALL_PROJECTED_ATTRIBUTES"}}),
            VE("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using "
               "an IndexName"));
  EXPECT_EQ(ScanError({{"Select", "SPECIFIC_ATTRIBUTES"}}),
            VE("Must specify the AttributesToGet or ProjectionExpression when "
               "choosing to get SPECIFIC_ATTRIBUTES"));
  EXPECT_EQ(Scan({{"IndexName", "gall"},
                  {"Select", "ALL_PROJECTED_ATTRIBUTES"}})["Count"],
            30);

  r = Scan(
      {{"ScanFilter",
        {{"x",
          {{"ComparisonOperator", "BETWEEN"},
           {"AttributeValueList", {N("11"), N("22")}}}},
         {"pk",
          {{"ComparisonOperator", "EQ"}, {"AttributeValueList", {S("p02")}}}}}},
       {"AttributesToGet", {"sk"}}});
  EXPECT_EQ(r["Items"], Json::parse(R"([{"sk":{"N":"1"}},{"sk":{"N":"2"}}])"));
  EXPECT_EQ(ScanError({{"ScanFilter",
                        {{"x",
                          {{"ComparisonOperator", "EQ"},
                           {"AttributeValueList", {N("1")}}}}}},
                       {"FilterExpression", "x = :x"},
                       {"ExpressionAttributeValues", {{":x", N("1")}}}}),
            VE("Can not use both expression and non-expression parameters in "
               "the same request: Non-expression parameters: {ScanFilter} "
               "Expression parameters: {FilterExpression}"));
  EXPECT_EQ(ScanError({{"ExpressionAttributeValues", {{":x", N("1")}}}}),
            VE("ExpressionAttributeValues can only be specified when using "
               "expressions: FilterExpression is null"));
  EXPECT_EQ(ScanError({{"ExpressionAttributeNames", {{"#x", "x"}}}}),
            VE("ExpressionAttributeNames can only be specified when using "
               "expressions"));
  EXPECT_EQ(
      ScanError({{"ProjectionExpression", "#x"},
                 {"ExpressionAttributeNames", {{"#x", "x"}, {"#y", "y"}}}}),
      VE("Value provided in ExpressionAttributeNames unused in "
         "expressions: keys: {#y}"));
}

TEST_F(ScanTest, CapacityAndMissingTable) {
  Put({{"pk", S("a")}, {"sk", N("1")}});
  // DynamoDB's figures for a Scan of one tiny item: 4 units strongly
  // consistent, 2 eventually consistent (a unit per starting partition).
  EXPECT_EQ(Scan({{"ReturnConsumedCapacity", "INDEXES"},
                  {"ConsistentRead", true}})["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":4.0,
                            "Table":{"CapacityUnits":4.0}})"));
  EXPECT_EQ(Scan({{"ReturnConsumedCapacity", "TOTAL"}})["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":2.0})"));
  // An empty table costs the same; a segment its share of the partitions.
  EXPECT_EQ(Scan({{"ReturnConsumedCapacity", "TOTAL"},
                  {"ConsistentRead", true},
                  {"Segment", 0},
                  {"TotalSegments", 2}})["ConsumedCapacity"]["CapacityUnits"],
            2.0);
  EXPECT_EQ(Scan({{"ReturnConsumedCapacity", "TOTAL"},
                  {"Segment", 3},
                  {"TotalSegments", 10}})["ConsumedCapacity"]["CapacityUnits"],
            0.5);
  EXPECT_EQ(
      Scan({{"ReturnConsumedCapacity", "NONE"}}).contains("ConsumedCapacity"),
      false);
  EXPECT_EQ(ScanError({{"TableName", "nope"}}),
            "ResourceNotFoundException: Requested resource not found");
}

}  // namespace
}  // namespace ddblab::engine::testing
