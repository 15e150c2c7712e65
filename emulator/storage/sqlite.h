// emulator/storage/sqlite.h: a thin RAII layer over the SQLite C API.
//
// Database owns one connection and a cache of prepared statements keyed by
// their SQL text: Prepare() compiles a statement once and hands out a
// ScopedStatement that resets it (and clears its bindings) when it goes out of
// scope, so the next user finds it ready. If a cached statement is still in
// use (a nested use of the same SQL), Prepare() compiles a private copy that
// dies with its ScopedStatement, so re-entrant use is safe, only slower.
//
// Every failure is returned as an Error (InternalServerError with SQLite's
// message); nothing throws or aborts.
//
// Durability: a file database runs in WAL mode with synchronous=NORMAL. A
// commit is then in the WAL before Commit() returns, so every acknowledged
// write survives a crash of the process (kill -9); only a power loss or OS
// crash may lose the last transactions (the database stays consistent).
// One writer per file: a file Database holds an exclusive lock on the
// file for its life (file_lock.h), so a second Open of the same file, by
// another process or this one, fails with ResourceInUseException.
// ":memory:" (the default) takes no lock and keeps nothing after Close; it is
// opened on SQLite's memdb VFS (rollback journal in memory, exclusive locking),
// so a commit costs what it changed, not the size the database once had.
//
// Thread-safety: none. A Database and its statements must be used by one
// thread at a time; the engine serialises access with its lock.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "emulator/api/result.h"
#include "emulator/storage/file_lock.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ddblab::storage {

class Database;

// A prepared statement borrowed from a Database (or owned, if private).
// Bind indexes are 1-based, column indexes 0-based (as in SQLite).
class ScopedStatement {
 public:
  ScopedStatement() = default;
  ~ScopedStatement();
  ScopedStatement(ScopedStatement&& other) noexcept;
  ScopedStatement& operator=(ScopedStatement&& other) noexcept;
  ScopedStatement(const ScopedStatement&) = delete;
  ScopedStatement& operator=(const ScopedStatement&) = delete;

  // Binding never fails for valid indexes; a bad index is reported by Step.
  // Blobs and texts are bound BY REFERENCE (no copy): the bytes must stay
  // alive until the statement has been stepped to completion or released.
  ScopedStatement& BindInt(int index, int64_t value);
  ScopedStatement& BindBlob(int index, std::string_view bytes);
  ScopedStatement& BindText(int index, std::string_view text);
  // Binding a temporary std::string would leave SQLite a dangling pointer.
  template <class T>
  requires std::is_same_v<T, std::string> ScopedStatement& BindBlob(
      int index, T&& temporary) = delete;
  template <class T>
  requires std::is_same_v<T, std::string> ScopedStatement& BindText(
      int index, T&& temporary) = delete;
  ScopedStatement& BindNull(int index);

  // Runs one step: true if a row is available, false when done.
  Result<bool> Step();
  // Steps until done (for statements without results).
  Status Run();

  int64_t ColumnInt(int column) const;
  // Views stay valid until the next Step or the end of this statement.
  std::string_view ColumnBlob(int column) const;
  std::string_view ColumnText(int column) const;
  bool ColumnIsNull(int column) const;

 private:
  friend class Database;
  ScopedStatement(Database* db, sqlite3_stmt* stmt, bool* in_use, bool owned,
                  bool clear_bindings = true);
  void Release();

  Database* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  bool* in_use_ = nullptr;  // the cache slot's flag; null if owned
  bool owned_ = false;
  bool clear_bindings_ = true;  // on release (see Database::Slot)
  int bind_error_ = 0;
};

class Database {
 public:
  // Opens path (":memory:" or a file). A file database is switched to WAL
  // with synchronous=NORMAL and a 64 MiB page cache; every connection gets
  // foreign_keys off and a 5 s busy timeout. A file already open in another
  // Database (of any process) is refused with ResourceInUseException.
  static Result<std::unique_ptr<Database>> Open(const std::string& path);
  ~Database();

  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // A cache slot: one compiled statement. Slots live as long as the
  // Database; hot paths keep the pointer to skip the lookup by SQL text.
  struct Slot {
    sqlite3_stmt* stmt = nullptr;
    bool in_use = false;
    std::string sql;
    // Set by an owner whose every use binds every parameter: releasing
    // then skips clearing the bindings (the next use replaces them all).
    bool fully_bound = false;
  };

  // Runs one or more SQL statements without results.
  Status Exec(std::string_view sql);
  // A ready-to-bind statement for sql, compiled once and cached.
  Result<ScopedStatement> Prepare(std::string_view sql);
  // The cache slot for sql (compiling it on first use).
  Result<Slot*> GetSlot(std::string_view sql);
  // A ready-to-bind statement from a slot of this Database.
  Result<ScopedStatement> Use(Slot* slot);

  // Rows changed by the last INSERT/UPDATE/DELETE.
  int64_t Changes() const;
  int64_t LastInsertRowId() const;
  bool in_memory() const { return in_memory_; }
  const std::string& path() const { return path_; }

  // A counter for caches that layers keep above this connection (the
  // stream shard cache): it moves on every rollback and on BumpGeneration().
  // A cache filled at generation g is valid while generation() == g, so a
  // rolled-back transaction can never leave a cache describing rows that
  // were not committed.
  uint64_t generation() const { return generation_; }
  void BumpGeneration() { ++generation_; }

  // The raw handle, for layers that need an SQLite call not wrapped here.
  sqlite3* raw() const { return db_; }

  // An InternalServerError carrying SQLite's last message and `what`.
  Error MakeError(std::string_view what) const;

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>{}(s);
    }
  };
  Database(sqlite3* db, std::string path);

  sqlite3* db_ = nullptr;
  std::string path_;
  // Held until after db_ is closed (members die after the destructor body).
  FileLock lock_;
  bool in_memory_ = true;
  uint64_t generation_ = 0;
  std::unordered_map<std::string, std::unique_ptr<Slot>, StringHash,
                     std::equal_to<>>
      cache_;
};

}  // namespace ddblab::storage
