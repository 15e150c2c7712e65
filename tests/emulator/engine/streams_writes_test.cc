// Stream records from UpdateItem, BatchWriteItem and TransactWriteItems:
// one record per item actually changed, none for writes that change
// nothing, failed conditions or ConditionCheck (DynamoDB's TTL and Streams
// documentation).
#include <gtest/gtest.h>

#include "tests/emulator/engine/streams_test_util.h"

namespace ddblab::engine::testing {
namespace {

class StreamsWritesTest : public StreamsTest {
 protected:
  // "<eventName> <pk>" per record.
  std::vector<std::string> Events(const std::string& arn) {
    std::vector<std::string> out;
    for (const Json& r : ReadAll(arn)) {
      out.push_back(r["eventName"].get<std::string>() + " " +
                    r["dynamodb"]["Keys"]["pk"]["S"].get<std::string>());
    }
    return out;
  }
  using V = std::vector<std::string>;
};

TEST_F(StreamsWritesTest, UpdateItem) {
  std::string arn = CreateStreamTable("upd", "NEW_AND_OLD_IMAGES");
  // Creating an item: INSERT whose NewImage is the key plus what was set.
  Ok("UpdateItem",
     {{"TableName", "upd"},
      {"Key", {{"pk", S("a")}}},
      {"UpdateExpression", "SET x = :one, m = :m"},
      {"ExpressionAttributeValues",
       {{":one", N("1")}, {":m", {{"M", {{"p", N("1")}, {"q", S("z")}}}}}}}});
  // Setting equal values (a map in another member order, 1.0 == 1): none.
  Ok("UpdateItem",
     {{"TableName", "upd"},
      {"Key", {{"pk", S("a")}}},
      {"UpdateExpression", "SET x = :one, m = :m"},
      {"ExpressionAttributeValues",
       {{":one", N("1.0")}, {":m", {{"M", {{"q", S("z")}, {"p", N("1")}}}}}}}});
  // Removing an absent attribute: none.
  Ok("UpdateItem", {{"TableName", "upd"},
                    {"Key", {{"pk", S("a")}}},
                    {"UpdateExpression", "REMOVE nothing_here"}});
  // A real change: MODIFY.
  Ok("UpdateItem", {{"TableName", "upd"},
                    {"Key", {{"pk", S("a")}}},
                    {"UpdateExpression", "REMOVE m"}});
  std::vector<Json> r = ReadAll(arn);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["eventName"], "INSERT");
  EXPECT_FALSE(r[0]["dynamodb"].contains("OldImage"));
  EXPECT_EQ(r[0]["dynamodb"]["NewImage"],
            Json({{"pk", S("a")},
                  {"x", N("1")},
                  {"m", {{"M", {{"p", N("1")}, {"q", S("z")}}}}}}));
  EXPECT_EQ(r[1]["eventName"], "MODIFY");
  EXPECT_EQ(r[1]["dynamodb"]["NewImage"],
            Json({{"pk", S("a")}, {"x", N("1")}}));
  EXPECT_EQ(r[1]["dynamodb"]["OldImage"], r[0]["dynamodb"]["NewImage"]);
}

TEST_F(StreamsWritesTest, BatchWriteItemOneRecordPerChangedItem) {
  std::string arn = CreateStreamTable("batch", "KEYS_ONLY");
  Put("batch", {{"pk", S("same")}, {"v", N("1")}});
  Json requests = Json::array();
  for (const char* k : {"a", "b", "c"}) {
    requests.push_back({{"PutRequest", {{"Item", {{"pk", S(k)}}}}}});
  }
  requests.push_back(
      {{"PutRequest", {{"Item", {{"pk", S("same")}, {"v", N("1")}}}}}});
  requests.push_back({{"DeleteRequest", {{"Key", {{"pk", S("missing")}}}}}});
  Json out = Ok("BatchWriteItem", {{"RequestItems", {{"batch", requests}}}});
  EXPECT_EQ(out["UnprocessedItems"], Json::object());
  EXPECT_EQ(Events(arn),
            V({"INSERT same", "INSERT a", "INSERT b", "INSERT c"}));
}

TEST_F(StreamsWritesTest, TransactWriteItems) {
  std::string arn = CreateStreamTable("txn", "NEW_IMAGE");
  Put("txn", {{"pk", S("old")}, {"v", N("1")}});
  Put("txn", {{"pk", S("gone")}});
  Put("txn", {{"pk", S("checked")}});
  auto put = [](const char* k) {
    return Json{{"Put", {{"TableName", "txn"}, {"Item", {{"pk", S(k)}}}}}};
  };
  Json ok_items = Json::array(
      {put("new"),
       {{"Update",
         {{"TableName", "txn"},
          {"Key", {{"pk", S("old")}}},
          {"UpdateExpression", "SET v = :two"},
          {"ExpressionAttributeValues", {{":two", N("2")}}}}}},
       {{"Delete", {{"TableName", "txn"}, {"Key", {{"pk", S("gone")}}}}}},
       {{"ConditionCheck",
         {{"TableName", "txn"},
          {"Key", {{"pk", S("checked")}}},
          {"ConditionExpression", "attribute_exists(pk)"}}}}});
  Ok("TransactWriteItems", {{"TransactItems", ok_items}});
  // A failed condition cancels everything: no records.
  Json failing =
      Json::array({put("never"),
                   {{"ConditionCheck",
                     {{"TableName", "txn"},
                      {"Key", {{"pk", S("checked")}}},
                      {"ConditionExpression", "attribute_not_exists(pk)"}}}}});
  Error e = Fail("TransactWriteItems", {{"TransactItems", failing}});
  EXPECT_EQ(e.type, ErrorType::kTransactionCanceled);
  EXPECT_EQ(Events(arn), V({"INSERT old", "INSERT gone", "INSERT checked",
                            "INSERT new", "MODIFY old", "REMOVE gone"}));
}

}  // namespace
}  // namespace ddblab::engine::testing
