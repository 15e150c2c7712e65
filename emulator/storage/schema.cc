#include "emulator/storage/schema.h"

#include <string>

namespace ddblab::storage {
namespace {

constexpr std::string_view kCoreV1 = R"sql(
CREATE TABLE IF NOT EXISTS tables (
  table_id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS items (
  table_id INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  size INTEGER NOT NULL,
  item BLOB NOT NULL,
  PRIMARY KEY (table_id, pk, sk)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS index_entries (
  table_id INTEGER NOT NULL,
  index_id INTEGER NOT NULL,
  ipk BLOB NOT NULL,
  isk BLOB NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  size INTEGER NOT NULL,
  item BLOB NOT NULL,
  PRIMARY KEY (table_id, index_id, ipk, isk, pk, sk)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS schema_components (
  component TEXT PRIMARY KEY,
  version INTEGER NOT NULL
);
)sql";

Result<int> UserVersion(Database& db) {
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt,
                          db.Prepare("PRAGMA user_version"));
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return Error::Internal("PRAGMA user_version returned nothing");
  return static_cast<int>(stmt.ColumnInt(0));
}

// Runs body inside BEGIN IMMEDIATE .. COMMIT, rolling back on error.
template <class F>
Status InTransaction(Database& db, F&& body) {
  DDBLAB_RETURN_IF_ERROR(db.Exec("BEGIN IMMEDIATE"));
  Status status = body();
  if (!status.ok()) {
    (void)db.Exec("ROLLBACK");
    return status;
  }
  Status commit = db.Exec("COMMIT");
  if (!commit.ok()) (void)db.Exec("ROLLBACK");
  return commit;
}

}  // namespace

Status EnsureCoreSchema(Database& db) {
  DDBLAB_ASSIGN_OR_RETURN(int version, UserVersion(db));
  if (version > kCoreSchemaVersion) {
    return Error::Internal("database schema version " +
                           std::to_string(version) +
                           " is newer than this ddblab supports (" +
                           std::to_string(kCoreSchemaVersion) + ")");
  }
  if (version == kCoreSchemaVersion) return OkStatus();
  return InTransaction(db, [&]() -> Status {
    if (version < 1) DDBLAB_RETURN_IF_ERROR(db.Exec(kCoreV1));
    // Future core migrations go here: if (version < 2) ...
    return db.Exec("PRAGMA user_version=" + std::to_string(kCoreSchemaVersion));
  });
}

Result<int> ComponentVersion(Database& db, std::string_view component) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db.Prepare("SELECT version FROM schema_components WHERE component=?1"));
  stmt.BindText(1, component);
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  return row ? static_cast<int>(stmt.ColumnInt(0)) : 0;
}

Status ApplyMigrations(Database& db, std::string_view component,
                       std::span<const Migration> migrations) {
  DDBLAB_ASSIGN_OR_RETURN(int current, ComponentVersion(db, component));
  int last = migrations.empty() ? 0 : migrations.back().version;
  if (current > last) {
    return Error::Internal("schema component '" + std::string(component) +
                           "' is at version " + std::to_string(current) +
                           ", newer than this ddblab supports (" +
                           std::to_string(last) + ")");
  }
  if (current == last) return OkStatus();
  return InTransaction(db, [&]() -> Status {
    for (const Migration& m : migrations) {
      if (m.version <= current) continue;
      DDBLAB_RETURN_IF_ERROR(db.Exec(m.sql));
    }
    DDBLAB_ASSIGN_OR_RETURN(
        ScopedStatement stmt,
        db.Prepare("INSERT INTO schema_components(component, version) "
                   "VALUES(?1, ?2) ON CONFLICT(component) DO UPDATE SET "
                   "version=excluded.version"));
    stmt.BindText(1, component).BindInt(2, last);
    return stmt.Run();
  });
}

}  // namespace ddblab::storage
