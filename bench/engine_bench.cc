// bench/engine_bench.cc: in-process PutItem / GetItem against a raw-SQLite
// reference doing the minimum the engine must do (one INSERT per
// transaction into an equivalent WITHOUT ROWID table; a point SELECT).
//
// Each benchmark takes one argument: 0 = ":memory:", 1 = a WAL file database
// under /tmp (synchronous=NORMAL, as the emulator uses).
//
//   build-engine/bench/engine_bench --benchmark_min_time=2s
#include <benchmark/benchmark.h>
#include <sqlite3.h>
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
using ddblab::bench::MakeItem;
using ddblab::bench::RemoveDb;

constexpr int kPreloaded = 10000;

// ---------------------------------------------------------------------------
// Raw SQLite reference

struct RawDb {
  sqlite3* db = nullptr;
  sqlite3_stmt* begin = nullptr;
  sqlite3_stmt* commit = nullptr;
  sqlite3_stmt* insert = nullptr;
  sqlite3_stmt* select = nullptr;

  explicit RawDb(const std::string& path) {
    sqlite3_open_v2(
        path.c_str(), &db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
        nullptr);
    if (path != ":memory:") {
      sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                   nullptr, nullptr, nullptr);
    }
    sqlite3_exec(db,
                 "CREATE TABLE items (table_id INTEGER NOT NULL, pk BLOB NOT "
                 "NULL, sk BLOB NOT NULL, size INTEGER NOT NULL, item BLOB NOT "
                 "NULL, PRIMARY KEY (table_id, pk, sk)) WITHOUT ROWID",
                 nullptr, nullptr, nullptr);
    sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, nullptr);
    sqlite3_prepare_v2(db, "COMMIT", -1, &commit, nullptr);
    sqlite3_prepare_v2(
        db, "INSERT OR REPLACE INTO items VALUES(?1, ?2, ?3, ?4, ?5)", -1,
        &insert, nullptr);
    sqlite3_prepare_v2(db,
                       "SELECT item, size FROM items WHERE table_id=?1 AND "
                       "pk=?2 AND sk=?3",
                       -1, &select, nullptr);
  }
  ~RawDb() {
    for (sqlite3_stmt* s : {begin, commit, insert, select}) sqlite3_finalize(s);
    sqlite3_close_v2(db);
  }

  void Put(const std::string& key, const std::string& item) {
    sqlite3_step(begin);
    sqlite3_reset(begin);
    sqlite3_bind_int64(insert, 1, 1);
    sqlite3_bind_blob(insert, 2, key.data(), static_cast<int>(key.size()),
                      SQLITE_STATIC);
    sqlite3_bind_blob(insert, 3, "", 0, SQLITE_STATIC);
    sqlite3_bind_int64(insert, 4, static_cast<int64_t>(item.size()));
    sqlite3_bind_blob(insert, 5, item.data(), static_cast<int>(item.size()),
                      SQLITE_STATIC);
    sqlite3_step(insert);
    sqlite3_reset(insert);
    sqlite3_step(commit);
    sqlite3_reset(commit);
  }

  std::string Get(const std::string& key) {
    sqlite3_bind_int64(select, 1, 1);
    sqlite3_bind_blob(select, 2, key.data(), static_cast<int>(key.size()),
                      SQLITE_STATIC);
    sqlite3_bind_blob(select, 3, "", 0, SQLITE_STATIC);
    std::string out;
    if (sqlite3_step(select) == SQLITE_ROW) {
      out.assign(static_cast<const char*>(sqlite3_column_blob(select, 0)),
                 static_cast<size_t>(sqlite3_column_bytes(select, 0)));
    }
    sqlite3_reset(select);
    return out;
  }
};

const std::string kRawItem(200, 'x');

void BM_RawSqlite_Insert(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "raw_insert");
  {
    RawDb db(path);
    int64_t i = 0;
    for (auto _ : state) db.Put(Key(i++), kRawItem);
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_RawSqlite_Insert)->Arg(0)->Arg(1);

void BM_RawSqlite_Select(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "raw_select");
  {
    RawDb db(path);
    for (int i = 0; i < kPreloaded; ++i) db.Put(Key(i), kRawItem);
    int64_t i = 0;
    for (auto _ : state) {
      std::string v = db.Get(Key(i++ % kPreloaded));
      benchmark::DoNotOptimize(v);
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_RawSqlite_Select)->Arg(0)->Arg(1);

// ---------------------------------------------------------------------------
// Emulator

std::unique_ptr<ddblab::Emulator> OpenEmulator(const std::string& path) {
  ddblab::Options options;
  options.db_path = path;
  auto emu = ddblab::Emulator::Open(options);
  if (!emu.ok()) std::abort();
  Json create{{"TableName", "bench"},
              {"BillingMode", "PAY_PER_REQUEST"},
              {"AttributeDefinitions",
               {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
              {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
  if (!(*emu)->Call("CreateTable", create).ok()) std::abort();
  return std::move(emu).value();
}

void BM_Emulator_PutItem(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_put");
  {
    auto emu = OpenEmulator(path);
    Json request{{"TableName", "bench"}, {"Item", MakeItem(Key(0))}};
    Json& key = request["Item"]["pk"]["S"];
    int64_t i = 0;
    for (auto _ : state) {
      key = Key(i++);
      auto r = emu->Call("PutItem", request);
      if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_PutItem)->Arg(0)->Arg(1);

void BM_Emulator_GetItem(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_get");
  {
    auto emu = OpenEmulator(path);
    for (int i = 0; i < kPreloaded; ++i) {
      if (!emu->Call("PutItem",
                     {{"TableName", "bench"}, {"Item", MakeItem(Key(i))}})
               .ok()) {
        std::abort();
      }
    }
    Json request{{"TableName", "bench"}, {"Key", {{"pk", {{"S", Key(0)}}}}}};
    Json& key = request["Key"]["pk"]["S"];
    int64_t i = 0;
    for (auto _ : state) {
      key = Key(i++ % kPreloaded);
      auto r = emu->Call("GetItem", request);
      if (!r.ok() || !r->contains("Item"))
        state.SkipWithError("GetItem failed");
      benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_GetItem)->Arg(0)->Arg(1);

void BM_Emulator_DeleteItem(benchmark::State& state) {
  std::string path = DbPath(state.range(0), "emu_delete");
  {
    auto emu = OpenEmulator(path);
    Json put{{"TableName", "bench"}, {"Item", MakeItem(Key(0))}};
    Json del{{"TableName", "bench"}, {"Key", {{"pk", {{"S", Key(0)}}}}}};
    int64_t i = 0;
    for (auto _ : state) {
      state.PauseTiming();
      put["Item"]["pk"]["S"] = Key(i);
      if (!emu->Call("PutItem", put).ok()) std::abort();
      del["Key"]["pk"]["S"] = Key(i++);
      state.ResumeTiming();
      auto r = emu->Call("DeleteItem", del);
      if (!r.ok()) state.SkipWithError(r.error().message.c_str());
    }
    state.SetItemsProcessed(state.iterations());
  }
  RemoveDb(path);
}
BENCHMARK(BM_Emulator_DeleteItem)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
