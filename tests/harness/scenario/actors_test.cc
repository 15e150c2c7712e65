// The pattern actors (harness/scenario/actors.h) retry what an SDK retries:
// each retry its own step, the same write again, up to max_attempts;
// params.sdk_retries false retries only a lost answer.
#include "harness/scenario/actors.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::Command;
using testing::Lines;
using testing::ReadFile;
using testing::TempDirFor;
using testing::WriteFile;

// Counter clients (`count` of them, three adds each) of `variant` under
// `rules`, with `params` (a JSON object's members, or "").
std::string Counter(const std::string& variant, int count,
                    const std::string& rules, const std::string& params = "",
                    const std::string& expect = "holds") {
  return R"({"name": "counter",
    "actors": [{"name": "client", "pattern": "idempotent_counter",
                "variant": ")" +
         variant + R"(", "count": )" + std::to_string(count) +
         R"(, "repeat": 3,
                "params": {)" +
         params + R"(},
                "ops": [{"add": {"counter": "c",
                                 "key": "client-{n}-{i}"}}]}],
    "faults": {"rules": [)" +
         rules + R"(]},
    "invariants": [{"check": "idempotent_counter"}],
    "expect": ")" +
         expect + R"("})";
}

// Throttles drawn with probability 0.5, at most twice a run: every
// increment gets through within an SDK's 3 attempts, so the correct
// counter holds on every seed. Before, the first throttle failed the
// increment ("... failed: ThrottlingException").
TEST(ActorRetries, ACorrectCounterUnderThrottlingHoldsOverSeeds) {
  const auto dir = TempDirFor("actor_retries_throttle");
  const std::string file = WriteFile(
      dir / "throttled.json",
      Counter("correct", 2,
              R"({"operation": "UpdateItem", "probability": 0.5, "times": 2,
                  "effect": "throttle"})"));
  testing::Ran ran = Command({file, "--explore", "20"});
  EXPECT_EQ(ran.code, 0) << ran.err;
  EXPECT_NE(ran.out.find(file + ": explored 20 seeds (1-20): 0 broke an "
                                "invariant, 20 held\n"),
            std::string::npos)
      << ran.out;
}

// The first UpdateItem throttled: step 1 is the failed attempt, step 2 the
// retry (same increment, its second attempt). With sdk_retries false the
// throttle ends the increment, and the invariant says it failed.
TEST(ActorRetries, TheRetryIsAStepOfItsOwnAndCanBeTurnedOff) {
  const auto dir = TempDirFor("actor_retries_step");
  const std::string rule =
      R"({"operation": "UpdateItem", "nth": [1], "effect": "throttle"})";
  const std::string file =
      WriteFile(dir / "once.json", Counter("correct", 1, rule));
  const std::string trace = (dir / "t.jsonl").string();
  testing::Ran ran = Command({file, "--seed", "1", "--trace", trace});
  EXPECT_EQ(ran.code, 0) << ran.err << ran.out;
  std::vector<std::string> steps;
  for (const std::string& line : Lines(ReadFile(trace))) {
    if (line.find("\"actor\":") != std::string::npos &&
        line.starts_with("{\"step\":")) {
      steps.push_back(line);
    }
  }
  ASSERT_EQ(steps.size(), 4u) << ReadFile(trace);
  EXPECT_EQ(steps[0],
            "{\"step\":1,\"t\":\"2024-01-01T00:00:00.000Z\",\"actor\":"
            "\"client#1\",\"op\":\"add c client-1-1 +1\",\"result\":\"error "
            "ThrottlingException: Throughput exceeds the current capacity of "
            "your table or index. DynamoDB is automatically scaling your "
            "table or index so please try again shortly. If exceptions "
            "persist, check if you have a hot key: "
            "https://docs.aws.amazon.com/amazondynamodb/latest/"
            "developerguide/bp-partition-key-design.html; retried later\"}");
  EXPECT_EQ(steps[1],
            "{\"step\":2,\"t\":\"2024-01-01T00:00:00.000Z\",\"actor\":"
            "\"client#1\",\"op\":\"add c client-1-1 +1 (attempt 2)\","
            "\"result\":\"applied\"}");
  const std::string off = WriteFile(
      dir / "off.json",
      Counter("correct", 1, rule, R"("sdk_retries": false)", "violated"));
  testing::Ran failed = Command({off, "--seed", "1"});
  EXPECT_EQ(failed.code, 0) << failed.err << failed.out;
  EXPECT_NE(failed.out.find("failed: error ThrottlingException"),
            std::string::npos)
      << failed.out;
}

// The naive counter (no idempotency key) under a lost answer: the retry,
// its own step, counts the increment again: still the race it shows.
TEST(ActorRetries, TheNaiveCounterStillDoubleCountsALostAnswer) {
  const auto dir = TempDirFor("actor_retries_lost");
  const std::string file = WriteFile(
      dir / "lost.json", Counter("no_idempotency_key", 1,
                                 R"({"operation": "UpdateItem", "nth": [1],
                  "effect": "lost_response"})",
                                 "", "violated"));
  testing::Ran ran = Command({file, "--seed", "1"});
  EXPECT_EQ(ran.code, 0) << ran.err << ran.out;
  EXPECT_NE(ran.out.find("expect violated: met"), std::string::npos) << ran.out;
}

}  // namespace
}  // namespace ddblab::harness::scenario
