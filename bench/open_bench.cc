// bench/open_bench.cc: the embedded Emulator's constructor,
// Emulator::Open with default options (an in-memory database, the system
// clock), then its destructor, timed apart: what a test pays for a fresh
// database of its own. Figures: bench/README.md "## open_bench".
#include <benchmark/benchmark.h>

#include <memory>
#include <utility>

#include "emulator/api/emulator.h"

namespace {

// Open only: each emulator is destroyed with the timer paused.
void BM_Open(benchmark::State& state) {
  for (auto _ : state) {
    auto emulator = ddblab::Emulator::Open(ddblab::Options{});
    if (!emulator.ok()) {
      state.SkipWithError(emulator.error().message.c_str());
      return;
    }
    std::unique_ptr<ddblab::Emulator> owned = std::move(*emulator);
    state.PauseTiming();
    owned.reset();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_Open)->Unit(benchmark::kMicrosecond);

// Open, then close (the destructor stops the background threads).
void BM_OpenClose(benchmark::State& state) {
  for (auto _ : state) {
    auto emulator = ddblab::Emulator::Open(ddblab::Options{});
    if (!emulator.ok()) {
      state.SkipWithError(emulator.error().message.c_str());
      return;
    }
  }
}
BENCHMARK(BM_OpenClose)->Unit(benchmark::kMicrosecond);

// Open, then a first CreateTable and PutItem: a fresh database in use.
void BM_OpenFirstWrite(benchmark::State& state) {
  const nlohmann::json create = nlohmann::json::parse(R"({
      "TableName": "fresh",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST"})");
  const nlohmann::json put = nlohmann::json::parse(
      R"({"TableName": "fresh", "Item": {"pk": {"S": "a"}}})");
  for (auto _ : state) {
    auto emulator = ddblab::Emulator::Open(ddblab::Options{});
    if (!emulator.ok()) {
      state.SkipWithError(emulator.error().message.c_str());
      return;
    }
    auto created = (*emulator)->Call("CreateTable", create);
    auto written = (*emulator)->Call("PutItem", put);
    if (!created.ok() || !written.ok()) {
      state.SkipWithError(
          (created.ok() ? written : created).error().message.c_str());
      return;
    }
  }
}
BENCHMARK(BM_OpenFirstWrite)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
