// OnDemandThroughput and WarmThroughput (on_demand_settings.h) under
// capacity enforcement: read on CreateTable and UpdateTable (table and GSI),
// shown by DescribeTable, enforced with the *MaxOnDemandThroughputExceeded
// reasons, and the warm value raising what is served at once.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/capacity_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr char kMaxText[] =
    "Throughput exceeds the maximum OnDemandThroughput configured on table or "
    "index";

class CapacityOnDemandTest : public CapacityTest {
 protected:
  // An on-demand Tbl with `extra` members merged into CreateTable.
  void CreateOnDemand(const Json& extra) {
    Json req{
        {"TableName", "Tbl"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}},
                      {{"AttributeName", "g"}, {"AttributeType", "S"}}})},
        {"KeySchema",
         Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})},
        {"GlobalSecondaryIndexes",
         Json::array({{{"IndexName", "ByG"},
                       {"KeySchema", Json::array({{{"AttributeName", "g"},
                                                   {"KeyType", "HASH"}}})},
                       {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}})}};
    if (extra.is_object()) req.update(extra);
    Ok("CreateTable", req);
  }
  // How many single-unit puts on distinct keys pass in this clock second.
  int64_t PassingPuts(int64_t tries, const std::string& prefix,
                      bool indexed = false) {
    for (int64_t i = 0; i < tries; ++i) {
      Json item = Item(prefix + std::to_string(i));
      if (indexed) item["g"] = S(prefix + std::to_string(i));
      if (!emu_->Call("PutItem", {{"TableName", "Tbl"}, {"Item", item}}).ok()) {
        return i;
      }
    }
    return tries;
  }
};

TEST_F(CapacityOnDemandTest, TableMaximumThrottlesWithItsOwnReason) {
  CreateOnDemand({{"OnDemandThroughput", {{"MaxWriteRequestUnits", 10}}}});
  EXPECT_EQ(Describe("Tbl")["OnDemandThroughput"],
            Json({{"MaxReadRequestUnits", -1}, {"MaxWriteRequestUnits", 10}}));
  EXPECT_EQ(PassingPuts(10, "a"), 10);
  Result<Json> r = Put("over");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ThrottlingException");
  EXPECT_EQ(r.error().message, kMaxText);
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons",
                    "TableWriteMaxOnDemandThroughputExceeded", kArn));
  EXPECT_FALSE(Exists("over"));
  const Json report = emu_->CapacityReport();
  EXPECT_EQ(report["Tables"][0]["Write"]["MaxUnits"], 10);
  EXPECT_EQ(report["Tables"][0]["Write"]["AllowedUnits"], 10);
  EXPECT_EQ(report["Tables"][0]["ThrottledRequests"],
            Json({{"TableWriteMaxOnDemandThroughputExceeded", 1}}));
  clock_->Advance(seconds(1));
  EXPECT_EQ(PassingPuts(11, "b"), 10);
  // UpdateTable: -1 removes the maximum.
  Ok("UpdateTable", {{"TableName", "Tbl"},
                     {"OnDemandThroughput", {{"MaxWriteRequestUnits", -1}}}});
  EXPECT_EQ(Describe("Tbl")["OnDemandThroughput"],
            Json({{"MaxReadRequestUnits", -1}, {"MaxWriteRequestUnits", -1}}));
  EXPECT_EQ(PassingPuts(50, "c"), 50);
}

TEST_F(CapacityOnDemandTest, ReadMaximumThrottlesReads) {
  CreateOnDemand({{"OnDemandThroughput", {{"MaxReadRequestUnits", 2}}}});
  // Eventually consistent reads of a small item: 0.5 units each.
  Json get{{"TableName", "Tbl"}, {"Key", {{"pk", S("k")}}}};
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(emu_->Call("GetItem", get).ok()) << i;
  Result<Json> r = emu_->Call("GetItem", get);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, kMaxText);
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons",
                    "TableReadMaxOnDemandThroughputExceeded", kArn));
}

TEST_F(CapacityOnDemandTest, IndexMaximumThrottlesBaseWritesNamingTheIndex) {
  CreateOnDemand({});
  // UpdateTable on the GSI (no ProvisionedThroughput on on-demand).
  Ok("UpdateTable",
     {{"TableName", "Tbl"},
      {"GlobalSecondaryIndexUpdates",
       Json::array(
           {{{"Update",
              {{"IndexName", "ByG"},
               {"OnDemandThroughput", {{"MaxWriteRequestUnits", 3}}}}}}})}});
  EXPECT_EQ(Describe("Tbl")["GlobalSecondaryIndexes"][0]["OnDemandThroughput"],
            Json({{"MaxReadRequestUnits", -1}, {"MaxWriteRequestUnits", 3}}));
  EXPECT_EQ(PassingPuts(5, "i", /*indexed=*/true), 3);
  Json item = Item("over");
  item["g"] = S("x");
  Result<Json> r =
      emu_->Call("PutItem", {{"TableName", "Tbl"}, {"Item", item}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ThrottlingException");
  EXPECT_EQ(r.error().message, kMaxText);
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons",
                    "IndexWriteMaxOnDemandThroughputExceeded", kIndexArn));
  EXPECT_FALSE(Exists("over"));
  // Items outside the index still pass.
  EXPECT_EQ(PassingPuts(5, "plain"), 5);
}

TEST_F(CapacityOnDemandTest, GsiMaximumOnCreateTable) {
  Json req{
      {"GlobalSecondaryIndexes",
       Json::array(
           {{{"IndexName", "ByG"},
             {"KeySchema",
              Json::array({{{"AttributeName", "g"}, {"KeyType", "HASH"}}})},
             {"Projection", {{"ProjectionType", "KEYS_ONLY"}}},
             {"OnDemandThroughput",
              {{"MaxReadRequestUnits", 7}, {"MaxWriteRequestUnits", 1}}}}})}};
  CreateOnDemand(req);
  EXPECT_EQ(Describe("Tbl")["GlobalSecondaryIndexes"][0]["OnDemandThroughput"],
            Json({{"MaxReadRequestUnits", 7}, {"MaxWriteRequestUnits", 1}}));
  EXPECT_EQ(PassingPuts(3, "i", /*indexed=*/true), 1);
}

TEST_F(CapacityOnDemandTest, WarmThroughputRaisesWhatIsServedAtOnce) {
  CreateOnDemand({{"WarmThroughput", {{"WriteUnitsPerSecond", 6000}}}});
  EXPECT_EQ(Describe("Tbl")["WarmThroughput"],
            Json({{"ReadUnitsPerSecond", 12000},
                  {"WriteUnitsPerSecond", 6000},
                  {"Status", "ACTIVE"}}));
  // 10 KB items on distinct keys: 600 of them are 6,000 units.
  int64_t passed = 0;
  for (int i = 0; i < 700; ++i) {
    if (!Put("w" + std::to_string(i), 10 * 1024).ok()) break;
    ++passed;
  }
  EXPECT_EQ(passed, 600);
  EXPECT_EQ(emu_->CapacityReport()["Tables"][0]["Write"]["AllowedUnits"], 6000);
  // Warm throughput is never lowered.
  Ok("UpdateTable", {{"TableName", "Tbl"},
                     {"WarmThroughput", {{"WriteUnitsPerSecond", 5000}}}});
  EXPECT_EQ(Describe("Tbl")["WarmThroughput"]["WriteUnitsPerSecond"], 6000);
}

TEST_F(CapacityOnDemandTest, SettingsSurviveAReopenAndBadValuesAreRefused) {
  EXPECT_EQ(
      FailText(
          "CreateTable",
          {{"TableName", "Bad"},
           {"BillingMode", "PAY_PER_REQUEST"},
           {"AttributeDefinitions",
            Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}}})},
           {"KeySchema",
            Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})},
           {"OnDemandThroughput", {{"MaxReadRequestUnits", 0}}}}),
      "ValidationException: One or more parameter values were invalid: "
      "MaxReadRequestUnits must be -1 or at least 1 (got 0)");
  EXPECT_EQ(FailText("UpdateTable",
                     {{"TableName", "Bad"},
                      {"WarmThroughput", {{"ReadUnitsPerSecond", 0}}}}),
            "ValidationException: 1 validation error detected: Value '0' at "
            "'warmThroughput.readUnitsPerSecond' failed to satisfy "
            "constraint: Member must have value greater than or equal to 1");
  CreateOnDemand({{"OnDemandThroughput", {{"MaxReadRequestUnits", 5}}}});
  const Json before = Describe("Tbl")["OnDemandThroughput"];
  Json meta;
  {
    auto lock = impl().Lock();
    meta = impl().catalog().Find("Tbl")->table->ToMeta();
  }
  Result<Table> back = Table::FromMeta(meta);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->on_demand.max_read, 5);
  EXPECT_EQ(back->on_demand.max_write, -1);
  EXPECT_TRUE(back->on_demand.max_set);
  EXPECT_EQ(before,
            Json({{"MaxReadRequestUnits", 5}, {"MaxWriteRequestUnits", -1}}));
}

}  // namespace
}  // namespace ddblab::engine::testing
