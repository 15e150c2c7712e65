// emulator/storage/sqlite_ttl_queue_store.h: the SQLite TtlQueueStore.
//
// Runs on the Database of its SqliteItemStore (the connection every
// WriteTransaction uses). The hot statements are prepared by EnsureSchema;
// a call before it fails with an InternalServerError.
//
// Ownership: owned by SqliteItemStore; borrows its Database.
// Thread-safety: none (see ttl_queue_store.h).
#pragma once

#include "emulator/storage/sqlite.h"
#include "emulator/storage/ttl_queue_store.h"

namespace ddblab::storage {

class SqliteTtlQueueStore final : public TtlQueueStore {
 public:
  explicit SqliteTtlQueueStore(Database& db) : db_(db) {}

  Status EnsureSchema() override;
  Status Put(int64_t table_id, std::string_view pk, std::string_view sk,
             int64_t due) override;
  Status Remove(int64_t table_id, std::string_view pk,
                std::string_view sk) override;
  Status ClearTable(int64_t table_id) override;
  Status RemoveThrough(const TtlQueueRow& last) override;
  Result<std::vector<TtlQueueRow>> Due(int64_t now_s, int64_t limit) override;
  Result<std::vector<TtlQueueTableStats>> Stats() override;
  Result<std::optional<int64_t>> DueOf(int64_t table_id, std::string_view pk,
                                       std::string_view sk) override;
  Result<std::optional<int64_t>> Earliest() override;

 private:
  // A statement from a slot prepared by EnsureSchema.
  Result<ScopedStatement> Use(Database::Slot* slot);

  Database& db_;
  Database::Slot* put_ = nullptr;
  Database::Slot* remove_ = nullptr;
  Database::Slot* due_ = nullptr;
  Database::Slot* min_ = nullptr;
  Database::Slot* remove_through_ = nullptr;
};

}  // namespace ddblab::storage
