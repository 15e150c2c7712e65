// Capacity enforcement (emulator/engine/capacity/capacity_model.h,
// capacity_ledger.h) on a ManualClock: provisioned burst and refill, GSI
// back-pressure, hot keys, the per-partition arithmetic, on-demand doubling,
// partial batches, transaction cancellation, UpdateTable, the report, and "off
// changes nothing". Every throttle is checked for its exact error and for
// leaving nothing written.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "tests/emulator/engine/capacity_test_util.h"

namespace ddblab::engine::testing {
namespace {

TEST_F(CapacityTest, FiveWcuTableTakesItsBurstThenThrottles) {
  Create(10000, 5);
  // A new table banks 300 s x 5 units.
  Spend(1500);
  Result<Json> r = Put("over");
  ExpectTableThrottle(r);
  EXPECT_FALSE(Exists("over"));
  // Still throttled at the same instant, and counted each time.
  ExpectTableThrottle(Put("over"));
  const Json report = emu_->CapacityReport();
  EXPECT_EQ(report["Enforced"], true);
  const Json& t = report["Tables"][0];
  EXPECT_EQ(t["TableName"], "Tbl");
  EXPECT_EQ(t["BillingMode"], "PROVISIONED");
  EXPECT_EQ(t["Write"]["ProvisionedUnits"], 5);
  EXPECT_EQ(t["Write"]["Consumed"],
            Json::array({{{"Second", ManualClock::kDefaultStartEpochSeconds},
                          {"Units", 1500.0}}}));
  EXPECT_EQ(t["ThrottledRequests"],
            Json({{"TableWriteProvisionedThroughputExceeded", 2}}));
}

TEST_F(CapacityTest, RefillsAtTheProvisionedRateUpTo300Seconds) {
  Create(10000, 5);
  Spend(1500);
  ExpectTableThrottle(Put("a"));
  clock_->Advance(milliseconds(199));  // 0.995 units: not yet one
  ExpectTableThrottle(Put("a"));
  clock_->Advance(milliseconds(1));  // 1 unit
  ASSERT_TRUE(Put("a").ok());
  ExpectTableThrottle(Put("b"));
  clock_->Advance(seconds(1));  // 5 units
  Spend(5, "t");
  ExpectTableThrottle(Put("b"));
  // An hour idle banks only 300 s worth.
  clock_->Advance(minutes(60));
  Spend(1500, "u");
  ExpectTableThrottle(Put("b"));
}

TEST_F(CapacityTest, GsiShortOfWritesThrottlesTheBaseTableWrite) {
  Create(10000, 10000, /*gsi_write=*/1);
  for (int i = 0; i < 300; ++i) {  // the GSI's burst: 300 s x 1 unit
    Json item = Item("k" + std::to_string(i));
    item["g"] = S("x");
    ASSERT_TRUE(
        emu_->Call("PutItem", {{"TableName", "Tbl"}, {"Item", item}}).ok())
        << i;
  }
  Json item = Item("over");
  item["g"] = S("y");
  Result<Json> r =
      emu_->Call("PutItem", {{"TableName", "Tbl"}, {"Item", item}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ProvisionedThroughputExceededException");
  EXPECT_EQ(r.error().message, kIndexText);
  EXPECT_EQ(r.error().extra,
            Reasons("ThrottlingReasons",
                    "IndexWriteProvisionedThroughputExceeded", kIndexArn));
  EXPECT_FALSE(Exists("over"));
  // An item outside the index writes nothing to it, so it passes.
  EXPECT_TRUE(Put("plain").ok());
  const Json report = emu_->CapacityReport();
  EXPECT_EQ(
      report["Tables"][0]["GlobalSecondaryIndexes"][0]["ThrottledRequests"],
      Json({{"IndexWriteProvisionedThroughputExceeded", 1}}));
}

TEST_F(CapacityTest, GsiReadsThrottleOnTheIndexAloneAndScansChargeTheTable) {
  Create(1, 10000, /*gsi_write=*/10);
  Json item = Item("k");
  item["g"] = S("x");
  Ok("PutItem", {{"TableName", "Tbl"}, {"Item", item}});
  // The GSI banks 300 read units; an eventually consistent Query costs 0.5.
  Json query{{"TableName", "Tbl"},
             {"IndexName", "ByG"},
             {"KeyConditionExpression", "g = :g"},
             {"ExpressionAttributeValues", {{":g", S("x")}}}};
  for (int i = 0; i < 600; ++i)
    ASSERT_TRUE(emu_->Call("Query", query).ok()) << i;
  Result<Json> r = emu_->Call("Query", query);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ProvisionedThroughputExceededException");
  EXPECT_EQ(r.error().extra,
            Reasons("ThrottlingReasons",
                    "IndexReadProvisionedThroughputExceeded", kIndexArn));
  // The table's own reads are untouched: a strongly consistent Scan of a
  // new table costs 4 units of its 300.
  for (int i = 0; i < 75; ++i) {
    ASSERT_TRUE(
        emu_->Call("Scan", {{"TableName", "Tbl"}, {"ConsistentRead", true}})
            .ok())
        << i;
  }
  r = emu_->Call("Scan", {{"TableName", "Tbl"}, {"ConsistentRead", true}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().extra,
            Reasons("ThrottlingReasons",
                    "TableReadProvisionedThroughputExceeded", kArn));
}

TEST_F(CapacityTest, HotKeyThrottledAt1000WcuPerSecondWhileOtherKeysPass) {
  Create(0, 0);  // on-demand: 4,000 units/s for the table
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(Put("hot").ok()) << i;
  }
  Result<Json> r = Put("hot");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ThrottlingException");
  EXPECT_EQ(r.error().message, kOnDemandText);
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons", "TableWriteKeyRangeThroughputExceeded",
                    kArn));
  EXPECT_TRUE(Put("cold").ok());
  clock_->Advance(seconds(1));  // a new second for the hot key
  EXPECT_TRUE(Put("hot").ok());
}

TEST_F(CapacityTest, HotKeyOnAProvisionedTableIsAKeyRangePtee) {
  Create(10000, 10000);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(Put("hot").ok()) << i;
  Result<Json> r = Put("hot");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ProvisionedThroughputExceededException");
  EXPECT_EQ(r.error().extra,
            Reasons("ThrottlingReasons", "TableWriteKeyRangeThroughputExceeded",
                    kArn));
}

// An item of S bytes written R times within one second, evenly spaced:
// throttled exactly when R x ceil(S / 1 KB) > 1,000.
struct HotItemCase {
  int64_t bytes;
  int64_t rate;
};
class HotItemTest : public CapacityTest,
                    public ::testing::WithParamInterface<HotItemCase> {};

TEST_P(HotItemTest, ThrottlesExactlyWhenRateTimesUnitsExceeds1000) {
  Create(0, 0);
  const HotItemCase c = GetParam();
  const int64_t units = (c.bytes + 1023) / 1024;
  Ok("PutItem", {{"TableName", "Tbl"}, {"Item", Item("item", c.bytes)}});
  clock_->Advance(seconds(1));
  const auto step = std::chrono::nanoseconds(1'000'000'000 / c.rate);
  int64_t first_throttled = -1;
  for (int64_t i = 0; i < c.rate; ++i) {
    Json item = Item("item", c.bytes);
    Result<Json> r = emu_->Call(
        "UpdateItem", {{"TableName", "Tbl"},
                       {"Key", {{"pk", S("item")}}},
                       {"UpdateExpression", "SET p = :p"},
                       {"ExpressionAttributeValues", {{":p", item["p"]}}}});
    if (!r.ok() && first_throttled < 0) {
      EXPECT_EQ(r.error().Name(), "ThrottlingException");
      first_throttled = i;
    }
    clock_->Advance(step);
  }
  if (c.rate * units > 1000) {
    EXPECT_EQ(first_throttled, 1000 / units) << "rate " << c.rate;
  } else {
    EXPECT_EQ(first_throttled, -1) << "rate " << c.rate;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, HotItemTest,
    ::testing::Values(HotItemCase{2560, 333}, HotItemCase{2560, 334},
                      HotItemCase{1024, 1000}, HotItemCase{1025, 500},
                      HotItemCase{1025, 501}, HotItemCase{400, 1001},
                      HotItemCase{4097, 200}, HotItemCase{4097, 201}));

TEST_F(CapacityTest, OnDemandServesDoubleThePreviousPeakAfterItSettles) {
  Create(0, 0);
  // 400 items of 10 KB on distinct keys: 4,000 units in second 0.
  auto write_units = [&](int64_t total, const std::string& prefix) {
    for (int64_t i = 0; i < total / 10; ++i) {
      Result<Json> r = Put(prefix + std::to_string(i), 10 * 1024);
      if (!r.ok()) return i * 10;
    }
    return total;
  };
  EXPECT_EQ(write_units(4000, "a"), 4000);
  Result<Json> r = Put("over");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ThrottlingException");
  EXPECT_EQ(r.error().extra,
            Reasons("throttlingReasons", "TableWriteKeyRangeThroughputExceeded",
                    kArn));
  // Within 30 minutes the peak of 4,000 has not settled: still 4,000.
  clock_->Advance(minutes(29));
  EXPECT_EQ(write_units(5000, "b"), 4000);
  // 30 minutes after the first peak second ended: 2 x 4,000.
  clock_->Advance(minutes(1) + seconds(1));
  EXPECT_EQ(write_units(9000, "c"), 8000);
  clock_->Advance(minutes(31));
  EXPECT_EQ(write_units(17000, "d"), 16000);
  EXPECT_EQ(emu_->CapacityReport()["Tables"][0]["Write"]["AllowedUnits"],
            16000);
}

TEST_F(CapacityTest, BatchWriteIsPartlyUnprocessedWhenPartFits) {
  Create(10000, 5);
  Spend(1498);  // 2 units left
  Json requests = Json::array();
  for (const char* k : {"b1", "b2", "b3", "b4"}) {
    requests.push_back({{"PutRequest", {{"Item", Item(k)}}}});
  }
  Json out = Ok("BatchWriteItem", {{"RequestItems", {{"Tbl", requests}}},
                                   {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out["UnprocessedItems"],
            Json({{"Tbl", Json::array({requests[2], requests[3]})}}));
  EXPECT_EQ(out["ConsumedCapacity"],
            Json::array({{{"TableName", "Tbl"}, {"CapacityUnits", 2.0}}}));
  EXPECT_TRUE(Exists("b1"));
  EXPECT_TRUE(Exists("b2"));
  EXPECT_FALSE(Exists("b3"));
  // Nothing fits: the call fails with the throttle, writing nothing.
  Result<Json> r = emu_->Call(
      "BatchWriteItem",
      {{"RequestItems", {{"Tbl", Json::array({requests[2], requests[3]})}}}});
  ExpectTableThrottle(r);
  EXPECT_FALSE(Exists("b3"));
}

TEST_F(CapacityTest, BatchGetIsPartlyUnprocessedWhenPartFits) {
  Create(1, 10000);  // 300 read units banked
  for (const char* k : {"g1", "g2", "g3"}) ASSERT_TRUE(Put(k).ok());
  // 298 strongly consistent reads of missing keys: 2 units left.
  for (int i = 0; i < 298; ++i) {
    Ok("GetItem", {{"TableName", "Tbl"},
                   {"Key", {{"pk", S("none")}}},
                   {"ConsistentRead", true}});
  }
  Json keys =
      Json::array({{{"pk", S("g1")}}, {{"pk", S("g2")}}, {{"pk", S("g3")}}});
  Json out = Ok("BatchGetItem",
                {{"RequestItems",
                  {{"Tbl", {{"Keys", keys}, {"ConsistentRead", true}}}}}});
  EXPECT_EQ(out["Responses"]["Tbl"].size(), 2u);
  EXPECT_EQ(out["UnprocessedKeys"]["Tbl"]["Keys"], Json::array({keys[2]}));
  Result<Json> r =
      emu_->Call("GetItem", {{"TableName", "Tbl"}, {"Key", {{"pk", S("g3")}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().extra,
            Reasons("ThrottlingReasons",
                    "TableReadProvisionedThroughputExceeded", kArn));
}

TEST_F(CapacityTest, ThrottledTransactionIsCancelledAndConsumesNothing) {
  Create(10000, 5);
  Spend(1497);  // 3 units left; each transactional put costs 2
  Json tx{
      {"TransactItems",
       Json::array({{{"Put", {{"TableName", "Tbl"}, {"Item", Item("t1")}}}},
                    {{"Put", {{"TableName", "Tbl"}, {"Item", Item("t2")}}}}})}};
  Result<Json> r = emu_->Call("TransactWriteItems", tx);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "TransactionCanceledException");
  EXPECT_EQ(r.error().message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [None, ProvisionedThroughputExceeded]");
  EXPECT_EQ(r.error().extra,
            Json({{"CancellationReasons",
                   Json::array({{{"Code", "None"}},
                                {{"Code", "ProvisionedThroughputExceeded"},
                                 {"Message", kTableText}}})}}));
  EXPECT_FALSE(Exists("t1"));
  EXPECT_FALSE(Exists("t2"));
  // The first action's 2 units were given back: 3 single writes still fit.
  Spend(3, "after");
  ExpectTableThrottle(Put("x"));
}

TEST_F(CapacityTest, UpdateTableChangesApplyToTheBuckets) {
  Create(10000, 5);
  Spend(1500);
  ExpectTableThrottle(Put("x"));
  Ok("UpdateTable",
     {{"TableName", "Tbl"},
      {"ProvisionedThroughput",
       {{"ReadCapacityUnits", 10000}, {"WriteCapacityUnits", 100}}}});
  clock_->Advance(seconds(1));  // 100 units at the new rate
  Spend(100, "n");
  ExpectTableThrottle(Put("x"));
  // To on-demand: 4,000 units per second at once.
  Ok("UpdateTable", {{"TableName", "Tbl"}, {"BillingMode", "PAY_PER_REQUEST"}});
  clock_->Advance(seconds(1));
  Spend(1000, "o1");
  Spend(1000, "o2");
  Spend(1000, "o3");
  Spend(1000, "o4");
  Result<Json> r = Put("x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "ThrottlingException");
}

TEST_F(CapacityTest, SameCallsGiveTheSameThrottles) {
  auto run = [&] {
    std::vector<bool> passed;
    Create(10000, 5);
    for (int i = 0; i < 1600; ++i) {
      passed.push_back(Put("k" + std::to_string(i % 7)).ok());
      clock_->Advance(milliseconds(3));
    }
    Ok("DeleteTable", {{"TableName", "Tbl"}});
    return passed;
  };
  const std::vector<bool> first = run();
  EXPECT_EQ(first, run());
  EXPECT_FALSE(first.back());
}

TEST(CapacityOffTest, OffChangesNothing) {
  auto clock = std::make_shared<ManualClock>();
  Options options;
  options.clock = clock;
  auto emu = Emulator::Open(std::move(options));
  ASSERT_TRUE(emu.ok());
  ASSERT_TRUE(
      (*emu)
          ->Call("CreateTable",
                 {{"TableName", "Tbl"},
                  {"AttributeDefinitions",
                   Json::array(
                       {{{"AttributeName", "pk"}, {"AttributeType", "S"}}})},
                  {"KeySchema", Json::array({{{"AttributeName", "pk"},
                                              {"KeyType", "HASH"}}})},
                  {"ProvisionedThroughput",
                   {{"ReadCapacityUnits", 1}, {"WriteCapacityUnits", 1}}}})
          .ok());
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE((*emu)
                    ->Call("PutItem",
                           {{"TableName", "Tbl"}, {"Item", {{"pk", S("hot")}}}})
                    .ok());
  }
  EXPECT_EQ((*emu)->CapacityReport(),
            Json({{"Enforced", false}, {"Tables", Json::array()}}));
}

}  // namespace
}  // namespace ddblab::engine::testing
