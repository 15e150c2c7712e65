// The patterns under seeded fault plans (Backend::SetFaultPlan), on the rows
// whose backend takes one: in process and `ddblab serve`. The same failures
// as the TestBackend stand-ins, but injected by the emulator itself.
#include <gtest/gtest.h>

#include "harness/patterns/idempotent_counter.h"
#include "harness/patterns/ttl_window_sweeper.h"
#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using std::chrono::milliseconds;

class FaultsTest : public testing::FaultPlanTest {
 protected:
  IdempotentCounter Counter(CounterVariant variant) {
    CounterConfig config;
    config.table = TableName("counter");
    config.variant = variant;
    auto counter = IdempotentCounter::Open(*backend_, config);
    EXPECT_TRUE(counter.ok());
    EXPECT_TRUE(counter->Setup().ok());
    return *counter;
  }

  TtlWindowSweeper Sweeper(SweeperVariant variant, int expired) {
    SweeperConfig config;
    config.table = TableName("sweeper");
    config.variant = variant;
    config.native_ttl = false;
    auto sweeper = TtlWindowSweeper::Open(*backend_, config);
    EXPECT_TRUE(sweeper.ok());
    EXPECT_TRUE(sweeper->Setup().ok());
    const int64_t now = ToEpochSeconds(backend_->clock().Now());
    for (int i = 0; i < expired; ++i) {
      EXPECT_TRUE(sweeper->PutItem("item" + std::to_string(i), now - 5).ok());
    }
    return *sweeper;
  }

  Increment Inc(std::string key) {
    return Increment{"clicks", std::move(key), 1, backend_->clock().Now()};
  }
};

// The second UpdateItem of the counter is applied, then its answer is lost.
json LoseSecondUpdate(const std::string& table) {
  return json::array({{{"operation", "UpdateItem"},
                       {"table", table},
                       {"nth", {2}},
                       {"effect", "lost_response"}}});
}

TEST_P(FaultsTest, LostResponseCountsANaiveCounterTwice) {
  IdempotentCounter counter = Counter(CounterVariant::kNoIdempotencyKey);
  Plan(LoseSecondUpdate(counter.config().table));
  EXPECT_EQ(*counter.Add(Inc("req-1")), IncrementOutcome::kApplied);
  EXPECT_EQ(*counter.Add(Inc("req-2")), IncrementOutcome::kApplied);
  EXPECT_EQ(*counter.Check("clicks", 2),
            Problems{"counter clicks is 3, expected 2 (overcounted by 1)"});
}

TEST_P(FaultsTest, LostResponseLeavesTheCorrectCounterExact) {
  IdempotentCounter counter = Counter(CounterVariant::kCorrect);
  Plan(LoseSecondUpdate(counter.config().table));
  EXPECT_EQ(*counter.Add(Inc("req-1")), IncrementOutcome::kApplied);
  // Applied, answer lost, retried: the retry finds its key.
  EXPECT_EQ(*counter.Add(Inc("req-2")), IncrementOutcome::kDuplicate);
  EXPECT_EQ(*counter.Add(Inc("req-3")), IncrementOutcome::kApplied);
  EXPECT_EQ(*counter.Check("clicks", 3), Problems());
}

// The sweeper's first BatchWriteItem leaves 7 of its 25 deletes unprocessed.
json SevenUnprocessed(const std::string& table, int times) {
  return json::array({{{"operation", "BatchWriteItem"},
                       {"table", table},
                       {"times", times},
                       {"count", 7},
                       {"effect", "unprocessed"}}});
}

TEST_P(FaultsTest, SweeperRetriesUnprocessedItems) {
  TtlWindowSweeper sweeper = Sweeper(SweeperVariant::kUnconditionalDelete, 30);
  Plan(SevenUnprocessed(sweeper.config().table, 1));
  auto report = sweeper.Sweep();
  ASSERT_TRUE(report.ok()) << ToString(report.error());
  EXPECT_EQ(report->found, 30);
  EXPECT_EQ(report->deleted, 30);
  EXPECT_EQ(report->retries, 1);
  EXPECT_EQ(report->unprocessed_left, 0);
  EXPECT_EQ(*sweeper.Check(report->now), Problems());
}

TEST_P(FaultsTest, NaiveSweeperLeavesUnprocessedItems) {
  TtlWindowSweeper sweeper = Sweeper(SweeperVariant::kNoUnprocessedRetry, 30);
  Plan(SevenUnprocessed(sweeper.config().table, 1));
  auto report = sweeper.Sweep();
  ASSERT_TRUE(report.ok()) << ToString(report.error());
  EXPECT_EQ(report->deleted, 23);
  EXPECT_EQ(report->unprocessed_left, 7);
  EXPECT_EQ(sweeper.Check(report->now)->size(), 7u);
}

TEST_P(FaultsTest, SweeperGivesUpAfterMaxRetriesOfAThrottledBatch) {
  // 7 unprocessed, then every retry (7 deletes, all matched) is throttled
  // whole, as DynamoDB does when it can process none of a batch.
  TtlWindowSweeper sweeper = Sweeper(SweeperVariant::kUnconditionalDelete, 10);
  Plan(SevenUnprocessed(sweeper.config().table, 4));
  auto report = sweeper.Sweep();
  ASSERT_TRUE(report.ok()) << ToString(report.error());
  EXPECT_EQ(report->deleted, 3);
  EXPECT_EQ(report->retries, 3);
  EXPECT_EQ(report->waited, milliseconds(100 + 200 + 400));
  EXPECT_EQ(report->unprocessed_left, 7);
  EXPECT_EQ(sweeper.Check(report->now)->size(), 7u);
  auto again = sweeper.Sweep();
  ASSERT_TRUE(again.ok()) << ToString(again.error());
  EXPECT_EQ(again->deleted, 7);
  EXPECT_EQ(*sweeper.Check(again->now), Problems());
}

// The correct sweeper's conditional DeleteItem: the first two calls are
// throttled; it waits 100 ms, then 200 ms, and the third attempt goes
// through.
TEST_P(FaultsTest, CorrectSweeperRetriesThrottledDeletes) {
  TtlWindowSweeper sweeper = Sweeper(SweeperVariant::kCorrect, 5);
  Plan(json::array({{{"operation", "DeleteItem"},
                     {"table", sweeper.config().table},
                     {"times", 2},
                     {"effect", "throttle"}}}));
  auto report = sweeper.Sweep();
  ASSERT_TRUE(report.ok()) << ToString(report.error());
  EXPECT_EQ(report->found, 5);
  EXPECT_EQ(report->deleted, 5);
  EXPECT_EQ(report->delete_item_calls, 7);
  EXPECT_EQ(report->batches, 0);
  EXPECT_EQ(report->retries, 2);
  EXPECT_EQ(report->waited, milliseconds(100 + 200));
  EXPECT_EQ(report->unprocessed_left, 0);
  EXPECT_EQ(*sweeper.Check(report->now), Problems());
}

INSTANTIATE_TEST_SUITE_P(Rows, FaultsTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness::patterns
