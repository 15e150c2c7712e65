// The stream patterns under seeded fault plans (Backend::SetFaultPlan), on
// the rows whose backend takes one (in process and `ddblab serve`): throttles
// and lost responses on the rollup table make the published aggregator drop
// or double a transfer while the correct one stays exact; throttled stream
// reads delay the abandoned-cart listener without losing a cart.
#include <gtest/gtest.h>

#include "harness/patterns/rollup_aggregator.h"
#include "harness/patterns/ttl_expiry_listener.h"
#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using std::chrono::hours;

class StreamFaultsTest : public testing::FaultPlanTest {
 protected:
  RollupAggregator Aggregator(RollupVariant variant,
                              json mapping = json::object()) {
    RollupConfig config;
    config.mapping = std::move(mapping);
    config.source_table = TableName("transfers");
    config.rollup_table = TableName("rollup");
    config.dedupe_table = TableName("dedupe");
    config.variant = variant;
    auto aggregator = RollupAggregator::Open(*backend_, config);
    EXPECT_TRUE(aggregator.ok()) << ToString(aggregator.error());
    Status setup = aggregator->Setup();
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    // Four transfers of one customer and day: 1, 10, 100, 1000 bytes.
    const TimePoint day = FromEpochSeconds(1704067200);
    for (int i = 0; i < 4; ++i) {
      int64_t bytes = 1;
      for (int k = 0; k < i; ++k) bytes *= 10;
      auto out = aggregator->RecordTransfer(
          {"t" + std::to_string(i), "carol", bytes, day + hours(i)});
      EXPECT_TRUE(out.ok());
    }
    return std::move(*aggregator);
  }

  // The rule: `operation` on the rollup table fails with `effect` on its
  // `nth` matching calls.
  json Rule(const RollupAggregator& aggregator, const std::string& operation,
            std::vector<int> nth, const std::string& effect) {
    return {{"operation", operation},
            {"table", aggregator.config().rollup_table},
            {"nth", nth},
            {"effect", effect}};
  }

  static std::string Carol(const std::string& what) {
    return "customer carol day 2024-01-01T00:00:00.000Z: " + what;
  }
};

TEST_P(StreamFaultsTest, PublishedDropsAWriteThrottledPastTheSdkRetries) {
  RollupAggregator aggregator = Aggregator(RollupVariant::kPublished);
  // t1's ADD is throttled on all 3 attempts.
  Plan(json::array({Rule(aggregator, "UpdateItem", {2, 3, 4}, "throttle")}));
  ASSERT_TRUE(aggregator.Poll().ok());
  EXPECT_EQ(aggregator.stats().sdk_retries, 2);
  EXPECT_EQ(aggregator.stats().swallowed_errors, 1);
  // Lambda saw a success: nothing is retried, nothing is reported.
  EXPECT_EQ(aggregator.mapping().metrics().function_errors, 0);
  EXPECT_EQ(*aggregator.Check(),
            (Problems{Carol("TotalBytes is 1101, expected 1111 (undercounted "
                            "by 10)"),
                      Carol("CombinedRecords is 3, expected 4 (undercounted "
                            "by 1)")}));
}

TEST_P(StreamFaultsTest, PublishedCountsALostResponseTwice) {
  RollupAggregator aggregator = Aggregator(RollupVariant::kPublished);
  Plan(json::array({Rule(aggregator, "UpdateItem", {3}, "lost_response")}));
  ASSERT_TRUE(aggregator.Poll().ok());
  EXPECT_EQ(*aggregator.Check(),
            (Problems{Carol("TotalBytes is 1211, expected 1111 (overcounted "
                            "by 100)"),
                      Carol("CombinedRecords is 5, expected 4 (overcounted "
                            "by 1)")}));
}

TEST_P(StreamFaultsTest, CorrectReportsAThrottledRecordAndStaysExact) {
  RollupAggregator aggregator = Aggregator(RollupVariant::kCorrect);
  // t1's transaction is cancelled for throttling (the SDKs do not retry a
  // cancelled transaction); the function reports t1 as the batch's failed
  // item, and Lambda delivers t1..t3 again.
  Plan(json::array({Rule(aggregator, "TransactWriteItems", {2}, "throttle")}));
  ASSERT_TRUE(aggregator.Poll().ok());
  EXPECT_EQ(aggregator.stats().failed_records, 1);
  EXPECT_EQ(aggregator.stats().applied, 4);
  EXPECT_EQ(aggregator.stats().duplicates, 0);
  EXPECT_EQ(aggregator.mapping().metrics().partial_failures, 1);
  EXPECT_EQ(aggregator.mapping().metrics().invocations, 2);
  EXPECT_EQ(*aggregator.Check(), Problems());
}

TEST_P(StreamFaultsTest, CorrectIsExactUnderThrottlesAndLostResponses) {
  RollupAggregator aggregator = Aggregator(RollupVariant::kCorrect);
  Plan(json::array(
      {Rule(aggregator, "TransactWriteItems", {2}, "lost_response"),
       Rule(aggregator, "TransactWriteItems", {4, 5}, "throttle")}));
  ASSERT_TRUE(aggregator.Poll().ok());
  EXPECT_EQ(aggregator.stats().duplicates, 1);
  EXPECT_EQ(aggregator.stats().failed_records, 2);
  EXPECT_EQ(*aggregator.Check(), Problems());
}

// Exact only while Lambda keeps retrying: with MaximumRetryAttempts 1, a
// record throttled on every delivery is discarded (an on-failure record)
// with the rest of its batch, and Check reports what is missing.
TEST_P(StreamFaultsTest, CorrectLosesWhatTheMappingDiscards) {
  RollupAggregator aggregator =
      Aggregator(RollupVariant::kCorrect, {{"MaximumRetryAttempts", 1}});
  Plan(json::array(
      {Rule(aggregator, "TransactWriteItems", {2, 3, 4, 5}, "throttle")}));
  ASSERT_TRUE(aggregator.Poll().ok());
  ASSERT_EQ(aggregator.mapping().failures().size(), 1u);
  const json& failure = aggregator.mapping().failures()[0];
  EXPECT_EQ(failure["requestContext"]["condition"], "RetryAttemptsExhausted");
  EXPECT_EQ(failure["DDBStreamBatchInfo"]["batchSize"], 3);
  EXPECT_EQ(*aggregator.Check(),
            (Problems{Carol("TotalBytes is 1, expected 1111 (undercounted by "
                            "1110)"),
                      Carol("CombinedRecords is 1, expected 4 (undercounted "
                            "by 3)")}));
}

TEST_P(StreamFaultsTest, ThrottledStreamReadsDelayButLoseNoCart) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control and TTL sweeps";
  ListenerConfig config;
  config.table = TableName("carts");
  auto listener = TtlExpiryListener::Open(*backend_, config);
  ASSERT_TRUE(listener.ok());
  ASSERT_TRUE(listener->Setup().ok());
  const int64_t now = ToEpochSeconds(backend_->clock().Now());
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(
        listener->PutCart("c" + std::to_string(i), {"p"}, now + 60).ok());
  }
  ASSERT_TRUE(backend_->AdvanceClock(hours(49)).ok());
  Plan(json::array({{{"operation", "GetRecords"},
                     {"table", config.table},
                     {"times", 3},
                     {"effect", "throttle"}}}));
  // The polls whose reads are throttled deliver nothing; none is lost.
  int failed = 0;
  for (int i = 0; i < 5; ++i) {
    auto polled = listener->Poll();
    if (!polled.ok()) {
      ++failed;
      EXPECT_EQ(listener->Delivered().size(), 0u);
    }
  }
  EXPECT_EQ(failed, 3);
  EXPECT_EQ(listener->Delivered().size(), 6u);
  EXPECT_EQ(*listener->Check(), Problems());
}

INSTANTIATE_TEST_SUITE_P(Rows, StreamFaultsTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness::patterns
