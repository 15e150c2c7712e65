// bench/streams_bench.cc: what a DynamoDB stream costs the write path, and
// how fast GetRecords reads it back.
//
//   BM_PutItem/<stream>/<file>   PutItem overwriting one of 10,000 ~200-byte
//       items (a MODIFY) with stream 0 = off, 1 = NEW_AND_OLD_IMAGES (both
//       images stored), 2 = KEYS_ONLY; file 0 = ":memory:", 1 = a WAL file
//       under /tmp.
//   BM_GetRecords/<file>         GetRecords with Limit 1000 over a 100,000
//       record shard (restarting at TRIM_HORIZON when it runs out);
//       items/s = records/s.
//
//   build-streams/bench/streams_bench --benchmark_min_time=2s
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/bench_items.h"
#include "emulator/api/emulator.h"

namespace {

using Json = nlohmann::json;
using ddblab::bench::DbPath;
using ddblab::bench::Key;
using ddblab::bench::RemoveDb;

constexpr int kItems = 10000;
constexpr int kRecords = 100000;

// The engine_bench item with a `version` (instead of its score) that makes
// every write a change.
Json MakeItem(const std::string& key, int64_t version) {
  Json item = ddblab::bench::MakeItem(key);
  item.erase("score");
  item["version"] = {{"N", std::to_string(version)}};
  return item;
}

std::unique_ptr<ddblab::Emulator> Open(const std::string& path,
                                       const char* view) {
  ddblab::Options options;
  options.db_path = path;
  options.clock = std::make_shared<ddblab::ManualClock>();
  options.seed = 1;
  auto emu = ddblab::Emulator::Open(options);
  if (!emu.ok()) return nullptr;
  Json req{{"TableName", "bench"},
           {"BillingMode", "PAY_PER_REQUEST"},
           {"AttributeDefinitions",
            {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
           {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
  if (view != nullptr) {
    req["StreamSpecification"] = {{"StreamEnabled", true},
                                  {"StreamViewType", view}};
  }
  if (!(*emu)->Call("CreateTable", req).ok()) return nullptr;
  return std::move(emu).value();
}

void BM_PutItem(benchmark::State& state) {
  const char* views[] = {nullptr, "NEW_AND_OLD_IMAGES", "KEYS_ONLY"};
  std::string path = DbPath(state.range(1), "put");
  {
    auto emu = Open(path, views[state.range(0)]);
    if (!emu) {
      state.SkipWithError("cannot open the emulator");
      return;
    }
    std::vector<Json> requests;
    for (int i = 0; i < kItems; ++i) {
      requests.push_back(
          {{"TableName", "bench"}, {"Item", MakeItem(Key(i), 0)}});
      (void)emu->Call("PutItem", requests.back());
    }
    int64_t n = 0;
    for (auto _ : state) {
      Json& req = requests[static_cast<size_t>(n % kItems)];
      req["Item"]["version"]["N"] = std::to_string(++n);
      auto r = emu->Call("PutItem", req);
      if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_PutItem)
    ->ArgNames({"stream", "file"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({2, 1});

void BM_GetRecords(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "get");
  {
    auto emu = Open(path, "NEW_AND_OLD_IMAGES");

    if (!emu) {
      state.SkipWithError("cannot open the emulator");
      return;
    }
    for (int i = 0; i < kRecords; ++i) {
      (void)emu->Call("PutItem", {{"TableName", "bench"},
                                  {"Item", MakeItem(Key(i % kItems), i)}});
    }
    std::string arn = (*emu->Call(
        "DescribeTable", {{"TableName", "bench"}}))["Table"]["LatestStreamArn"];
    auto desc = emu->CallStreams("DescribeStream", {{"StreamArn", arn}});
    std::string shard = (*desc)["StreamDescription"]["Shards"][0]["ShardId"];
    Json horizon{{"StreamArn", arn},
                 {"ShardId", shard},
                 {"ShardIteratorType", "TRIM_HORIZON"}};
    std::string it =
        (*emu->CallStreams("GetShardIterator", horizon))["ShardIterator"];
    int64_t records = 0;
    for (auto _ : state) {
      auto r = emu->CallStreams("GetRecords",
                                {{"ShardIterator", it}, {"Limit", 1000}});
      if (!r.ok()) {
        state.SkipWithError(r.error().message.c_str());
        break;
      }
      size_t n = (*r)["Records"].size();
      records += static_cast<int64_t>(n);
      if (n == 0) {
        it = (*emu->CallStreams("GetShardIterator", horizon))["ShardIterator"];
      } else {
        it = (*r)["NextShardIterator"];
      }
    }
    state.SetItemsProcessed(records);
  }
  RemoveDb(path);
}
BENCHMARK(BM_GetRecords)
    ->ArgName("file")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
