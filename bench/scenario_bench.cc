// bench/scenario_bench.cc: explore speed of `ddblab run` — one seed of a
// 100-step scenario per iteration on the in-process backend (a fresh
// emulator, table setup, 100 scheduled steps with their calls and trace
// lines with Arg 1, the final invariant check). items_per_second is seeds
// per second.
// Figures and the command are in bench/README.md.
#include <benchmark/benchmark.h>

#include <cstdlib>

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

void ExploreSeeds(benchmark::State& state, const char* text) {
  auto scenario = ParseScenario(text, "bench.json");
  if (!scenario.ok()) {
    state.SkipWithError(scenario.error().message.c_str());
    return;
  }
  RunOptions options;
  options.trace = state.range(0) != 0;
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

}  // namespace
}  // namespace ddblab::harness::scenario

BENCHMARK_MAIN();
