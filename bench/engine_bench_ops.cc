// bench/engine_bench_ops.cc: in-process Query, BatchWriteItem, UpdateItem
// (ADD on hot keys) and conditional PutItem, each next to a raw-SQLite
// reference doing the same row work on an equivalent table
// (engine_bench_raw.h):
//
//   Query 10 of 100 items in a partition  <->  a 10-row range SELECT
//   BatchWriteItem of 25 puts             <->  25 INSERTs in one transaction
//   UpdateItem ADD on one of 10 hot keys  <->  SELECT + UPDATE of the row in
//                                              one transaction
//   PutItem attribute_not_exists(pk)      <->  INSERT ... ON CONFLICT DO
//                                              NOTHING in one transaction
//
// Each benchmark takes one argument: 0 = ":memory:", 1 = a WAL file database
// under /tmp (synchronous=NORMAL). Part of the engine_bench program:
//
//   build/bench/engine_bench --benchmark_filter='Query|Batch|Update|Cond'
#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "bench/engine_bench_raw.h"
#include "emulator/api/emulator.h"

namespace ddblab::bench {
namespace {

constexpr int kPartitionItems = 100;
constexpr int kQueryItems = 10;
constexpr int kBatchPuts = 25;
constexpr int kHotKeys = 10;

const std::string kRawItem(200, 'x');

// "007": sort keys of the raw reference, in the same order as the numbers.
std::string SortKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%03d", i);
  return buf;
}

void Must(const Result<Json>& r) {
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", ToString(r.error()).c_str());
    std::abort();
  }
}

// An emulator with "bench" (pk S) and "events" (pk S, sk N).
std::unique_ptr<Emulator> OpenEmulator(const std::string& path) {
  Options options;
  options.db_path = path;
  auto emu = Emulator::Open(options);
  if (!emu.ok()) std::abort();
  Json hash{{"TableName", "bench"},
            {"BillingMode", "PAY_PER_REQUEST"},
            {"AttributeDefinitions",
             {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
            {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
  Must((*emu)->Call("CreateTable", hash));
  Json range{{"TableName", "events"},
             {"BillingMode", "PAY_PER_REQUEST"},
             {"AttributeDefinitions",
              {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
               {{"AttributeName", "sk"}, {"AttributeType", "N"}}}},
             {"KeySchema",
              {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
               {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}}}};
  Must((*emu)->Call("CreateTable", range));
  return std::move(emu).value();
}

// ---------------------------------------------------------------------------
// Query: 10 of the 100 items of a partition.

void BM_RawSqlite_RangeSelect10(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "raw_range");
  {
    RawSqlite db(path);
    db.Begin();
    for (int i = 0; i < kPartitionItems; ++i) {
      db.Upsert("device#1", SortKey(i), kRawItem);
    }
    db.Commit();
    int64_t n = 0;
    for (auto _ : state) {
      const int lo =
          static_cast<int>(n++ % (kPartitionItems - kQueryItems + 1));
      int rows = 0;
      int64_t bytes = db.Range("device#1", SortKey(lo),
                               SortKey(lo + kQueryItems - 1), &rows);
      if (rows != kQueryItems) state.SkipWithError("range select");
      benchmark::DoNotOptimize(bytes);
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_RawSqlite_RangeSelect10)->Arg(0)->Arg(1);

void BM_Emulator_Query10(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_query");
  {
    auto emu = OpenEmulator(path);
    Json put{{"TableName", "events"}, {"Item", MakeItem("device#1")}};
    for (int i = 0; i < kPartitionItems; ++i) {
      put["Item"]["sk"] = {{"N", std::to_string(i)}};
      Must(emu->Call("PutItem", put));
    }
    Json query{{"TableName", "events"},
               {"KeyConditionExpression", "pk = :p AND sk BETWEEN :lo AND :hi"},
               {"ExpressionAttributeValues",
                {{":p", {{"S", "device#1"}}},
                 {":lo", {{"N", "0"}}},
                 {":hi", {{"N", "9"}}}}}};
    Json& lo_value = query["ExpressionAttributeValues"][":lo"]["N"];
    Json& hi_value = query["ExpressionAttributeValues"][":hi"]["N"];
    int64_t n = 0;
    for (auto _ : state) {
      const int lo =
          static_cast<int>(n++ % (kPartitionItems - kQueryItems + 1));
      lo_value = std::to_string(lo);
      hi_value = std::to_string(lo + kQueryItems - 1);
      Result<Json> r = emu->Call("Query", query);
      if (!r.ok() || (*r)["Count"] != kQueryItems) state.SkipWithError("Query");
      benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_Query10)->Arg(0)->Arg(1);

// ---------------------------------------------------------------------------
// BatchWriteItem: 25 puts of new items.

void BM_RawSqlite_Insert25Txn(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "raw_insert25");
  {
    RawSqlite db(path);
    int64_t n = 0;
    for (auto _ : state) {
      db.Begin();
      for (int k = 0; k < kBatchPuts; ++k) db.Upsert(Key(n++), "", kRawItem);
      db.Commit();
    }
    state.SetItemsProcessed(state.iterations() * kBatchPuts);
  }
  RemoveDb(path);
}
BENCHMARK(BM_RawSqlite_Insert25Txn)->Arg(0)->Arg(1);

void BM_Emulator_BatchWrite25(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_batch25");
  {
    auto emu = OpenEmulator(path);
    Json requests = Json::array();
    for (int k = 0; k < kBatchPuts; ++k) {
      requests.push_back({{"PutRequest", {{"Item", MakeItem(Key(k))}}}});
    }
    Json batch{{"RequestItems", {{"bench", requests}}}};
    std::array<Json*, kBatchPuts> keys{};
    for (int k = 0; k < kBatchPuts; ++k) {
      keys[k] =
          &batch["RequestItems"]["bench"][k]["PutRequest"]["Item"]["pk"]["S"];
    }
    int64_t n = 0;
    for (auto _ : state) {
      for (Json* key : keys) *key = Key(n++);
      Result<Json> r = emu->Call("BatchWriteItem", batch);
      if (!r.ok() || !(*r)["UnprocessedItems"].empty()) {
        state.SkipWithError("BatchWriteItem");
      }
    }
    state.SetItemsProcessed(state.iterations() * kBatchPuts);
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_BatchWrite25)->Arg(0)->Arg(1);

// ---------------------------------------------------------------------------
// UpdateItem ADD on 10 hot keys.

void BM_RawSqlite_PointUpdate(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "raw_update");
  {
    RawSqlite db(path);
    db.Begin();
    for (int k = 0; k < kHotKeys; ++k) db.Upsert(Key(k), "", kRawItem);
    db.Commit();
    int64_t n = 0;
    for (auto _ : state) {
      const std::string key = Key(n++ % kHotKeys);
      db.Begin();
      std::string item = db.Select(key, "");
      item[0] = static_cast<char>(item[0] + 1);  // the "ADD"
      db.Update(key, "", item);
      db.Commit();
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_RawSqlite_PointUpdate)->Arg(0)->Arg(1);

void BM_Emulator_UpdateAddHot(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_update");
  {
    auto emu = OpenEmulator(path);
    for (int k = 0; k < kHotKeys; ++k) {
      Must(emu->Call("PutItem",
                     {{"TableName", "bench"}, {"Item", MakeItem(Key(k))}}));
    }
    Json update{{"TableName", "bench"},
                {"Key", {{"pk", {{"S", Key(0)}}}}},
                {"UpdateExpression", "ADD #c :one"},
                {"ExpressionAttributeNames", {{"#c", "count"}}},
                {"ExpressionAttributeValues", {{":one", {{"N", "1"}}}}}};
    Json& key = update["Key"]["pk"]["S"];
    int64_t n = 0;
    for (auto _ : state) {
      key = Key(n++ % kHotKeys);
      Result<Json> r = emu->Call("UpdateItem", update);
      if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_UpdateAddHot)->Arg(0)->Arg(1);

// ---------------------------------------------------------------------------
// Conditional PutItem of new items.

void BM_RawSqlite_InsertIfAbsent(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "raw_insert_absent");
  {
    RawSqlite db(path);
    int64_t n = 0;
    for (auto _ : state) {
      db.Begin();
      if (!db.InsertIfAbsent(Key(n++), "", kRawItem)) {
        state.SkipWithError("insert");
      }
      db.Commit();
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_RawSqlite_InsertIfAbsent)->Arg(0)->Arg(1);

void BM_Emulator_ConditionalPut(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_cond_put");
  {
    auto emu = OpenEmulator(path);
    Json put{{"TableName", "bench"},
             {"Item", MakeItem(Key(0))},
             {"ConditionExpression", "attribute_not_exists(pk)"}};
    Json& key = put["Item"]["pk"]["S"];
    int64_t n = 0;
    for (auto _ : state) {
      key = Key(n++);
      Result<Json> r = emu->Call("PutItem", put);
      if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_ConditionalPut)->Arg(0)->Arg(1);

}  // namespace
}  // namespace ddblab::bench
