#include <gtest/gtest.h>

#include "emulator/engine/keys.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_codec.h"
#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json S(const std::string& s) { return {{"S", s}}; }
Json N(const std::string& n) { return {{"N", n}}; }

class ItemOpsTest : public EngineTest {
 protected:
  // t: pk (S) + sk (N); GSI "by_g" on g (S, KEYS_ONLY); LSI "by_l" on l (S).
  void MakeIndexedTable() {
    Ok("CreateTable", Json::parse(R"({
         "TableName": "tbl", "BillingMode": "PAY_PER_REQUEST",
         "AttributeDefinitions": [
           {"AttributeName": "pk", "AttributeType": "S"},
           {"AttributeName": "sk", "AttributeType": "N"},
           {"AttributeName": "g", "AttributeType": "S"},
           {"AttributeName": "l", "AttributeType": "S"}],
         "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}],
         "GlobalSecondaryIndexes": [{"IndexName": "by_g",
           "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
           "Projection": {"ProjectionType": "KEYS_ONLY"}}],
         "LocalSecondaryIndexes": [{"IndexName": "by_l",
           "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                         {"AttributeName": "l", "KeyType": "RANGE"}],
           "Projection": {"ProjectionType": "ALL"}}]})"));
  }
  // Rows of one index as "ipk|isk|item-json" strings (keys decoded as S).
  std::vector<Json> IndexItems(const std::string& index) {
    auto lock = impl().Lock();
    const Table& t = *impl().catalog().Find("tbl")->table;
    storage::ScanSpec spec;
    spec.table_id = t.id;
    spec.index_id = t.FindIndex(index)->id;
    std::vector<Json> out;
    EXPECT_TRUE(impl()
                    .store()
                    .Scan(spec,
                          [&](const storage::Row& row) {
                            auto item = value::DeserializeItem(row.item);
                            EXPECT_TRUE(item.ok()) << ToString(item.error());
                            if (item.ok())
                              out.push_back(value::EncodeItem(*item));
                            return true;
                          })
                    .ok());
    return out;
  }
};

TEST_F(ItemOpsTest, PutGetDeleteRoundTrip) {
  CreateTable("tbl");
  Json item = {{"pk", S("a")}, {"n", N("1.50")}};
  EXPECT_EQ(Ok("PutItem", {{"TableName", "tbl"}, {"Item", item}}),
            Json::object());
  EXPECT_EQ(Ok("GetItem", {{"TableName", "tbl"}, {"Key", {{"pk", S("a")}}}}),
            Json({{"Item", {{"pk", S("a")}, {"n", N("1.5")}}}}));
  EXPECT_EQ(Ok("DeleteItem", {{"TableName", "tbl"},
                              {"Key", {{"pk", S("a")}}},
                              {"ReturnValues", "ALL_OLD"}}),
            Json({{"Attributes", {{"pk", S("a")}, {"n", N("1.5")}}}}));
  EXPECT_EQ(Ok("GetItem", {{"TableName", "tbl"}, {"Key", {{"pk", S("a")}}}}),
            Json::object());
  // Deleting a missing item succeeds; ALL_OLD then has no Attributes.
  EXPECT_EQ(Ok("DeleteItem", {{"TableName", "tbl"},
                              {"Key", {{"pk", S("a")}}},
                              {"ReturnValues", "ALL_OLD"}}),
            Json::object());
}

TEST_F(ItemOpsTest, PutReplacesWholeItemAndReturnsOld) {
  CreateTable("tbl");
  Ok("PutItem",
     {{"TableName", "tbl"}, {"Item", {{"pk", S("a")}, {"x", S("1")}}}});
  EXPECT_EQ(Ok("PutItem", {{"TableName", "tbl"},
                           {"Item", {{"pk", S("a")}, {"y", S("2")}}},
                           {"ReturnValues", "ALL_OLD"}}),
            Json({{"Attributes", {{"pk", S("a")}, {"x", S("1")}}}}));
  EXPECT_EQ(Ok("GetItem", {{"TableName", "tbl"}, {"Key", {{"pk", S("a")}}}}),
            Json({{"Item", {{"pk", S("a")}, {"y", S("2")}}}}));
  EXPECT_EQ(Ok("PutItem", {{"TableName", "tbl"},
                           {"Item", {{"pk", S("b")}}},
                           {"ReturnValues", "ALL_OLD"}}),
            Json::object());
}

TEST_F(ItemOpsTest, NumberKeysAddressByValue) {
  Ok("CreateTable", Json::parse(R"({"TableName": "num",
      "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "N"}],
      "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}]})"));
  Ok("PutItem",
     {{"TableName", "num"}, {"Item", {{"k", N("1000")}, {"v", S("x")}}}});
  for (std::string k : {"1e3", "1E+3", "1000.0", "001000", "+1000"}) {
    EXPECT_EQ(Ok("GetItem", {{"TableName", "num"}, {"Key", {{"k", N(k)}}}}),
              Json({{"Item", {{"k", N("1000")}, {"v", S("x")}}}}))
        << k;
  }
}

TEST_F(ItemOpsTest, ItemKeyErrors) {
  MakeIndexedTable();
  auto put = [&](Json item) {
    return FailText("PutItem", {{"TableName", "tbl"}, {"Item", item}});
  };
  EXPECT_EQ(put({{"sk", N("1")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Missing the key pk in the item");
  EXPECT_EQ(put({{"pk", S("a")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Missing the key sk in the item");
  EXPECT_EQ(put({{"pk", N("1")}, {"sk", N("1")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for key pk expected: S actual: N");
  EXPECT_EQ(put({{"pk", S("")}, {"sk", N("1")}}),
            "ValidationException: One or more parameter values are not valid. "
            "The AttributeValue for a key attribute cannot contain an empty "
            "string value. Key: pk");
  EXPECT_EQ(put({{"pk", S(std::string(2049, 'x'))}, {"sk", N("1")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Size of hashkey has exceeded the maximum size limit of2048 bytes");
  EXPECT_EQ(
      put({{"pk", S("a")}, {"sk", N("1")}, {"g", N("5")}}),
      "ValidationException: One or more parameter values were invalid: "
      "Type mismatch for Index Key g Expected: S Actual: N IndexName: by_g");
  EXPECT_EQ(put({{"pk", S("a")}, {"sk", N("1")}, {"l", {{"NULL", true}}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for Index Key l Expected: S Actual: NULL IndexName: "
            "by_l");
  EXPECT_EQ(put({{"pk", S("a")}, {"sk", N("1")}, {"g", S("")}}),
            "ValidationException: One or more parameter values are not valid. "
            "A value specified for a secondary index key is not supported. The "
            "AttributeValue for a key attribute cannot contain an empty string "
            "value. IndexName: by_g, IndexKey: g");
  // Exactly at the limits is fine.
  Ok("PutItem",
     {{"TableName", "tbl"},
      {"Item", {{"pk", S(std::string(2048, 'x'))}, {"sk", N("1")}}}});
}

TEST_F(ItemOpsTest, RangeKeySizeLimit) {
  CreateTable("rng", "pk", "sk");
  EXPECT_EQ(
      FailText("PutItem",
               {{"TableName", "rng"},
                {"Item", {{"pk", S("a")}, {"sk", S(std::string(1025, 'y'))}}}}),
      "ValidationException: One or more parameter values were invalid: "
      "Aggregated size of all range keys has exceeded the size limit of "
      "1024 bytes");
  EXPECT_EQ(
      FailText("GetItem",
               {{"TableName", "rng"},
                {"Key", {{"pk", S("a")}, {"sk", S(std::string(1025, 'y'))}}}}),
      "ValidationException: One or more parameter values were invalid: "
      "Aggregated size of all range keys has exceeded the size limit of "
      "1024 bytes");
}

TEST_F(ItemOpsTest, KeyParameterErrors) {
  CreateTable("tbl", "pk", "sk");
  const std::string mismatch =
      "ValidationException: The provided key element does not match the schema";
  auto get = [&](Json key) {
    return FailText("GetItem", {{"TableName", "tbl"}, {"Key", key}});
  };
  EXPECT_EQ(get({{"pk", S("a")}}), mismatch);
  EXPECT_EQ(get({{"pk", S("a")}, {"sk", N("1")}}), mismatch);
  EXPECT_EQ(get({{"pk", S("a")}, {"zz", S("1")}}), mismatch);
  EXPECT_EQ(get({{"pk", S("a")}, {"sk", S("1")}, {"x", S("1")}}), mismatch);
  EXPECT_EQ(get({{"pk", S("a")}, {"sk", S("")}}),
            "ValidationException: One or more parameter values were invalid: "
            "The AttributeValue for a key attribute cannot contain an empty "
            "string value. Key: sk");
  EXPECT_EQ(get({{"pk", S(std::string(2049, 'x'))}, {"sk", S("1")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Size of hashkey has exceeded the maximum size limit of2048 bytes");
  EXPECT_EQ(
      FailText("DeleteItem", {{"TableName", "tbl"}, {"Key", {{"pk", S("a")}}}}),
      mismatch);
  EXPECT_EQ(FailText("GetItem", {{"TableName", "tbl"}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'key' failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(
      FailText("GetItem", {{"TableName", "nope"}, {"Key", {{"pk", S("a")}}}}),
      "ResourceNotFoundException: Requested resource not found");
}

TEST_F(ItemOpsTest, RequestShapeAndValueErrors) {
  CreateTable("tbl");
  EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"}, {"Item", "x"}}),
            "SerializationException: Unexpected field type");
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "tbl"}, {"Item", Json::array()}}),
      "SerializationException: Unrecognized collection type "
      "java.util.Map<java.lang.String, "
      "com.amazonaws.dynamodb.v20120810.AttributeValue>");
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "tbl"},
                           {"Item", {{"pk", S("a")}, {"n", {{"N", 5}}}}}}),
      "SerializationException: NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "tbl"},
                           {"Item", {{"pk", S("a")}, {"e", Json::object()}}}}),
      "ValidationException: Supplied AttributeValue is empty, must "
      "contain exactly one of the supported datatypes");
  // A shape error outranks an AttributeValue content error.
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "t"},
                           {"Item", {{"pk", S("a")}, {"e", Json::object()}}}}),
      "ValidationException: 1 validation error detected: Value 't' at "
      "'tableName' failed to satisfy constraint: Member must have length "
      "greater than or equal to 3");
  EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'item' failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"},
                                 {"Item", {{"pk", S("a")}}},
                                 {"ReturnValues", "ALL_NEW"}}),
            "ValidationException: ReturnValues can only be ALL_OLD or NONE");
  EXPECT_EQ(FailText("DeleteItem", {{"TableName", "tbl"},
                                    {"Key", {{"pk", S("a")}}},
                                    {"ReturnValues", "UPDATED_OLD"}}),
            "ValidationException: ReturnValues can only be ALL_OLD or NONE");
  EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"},
                                 {"Item", {{"pk", S("a")}}},
                                 {"ReturnValues", "all_old"}}),
            "ValidationException: 1 validation error detected: Value 'all_old' "
            "at 'returnValues' failed to satisfy constraint: Member must "
            "satisfy enum value set: [NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, "
            "UPDATED_NEW]");
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "tbl"},
                           {"Item", {{"pk", S("a")}}},
                           {"ReturnConsumedCapacity", "ALL"}}),
      "ValidationException: 1 validation error detected: Value 'ALL' at "
      "'returnConsumedCapacity' failed to satisfy constraint: Member must "
      "satisfy enum value set: [INDEXES, TOTAL, NONE]");
}

TEST_F(ItemOpsTest, ItemSizeLimit) {
  CreateTable("tbl");
  // "pk" + "a" = 3 bytes, "big" = 3 bytes: 409594 characters make 409600.
  Json at_limit = {{"pk", S("a")}, {"big", S(std::string(409594, 'x'))}};
  Ok("PutItem", {{"TableName", "tbl"}, {"Item", at_limit}});
  Json over = {{"pk", S("a")}, {"big", S(std::string(409595, 'x'))}};
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "tbl"}, {"Item", over}}),
      "ValidationException: Item size has exceeded the maximum allowed size");
  EXPECT_EQ(Describe("tbl")["TableSizeBytes"], 409600);
}

TEST_F(ItemOpsTest, AttributesToGet) {
  CreateTable("tbl");
  Ok("PutItem", {{"TableName", "tbl"},
                 {"Item", {{"pk", S("a")}, {"x", S("1")}, {"y", S("2")}}}});
  EXPECT_EQ(Ok("GetItem", {{"TableName", "tbl"},
                           {"Key", {{"pk", S("a")}}},
                           {"AttributesToGet", {"y", "zz"}}}),
            Json({{"Item", {{"y", S("2")}}}}));
  EXPECT_EQ(Ok("GetItem", {{"TableName", "tbl"},
                           {"Key", {{"pk", S("a")}}},
                           {"AttributesToGet", {"zz"}}}),
            Json({{"Item", Json::object()}}));
  EXPECT_EQ(FailText("GetItem", {{"TableName", "tbl"},
                                 {"Key", {{"pk", S("a")}}},
                                 {"AttributesToGet", {"x", "x"}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Duplicate value in attribute name: x");
}

TEST_F(ItemOpsTest, IndexEntriesFollowWrites) {
  MakeIndexedTable();
  Ok("PutItem", {{"TableName", "tbl"},
                 {"Item",
                  {{"pk", S("p")},
                   {"sk", N("1")},
                   {"g", S("g1")},
                   {"l", S("l1")},
                   {"other", S("o")}}}});
  EXPECT_EQ(
      IndexItems("by_g"),
      std::vector<Json>({{{"pk", S("p")}, {"sk", N("1")}, {"g", S("g1")}}}));
  EXPECT_EQ(IndexItems("by_l").size(), 1u);
  EXPECT_EQ(IndexItems("by_l")[0]["other"], S("o"));  // ALL projection
  // Change the GSI key: old entry removed, new one added; drop the LSI key.
  Ok("PutItem", {{"TableName", "tbl"},
                 {"Item", {{"pk", S("p")}, {"sk", N("1")}, {"g", S("g2")}}}});
  EXPECT_EQ(
      IndexItems("by_g"),
      std::vector<Json>({{{"pk", S("p")}, {"sk", N("1")}, {"g", S("g2")}}}));
  EXPECT_TRUE(IndexItems("by_l").empty());
  Json d = Describe("tbl");
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["ItemCount"], 1);
  EXPECT_EQ(d["LocalSecondaryIndexes"][0]["ItemCount"], 0);
  Ok("DeleteItem",
     {{"TableName", "tbl"}, {"Key", {{"pk", S("p")}, {"sk", N("1")}}}});
  EXPECT_TRUE(IndexItems("by_g").empty());
  d = Describe("tbl");
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["ItemCount"], 0);
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["IndexSizeBytes"], 0);
}

TEST_F(ItemOpsTest, ConsumedCapacity) {
  MakeIndexedTable();
  Json item = {{"pk", S("p")},
               {"sk", N("1")},
               {"g", S("g")},
               {"l", S("l")},
               {"big", S(std::string(1500, 'b'))}};
  Json out = Ok("PutItem", {{"TableName", "tbl"},
                            {"Item", item},
                            {"ReturnConsumedCapacity", "TOTAL"}});
  // Table 2 WCU (1.5 KB), GSI KEYS_ONLY 1, LSI ALL 2.
  EXPECT_EQ(out, Json::parse(R"({"ConsumedCapacity":
                                 {"TableName": "tbl", "CapacityUnits": 5.0}})"));
  item["big"] = S("small");
  out = Ok("PutItem", {{"TableName", "tbl"},
                       {"Item", item},
                       {"ReturnConsumedCapacity", "INDEXES"}});
  // Old item size rules the table write; the GSI entry is unchanged.
  EXPECT_EQ(out, Json::parse(R"({"ConsumedCapacity": {
      "TableName": "tbl", "CapacityUnits": 4.0,
      "Table": {"CapacityUnits": 2.0},
      "LocalSecondaryIndexes": {"by_l": {"CapacityUnits": 2.0}}}})"));
  const std::string arn = "arn:aws:dynamodb:us-east-1:000000000000:table/tbl";
  out = Ok("GetItem", {{"TableName", arn},
                       {"Key", {{"pk", S("p")}, {"sk", N("1")}}},
                       {"ReturnConsumedCapacity", "TOTAL"},
                       {"ConsistentRead", true}});
  EXPECT_EQ(out["ConsumedCapacity"],
            Json({{"TableName", arn}, {"CapacityUnits", 1.0}}));
  out = Ok("GetItem", {{"TableName", "tbl"},
                       {"Key", {{"pk", S("missing")}, {"sk", N("1")}}},
                       {"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(out, Json::parse(R"({"ConsumedCapacity": {"TableName": "tbl",
      "CapacityUnits": 0.5, "Table": {"CapacityUnits": 0.5}}})"));
  out = Ok("DeleteItem", {{"TableName", "tbl"},
                          {"Key", {{"pk", S("missing")}, {"sk", N("1")}}},
                          {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out["ConsumedCapacity"]["CapacityUnits"], 1.0);
  out = Ok("PutItem", {{"TableName", "tbl"},
                       {"Item", {{"pk", S("q")}, {"sk", N("2")}}},
                       {"ReturnConsumedCapacity", "NONE"}});
  EXPECT_EQ(out, Json::object());
}

TEST_F(ItemOpsTest, ItemCollectionMetricsForLsiTables) {
  MakeIndexedTable();
  Json out = Ok("PutItem", {{"TableName", "tbl"},
                            {"Item", {{"pk", S("p")}, {"sk", N("1")}}},
                            {"ReturnItemCollectionMetrics", "SIZE"}});
  EXPECT_EQ(out, Json::parse(R"({"ItemCollectionMetrics": {
      "ItemCollectionKey": {"pk": {"S": "p"}}, "SizeEstimateRangeGB": [0.0, 1.0]}})"));
  CreateTable("plain");
  EXPECT_EQ(Ok("PutItem", {{"TableName", "plain"},
                           {"Item", {{"pk", S("p")}}},
                           {"ReturnItemCollectionMetrics", "SIZE"}}),
            Json::object());
}

}  // namespace
}  // namespace ddblab::engine::testing
