// bench/scenario_bench.cc: explore speed of `ddblab run` — one seed of a
// 100-step scenario per iteration on the in-process backend (a fresh
// emulator, table setup, 100 scheduled steps with their calls and trace
// lines with Arg 1, the final invariant check). items_per_second is seeds
// (or, for exhaustive, schedules) per second, for each strategy.
// Figures and the command are in bench/README.md.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "harness/scenario/exhaustive.h"
#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {
namespace {

// Two clients, 50 increments each, one UpdateItem in five losing its answer.
constexpr const char* kCounter = R"({
  "name": "bench-counter",
  "actors": [{"name": "client", "pattern": "idempotent_counter",
              "variant": "correct", "count": 2, "repeat": 50,
              "ops": [{"add": {"counter": "clicks", "key": "c{n}-{i}"}}]}],
  "faults": {"rules": [{"operation": "UpdateItem", "probability": 0.2,
                        "effect": "lost_response"}]},
  "invariants": [{"check": "idempotent_counter"}],
  "expect": "holds"
})";

// Two writers, 50 puts each on one item, a third of them losing the answer.
constexpr const char* kOrdered = R"({
  "name": "bench-ordered",
  "backend": {"tick": "1s"},
  "actors": [{"name": "writer", "pattern": "ordered_writes",
              "variant": "correct", "count": 2, "repeat": 50,
              "ops": [{"put": {"pk": "doc", "sk": "a"}}]}],
  "faults": {"rules": [{"operation": "PutItem", "probability": 0.3,
                        "effect": "lost_response"}]},
  "invariants": [{"check": "ordered_writes"}],
  "expect": "holds"
})";

void ExploreSeeds(benchmark::State& state, const char* text,
                  const char* strategy = "random") {
  auto scenario = ParseScenario(text, "bench.json");
  auto spec = ParseStrategy(strategy);
  if (!scenario.ok() || !spec.ok()) {
    state.SkipWithError("bad scenario or strategy");
    return;
  }
  RunOptions options;
  options.trace = state.range(0) != 0;
  options.strategy = *spec;
  if (spec->kind == StrategySpec::Kind::kPct) {
    // As --explore does: one probe run measures the steps for every seed.
    options.expected_steps =
        static_cast<int>(ProbeRun(*scenario, options).steps.size());
  }
  uint64_t seed = 1;
  size_t steps = 0;
  for (auto _ : state) {
    options.seed = seed++;
    RunResult run = RunOnce(*scenario, options);
    if (run.code != 0 || run.violation) {
      state.SkipWithError("the run failed or broke its invariant");
      return;
    }
    steps += run.steps.size();
    benchmark::DoNotOptimize(run.trace.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["steps_per_seed"] = benchmark::Counter(
      static_cast<double>(steps) / static_cast<double>(state.iterations()));
}

void BM_ExploreCounter100Steps(benchmark::State& state) {
  ExploreSeeds(state, kCounter);
}
// Arg 0: as --explore runs a seed (no trace); 1: with the JSONL trace.
BENCHMARK(BM_ExploreCounter100Steps)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

void BM_ExploreOrderedWrites100Steps(benchmark::State& state) {
  ExploreSeeds(state, kOrdered);
}
BENCHMARK(BM_ExploreOrderedWrites100Steps)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

// pct:3 (how --explore runs it by default: no trace).
void BM_ExploreCounter100StepsPct3(benchmark::State& state) {
  ExploreSeeds(state, kCounter, "pct:3");
}
BENCHMARK(BM_ExploreCounter100StepsPct3)->Arg(0)->Unit(benchmark::kMillisecond);

void BM_ExploreOrderedWrites100StepsPct3(benchmark::State& state) {
  ExploreSeeds(state, kOrdered, "pct:3");
}
BENCHMARK(BM_ExploreOrderedWrites100StepsPct3)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);

// exhaustive: one iteration explores `budget` (Arg) schedules of seed 1
// within the default preemption bound, as --strategy exhaustive --budget N
// does; items_per_second is runs (schedules and stopped ones) per second.
void ExploreExhaustively(benchmark::State& state, const char* text) {
  auto scenario = ParseScenario(text, "bench.json");
  auto spec = ParseStrategy("exhaustive");
  if (!scenario.ok() || !spec.ok()) {
    state.SkipWithError("bad scenario");
    return;
  }
  RunOptions options;
  options.trace = false;
  options.strategy = *spec;
  ExhaustiveLimits limits;
  limits.budget = state.range(0);
  int64_t runs = 0;
  int64_t schedules = 0;
  for (auto _ : state) {
    ExhaustiveResult result = ExploreExhaustive(*scenario, options, limits);
    if (result.code != 0) {
      state.SkipWithError("a schedule failed or broke its invariant");
      return;
    }
    runs += result.runs;
    schedules += result.schedules;
  }
  state.SetItemsProcessed(runs);
  state.counters["schedules_per_iteration"] = benchmark::Counter(
      static_cast<double>(schedules) / static_cast<double>(state.iterations()));
}

void BM_ExhaustiveCounter100Steps(benchmark::State& state) {
  ExploreExhaustively(state, kCounter);
}
BENCHMARK(BM_ExhaustiveCounter100Steps)->Arg(20)->Unit(benchmark::kMillisecond);

void BM_ExhaustiveOrderedWrites100Steps(benchmark::State& state) {
  ExploreExhaustively(state, kOrdered);
}
BENCHMARK(BM_ExhaustiveOrderedWrites100Steps)
    ->Arg(20)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ddblab::harness::scenario

BENCHMARK_MAIN();
