// bench/capacity_bench.cc: what capacity enforcement costs an in-process
// PutItem (":memory:", overwriting one of 10,000 ~200-byte items, a
// PROVISIONED table of 40,000 units with one GSI-free key schema):
// Options.capacity off (the seam's one null check) against enforce (the
// per-call context, the table bucket and the partition window). The
// ManualClock moves 100 µs per call in both, so nothing is ever throttled.
//
//   ./build/bench/capacity_bench --benchmark_min_time=1
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//   (one line)
//
// Thread-safety: single-threaded benchmarks.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/bench_items.h"
#include "emulator/api/emulator.h"

namespace {

using Json = nlohmann::json;
using ddblab::bench::Key;
using ddblab::bench::MakeItem;
using ddblab::bench::Must;

constexpr int kItems = 10000;

// 0: Options.capacity = kOff; 1: kEnforce.
void BM_PutItem(benchmark::State& state) {
  auto clock = std::make_shared<ddblab::ManualClock>();
  ddblab::Options options;
  options.clock = clock;
  options.capacity =
      state.range(0) == 1 ? ddblab::Capacity::kEnforce : ddblab::Capacity::kOff;
  auto emu = Must(ddblab::Emulator::Open(options));
  Must(emu->Call(
      "CreateTable",
      {{"TableName", "bench"},
       {"ProvisionedThroughput",
        {{"ReadCapacityUnits", 40000}, {"WriteCapacityUnits", 40000}}},
       {"AttributeDefinitions",
        Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}}})},
       {"KeySchema",
        Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})}}));
  for (int i = 0; i < kItems; ++i) {
    Must(emu->Call("PutItem",
                   {{"TableName", "bench"}, {"Item", MakeItem(Key(i))}}));
  }
  std::vector<Json> puts;
  puts.reserve(kItems);
  for (int i = 0; i < kItems; ++i) {
    puts.push_back({{"TableName", "bench"}, {"Item", MakeItem(Key(i))}});
  }
  int64_t n = 0;
  int64_t failed = 0;
  for (auto _ : state) {
    clock->Advance(std::chrono::microseconds(100));
    auto r = emu->Call("PutItem", puts[static_cast<size_t>(n++ % kItems)]);
    failed += r.ok() ? 0 : 1;
    benchmark::DoNotOptimize(r);
  }
  if (failed > 0) state.SkipWithError("a PutItem failed (throttled?)");
}
BENCHMARK(BM_PutItem)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
