#include "emulator/storage/sqlite.h"

#include <sqlite3.h>

#include <utility>

namespace ddblab::storage {

// ---------------------------------------------------------------------------
// ScopedStatement

ScopedStatement::ScopedStatement(Database* db, sqlite3_stmt* stmt, bool* in_use,
                                 bool owned, bool clear_bindings)
    : db_(db),
      stmt_(stmt),
      in_use_(in_use),
      owned_(owned),
      clear_bindings_(clear_bindings) {}

ScopedStatement::~ScopedStatement() { Release(); }

ScopedStatement::ScopedStatement(ScopedStatement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      stmt_(std::exchange(other.stmt_, nullptr)),
      in_use_(std::exchange(other.in_use_, nullptr)),
      owned_(std::exchange(other.owned_, false)),
      clear_bindings_(std::exchange(other.clear_bindings_, true)),
      bind_error_(std::exchange(other.bind_error_, 0)) {}

ScopedStatement& ScopedStatement::operator=(ScopedStatement&& other) noexcept {
  if (this != &other) {
    Release();
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
    in_use_ = std::exchange(other.in_use_, nullptr);
    owned_ = std::exchange(other.owned_, false);
    clear_bindings_ = std::exchange(other.clear_bindings_, true);
    bind_error_ = std::exchange(other.bind_error_, 0);
  }
  return *this;
}

void ScopedStatement::Release() {
  if (stmt_ == nullptr) return;
  if (owned_) {
    sqlite3_finalize(stmt_);
  } else {
    sqlite3_reset(stmt_);
    if (clear_bindings_) sqlite3_clear_bindings(stmt_);
    if (in_use_ != nullptr) *in_use_ = false;
  }
  stmt_ = nullptr;
  in_use_ = nullptr;
  db_ = nullptr;
}

ScopedStatement& ScopedStatement::BindInt(int index, int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

ScopedStatement& ScopedStatement::BindBlob(int index, std::string_view bytes) {
  // SQLITE_STATIC: callers keep the bytes alive until the statement is
  // stepped to completion or released (always true inside one call).
  // A zero-length blob must not be bound as NULL: give SQLite a non-null
  // pointer.
  static const char kEmpty = 0;
  const char* data = bytes.empty() ? &kEmpty : bytes.data();
  int rc = sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_STATIC);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

ScopedStatement& ScopedStatement::BindText(int index, std::string_view text) {
  int rc = sqlite3_bind_text64(stmt_, index, text.data(), text.size(),
                               SQLITE_STATIC, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

ScopedStatement& ScopedStatement::BindNull(int index) {
  int rc = sqlite3_bind_null(stmt_, index);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

Result<bool> ScopedStatement::Step() {
  if (stmt_ == nullptr) return Error::Internal("SQLite: step on no statement");
  if (bind_error_ != 0) {
    return Error::Internal(std::string("SQLite bind failed: ") +
                           sqlite3_errstr(bind_error_));
  }
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return db_->MakeError("step");
}

Status ScopedStatement::Run() {
  while (true) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return OkStatus();
  }
}

int64_t ScopedStatement::ColumnInt(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::string_view ScopedStatement::ColumnBlob(int column) const {
  const void* data = sqlite3_column_blob(stmt_, column);
  int size = sqlite3_column_bytes(stmt_, column);
  if (data == nullptr || size <= 0) return {};
  return std::string_view(static_cast<const char*>(data),
                          static_cast<size_t>(size));
}

std::string_view ScopedStatement::ColumnText(int column) const {
  const unsigned char* data = sqlite3_column_text(stmt_, column);
  int size = sqlite3_column_bytes(stmt_, column);
  if (data == nullptr || size <= 0) return {};
  return std::string_view(reinterpret_cast<const char*>(data),
                          static_cast<size_t>(size));
}

bool ScopedStatement::ColumnIsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

// ---------------------------------------------------------------------------
// Database

Database::Database(sqlite3* db, std::string path)
    : db_(db), path_(std::move(path)) {
  in_memory_ = path_.empty() || path_ == ":memory:" ||
               path_.rfind("file::memory:", 0) == 0;
}

Database::~Database() {
  for (auto& [sql, slot] : cache_) {
    if (slot->stmt != nullptr) sqlite3_finalize(slot->stmt);
  }
  cache_.clear();
  sqlite3_close_v2(db_);
}

namespace {

// Private (no leading '/') memdb database: one connection, no sharing.
constexpr char kMemdbUri[] = "file:ddblab-memory?vfs=memdb";

// Runs a PRAGMA that answers with one text row and checks the answer.
Status SetPragma(Database& db, const std::string& path, std::string_view sql,
                 std::string_view expected) {
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, db.Prepare(sql));
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row || stmt.ColumnText(0) != expected) {
    return Error::Internal("cannot set '" + std::string(sql) +
                           "' on database '" + path + "'");
  }
  return stmt.Run();
}

}  // namespace

// Process-wide SQLite settings, made once before the first connection.
// Memory statistics off: with them on (the library's default) every
// sqlite3_malloc and sqlite3_free takes a global mutex and updates counters
// nothing here reads. sqlite3_config only works before SQLite initialises;
// if something else in the process initialised it first, the call fails
// with SQLITE_MISUSE and the default stays: slower, not wrong.
namespace {
void ConfigureSqliteOnce() {
  static const int kConfigured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)kConfigured;
}
}  // namespace

Result<std::unique_ptr<Database>> Database::Open(const std::string& path) {
  ConfigureSqliteOnce();
  // ":memory:" is served by SQLite's memdb VFS, not by its classic
  // in-memory pager: the classic pager keeps every page of the database
  // dirty forever and walks that whole list on every COMMIT, so a commit
  // costs time proportional to the largest size the database ever had
  // (PutItem fell to a quarter of its speed after 300 k items written and
  // deleted). Over memdb the pager commits only the pages it changed
  // (bench/ageing_bench.cc measures both).
  bool memory = path.empty() || path == ":memory:";
  const std::string open_path = memory ? kMemdbUri : path;
  sqlite3* raw = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
              SQLITE_OPEN_URI;
  int rc = sqlite3_open_v2(open_path.c_str(), &raw, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg =
        "cannot open database '" + path +
        "': " + (raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
    if (raw != nullptr) sqlite3_close_v2(raw);
    return Error::Internal(std::move(msg));
  }
  std::unique_ptr<Database> db(new Database(raw, path));
  if (!memory) {
    // SQLite has created the file (the name it resolved, "" for an
    // in-memory URI); nothing has read or written it yet. Of two openers
    // only one gets the lock, the other closes without touching the file.
    const char* file = sqlite3_db_filename(raw, "main");
    if (file != nullptr && *file != '\0') {
      DDBLAB_ASSIGN_OR_RETURN(db->lock_, FileLock::Acquire(file, path));
    }
  }
  sqlite3_rollback_hook(
      raw, [](void* self) { static_cast<Database*>(self)->BumpGeneration(); },
      db.get());
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, 5000);
  DDBLAB_RETURN_IF_ERROR(
      db->Exec("PRAGMA foreign_keys=OFF; PRAGMA temp_store=MEMORY;"));
  if (memory) {
    // memdb caps a database at 1 GiB by default; ":memory:" had no cap.
    sqlite3_int64 limit = sqlite3_int64{1} << 50;
    sqlite3_file_control(raw, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit);
    // The rollback journal must stay in memory (memdb would otherwise put
    // it in a file next to the process's working directory). One
    // connection: exclusive locking keeps the page cache across
    // transactions. No mmap: reads through the page cache cost fewer
    // instructions than fetching each page from the memdb buffer (-300 to
    // -400 per single-item operation; bench/README.md, callgrind).
    DDBLAB_RETURN_IF_ERROR(
        SetPragma(*db, path, "PRAGMA journal_mode=MEMORY", "memory"));
    DDBLAB_RETURN_IF_ERROR(
        SetPragma(*db, path, "PRAGMA locking_mode=EXCLUSIVE", "exclusive"));
    DDBLAB_RETURN_IF_ERROR(
        db->Exec("PRAGMA synchronous=OFF; PRAGMA mmap_size=0;"));
    return db;
  }
  DDBLAB_RETURN_IF_ERROR(db->Exec("PRAGMA cache_size=-65536;"));
  if (!db->in_memory()) {
    // journal_mode answers with a row; run it through a statement.
    DDBLAB_RETURN_IF_ERROR(
        SetPragma(*db, path, "PRAGMA journal_mode=WAL", "wal"));
    DDBLAB_RETURN_IF_ERROR(db->Exec("PRAGMA synchronous=NORMAL;"));
  }
  return db;
}

Status Database::Exec(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = "SQLite exec failed: ";
    msg += err != nullptr ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    return Error::Internal(std::move(msg));
  }
  return OkStatus();
}

Result<Database::Slot*> Database::GetSlot(std::string_view sql) {
  auto it = cache_.find(sql);
  if (it != cache_.end()) return it->second.get();
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) return MakeError("prepare");
  auto slot = std::make_unique<Slot>();
  slot->stmt = stmt;
  slot->sql = std::string(sql);
  Slot* raw = slot.get();
  cache_.emplace(std::string(sql), std::move(slot));
  return raw;
}

Result<ScopedStatement> Database::Use(Slot* slot) {
  if (!slot->in_use) {
    slot->in_use = true;
    return ScopedStatement(this, slot->stmt, &slot->in_use, false,
                           !slot->fully_bound);
  }
  // Nested use of the same SQL: a private statement.
  sqlite3_stmt* stmt = nullptr;
  int rc =
      sqlite3_prepare_v2(db_, slot->sql.data(),
                         static_cast<int>(slot->sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return MakeError("prepare");
  return ScopedStatement(this, stmt, nullptr, true);
}

Result<ScopedStatement> Database::Prepare(std::string_view sql) {
  DDBLAB_ASSIGN_OR_RETURN(Slot * slot, GetSlot(sql));
  return Use(slot);
}

int64_t Database::Changes() const { return sqlite3_changes64(db_); }

int64_t Database::LastInsertRowId() const {
  return sqlite3_last_insert_rowid(db_);
}

Error Database::MakeError(std::string_view what) const {
  std::string msg = "SQLite ";
  msg += what;
  msg += " failed: ";
  msg += sqlite3_errmsg(db_);
  return Error::Internal(std::move(msg));
}

}  // namespace ddblab::storage
