// The rollup aggregator on every pattern row: the correct variant's totals
// equal the sums over the source transfers when a batch is delivered again
// (the function failed part way) and when a response is lost; the
// published variant counts the re-delivered records, and the retried lost
// write, twice. Throttles and fault plans: stream_pattern_faults_test.cc.
#include "harness/patterns/rollup_aggregator.h"

#include <gtest/gtest.h>

#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;

class RollupTest : public testing::PatternTest {
 protected:
  RollupAggregator Open(RollupVariant variant,
                        std::function<Status(const json&)> hook = nullptr) {
    RollupConfig config;
    config.source_table = TableName("transfers");
    config.rollup_table = TableName("rollup");
    config.dedupe_table = TableName("dedupe");
    config.variant = variant;
    config.before_record = std::move(hook);
    auto aggregator = RollupAggregator::Open(*backend_, config);
    EXPECT_TRUE(aggregator.ok()) << ToString(aggregator.error());
    Status setup = aggregator->Setup();
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    setup = aggregator->Setup();  // idempotent
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    return std::move(*aggregator);
  }

  // Six transfers: alice 100 + 200 (day 1) and 400 (day 2), bob 1000 +
  // 2000 (day 1) and 4000 (day 2), interleaved.
  void RecordSix(RollupAggregator& aggregator) {
    day1_ = FromEpochSeconds(1704067200 + 3600);  // 2024-01-01T01:00:00Z
    const TimePoint day2 = day1_ + hours(24);
    const Transfer transfers[] = {{"t1", "alice", 100, day1_},
                                  {"t2", "bob", 1000, day1_},
                                  {"t3", "alice", 200, day1_ + hours(2)},
                                  {"t4", "bob", 2000, day1_ + hours(3)},
                                  {"t5", "alice", 400, day2},
                                  {"t6", "bob", 4000, day2}};
    for (const Transfer& t : transfers) {
      auto out = aggregator.RecordTransfer(t);
      ASSERT_TRUE(out.ok()) << ToString(out.error());
      EXPECT_TRUE(*out);
    }
  }

  // Polls until the mapping has delivered the six INSERTs: at the first poll
  // on ddblab and DynamoDB Local; on AWS a record shows up in the stream a
  // moment after its write.
  void Drain(RollupAggregator& aggregator) {
    for (int attempt = 0; attempt < 60; ++attempt) {
      auto out = aggregator.Poll();
      ASSERT_TRUE(out.ok()) << ToString(out.error());
      if (aggregator.mapping().metrics().records_delivered >= 6) return;
      WaitFor(*backend_, std::chrono::seconds(1));
    }
    FAIL() << "the mapping did not deliver the 6 transfers";
  }

  json Rollup(const RollupAggregator& aggregator, const std::string& customer,
              const std::string& day) {
    auto out = backend_->Call(
        "GetItem", {{"TableName", aggregator.config().rollup_table},
                    {"Key", {{"CustomerId", S(customer)}, {"Day", S(day)}}},
                    {"ConsistentRead", true}});
    EXPECT_TRUE(out.ok());
    return out.ok() ? out->value("Item", json()) : json();
  }

  // Fails the invocation at the third record, the first time only (the
  // function timed out part way through its first batch).
  static std::function<Status(const json&)> FailOnceAtThirdRecord(int* calls) {
    return [calls](const json&) -> Status {
      if (++*calls == 3) return Error::Internal("Task timed out");
      return Status();
    };
  }

  TimePoint day1_;
};

TEST_P(RollupTest, CorrectTotalsEqualTheSourceSums) {
  RollupAggregator aggregator = Open(RollupVariant::kCorrect);
  RecordSix(aggregator);
  // A transfer written twice is one transfer.
  EXPECT_FALSE(*aggregator.RecordTransfer({"t1", "alice", 100, day1_}));
  Drain(aggregator);
  EXPECT_EQ(aggregator.stats().applied, 6);
  EXPECT_EQ(*aggregator.Check(), Problems());
  json alice = Rollup(aggregator, "alice", "2024-01-01T00:00:00.000Z");
  EXPECT_EQ(alice["TotalBytes"], N(300));
  EXPECT_EQ(alice["CombinedRecords"], N(2));
  EXPECT_EQ(Rollup(aggregator, "bob", "2024-01-02T00:00:00.000Z")["TotalBytes"],
            N(4000));
}

TEST_P(RollupTest, PublishedTotalsEqualTheSourceSumsWhenNothingFails) {
  RollupAggregator aggregator = Open(RollupVariant::kPublished);
  RecordSix(aggregator);
  Drain(aggregator);
  EXPECT_EQ(*aggregator.Check(), Problems());
}

TEST_P(RollupTest, PublishedCountsARedeliveredBatchTwice) {
  int calls = 0;
  RollupAggregator aggregator =
      Open(RollupVariant::kPublished, FailOnceAtThirdRecord(&calls));
  RecordSix(aggregator);
  Drain(aggregator);
  // t1 and t2 were added, then the function failed; Lambda delivered the
  // whole batch again.
  EXPECT_EQ(aggregator.mapping().metrics().function_errors, 1);
  EXPECT_EQ(aggregator.stats().applied, 8);
  EXPECT_EQ(*aggregator.Check(),
            (Problems{"customer alice day 2024-01-01T00:00:00.000Z: TotalBytes "
                      "is 400, expected 300 (overcounted by 100)",
                      "customer alice day 2024-01-01T00:00:00.000Z: "
                      "CombinedRecords is 3, expected 2 (overcounted by 1)",
                      "customer bob day 2024-01-01T00:00:00.000Z: TotalBytes "
                      "is 4000, expected 3000 (overcounted by 1000)",
                      "customer bob day 2024-01-01T00:00:00.000Z: "
                      "CombinedRecords is 3, expected 2 (overcounted by 1)"}));
}

TEST_P(RollupTest, CorrectIsExactWhenABatchIsRedelivered) {
  int calls = 0;
  RollupAggregator aggregator =
      Open(RollupVariant::kCorrect, FailOnceAtThirdRecord(&calls));
  RecordSix(aggregator);
  Drain(aggregator);
  EXPECT_EQ(aggregator.mapping().metrics().function_errors, 1);
  EXPECT_EQ(aggregator.stats().applied, 6);
  EXPECT_EQ(aggregator.stats().duplicates, 2);
  EXPECT_EQ(*aggregator.Check(), Problems());
}

TEST_P(RollupTest, PublishedCountsALostResponseTwice) {
  RollupAggregator aggregator = Open(RollupVariant::kPublished);
  RecordSix(aggregator);
  // t2's ADD is applied, its answer lost; the SDK sends it again.
  backend_->LoseResponse("UpdateItem", 2);
  Drain(aggregator);
  EXPECT_EQ(aggregator.stats().sdk_retries, 1);
  EXPECT_EQ(*aggregator.Check(),
            (Problems{"customer bob day 2024-01-01T00:00:00.000Z: TotalBytes "
                      "is 4000, expected 3000 (overcounted by 1000)",
                      "customer bob day 2024-01-01T00:00:00.000Z: "
                      "CombinedRecords is 3, expected 2 (overcounted by 1)"}));
}

TEST_P(RollupTest, CorrectIsExactWhenAResponseIsLost) {
  RollupAggregator aggregator = Open(RollupVariant::kCorrect);
  RecordSix(aggregator);
  backend_->LoseResponse("TransactWriteItems", 2);
  Drain(aggregator);
  EXPECT_EQ(aggregator.stats().sdk_retries, 1);
  EXPECT_EQ(aggregator.stats().duplicates, 1);
  EXPECT_EQ(*aggregator.Check(), Problems());
}

TEST_P(RollupTest, CheckNamesAMissingRollup) {
  RollupAggregator aggregator = Open(RollupVariant::kCorrect);
  RecordSix(aggregator);
  // Not polled: the stream has not been consumed yet.
  EXPECT_EQ(aggregator.Check()->size(), 4u);
  EXPECT_EQ(aggregator.Check()->front(),
            "customer alice day 2024-01-01T00:00:00.000Z: no rollup item, "
            "expected TotalBytes 300 over 2 records");
}

TEST(RollupConfigTest, DaysAndBadParameters) {
  EXPECT_EQ(RollupAggregator::DayOf(FromEpochSeconds(1704067200)),
            "2024-01-01T00:00:00.000Z");
  EXPECT_EQ(
      RollupAggregator::DayOf(FromEpochSeconds(1704067200) - milliseconds(1)),
      "2023-12-31T00:00:00.000Z");
  auto backend = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(backend.ok());
  RollupConfig config;
  config.rollup_table = config.source_table;
  EXPECT_EQ(RollupAggregator::Open(**backend, config).error().message,
            "rollup aggregator: source_table, rollup_table and dedupe_table "
            "must be three different tables");
  config = RollupConfig();
  config.max_attempts = 0;
  EXPECT_EQ(RollupAggregator::Open(**backend, config).error().message,
            "rollup aggregator: max_attempts must be 1 to 10 (default 3), "
            "got 0");
  config = RollupConfig();
  config.dedupe_retention = hours(1);
  EXPECT_EQ(RollupAggregator::Open(**backend, config).error().message,
            "rollup aggregator: dedupe_retention must be at least 24 hours (a "
            "stream record can be delivered again until it leaves the "
            "stream); default 48 hours");
  config = RollupConfig();
  config.mapping = {{"FunctionResponseTypes", json::array()}};
  EXPECT_EQ(RollupAggregator::Open(**backend, config).error().message,
            "rollup aggregator: mapping FunctionResponseTypes is set by the "
            "pattern");
  config = RollupConfig();
  config.return_consumed_capacity = "total";
  EXPECT_EQ(RollupAggregator::Open(**backend, config).error().message,
            "rollup aggregator: return_consumed_capacity must be empty, "
            "TOTAL, INDEXES or NONE, got \"total\"");
  config = RollupConfig();
  config.dedupe_table = "bad name";
  EXPECT_EQ(RollupAggregator::Open(**backend, config).error().message,
            "rollup aggregator: table name must be 3 to 255 characters of "
            "a-z, A-Z, 0-9, '_', '-' and '.', got \"bad name\"");
  auto aggregator = RollupAggregator::Open(**backend, RollupConfig());
  ASSERT_TRUE(aggregator.ok());
  EXPECT_EQ(aggregator->RecordTransfer({"t", "c", -1, {}}).error().message,
            "rollup aggregator: a transfer's bytes must not be negative, got "
            "-1");
  EXPECT_EQ(ParseRollupVariant("published").value(), RollupVariant::kPublished);
  EXPECT_EQ(ParseRollupVariant("nope").error().message,
            "unknown rollup aggregator variant \"nope\" (correct, published)");
}

INSTANTIATE_TEST_SUITE_P(Rows, RollupTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness::patterns
