// emulator/storage/sqlite_ttl_queue_store.cc: the SQL of the TTL queue.
#include "emulator/storage/sqlite_ttl_queue_store.h"

#include <array>

#include "emulator/storage/schema.h"

namespace ddblab::storage {
namespace {

constexpr std::array<Migration, 1> kMigrations = {{
    {1, R"sql(
CREATE TABLE IF NOT EXISTS ttl_queue (
  table_id INTEGER NOT NULL,
  pk BLOB NOT NULL,
  sk BLOB NOT NULL,
  due INTEGER NOT NULL,
  PRIMARY KEY (table_id, pk, sk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ttl_queue_due ON ttl_queue(due);
)sql"},
}};

constexpr std::string_view kPut =
    "INSERT INTO ttl_queue(table_id, pk, sk, due) VALUES(?1, ?2, ?3, ?4) "
    "ON CONFLICT(table_id, pk, sk) DO UPDATE SET due=excluded.due";
constexpr std::string_view kRemove =
    "DELETE FROM ttl_queue WHERE table_id=?1 AND pk=?2 AND sk=?3";
constexpr std::string_view kDue =
    "SELECT table_id, pk, sk, due FROM ttl_queue WHERE due <= ?1 "
    "ORDER BY due, table_id, pk, sk LIMIT ?2";
constexpr std::string_view kMin = "SELECT MIN(due) FROM ttl_queue";
// A range on the due index (whose key is due, table_id, pk, sk).
constexpr std::string_view kRemoveThrough =
    "DELETE FROM ttl_queue WHERE (due, table_id, pk, sk) <= (?1, ?2, ?3, ?4)";

}  // namespace

Status SqliteTtlQueueStore::EnsureSchema() {
  DDBLAB_RETURN_IF_ERROR(ApplyMigrations(db_, "ttl", kMigrations));
  DDBLAB_ASSIGN_OR_RETURN(put_, db_.GetSlot(kPut));
  DDBLAB_ASSIGN_OR_RETURN(remove_, db_.GetSlot(kRemove));
  DDBLAB_ASSIGN_OR_RETURN(due_, db_.GetSlot(kDue));
  DDBLAB_ASSIGN_OR_RETURN(min_, db_.GetSlot(kMin));
  DDBLAB_ASSIGN_OR_RETURN(remove_through_, db_.GetSlot(kRemoveThrough));
  return OkStatus();
}

Result<ScopedStatement> SqliteTtlQueueStore::Use(Database::Slot* slot) {
  if (slot == nullptr) {
    return Error::Internal("the TTL queue is used before EnsureSchema");
  }
  return db_.Use(slot);
}

Status SqliteTtlQueueStore::Put(int64_t table_id, std::string_view pk,
                                std::string_view sk, int64_t due) {
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, Use(put_));
  stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk).BindInt(4, due);
  return stmt.Run();
}

Status SqliteTtlQueueStore::Remove(int64_t table_id, std::string_view pk,
                                   std::string_view sk) {
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, Use(remove_));
  stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk);
  return stmt.Run();
}

Status SqliteTtlQueueStore::ClearTable(int64_t table_id) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db_.Prepare("DELETE FROM ttl_queue WHERE table_id=?1"));
  stmt.BindInt(1, table_id);
  return stmt.Run();
}

Status SqliteTtlQueueStore::RemoveThrough(const TtlQueueRow& last) {
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, Use(remove_through_));
  stmt.BindInt(1, last.due)
      .BindInt(2, last.table_id)
      .BindBlob(3, last.pk)
      .BindBlob(4, last.sk);
  return stmt.Run();
}

Result<std::vector<TtlQueueRow>> SqliteTtlQueueStore::Due(int64_t now_s,
                                                          int64_t limit) {
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, Use(due_));
  stmt.BindInt(1, now_s).BindInt(2, limit);
  std::vector<TtlQueueRow> rows;
  for (;;) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    rows.push_back(
        TtlQueueRow{stmt.ColumnInt(0), std::string(stmt.ColumnBlob(1)),
                    std::string(stmt.ColumnBlob(2)), stmt.ColumnInt(3)});
  }
  return rows;
}

Result<std::vector<TtlQueueTableStats>> SqliteTtlQueueStore::Stats() {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db_.Prepare("SELECT table_id, COUNT(*), MIN(due) FROM ttl_queue "
                  "GROUP BY table_id ORDER BY table_id"));
  std::vector<TtlQueueTableStats> out;
  for (;;) {
    DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    out.push_back(TtlQueueTableStats{stmt.ColumnInt(0), stmt.ColumnInt(1),
                                     stmt.ColumnInt(2)});
  }
  return out;
}

Result<std::optional<int64_t>> SqliteTtlQueueStore::DueOf(int64_t table_id,
                                                          std::string_view pk,
                                                          std::string_view sk) {
  DDBLAB_ASSIGN_OR_RETURN(
      ScopedStatement stmt,
      db_.Prepare("SELECT due FROM ttl_queue WHERE table_id=?1 AND pk=?2 AND "
                  "sk=?3"));
  stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk);
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<int64_t>();
  return std::optional<int64_t>(stmt.ColumnInt(0));
}

Result<std::optional<int64_t>> SqliteTtlQueueStore::Earliest() {
  DDBLAB_ASSIGN_OR_RETURN(ScopedStatement stmt, Use(min_));
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row || stmt.ColumnIsNull(0)) return std::optional<int64_t>();
  return std::optional<int64_t>(stmt.ColumnInt(0));
}

}  // namespace ddblab::storage
