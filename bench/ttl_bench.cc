// bench/ttl_bench.cc: TTL sweeping in-process against the raw SQLite delete
// rate for equivalent rows.
//
//   BM_TtlSweep/<db>        N expired items of a table with a GSI (projection
//                           ALL), all due; times one Emulator::SweepTtl(),
//                           which deletes them as system deletes (item row,
//                           index row, queue row; 1,000 per transaction).
//   BM_RawSqliteDelete/<db> the same N rows in the same schema (items +
//                           index_entries): DELETE by primary key + DELETE
//                           of the index row, 1,000 per transaction.
// <db>: 0 = ":memory:", 1 = a WAL file under /tmp (synchronous=NORMAL).
// The figure is items/s (the `items_per_second` counter).
//
// N defaults to 100,000 (the default run takes well under a minute); set
// DDBLAB_TTL_BENCH_ITEMS for another size:
//   build-ttl/bench/ttl_bench                                  # 100,000
//   DDBLAB_TTL_BENCH_ITEMS=1000000 build-ttl/bench/ttl_bench   # 1,000,000
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "emulator/api/emulator.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/value/item_codec.h"

namespace {

using ddblab::value::AttributeValue;
using ddblab::value::Item;
using ddblab::value::Number;
using Json = nlohmann::json;

constexpr int64_t kT0 = ddblab::ManualClock::kDefaultStartEpochSeconds;
constexpr int64_t kBatch = 1000;

int64_t ItemCount() {
  const char* env = std::getenv("DDBLAB_TTL_BENCH_ITEMS");
  if (env == nullptr) return 100'000;
  int64_t n = std::atoll(env);
  return n > 0 ? n : 100'000;
}

std::string DbPath(int64_t file, const char* tag) {
  if (file == 0) return ":memory:";
  std::string dir = "/tmp/ddblab-ttl-bench-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  return dir + "/" + tag + ".db";
}

void RemoveDb(const std::string& path) {
  if (path == ":memory:") return;
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

std::string Key(int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "user#%09lld", static_cast<long long>(i));
  return buf;
}

// A ~200-byte item with a GSI key g and a TTL value.
Item MakeItem(int64_t i) {
  return Item{
      {"pk", AttributeValue::S(Key(i))},
      {"g", AttributeValue::S("group#" + std::to_string(i % 100))},
      {"exp", AttributeValue::N(Number::FromInt64(kT0 + 10))},
      {"name", AttributeValue::S("Ada Lovelace")},
      {"email", AttributeValue::S("ada.lovelace@example.com")},
      {"score", AttributeValue::N(*Number::Parse("1234.5"))},
      {"bio", AttributeValue::S("Mathematician and writer, chiefly known for "
                                "her work on the Analytical Engine.")}};
}

// ---------------------------------------------------------------------------
// Emulator

void BM_TtlSweep(benchmark::State& state) {
  const int64_t n = ItemCount();
  std::string path = DbPath(state.range(0), "sweep");
  for (auto _ : state) {
    auto clock = std::make_shared<ddblab::ManualClock>();
    ddblab::Options options;
    options.db_path = path;
    options.clock = clock;
    auto emu = std::move(ddblab::Emulator::Open(options)).value();
    Json create{
        {"TableName", "bench"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
          {{"AttributeName", "g"}, {"AttributeType", "S"}}}},
        {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "by_g"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "ALL"}}}}}}};
    Json ttl{{"TableName", "bench"},
             {"TimeToLiveSpecification",
              {{"Enabled", true}, {"AttributeName", "exp"}}}};
    if (!emu->Call("CreateTable", create).ok() ||
        !emu->Call("UpdateTimeToLive", ttl).ok()) {
      state.SkipWithError("setup failed");
      break;
    }
    // Load through the engine's write path (the TTL sink enqueues every
    // item), 1,000 items per transaction to keep the setup short.
    {
      ddblab::engine::EmulatorImpl& impl = ddblab::engine::ImplOf(*emu);
      auto lock = impl.Lock();
      auto table = impl.catalog().Find("bench")->table;
      for (int64_t start = 0; start < n; start += kBatch) {
        ddblab::engine::CapacityLedger unmetered;
        ddblab::engine::WriteBatch batch(impl, unmetered);
        if (!batch.Begin().ok()) std::abort();
        for (int64_t i = start; i < std::min(n, start + kBatch); ++i) {
          Item item = MakeItem(i);
          auto key = ddblab::engine::ValidateItemForWrite(*table, item);
          ddblab::engine::ExistingItem none;
          if (!key.ok() || !batch.Apply(*table, *key, none, &item).ok()) {
            std::abort();
          }
        }
        if (!batch.Commit().ok()) std::abort();
      }
    }
    clock->Advance(std::chrono::seconds(10));

    auto begin = std::chrono::steady_clock::now();
    ddblab::Result<int64_t> deleted = emu->SweepTtl();
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - begin).count());
    if (!deleted.ok() || *deleted != n) {
      state.SkipWithError("sweep did not delete every item");
      break;
    }
    emu.reset();
    RemoveDb(path);
  }
  state.counters["items_per_second"] = benchmark::Counter(
      static_cast<double>(n) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["items"] = static_cast<double>(n);
}

// ---------------------------------------------------------------------------
// Raw SQLite: the same rows, deleted with the least work possible.

struct RawDb {
  sqlite3* db = nullptr;

  explicit RawDb(const std::string& path) {
    // The process-wide setting the emulator makes before its first
    // connection (memory statistics off), so both sides run the same SQLite.
    static const int kConfigured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)kConfigured;
    sqlite3_open_v2(
        path.c_str(), &db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
        nullptr);
    if (path != ":memory:") {
      Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    }
    Exec("PRAGMA cache_size=-65536");  // as the emulator's connection
    Exec(
        "CREATE TABLE items (table_id INTEGER NOT NULL, pk BLOB NOT NULL, "
        "sk BLOB NOT NULL, size INTEGER NOT NULL, item BLOB NOT NULL, "
        "PRIMARY KEY (table_id, pk, sk)) WITHOUT ROWID;"
        "CREATE TABLE index_entries (table_id INTEGER NOT NULL, index_id "
        "INTEGER NOT NULL, ipk BLOB NOT NULL, isk BLOB NOT NULL, pk BLOB NOT "
        "NULL, sk BLOB NOT NULL, size INTEGER NOT NULL, item BLOB NOT NULL, "
        "PRIMARY KEY (table_id, index_id, ipk, isk, pk, sk)) WITHOUT ROWID;");
  }
  ~RawDb() { sqlite3_close_v2(db); }

  void Exec(const char* sql) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
      std::fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
      std::abort();
    }
  }
  sqlite3_stmt* Prepare(const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
      std::abort();
    }
    return stmt;
  }
  static void Blob(sqlite3_stmt* s, int i, const std::string& b) {
    sqlite3_bind_blob(s, i, b.data(), static_cast<int>(b.size()),
                      SQLITE_TRANSIENT);
  }
  static void Step(sqlite3_stmt* s) {
    if (sqlite3_step(s) != SQLITE_DONE) std::abort();
    sqlite3_reset(s);
  }
};

void BM_RawSqliteDelete(benchmark::State& state) {
  const int64_t n = ItemCount();
  std::string path = DbPath(state.range(0), "raw");
  for (auto _ : state) {
    auto raw = std::make_unique<RawDb>(path);
    sqlite3_stmt* put_item =
        raw->Prepare("INSERT INTO items VALUES(1, ?1, x'', ?2, ?3)");
    sqlite3_stmt* put_entry = raw->Prepare(
        "INSERT INTO index_entries VALUES(1, 1, ?1, x'', ?2, x'', ?3, ?4)");
    std::vector<std::string> pks(static_cast<size_t>(n));
    std::vector<std::string> ipks(static_cast<size_t>(n));
    for (int64_t start = 0; start < n; start += kBatch) {
      raw->Exec("BEGIN");
      for (int64_t i = start; i < std::min(n, start + kBatch); ++i) {
        Item item = MakeItem(i);
        std::string bytes = ddblab::value::SerializeItem(item);
        pks[i] = ddblab::engine::EncodeKeyValue(item.at("pk"));
        ipks[i] = ddblab::engine::EncodeKeyValue(item.at("g"));
        RawDb::Blob(put_item, 1, pks[i]);
        sqlite3_bind_int64(put_item, 2, static_cast<int64_t>(bytes.size()));
        RawDb::Blob(put_item, 3, bytes);
        RawDb::Step(put_item);
        RawDb::Blob(put_entry, 1, ipks[i]);
        RawDb::Blob(put_entry, 2, pks[i]);
        sqlite3_bind_int64(put_entry, 3, static_cast<int64_t>(bytes.size()));
        RawDb::Blob(put_entry, 4, bytes);
        RawDb::Step(put_entry);
      }
      raw->Exec("COMMIT");
    }
    sqlite3_finalize(put_item);
    sqlite3_finalize(put_entry);
    sqlite3_stmt* del_item =
        raw->Prepare("DELETE FROM items WHERE table_id=1 AND pk=?1 AND sk=x''");
    sqlite3_stmt* del_entry = raw->Prepare(
        "DELETE FROM index_entries WHERE table_id=1 AND index_id=1 AND "
        "ipk=?1 AND isk=x'' AND pk=?2 AND sk=x''");
    sqlite3_stmt* begin_stmt = raw->Prepare("BEGIN IMMEDIATE");
    sqlite3_stmt* commit_stmt = raw->Prepare("COMMIT");

    auto begin = std::chrono::steady_clock::now();
    for (int64_t start = 0; start < n; start += kBatch) {
      RawDb::Step(begin_stmt);
      for (int64_t i = start; i < std::min(n, start + kBatch); ++i) {
        RawDb::Blob(del_item, 1, pks[i]);
        RawDb::Step(del_item);
        RawDb::Blob(del_entry, 1, ipks[i]);
        RawDb::Blob(del_entry, 2, pks[i]);
        RawDb::Step(del_entry);
      }
      RawDb::Step(commit_stmt);
    }
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - begin).count());
    for (sqlite3_stmt* s : {del_item, del_entry, begin_stmt, commit_stmt}) {
      sqlite3_finalize(s);
    }
    raw.reset();
    RemoveDb(path);
  }
  state.counters["items_per_second"] = benchmark::Counter(
      static_cast<double>(n) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["items"] = static_cast<double>(n);
}

}  // namespace

BENCHMARK(BM_RawSqliteDelete)
    ->Arg(0)
    ->Arg(1)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TtlSweep)
    ->Arg(0)
    ->Arg(1)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
