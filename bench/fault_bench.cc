// bench/fault_bench.cc: what the fault seam costs an in-process GetItem
// (":memory:", 10,000 items): no plan at all, an empty plan set through
// SetFaultPlan (the seam's one atomic load), and a one-rule plan that
// matches no GetItem (every call is described and matched, nothing fires).
//
//   ./build/bench/fault_bench --benchmark_min_time=2 --benchmark_repetitions=5
//
// Thread-safety: single-threaded benchmarks.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/bench_items.h"
#include "emulator/api/emulator.h"

namespace {

using Json = nlohmann::json;
using ddblab::bench::Key;
using ddblab::bench::MakeItem;
using ddblab::bench::Must;

constexpr int kItems = 10000;

std::unique_ptr<ddblab::Emulator> OpenWithItems() {
  ddblab::Options options;
  options.clock = std::make_shared<ddblab::ManualClock>();
  auto emu = Must(ddblab::Emulator::Open(options));
  Must(emu->Call(
      "CreateTable",
      {{"TableName", "bench"},
       {"BillingMode", "PAY_PER_REQUEST"},
       {"AttributeDefinitions",
        Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}}})},
       {"KeySchema",
        Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})}}));
  for (int i = 0; i < kItems; ++i) {
    Must(emu->Call("PutItem",
                   {{"TableName", "bench"}, {"Item", MakeItem(Key(i))}}));
  }
  return emu;
}

// 0: no plan; 1: SetFaultPlan({"rules": []}); 2: one rule, never matching.
void BM_GetItem(benchmark::State& state) {
  auto emu = OpenWithItems();
  if (state.range(0) == 1) {
    if (!emu->SetFaultPlan(Json{{"rules", Json::array()}}).ok()) std::abort();
  } else if (state.range(0) == 2) {
    if (!emu->SetFaultPlan(Json::parse(R"({"rules": [{"operation":
            "DeleteItem", "table": "other", "effect": "throttle"}]})"))
             .ok()) {
      std::abort();
    }
  }
  Json get{{"TableName", "bench"}, {"Key", {{"pk", {{"S", Key(0)}}}}}};
  Json& key = get["Key"]["pk"]["S"];
  int64_t n = 0;
  for (auto _ : state) {
    key = Key(n++ % kItems);
    benchmark::DoNotOptimize(emu->Call("GetItem", get));
  }
}
BENCHMARK(BM_GetItem)->Arg(0)->Arg(1)->Arg(2);

}  // namespace

BENCHMARK_MAIN();
