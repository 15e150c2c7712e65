// emulator/storage/sqlite_item_store.h: the SQLite-backed ItemStore.
//
//   DDBLAB_ASSIGN_OR_RETURN(auto store, SqliteItemStore::Open(":memory:"));
//
// Opens the database (see sqlite.h for durability), creates or upgrades the
// core schema (schema.h) and prepares the hot statements once. The store owns
// the Database and its sub-stores (TTL queue, stream log, backups), which run
// on the same connection, so they join every WriteTransaction. database() is
// for storage's own tests: it is not part of ItemStore, and no layer above
// storage/ uses it.
//
// Thread-safety: none (see item_store.h); the engine serialises access.
#pragma once

#include <memory>
#include <string>

#include "emulator/storage/item_store.h"
#include "emulator/storage/sqlite.h"
#include "emulator/storage/sqlite_backup_store.h"
#include "emulator/storage/sqlite_stream_store.h"
#include "emulator/storage/sqlite_ttl_queue_store.h"

namespace ddblab::storage {

class SqliteItemStore final : public ItemStore {
 public:
  static Result<std::unique_ptr<SqliteItemStore>> Open(const std::string& path);
  ~SqliteItemStore() override;

  Result<std::optional<StoredItem>> Get(int64_t table_id, std::string_view pk,
                                        std::string_view sk) override;
  Status Scan(const ScanSpec& spec, const RowVisitor& visit) override;
  Result<std::unique_ptr<WriteTransaction>> Begin() override;
  bool in_transaction() const override { return in_transaction_; }
  Result<std::vector<CatalogRow>> LoadCatalog() override;
  Result<Stats> ComputeStats(int64_t table_id, int64_t index_id) override;
  TtlQueueStore& ttl_queue() override { return *ttl_queue_; }
  StreamStore& streams() override { return *streams_; }
  BackupStore& backups() override { return *backups_; }
  Database& database() { return *db_; }

 private:
  friend class SqliteWriteTransaction;
  struct Slots {
    // The *_nosk forms take sk as the literal x'' (hash-only keys): one
    // blob binding fewer on the hot paths.
    Database::Slot* get_item = nullptr;
    Database::Slot* get_item_nosk = nullptr;
    Database::Slot* delete_item_nosk = nullptr;
    Database::Slot* delete_entry_nosk = nullptr;
    Database::Slot* put_item = nullptr;
    Database::Slot* insert_item = nullptr;
    Database::Slot* delete_item = nullptr;
    Database::Slot* put_entry = nullptr;
    Database::Slot* delete_entry = nullptr;
    Database::Slot* begin = nullptr;
    Database::Slot* commit = nullptr;
    Database::Slot* rollback = nullptr;
  };

  explicit SqliteItemStore(std::unique_ptr<Database> db);
  Status PrepareSlots();

  std::unique_ptr<Database> db_;
  std::unique_ptr<SqliteTtlQueueStore> ttl_queue_;
  std::unique_ptr<SqliteStreamStore> streams_;
  std::unique_ptr<SqliteBackupStore> backups_;
  Slots slots_;
  bool in_transaction_ = false;
};

}  // namespace ddblab::storage
