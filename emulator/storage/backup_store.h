// emulator/storage/backup_store.h: the typed store of on-demand backups
// (CreateBackup / RestoreTableFromBackup snapshots).
//
// Tables (schema component "backups", created by EnsureSchema):
//   backups(backup_id, arn UNIQUE, meta)       one row per backup
//   backup_items(backup_id, pk, sk, size, item) PK (backup_id, pk, sk),
//                                               WITHOUT ROWID
// A backup's items are a copy of the `items` rows of its source table at
// the time of Create (one INSERT .. SELECT inside the caller's
// transaction), so a backup outlives its table. `meta` is the engine's JSON
// (engine/backups/backup_record.h); the store never looks inside it.
//
// Reached through the ItemStore (reads) or the open WriteTransaction
// (writes, which then commit or roll back with everything else).
//
// Ownership: owned by its ItemStore. Thread-safety: none; callers hold the
// engine lock.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::storage {

struct BackupRow {
  int64_t id = 0;
  std::string arn;
  std::string meta;
};

// One item of a backup. Views are valid only during the visitor call.
struct BackupItemRow {
  std::string_view pk;
  std::string_view sk;
  std::string_view item;
  int64_t size = 0;
};

// Return false to stop.
using BackupItemVisitor = std::function<bool(const BackupItemRow&)>;

class BackupStore {
 public:
  virtual ~BackupStore() = default;

  // Creates or upgrades the tables (its own transaction: call outside any
  // open transaction).
  virtual Status EnsureSchema() = 0;

  // Adds a backup row and copies every item row of `table_id` into it.
  // Returns the new backup id.
  virtual Result<int64_t> Create(std::string_view arn, std::string_view meta,
                                 int64_t table_id) = 0;
  // Removes a backup and its items.
  virtual Status Delete(int64_t backup_id) = 0;
  // Removes every backup (Emulator::Reset).
  virtual Status DeleteAll() = 0;

  // Every backup, in creation (id) order.
  virtual Result<std::vector<BackupRow>> List() = 0;
  // Visits a backup's items in (pk, sk) order.
  virtual Status ScanItems(int64_t backup_id,
                           const BackupItemVisitor& visit) = 0;
};

}  // namespace ddblab::storage
