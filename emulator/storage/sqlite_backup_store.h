// emulator/storage/sqlite_backup_store.h: the SQLite BackupStore.
//
// Runs on the Database of its SqliteItemStore (the connection every
// WriteTransaction uses), so a backup's rows commit with the caller's
// transaction. Backups are rare control-plane calls: statements are
// prepared per call.
//
// Ownership: owned by SqliteItemStore; borrows its Database.
// Thread-safety: none (see backup_store.h).
#pragma once

#include "emulator/storage/backup_store.h"
#include "emulator/storage/sqlite.h"

namespace ddblab::storage {

class SqliteBackupStore final : public BackupStore {
 public:
  explicit SqliteBackupStore(Database& db) : db_(db) {}

  Status EnsureSchema() override;
  Result<int64_t> Create(std::string_view arn, std::string_view meta,
                         int64_t table_id) override;
  Status Delete(int64_t backup_id) override;
  Status DeleteAll() override;
  Result<std::vector<BackupRow>> List() override;
  Status ScanItems(int64_t backup_id, const BackupItemVisitor& visit) override;

 private:
  Database& db_;
};

}  // namespace ddblab::storage
