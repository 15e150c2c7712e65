// The idempotent counter on every pattern row: the correct variant counts
// each logical increment once (also when a response is lost and the
// increment is retried) and keeps its history to the window; each naive
// variant fails the way DynamoDB makes it fail.
#include "harness/patterns/idempotent_counter.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "emulator/api/emulator.h"
#include "emulator/api/lag.h"
#include "emulator/api/options.h"
#include "harness/backend/inprocess_backend.h"
#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using testing::TestBackend;

class CounterTest : public testing::PatternTest {
 protected:
  // A counter of `variant` on a table named after the test.
  IdempotentCounter Open(CounterVariant variant) {
    CounterConfig config;
    config.table = TableName("counter");
    config.variant = variant;
    auto counter = IdempotentCounter::Open(*backend_, config);
    EXPECT_TRUE(counter.ok()) << ToString(counter.error());
    EXPECT_TRUE(counter->Setup().ok());
    return *counter;
  }

  Increment Inc(std::string key, int64_t amount = 1) {
    return Increment{"clicks", std::move(key), amount, backend_->clock().Now()};
  }

  json Item(const IdempotentCounter& counter) {
    auto out = backend_->Call("GetItem", {{"TableName", counter.config().table},
                                          {"Key", {{"pk", S("clicks")}}},
                                          {"ConsistentRead", true}});
    EXPECT_TRUE(out.ok());
    return out.ok() ? out->value("Item", json()) : json();
  }
};

TEST_P(CounterTest, CorrectCountsEachIncrementOnce) {
  IdempotentCounter counter = Open(CounterVariant::kCorrect);
  Increment a = Inc("req-a", 2), b = Inc("req-b", 3), c = Inc("req-c", 5);
  EXPECT_EQ(*counter.Add(a), IncrementOutcome::kApplied);
  EXPECT_EQ(*counter.Add(b), IncrementOutcome::kApplied);
  // A client retrying b (it did not see the answer) is not counted again.
  EXPECT_EQ(*counter.Add(b), IncrementOutcome::kDuplicate);
  EXPECT_EQ(*counter.Add(c), IncrementOutcome::kApplied);
  EXPECT_EQ(*counter.Read("clicks"), 10);
  EXPECT_EQ(*counter.Check("clicks", 10), Problems());
  json item = Item(counter);
  ASSERT_EQ(item["history"]["L"].size(), 3u);
  EXPECT_EQ(item["history"]["L"][1], S(HistoryEntry(b)));
}

TEST_P(CounterTest, CorrectIsExactWhenAResponseIsLost) {
  IdempotentCounter counter = Open(CounterVariant::kCorrect);
  ASSERT_EQ(*counter.Add(Inc("req-1")), IncrementOutcome::kApplied);
  // The second increment is applied but its answer is lost; the counter
  // retries and finds its key in the history.
  backend_->LoseResponse("UpdateItem", 1);
  int before = backend_->calls("UpdateItem");
  EXPECT_EQ(*counter.Add(Inc("req-2")), IncrementOutcome::kDuplicate);
  EXPECT_EQ(backend_->calls("UpdateItem") - before, 2);
  EXPECT_EQ(*counter.Check("clicks", 2), Problems());
}

TEST_P(CounterTest, NoIdempotencyKeyCountsALostResponseTwice) {
  IdempotentCounter counter = Open(CounterVariant::kNoIdempotencyKey);
  ASSERT_EQ(*counter.Add(Inc("req-1")), IncrementOutcome::kApplied);
  backend_->LoseResponse("UpdateItem", 1);
  EXPECT_EQ(*counter.Add(Inc("req-2")), IncrementOutcome::kApplied);
  EXPECT_EQ(*counter.Read("clicks"), 3);
  EXPECT_EQ(*counter.Check("clicks", 2),
            Problems{"counter clicks is 3, expected 2 (overcounted by 1)"});
}

TEST_P(CounterTest, CorrectTrimsTheHistoryToTheWindow) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control";
  IdempotentCounter counter = Open(CounterVariant::kCorrect);
  Increment first = Inc("req-0");
  ASSERT_EQ(*counter.Add(first), IncrementOutcome::kApplied);
  for (int i = 1; i <= 9; ++i) {
    ASSERT_TRUE(backend_->AdvanceClock(minutes(1)).ok());
    ASSERT_EQ(*counter.Add(Inc("req-" + std::to_string(i))),
              IncrementOutcome::kApplied);
  }
  // At minute 9 the window (5 minutes) holds the increments of minutes
  // 4..9: the entries of minutes 0..3 were trimmed.
  json history = Item(counter)["history"]["L"];
  ASSERT_EQ(history.size(), 6u) << history.dump();
  EXPECT_EQ(history[0]["S"].get<std::string>().substr(14), "req-4");
  EXPECT_EQ(*counter.Check("clicks", 10), Problems());
  // The window's promise and its limit: a retry of an increment issued
  // within the window is recognised; a retry of the first one, issued
  // 9 minutes ago, is counted again.
  Increment recent = Inc("req-9");
  json seen = Item(counter)["history"]["L"][5];
  EXPECT_EQ(seen, S(HistoryEntry(recent)));
  EXPECT_EQ(*counter.Add(recent), IncrementOutcome::kDuplicate);
  EXPECT_EQ(*counter.Add(first), IncrementOutcome::kApplied);
  EXPECT_EQ(*counter.Read("clicks"), 11);
}

TEST_P(CounterTest, PublishedSlidingWindowIsASyntaxError) {
  IdempotentCounter counter = Open(CounterVariant::kPublishedSlidingWindow);
  auto out = counter.Add(Inc("req-1"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kValidation);
  EXPECT_EQ(out.error().message,
            "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", "
            "near: \"]\"");
  EXPECT_TRUE(Item(counter).is_null());
}

TEST_P(CounterTest, RemoveRepairOverlapsTheAppend) {
  IdempotentCounter counter = Open(CounterVariant::kRemoveRepair);
  auto out = counter.Add(Inc("req-1"));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kValidation);
  EXPECT_EQ(out.error().message,
            "Invalid UpdateExpression: Two document paths overlap with each "
            "other; must remove or rewrite one of these paths; path one: "
            "[history], path two: [history, [0]]");
  EXPECT_TRUE(Item(counter).is_null());
}

TEST_P(CounterTest, UnboundedHistoryReachesTheItemSizeLimit) {
  IdempotentCounter counter = Open(CounterVariant::kUnboundedHistory);
  // 10,000-byte idempotency keys: ~40 increments fill 400 KB (the next test
  // shows the correct variant keeping 6 of them at one a minute).
  const std::string pad(9990, 'k');
  int applied = 0;
  Result<IncrementOutcome> out = IncrementOutcome::kApplied;
  while (applied < 100) {
    out = counter.Add(Inc(pad + std::to_string(1000000 + applied)));
    if (!out.ok()) break;
    ++applied;
  }
  ASSERT_FALSE(out.ok()) << "no error after " << applied << " increments";
  EXPECT_GE(applied, 38);
  EXPECT_LE(applied, 40);
  EXPECT_EQ(out.error().type, ErrorType::kValidation);
  EXPECT_EQ(out.error().message,
            "Item size to update has exceeded the maximum allowed size");
  EXPECT_EQ(*counter.Check("clicks", applied), Problems());
}

TEST_P(CounterTest, CorrectStaysSmallUnderTheSameLoad) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control";
  IdempotentCounter counter = Open(CounterVariant::kCorrect);
  const std::string pad(990, 'k');
  for (int i = 0; i < 450; ++i) {
    ASSERT_EQ(*counter.Add(Inc(pad + std::to_string(1000000 + i))),
              IncrementOutcome::kApplied)
        << i;
    ASSERT_TRUE(backend_->AdvanceClock(minutes(1)).ok());
  }
  EXPECT_EQ(Item(counter)["history"]["L"].size(), 6u);
  EXPECT_EQ(*counter.Check("clicks", 450), Problems());
}

TEST(CounterConfigTest, BadParametersAreRefused) {
  auto backend = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(backend.ok());
  CounterConfig config;
  config.window = Duration::zero();
  auto out = IdempotentCounter::Open(**backend, config);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message,
            "idempotent counter: window must be positive (default 5 minutes)");
  config = CounterConfig();
  config.max_attempts = 0;
  EXPECT_EQ(IdempotentCounter::Open(**backend, config).error().message,
            "idempotent counter: max_attempts must be at least 1, got 0");
  config = CounterConfig();
  config.table = "ab";
  EXPECT_EQ(IdempotentCounter::Open(**backend, config).error().message,
            "idempotent counter: table name must be 3 to 255 characters of "
            "a-z, A-Z, 0-9, '_', '-' and '.', got \"ab\"");
  auto counter = IdempotentCounter::Open(**backend, CounterConfig());
  ASSERT_TRUE(counter.ok());
  EXPECT_EQ(counter->Add(Increment{"c", "", 1, {}}).error().message,
            "idempotent counter: the increment's idempotency key must not be "
            "empty");
  EXPECT_EQ(ParseCounterVariant("remove_repair").value(),
            CounterVariant::kRemoveRepair);
  EXPECT_EQ(ParseCounterVariant("nope").error().message,
            "unknown idempotent counter variant \"nope\" (correct, "
            "no_idempotency_key, unbounded_history, published_sliding_window, "
            "remove_repair, stale_read_modify_write, "
            "consistent_read_modify_write)");
}

INSTANTIATE_TEST_SUITE_P(Rows, CounterTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness::patterns

namespace ddblab::harness::patterns {
namespace {

// The read-modify-write variants on an emulator whose eventually consistent
// reads lag 3 s (ManualClock; each increment moves it 1 s).
class CounterReadLagTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    clock_ = std::make_shared<ManualClock>();
    options.clock = clock_;
    options.consistency.read_lag = *ParseLagRange("3s");
    auto emulator = Emulator::Open(std::move(options));
    ASSERT_TRUE(emulator.ok()) << ToString(emulator.error());
    emulator_ = std::move(*emulator);
    backend_ = std::make_unique<testing::TestBackend>(
        BorrowEmulator(*emulator_), nullptr);
  }

  // Ten increments of one client, one second apart; the counter's problems.
  Problems CountTen(CounterVariant variant) {
    CounterConfig config;
    config.variant = variant;
    auto counter = IdempotentCounter::Open(*backend_, config);
    EXPECT_TRUE(counter.ok());
    EXPECT_TRUE(counter->Setup().ok());
    for (int i = 0; i < 10; ++i) {
      auto added = counter->Add(
          Increment{"clicks", "click-" + std::to_string(i), 1, clock_->Now()});
      EXPECT_TRUE(added.ok()) << ToString(added.error());
      clock_->Advance(std::chrono::seconds(1));
    }
    return *counter->Check("clicks", 10);
  }

  std::shared_ptr<ManualClock> clock_;
  std::unique_ptr<Emulator> emulator_;
  std::unique_ptr<testing::TestBackend> backend_;
};

TEST_F(CounterReadLagTest, AStaleReadLosesUpdatesWithASingleClient) {
  // Each read sees the counter of 3 s ago: the last two increments are
  // missing from it, so the puts only ever move it one step past that.
  EXPECT_EQ(CountTen(CounterVariant::kStaleReadModifyWrite),
            Problems{"counter clicks is 4, expected 10 (undercounted by 6)"});
}

TEST_F(CounterReadLagTest, AConsistentReadAndAConditionCountEveryIncrement) {
  EXPECT_EQ(CountTen(CounterVariant::kConsistentReadModifyWrite), Problems());
}

}  // namespace
}  // namespace ddblab::harness::patterns
