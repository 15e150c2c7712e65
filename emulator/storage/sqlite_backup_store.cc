// emulator/storage/sqlite_backup_store.cc: the SQL of on-demand backups.
#include "emulator/storage/sqlite_backup_store.h"

#include <array>

#include "emulator/storage/schema.h"

namespace ddblab::storage {
namespace {

constexpr std::array<Migration, 1> kMigrations = {{
    {1, R"sql(
CREATE TABLE IF NOT EXISTS backups (
  backup_id INTEGER PRIMARY KEY AUTOINCREMENT,
  arn TEXT NOT NULL UNIQUE,
  meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS backup_items (
  backup_id INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  size INTEGER NOT NULL,
  item BLOB NOT NULL,
  PRIMARY KEY (backup_id, pk, sk)
) WITHOUT ROWID;
)sql"},
}};

}  // namespace

Status SqliteBackupStore::EnsureSchema() {
  return ApplyMigrations(db_, "backups", kMigrations);
}

Result<int64_t> SqliteBackupStore::Create(std::string_view arn,
                                          std::string_view meta,
                                          int64_t table_id) {
  int64_t id = 0;
  {
    DDBLAB_ASSIGN_OR_RETURN(
        ScopedStatement stmt,
        db_.Prepare("INSERT INTO backups(arn, meta) VALUES(?1, ?2) "
                    "RETURNING backup_id"));
    stmt.BindText(1, arn).BindText(2, meta);
    DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return Error::Internal("backup insert returned no id");
    id = stmt.ColumnInt(0);
    DDBLAB_ASSIGN_OR_RETURN(bool more, stmt.Step());
    if (more) return Error::Internal("backup insert returned two rows");
  }
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement copy,
      db_.Prepare("INSERT INTO backup_items(backup_id, pk, sk, size, item) "
                  "SELECT ?1, pk, sk, size, item FROM items WHERE "
                  "table_id=?2"));
  copy.BindInt(1, id).BindInt(2, table_id);
  DDBLAB_RETURN_IF_ERROR(copy.Run());
  return id;
}

Status SqliteBackupStore::Delete(int64_t backup_id) {
  for (std::string_view sql : {"DELETE FROM backup_items WHERE backup_id=?1",
                               "DELETE FROM backups WHERE backup_id=?1"}) {
    DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, db_.Prepare(sql));
    stmt.BindInt(1, backup_id);
    DDBLAB_RETURN_IF_ERROR(stmt.Run());
  }
  return OkStatus();
}

Status SqliteBackupStore::DeleteAll() {
  DDBLAB_RETURN_IF_ERROR(db_.Exec("DELETE FROM backup_items"));
  return db_.Exec("DELETE FROM backups");
}

Result<std::vector<BackupRow>> SqliteBackupStore::List() {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db_.Prepare("SELECT backup_id, arn, meta FROM backups ORDER BY "
                  "backup_id"));
  std::vector<BackupRow> rows;
  for (;;) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    rows.push_back(BackupRow{stmt.ColumnInt(0), std::string(stmt.ColumnText(1)),
                             std::string(stmt.ColumnText(2))});
  }
  return rows;
}

Status SqliteBackupStore::ScanItems(int64_t backup_id,
                                    const BackupItemVisitor& visit) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db_.Prepare("SELECT pk, sk, size, item FROM backup_items WHERE "
                  "backup_id=?1 ORDER BY pk, sk"));
  stmt.BindInt(1, backup_id);
  for (;;) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    BackupItemRow r{stmt.ColumnBlob(0), stmt.ColumnBlob(1), stmt.ColumnBlob(3),
                    stmt.ColumnInt(2)};
    if (!visit(r)) break;
  }
  return OkStatus();
}

}  // namespace ddblab::storage
