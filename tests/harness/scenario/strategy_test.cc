// The scheduling strategies (harness/scenario/strategy.h): what --strategy
// accepts, random as the runner always drew, pct's priorities and change
// points, and a pct run reproduced by its seed and name.
#include "harness/scenario/strategy.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "emulator/api/random.h"
#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"
#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

TEST(Strategy, ParsesWhatTheFlagTakes) {
  EXPECT_EQ(ParseStrategy("random")->Text(), "random");
  EXPECT_EQ(ParseStrategy("pct")->Text(), "pct:3");
  EXPECT_EQ(ParseStrategy("pct:1")->Text(), "pct:1");
  EXPECT_EQ(ParseStrategy("pct:10")->Text(), "pct:10");
  EXPECT_EQ(ParseStrategy("exhaustive")->Text(), "exhaustive");
  for (const char* bad : {"", "pct:", "pct:0", "pct:11", "pct:2x", "PCT",
                          "exhaustive:2", "pct:-1"}) {
    Result<StrategySpec> spec = ParseStrategy(bad);
    ASSERT_FALSE(spec.ok()) << bad;
    EXPECT_EQ(spec.error().message,
              std::string("expected random, pct, pct:D with D from 1 to "
                          "10 or exhaustive, got ") +
                  bad);
  }
}

// Random picks exactly as the runner always did, so old seeds give old runs.
TEST(Strategy, RandomDrawsAsTheRunnerAlwaysDid) {
  auto scheduler = MakeScheduler(StrategySpec(), 42, 3, 0);
  Rng rng = Rng(42).Fork("schedule");
  const std::vector<size_t> ready = {0, 1, 2};
  for (int step = 1; step <= 50; ++step) {
    EXPECT_EQ(scheduler->Pick(ready, step), ready[rng.Uniform(3)]);
  }
}

std::vector<size_t> Picks(const StrategySpec& spec, uint64_t seed,
                          size_t actors, int steps) {
  auto scheduler = MakeScheduler(spec, seed, actors, steps);
  std::vector<size_t> ready;
  for (size_t i = 0; i < actors; ++i) ready.push_back(i);
  std::vector<size_t> out;
  for (int step = 1; step <= steps; ++step) {
    out.push_back(scheduler->Pick(ready, step));
  }
  return out;
}

// Depth 1: no change point, so the highest-priority actor runs while it is
// ready; which actor that is depends on the seed.
TEST(Strategy, PctOfDepthOneRunsOneActorWhileItIsReady) {
  StrategySpec spec = *ParseStrategy("pct:1");
  std::set<size_t> firsts;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    std::vector<size_t> picks = Picks(spec, seed, 3, 10);
    EXPECT_EQ(std::set<size_t>(picks.begin(), picks.end()).size(), 1u);
    firsts.insert(picks.front());
  }
  EXPECT_EQ(firsts, (std::set<size_t>{0, 1, 2}));
  // An actor that is not ready is skipped for the next highest.
  auto scheduler = MakeScheduler(spec, 0, 3, 10);
  const size_t top = scheduler->Pick({0, 1, 2}, 1);
  std::vector<size_t> others;
  for (size_t i = 0; i < 3; ++i) {
    if (i != top) others.push_back(i);
  }
  const size_t second = scheduler->Pick(others, 2);
  EXPECT_NE(second, top);
  EXPECT_EQ(scheduler->Pick(others, 3), second);
  EXPECT_EQ(scheduler->Pick({0, 1, 2}, 4), top);
}

// Depth 2: one change point; the run switches actor exactly once (two
// actors always ready), at a step that depends on the seed.
TEST(Strategy, PctOfDepthTwoPreemptsOnceAtASeededStep) {
  StrategySpec spec = *ParseStrategy("pct:2");
  std::set<int> switch_steps;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    std::vector<size_t> picks = Picks(spec, seed, 2, 8);
    int switches = 0;
    for (size_t i = 1; i < picks.size(); ++i) {
      if (picks[i] != picks[i - 1]) {
        ++switches;
        switch_steps.insert(static_cast<int>(i) + 1);
      }
    }
    // A change point at step 1 lowers the first actor before it moves:
    // then the other one runs throughout.
    EXPECT_LE(switches, 1) << seed;
  }
  EXPECT_EQ(switch_steps, (std::set<int>{2, 3, 4, 5, 6, 7, 8}));
}

TEST(Strategy, TheSameSeedGivesTheSamePicks) {
  StrategySpec spec = *ParseStrategy("pct:3");
  EXPECT_EQ(Picks(spec, 7, 4, 30), Picks(spec, 7, 4, 30));
  EXPECT_NE(Picks(spec, 7, 4, 30), Picks(spec, 8, 4, 30));
}

// A pct run of a shipped file: its start line names the strategy, and the
// same seed and strategy give a byte-identical trace.
TEST(Strategy, APctRunIsReproducedBySeedAndName) {
  auto scenario = ParseScenario(testing::ReadFile(testing::Shipped(
                                    "ordered_writes_sdk_retry_naive.json")),
                                "f.json");
  ASSERT_TRUE(scenario.ok()) << scenario.error().message;
  RunOptions options;
  options.seed = 5;
  options.strategy = *ParseStrategy("pct:2");
  RunResult a = RunOnce(*scenario, options);
  RunResult b = RunOnce(*scenario, options);
  ASSERT_EQ(a.code, 0) << a.failure;
  ASSERT_FALSE(a.trace.empty());
  EXPECT_EQ(a.trace, b.trace);
  EXPECT_EQ(nlohmann::json::parse(a.trace.front())["strategy"], "pct:2");
  // The probe the run measured itself by is the one --explore makes once.
  RunResult probe = ProbeRun(*scenario, options);
  ASSERT_EQ(probe.code, 0) << probe.failure;
  options.expected_steps = static_cast<int>(probe.steps.size());
  EXPECT_EQ(RunOnce(*scenario, options).trace, a.trace);
}

}  // namespace
}  // namespace ddblab::harness::scenario
