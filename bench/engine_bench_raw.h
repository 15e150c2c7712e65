// bench/engine_bench_raw.h: what engine_bench_ops.cc needs besides the
// benchmarks and bench_items.h: a raw-SQLite reference database with the
// engine's item-table layout (a WITHOUT ROWID table keyed by table id, pk,
// sk) and prepared statements for the row work each operation needs at
// minimum.
//
// Thread-safety: a RawSqlite is used by one benchmark thread.
#pragma once

#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/bench_items.h"

namespace ddblab::bench {

using Json = nlohmann::json;

// The raw-SQLite reference. Aborts on any SQLite error (benchmark setup).
class RawSqlite {
 public:
  explicit RawSqlite(const std::string& path) {
    Check(sqlite3_open_v2(
        path.c_str(), &db_,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
        nullptr));
    if (path != ":memory:") {
      Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    }
    Exec(
        "CREATE TABLE items (table_id INTEGER NOT NULL, pk BLOB NOT NULL, sk "
        "BLOB NOT NULL, size INTEGER NOT NULL, item BLOB NOT NULL, PRIMARY "
        "KEY (table_id, pk, sk)) WITHOUT ROWID");
    begin_ = Prepare("BEGIN IMMEDIATE");
    commit_ = Prepare("COMMIT");
    upsert_ = Prepare("INSERT OR REPLACE INTO items VALUES(1, ?1, ?2, ?3, ?4)");
    insert_if_absent_ = Prepare(
        "INSERT INTO items VALUES(1, ?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING");
    select_ = Prepare(
        "SELECT item, size FROM items WHERE table_id=1 AND pk=?1 AND sk=?2");
    update_ = Prepare(
        "UPDATE items SET item=?3, size=?4 WHERE table_id=1 AND pk=?1 AND "
        "sk=?2");
    range_ = Prepare(
        "SELECT item, size FROM items WHERE table_id=1 AND pk=?1 AND sk>=?2 "
        "AND sk<=?3 ORDER BY sk");
  }
  ~RawSqlite() {
    for (sqlite3_stmt* s : {begin_, commit_, upsert_, insert_if_absent_,
                            select_, update_, range_}) {
      sqlite3_finalize(s);
    }
    sqlite3_close_v2(db_);
  }
  RawSqlite(const RawSqlite&) = delete;
  RawSqlite& operator=(const RawSqlite&) = delete;

  void Begin() { Run(begin_); }
  void Commit() { Run(commit_); }

  // INSERT OR REPLACE (inside a transaction the caller opened).
  void Upsert(const std::string& pk, const std::string& sk,
              const std::string& item) {
    BindRow(upsert_, pk, sk, item);
    Run(upsert_);
  }
  // INSERT ... ON CONFLICT DO NOTHING; whether a row was inserted.
  bool InsertIfAbsent(const std::string& pk, const std::string& sk,
                      const std::string& item) {
    BindRow(insert_if_absent_, pk, sk, item);
    Run(insert_if_absent_);
    return sqlite3_changes(db_) == 1;
  }
  // The item at (pk, sk), or "" if absent.
  std::string Select(const std::string& pk, const std::string& sk) {
    BindKey(select_, pk, sk);
    std::string out;
    if (sqlite3_step(select_) == SQLITE_ROW) out = Column(select_, 0);
    sqlite3_reset(select_);
    return out;
  }
  void Update(const std::string& pk, const std::string& sk,
              const std::string& item) {
    BindKey(update_, pk, sk);
    sqlite3_bind_blob(update_, 3, item.data(), static_cast<int>(item.size()),
                      SQLITE_STATIC);
    sqlite3_bind_int64(update_, 4, static_cast<int64_t>(item.size()));
    Run(update_);
  }
  // Rows with lo <= sk <= hi in partition pk; returns their total bytes.
  int64_t Range(const std::string& pk, const std::string& lo,
                const std::string& hi, int* rows) {
    BindKey(range_, pk, lo);
    sqlite3_bind_blob(range_, 3, hi.data(), static_cast<int>(hi.size()),
                      SQLITE_STATIC);
    int64_t bytes = 0;
    *rows = 0;
    while (sqlite3_step(range_) == SQLITE_ROW) {
      std::string item = Column(range_, 0);
      bytes += static_cast<int64_t>(item.size());
      ++*rows;
    }
    sqlite3_reset(range_);
    return bytes;
  }

 private:
  static void Check(int rc) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) std::abort();
  }
  void Exec(const char* sql) {
    Check(sqlite3_exec(db_, sql, nullptr, nullptr, nullptr));
  }
  sqlite3_stmt* Prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    Check(sqlite3_prepare_v2(db_, sql, -1, &s, nullptr));
    return s;
  }
  static void Run(sqlite3_stmt* s) {
    Check(sqlite3_step(s));
    sqlite3_reset(s);
  }
  static void BindKey(sqlite3_stmt* s, const std::string& pk,
                      const std::string& sk) {
    sqlite3_bind_blob(s, 1, pk.data(), static_cast<int>(pk.size()),
                      SQLITE_STATIC);
    sqlite3_bind_blob(s, 2, sk.data(), static_cast<int>(sk.size()),
                      SQLITE_STATIC);
  }
  static void BindRow(sqlite3_stmt* s, const std::string& pk,
                      const std::string& sk, const std::string& item) {
    BindKey(s, pk, sk);
    sqlite3_bind_int64(s, 3, static_cast<int64_t>(item.size()));
    sqlite3_bind_blob(s, 4, item.data(), static_cast<int>(item.size()),
                      SQLITE_STATIC);
  }
  static std::string Column(sqlite3_stmt* s, int i) {
    return std::string(static_cast<const char*>(sqlite3_column_blob(s, i)),
                       static_cast<size_t>(sqlite3_column_bytes(s, i)));
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* begin_ = nullptr;
  sqlite3_stmt* commit_ = nullptr;
  sqlite3_stmt* upsert_ = nullptr;
  sqlite3_stmt* insert_if_absent_ = nullptr;
  sqlite3_stmt* select_ = nullptr;
  sqlite3_stmt* update_ = nullptr;
  sqlite3_stmt* range_ = nullptr;
};

}  // namespace ddblab::bench
