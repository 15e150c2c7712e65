// The TTL-window sweeper on every pattern row: the correct variant leaves no
// expired item behind after each trigger and keeps an item whose ttl was
// extended between its Query and its delete (a BatchWriteItem sweeper
// deletes it); a window that is not a multiple of the frequency, a sweep
// that reads one page, and a sweep that ignores UnprocessedItems each leave
// items until DynamoDB's own TTL (48 hours late on these rows).
#include "harness/patterns/ttl_window_sweeper.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::TestBackend;

class SweeperTest : public testing::PatternTest {
 protected:
  TtlWindowSweeper Open(SweeperConfig config) {
    config.table = TableName("sweeper");
    auto sweeper = TtlWindowSweeper::Open(*backend_, config);
    EXPECT_TRUE(sweeper.ok()) << ToString(sweeper.error());
    Status setup = sweeper->Setup();
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    setup = sweeper->Setup();  // idempotent
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    return *sweeper;
  }

  // Moves the clock to the first minute boundary at least 10 minutes ahead
  // plus `offset`, and returns that boundary (epoch seconds).
  int64_t StartAtBoundary(Duration offset) {
    int64_t now = ToEpochSeconds(backend_->clock().Now());
    int64_t boundary = (now / 60 + 10) * 60;
    EXPECT_TRUE(backend_->SetClock(FromEpochSeconds(boundary) + offset).ok());
    return boundary;
  }

  // Items expiring every 7 s over 10 minutes from `from`.
  void PutSpread(TtlWindowSweeper& sweeper, int64_t from) {
    for (int i = 0; i < 86; ++i) {
      ASSERT_TRUE(
          sweeper.PutItem("item" + std::to_string(i), from + 7 * i).ok());
    }
  }

  // Triggers every `frequency` for `triggers` times; returns the problems
  // Check finds after each.
  Problems RunSchedule(TtlWindowSweeper& sweeper, int triggers) {
    Problems all;
    for (int i = 0; i < triggers; ++i) {
      EXPECT_TRUE(backend_->AdvanceClock(sweeper.config().frequency).ok());
      auto report = sweeper.Sweep();
      EXPECT_TRUE(report.ok()) << ToString(report.error());
      if (!report.ok()) break;
      auto problems = sweeper.Check(report->now);
      EXPECT_TRUE(problems.ok());
      all.insert(all.end(), problems->begin(), problems->end());
    }
    return all;
  }

  int Count(const TtlWindowSweeper& sweeper) {
    auto items = ScanAll(*backend_, sweeper.config().table);
    EXPECT_TRUE(items.ok());
    return items.ok() ? static_cast<int>(items->size()) : -1;
  }
};

TEST_P(SweeperTest, CorrectLeavesNothingExpiredAfterAnyTrigger) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control";
  // Triggers 23 s after each minute boundary: windows and triggers are not
  // aligned, which is why the previous window is queried too.
  const int64_t start = StartAtBoundary(seconds(23));
  TtlWindowSweeper sweeper = Open(SweeperConfig());
  PutSpread(sweeper, start + 1);
  EXPECT_EQ(RunSchedule(sweeper, 12), Problems());
  EXPECT_EQ(Count(sweeper), 0);
}

TEST_P(SweeperTest, WindowNotAMultipleOfTheFrequencyLeavesItems) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control";
  const int64_t start = StartAtBoundary(Duration::zero());
  SweeperConfig config;
  config.variant = SweeperVariant::kWindowNotMultipleOfFrequency;
  config.window = seconds(90);
  TtlWindowSweeper sweeper = Open(config);
  PutSpread(sweeper, start + 1);
  RunSchedule(sweeper, 12);
  // Items whose 90 s window closed between two triggers are never queried
  // again. Same items, same schedule, every trigger: some always remain.
  const int left = Count(sweeper);
  EXPECT_GT(left, 10);
  auto problems = sweeper.Check(backend_->clock().Now());
  ASSERT_TRUE(problems.ok());
  EXPECT_EQ(static_cast<int>(problems->size()), left);
  EXPECT_NE((*problems)[0].find(" and is still there at "), std::string::npos)
      << (*problems)[0];
  // DynamoDB's own TTL takes them, 48 hours after expiry on these rows.
  ASSERT_TRUE(backend_->AdvanceClock(hours(48)).ok());
  ASSERT_TRUE(backend_->SweepTtl().ok());
  EXPECT_EQ(Count(sweeper), 0);
}

TEST_P(SweeperTest, CorrectRefusesAWindowThatIsNotAMultiple) {
  SweeperConfig config;
  config.window = seconds(90);
  auto out = TtlWindowSweeper::Open(*backend_, config);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message,
            "TTL window sweeper: window (90s) must be a multiple of the "
            "frequency (60s), or items are left until DynamoDB's own TTL");
}

TEST_P(SweeperTest, NoPaginationLeavesAWindowOverOneMegabyte) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control";
  for (SweeperVariant variant :
       {SweeperVariant::kCorrect, SweeperVariant::kNoPagination}) {
    SCOPED_TRACE(SweeperVariantName(variant));
    const int64_t start = StartAtBoundary(Duration::zero());
    SweeperConfig config;
    config.variant = variant;
    TtlWindowSweeper sweeper = Open(config);
    // 600 items of ~4 KB expiring in the same window: ~2.4 MB, three Query
    // pages of at most 1 MB.
    const json payload = {{"payload", S(std::string(4000, 'p'))}};
    for (int i = 0; i < 600; ++i) {
      ASSERT_TRUE(
          sweeper
              .PutItem(SweeperVariantName(variant).data() + std::to_string(i),
                       start + 1, payload)
              .ok());
    }
    // Trigger 1, a minute later, queries the items' window as the previous
    // one; trigger 2 queries it no more.
    Problems problems = RunSchedule(sweeper, 2);
    if (variant == SweeperVariant::kCorrect) {
      EXPECT_EQ(problems, Problems());
      EXPECT_EQ(Count(sweeper), 0);
    } else {
      // One page of 1 MB held ~250 of the 600 items.
      const int left = Count(sweeper);
      EXPECT_GT(left, 300);
      EXPECT_LT(left, 400);
      auto now = sweeper.Check(backend_->clock().Now());
      EXPECT_EQ(static_cast<int>(now->size()), left);
    }
  }
}

TEST_P(SweeperTest, UnconditionalDeleteRetriesUnprocessedItems) {
  SweeperConfig config;
  config.native_ttl = false;
  config.variant = SweeperVariant::kUnconditionalDelete;
  TtlWindowSweeper sweeper = Open(config);
  const int64_t now = ToEpochSeconds(backend_->clock().Now());
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(sweeper.PutItem("item" + std::to_string(i), now - 5).ok());
  }
  // The first chunk of 25 comes back with 7 unprocessed.
  backend_->LeaveUnprocessed(1, 7);
  auto report = sweeper.Sweep();
  ASSERT_TRUE(report.ok()) << ToString(report.error());
  EXPECT_EQ(report->found, 30);
  EXPECT_EQ(report->deleted, 30);
  EXPECT_EQ(report->batches, 3);  // 25 (7 unprocessed), the 7 again, 5
  EXPECT_EQ(report->retries, 1);
  EXPECT_EQ(report->waited, milliseconds(100));
  EXPECT_EQ(report->unprocessed_left, 0);
  EXPECT_EQ(*sweeper.Check(report->now), Problems());
  EXPECT_EQ(Count(sweeper), 0);
}

TEST_P(SweeperTest, UnconditionalDeleteGivesUpAfterMaxRetriesAndSaysSo) {
  SweeperConfig config;
  config.native_ttl = false;
  config.variant = SweeperVariant::kUnconditionalDelete;
  TtlWindowSweeper sweeper = Open(config);
  const int64_t now = ToEpochSeconds(backend_->clock().Now());
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(sweeper.PutItem("item" + std::to_string(i), now - 5).ok());
  }
  backend_->LeaveUnprocessed(1, 7, /*times=*/4);
  auto report = sweeper.Sweep();
  ASSERT_TRUE(report.ok()) << ToString(report.error());
  EXPECT_EQ(report->deleted, 3);
  EXPECT_EQ(report->retries, 3);
  EXPECT_EQ(report->waited, milliseconds(100 + 200 + 400));
  EXPECT_EQ(report->unprocessed_left, 7);
  EXPECT_EQ(sweeper.Check(report->now)->size(), 7u);
  // The next trigger still sees them (same or previous window).
  auto again = sweeper.Sweep();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->deleted, 7);
  EXPECT_EQ(Count(sweeper), 0);
}

TEST_P(SweeperTest, NoUnprocessedRetryLeavesThem) {
  SweeperConfig config;
  config.native_ttl = false;
  config.variant = SweeperVariant::kNoUnprocessedRetry;
  TtlWindowSweeper sweeper = Open(config);
  const int64_t now = ToEpochSeconds(backend_->clock().Now());
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(sweeper.PutItem("item" + std::to_string(i), now - 5).ok());
  }
  backend_->LeaveUnprocessed(1, 7);
  auto report = sweeper.Sweep();
  ASSERT_TRUE(report.ok()) << ToString(report.error());
  EXPECT_EQ(report->deleted, 23);
  EXPECT_EQ(report->retries, 0);
  EXPECT_EQ(report->unprocessed_left, 7);
  EXPECT_EQ(Count(sweeper), 7);
  EXPECT_EQ(sweeper.Check(report->now)->size(), 7u);
}

// Three expired items; the sweep runs one call per step, and session-2's ttl
// is extended by an hour once the Query has found it. Returns the steps'
// texts and the report.
std::pair<std::vector<std::string>, SweepReport> SweepWithExtension(
    TtlWindowSweeper& sweeper, Backend& backend) {
  const int64_t now = ToEpochSeconds(backend.clock().Now());
  for (int i = 1; i <= 3; ++i) {
    EXPECT_TRUE(sweeper.PutItem("session-" + std::to_string(i), now - 5).ok());
  }
  std::vector<std::string> steps;
  SweepRun run = sweeper.StartSweep();
  bool extended = false;
  while (!run.done() && steps.size() < 20) {
    auto step = sweeper.SweepStep(run);
    EXPECT_TRUE(step.ok()) << ToString(step.error());
    if (!step.ok()) break;
    steps.push_back(*step);
    if (!extended && run.report().found == 3) {
      EXPECT_TRUE(sweeper.PutItem("session-2", now + 3600).ok());
      extended = true;
    }
  }
  EXPECT_TRUE(extended);
  return {steps, run.report()};
}

TEST_P(SweeperTest, CorrectKeepsAnItemExtendedBetweenQueryAndDelete) {
  SweeperConfig config;
  config.native_ttl = false;
  TtlWindowSweeper sweeper = Open(config);
  auto [steps, report] = SweepWithExtension(sweeper, *backend_);
  EXPECT_EQ(report.found, 3);
  EXPECT_EQ(report.deleted, 2);
  EXPECT_EQ(report.kept, 1);
  // One DynamoDB call per step: the Query pages and one DeleteItem each.
  EXPECT_EQ(static_cast<int>(steps.size()),
            report.pages + report.delete_item_calls);
  EXPECT_EQ(report.delete_item_calls, 3);
  EXPECT_EQ(report.batches, 0);
  // The deletes among the Query pages of the two windows (in the order the
  // Query returned the items: DynamoDB Local orders the windows' pages
  // differently, so compared as a set).
  std::vector<std::string> deletes;
  for (const std::string& step : steps) {
    if (step.rfind("DeleteItem", 0) == 0) deletes.push_back(step);
  }
  std::sort(deletes.begin(), deletes.end());
  EXPECT_EQ(deletes, (std::vector<std::string>{
                         "DeleteItem session-1: deleted",
                         "DeleteItem session-2: kept (its ttl is no longer "
                         "before the sweep's now)",
                         "DeleteItem session-3: deleted"}));
  auto items = ScanAll(*backend_, sweeper.config().table);
  ASSERT_TRUE(items.ok());
  ASSERT_EQ(items->size(), 1u);
  EXPECT_EQ((*items)[0]["pk"]["S"], "session-2");
  EXPECT_EQ(*sweeper.Check(report.now), Problems());
}

TEST_P(SweeperTest, UnconditionalDeleteDeletesAnItemExtendedAfterTheQuery) {
  SweeperConfig config;
  config.native_ttl = false;
  config.variant = SweeperVariant::kUnconditionalDelete;
  TtlWindowSweeper sweeper = Open(config);
  auto [steps, report] = SweepWithExtension(sweeper, *backend_);
  EXPECT_EQ(report.found, 3);
  EXPECT_EQ(report.deleted, 3);
  EXPECT_EQ(report.kept, 0);
  EXPECT_EQ(report.batches, 1);
  EXPECT_EQ(report.delete_item_calls, 0);
  EXPECT_EQ(static_cast<int>(steps.size()), report.pages + report.batches);
  EXPECT_NE(std::find(steps.begin(), steps.end(),
                      "BatchWriteItem 3 deletes: 3 deleted"),
            steps.end());
  EXPECT_EQ(Count(sweeper), 0);  // session-2 too, though not expired
}

TEST(SweeperWindowTest, WindowsAreHalfOpenOnTheBoundary) {
  auto backend = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(backend.ok());
  auto sweeper = TtlWindowSweeper::Open(**backend, SweeperConfig());
  ASSERT_TRUE(sweeper.ok());
  // 1704067260 = 2024-01-01T00:01:00Z.
  EXPECT_EQ(sweeper->WindowOf(1704067260),
            "2024-01-01T00:01:00.000Z_2024-01-01T00:02:00.000Z");
  EXPECT_EQ(sweeper->WindowOf(1704067319),
            "2024-01-01T00:01:00.000Z_2024-01-01T00:02:00.000Z");
  EXPECT_EQ(sweeper->WindowOf(1704067259),
            "2024-01-01T00:00:00.000Z_2024-01-01T00:01:00.000Z");
  SweeperConfig config;
  config.window = std::chrono::minutes(15);
  config.frequency = std::chrono::minutes(5);
  auto quarter = TtlWindowSweeper::Open(**backend, config);
  ASSERT_TRUE(quarter.ok());
  EXPECT_EQ(quarter->WindowOf(1704067200 + 29 * 60),
            "2024-01-01T00:15:00.000Z_2024-01-01T00:30:00.000Z");
}

TEST(SweeperWindowTest, BadParametersAreRefused) {
  auto backend = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(backend.ok());
  SweeperConfig config;
  config.chunk = 26;
  EXPECT_EQ(TtlWindowSweeper::Open(**backend, config).error().message,
            "TTL window sweeper: chunk must be 1 to 25 (BatchWriteItem takes "
            "at most 25 requests), got 26");
  config = SweeperConfig();
  config.window = milliseconds(1500);
  EXPECT_EQ(TtlWindowSweeper::Open(**backend, config).error().message,
            "TTL window sweeper: window must be a positive whole number of "
            "seconds (default 1 minute)");
  config = SweeperConfig();
  config.frequency = Duration::zero();
  EXPECT_EQ(TtlWindowSweeper::Open(**backend, config).error().message,
            "TTL window sweeper: frequency must be a positive whole number of "
            "seconds (default 1 minute)");
  config = SweeperConfig();
  config.max_retries = -1;
  EXPECT_EQ(TtlWindowSweeper::Open(**backend, config).error().message,
            "TTL window sweeper: max_retries must be 0 to 10, got -1");
  config = SweeperConfig();
  config.projection = "INCLUDE";
  EXPECT_EQ(TtlWindowSweeper::Open(**backend, config).error().message,
            "TTL window sweeper: projection must be ALL or KEYS_ONLY, got "
            "\"INCLUDE\"");
  EXPECT_EQ(ParseSweeperVariant("no_pagination").value(),
            SweeperVariant::kNoPagination);
  EXPECT_FALSE(ParseSweeperVariant("x").ok());
}

INSTANTIATE_TEST_SUITE_P(Rows, SweeperTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness::patterns
