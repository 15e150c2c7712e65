// Failed conditional writes and ConditionCheck actions under capacity
// enforcement (capacity_ledger.h ChargeFailedCondition, ops_transact.cc): what
// they consume, that it stays consumed although the call fails, and the
// throttle they get when it does not fit.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/capacity_test_util.h"

namespace ddblab::engine::testing {
namespace {

class CapacityConditionTest : public CapacityTest {
 protected:
  // Write units consumed in the current clock second, from the report.
  double WrittenNow() {
    const Json report = emu_->CapacityReport();
    const int64_t now =
        std::chrono::floor<seconds>(clock_->Now()).time_since_epoch().count();
    double units = 0;
    for (const Json& s : report["Tables"][0]["Write"]["Consumed"]) {
      if (s["Second"] == now) {
        units = s["Units"].get<double>();
      }
    }
    return units;
  }
  void ExpectConditionFailed(const Result<Json>& r) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().Name(), "ConditionalCheckFailedException");
    EXPECT_EQ(r.error().message, "The conditional request failed");
    // DynamoDB's exception has no ConsumedCapacity member.
    EXPECT_FALSE(r.error().extra.contains("ConsumedCapacity"));
  }
};

TEST_F(CapacityConditionTest, FailedPutIsChargedTheLargerOfOldAndNewItem) {
  Create(10000, 10000);
  ASSERT_TRUE(Put("k", 3000).ok());  // 3 units
  clock_->Advance(seconds(1));
  // A 1 KB put whose condition fails on a 3 KB item: 3 units.
  Result<Json> r = emu_->Call(
      "PutItem", {{"TableName", "Tbl"},
                  {"Item", Item("k", 1000)},
                  {"ConditionExpression", "attribute_not_exists(pk)"},
                  {"ReturnConsumedCapacity", "TOTAL"}});
  ExpectConditionFailed(r);
  EXPECT_EQ(WrittenNow(), 3.0);
  // A 5 KB put over a 3 KB item: 5 units.
  r = emu_->Call("PutItem",
                 {{"TableName", "Tbl"},
                  {"Item", Item("k", 5000)},
                  {"ConditionExpression", "attribute_not_exists(pk)"}});
  ExpectConditionFailed(r);
  EXPECT_EQ(WrittenNow(), 8.0);
  // Absent item: 1 unit, whatever the new item's size.
  r = emu_->Call("PutItem", {{"TableName", "Tbl"},
                             {"Item", Item("absent", 5000)},
                             {"ConditionExpression", "attribute_exists(pk)"}});
  ExpectConditionFailed(r);
  EXPECT_EQ(WrittenNow(), 9.0);
  EXPECT_FALSE(Exists("absent"));
}

TEST_F(CapacityConditionTest, FailedUpdateAndDeleteAreChargedTheStoredItem) {
  Create(10000, 10000);
  ASSERT_TRUE(Put("k", 2500).ok());
  clock_->Advance(seconds(1));
  Json update{{"TableName", "Tbl"},
              {"Key", {{"pk", S("k")}}},
              {"UpdateExpression", "SET q = :q"},
              {"ConditionExpression", "q = :q"},
              {"ExpressionAttributeValues", {{":q", S("v")}}}};
  ExpectConditionFailed(emu_->Call("UpdateItem", update));
  EXPECT_EQ(WrittenNow(), 3.0);  // ceil(2500 / 1024)
  update["Key"]["pk"] = S("absent");
  ExpectConditionFailed(emu_->Call("UpdateItem", update));
  EXPECT_EQ(WrittenNow(), 4.0);  // + 1 for the absent item
  ExpectConditionFailed(emu_->Call(
      "DeleteItem", {{"TableName", "Tbl"},
                     {"Key", {{"pk", S("k")}}},
                     {"ConditionExpression", "attribute_not_exists(pk)"}}));
  EXPECT_EQ(WrittenNow(), 7.0);
  EXPECT_TRUE(Exists("k"));
}

TEST_F(CapacityConditionTest, FailedConditionsDrainTheBucketThenThrottle) {
  Create(10000, 5);
  Spend(1497);                     // 3 units left
  ASSERT_TRUE(Put("k", 10).ok());  // 2 left
  Json put{{"TableName", "Tbl"},
           {"Item", Item("k", 10)},
           {"ConditionExpression", "attribute_not_exists(pk)"}};
  ExpectConditionFailed(emu_->Call("PutItem", put));
  ExpectConditionFailed(emu_->Call("PutItem", put));
  // Nothing left: the conditional write is throttled before its check.
  ExpectTableThrottle(emu_->Call("PutItem", put));
  const Json report = emu_->CapacityReport();
  EXPECT_EQ(report["Tables"][0]["ThrottledRequests"],
            Json({{"TableWriteProvisionedThroughputExceeded", 1}}));
}

TEST_F(CapacityConditionTest, FailedConditionCountsAgainstTheHotKey) {
  Create(0, 0);
  ASSERT_TRUE(Put("hot", 10).ok());
  clock_->Advance(seconds(1));
  Json put{{"TableName", "Tbl"},
           {"Item", Item("hot", 10)},
           {"ConditionExpression", "attribute_not_exists(pk)"}};
  for (int i = 0; i < 1000; ++i) {
    Result<Json> r = emu_->Call("PutItem", put);
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.error().Name(), "ConditionalCheckFailedException") << i;
  }
  Result<Json> r = emu_->Call("PutItem", put);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ThrottlingException");
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons", "TableWriteKeyRangeThroughputExceeded",
                    kArn));
}

TEST_F(CapacityConditionTest, ConditionCheckIsChargedTwiceItsItemsWrite) {
  Create(10000, 10000);
  ASSERT_TRUE(Put("checked", 2000).ok());  // 2 units
  clock_->Advance(seconds(1));
  Json tx{{"TransactItems",
           Json::array(
               {{{"ConditionCheck",
                  {{"TableName", "Tbl"},
                   {"Key", {{"pk", S("checked")}}},
                   {"ConditionExpression", "attribute_exists(pk)"}}}},
                {{"Put", {{"TableName", "Tbl"}, {"Item", Item("n")}}}},
                {{"ConditionCheck",
                  {{"TableName", "Tbl"},
                   {"Key", {{"pk", S("absent")}}},
                   {"ConditionExpression", "attribute_not_exists(pk)"}}}}})},
          {"ReturnConsumedCapacity", "TOTAL"}};
  Json out = Ok("TransactWriteItems", tx);
  // 2 x 2 (checked) + 2 x 1 (put) + 2 x 1 (absent).
  EXPECT_EQ(out["ConsumedCapacity"],
            Json::array({{{"TableName", "Tbl"},
                          {"CapacityUnits", 8.0},
                          {"WriteCapacityUnits", 8.0}}}));
  EXPECT_EQ(WrittenNow(), 8.0);  // what the buckets were charged
}

TEST_F(CapacityConditionTest, ThrottledConditionCheckCancelsTheTransaction) {
  Create(10000, 5);
  ASSERT_TRUE(Put("checked", 10).ok());
  Spend(1496);  // 3 units left; the put takes 2, the check 2 more
  Json tx{
      {"TransactItems",
       Json::array({{{"Put", {{"TableName", "Tbl"}, {"Item", Item("n")}}}},
                    {{"ConditionCheck",
                      {{"TableName", "Tbl"},
                       {"Key", {{"pk", S("checked")}}},
                       {"ConditionExpression", "attribute_exists(pk)"}}}}})}};
  Result<Json> r = emu_->Call("TransactWriteItems", tx);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "TransactionCanceledException");
  EXPECT_EQ(r.error().message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [None, ProvisionedThroughputExceeded]");
  EXPECT_FALSE(Exists("n"));
  // The put's 2 units were given back: 3 single writes fit.
  Spend(3, "after");
  ExpectTableThrottle(Put("x"));
}

}  // namespace
}  // namespace ddblab::engine::testing
