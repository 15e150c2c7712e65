#include "emulator/engine/ttl_queue.h"

#include <array>
#include <utility>

#include "emulator/engine/keys.h"
#include "emulator/storage/schema.h"
#include "emulator/value/item_codec.h"

namespace ddblab::engine {
namespace {

constexpr std::array<storage::Migration, 1> kMigrations = {{
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

const value::AttributeValue* NumberAttr(const value::Item* item,
                                        const std::string& name) {
  if (item == nullptr) return nullptr;
  auto it = item->find(name);
  if (it == item->end() ||
      it->second.type() != value::AttributeValue::Type::kN) {
    return nullptr;
  }
  return &it->second;
}

PrimaryKey EncodedKey(const Table& table, const value::Item& keys) {
  PrimaryKey key;
  if (auto it = keys.find(table.key.hash.name); it != keys.end()) {
    key.pk = EncodeKeyValue(it->second);
  }
  if (table.key.range) {
    if (auto it = keys.find(table.key.range->name); it != keys.end()) {
      key.sk = EncodeKeyValue(it->second);
    }
  }
  return key;
}

}  // namespace

// ---------------------------------------------------------------------------
// TtlQueue

Result<std::shared_ptr<TtlQueue>> TtlQueue::Open(storage::Database& db) {
  DDBLAB_RETURN_IF_ERROR(storage::ApplyMigrations(db, "ttl", kMigrations));
  std::shared_ptr<TtlQueue> queue(new TtlQueue(db));
  DDBLAB_ASSIGN_OR_RETURN(queue->put_, db.GetSlot(kPut));
  DDBLAB_ASSIGN_OR_RETURN(queue->remove_, db.GetSlot(kRemove));
  DDBLAB_ASSIGN_OR_RETURN(queue->due_, db.GetSlot(kDue));
  DDBLAB_ASSIGN_OR_RETURN(queue->min_, db.GetSlot(kMin));
  DDBLAB_ASSIGN_OR_RETURN(queue->remove_through_, db.GetSlot(kRemoveThrough));
  DDBLAB_RETURN_IF_ERROR(queue->RefreshEarliest());
  return queue;
}

void TtlQueue::Lower(int64_t due) {
  int64_t current = earliest_.load(std::memory_order_relaxed);
  while (due < current && !earliest_.compare_exchange_weak(
                              current, due, std::memory_order_release)) {
  }
}

Status TtlQueue::Put(int64_t table_id, std::string_view pk, std::string_view sk,
                     int64_t due) {
  DDBLAB_ASSIGN_OR_RETURN(storage::ScopedStatement stmt, db_.Use(put_));
  stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk).BindInt(4, due);
  DDBLAB_RETURN_IF_ERROR(stmt.Run());
  Lower(due);
  return OkStatus();
}

Status TtlQueue::Remove(int64_t table_id, std::string_view pk,
                        std::string_view sk) {
  DDBLAB_ASSIGN_OR_RETURN(storage::ScopedStatement stmt, db_.Use(remove_));
  stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk);
  return stmt.Run();
}

Status TtlQueue::ClearTable(int64_t table_id) {
  DDBLAB_ASSIGN_OR_RETURN(
      storage::ScopedStatement stmt,
      db_.Prepare("DELETE FROM ttl_queue WHERE table_id=?1"));
  stmt.BindInt(1, table_id);
  return stmt.Run();
}

Status TtlQueue::RemoveThrough(const TtlQueueRow& last) {
  DDBLAB_ASSIGN_OR_RETURN(storage::ScopedStatement stmt,
                          db_.Use(remove_through_));
  stmt.BindInt(1, last.due)
      .BindInt(2, last.table_id)
      .BindBlob(3, last.pk)
      .BindBlob(4, last.sk);
  return stmt.Run();
}

Result<std::vector<TtlQueueRow>> TtlQueue::Due(int64_t now_s, int64_t limit) {
  DDBLAB_ASSIGN_OR_RETURN(storage::ScopedStatement stmt, db_.Use(due_));
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

Result<std::vector<TtlQueueTableStats>> TtlQueue::Stats() {
  DDBLAB_ASSIGN_OR_RETURN(
      storage::ScopedStatement stmt,
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

Result<std::optional<int64_t>> TtlQueue::DueOf(int64_t table_id,
                                               std::string_view pk,
                                               std::string_view sk) {
  DDBLAB_ASSIGN_OR_RETURN(
      storage::ScopedStatement stmt,
      db_.Prepare("SELECT due FROM ttl_queue WHERE table_id=?1 AND pk=?2 AND "
                  "sk=?3"));
  stmt.BindInt(1, table_id).BindBlob(2, pk).BindBlob(3, sk);
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<int64_t>();
  return std::optional<int64_t>(stmt.ColumnInt(0));
}

Status TtlQueue::RefreshEarliest() {
  DDBLAB_ASSIGN_OR_RETURN(storage::ScopedStatement stmt, db_.Use(min_));
  DDBLAB_ASSIGN_OR_RETURN(bool row, stmt.Step());
  int64_t earliest =
      (row && !stmt.ColumnIsNull(0)) ? stmt.ColumnInt(0) : kEmpty;
  earliest_.store(earliest, std::memory_order_release);
  return OkStatus();
}

// ---------------------------------------------------------------------------
// TtlQueueSink

Status TtlQueueSink::OnChange(const ChangeEvent& event,
                              storage::WriteTransaction& txn) {
  (void)txn;  // the queue writes on the same connection (store.database())
  // The sweeper removes the rows of the items it deletes.
  if (event.origin == ChangeEvent::Origin::kTtl) return OkStatus();
  const Table& table = event.table;
  const std::string& attr = table.ttl.attribute;
  DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_image, event.OldImage());
  const value::AttributeValue* before = NumberAttr(old_image, attr);
  const value::AttributeValue* after = NumberAttr(event.new_image, attr);
  if (before == nullptr && after == nullptr) return OkStatus();
  if (before != nullptr && after != nullptr && before->n() == after->n()) {
    return OkStatus();  // TTL value unchanged: the row (if any) stands
  }
  PrimaryKey key = EncodedKey(table, event.keys);
  std::optional<int64_t> due;
  if (after != nullptr) {
    due = schedule_.DueOf(table, key.pk, key.sk, *event.new_image,
                          ToEpochSeconds(event.now));
  }
  if (!due) {
    if (before == nullptr) return OkStatus();
    return queue_->Remove(table.id, key.pk, key.sk);
  }
  return queue_->Put(table.id, key.pk, key.sk, *due);
}

Status TtlQueueSink::OnTableUpdated(const Table& before, const Table& after,
                                    storage::WriteTransaction& txn) {
  (void)txn;
  if (before.ttl.enabled == after.ttl.enabled &&
      before.ttl.attribute == after.ttl.attribute) {
    return OkStatus();
  }
  if (before.ttl.enabled) DDBLAB_RETURN_IF_ERROR(queue_->ClearTable(before.id));
  if (after.ttl.enabled) return EnqueueExisting(after);
  return OkStatus();
}

Status TtlQueueSink::OnTableDeleted(const Table& table,
                                    storage::WriteTransaction& txn) {
  (void)txn;
  return queue_->ClearTable(table.id);
}

Status TtlQueueSink::EnqueueExisting(const Table& table) {
  const int64_t now_s = ToEpochSeconds(clock_.Now());
  storage::ScanSpec spec;
  spec.table_id = table.id;
  Status failure = OkStatus();
  Status scanned = store_.Scan(spec, [&](const storage::Row& row) {
    Result<value::Item> item = value::DeserializeItem(row.item);
    if (!item.ok()) {
      failure = std::move(item).error();
      return false;
    }
    std::optional<int64_t> due =
        schedule_.DueOf(table, row.pk, row.sk, *item, now_s);
    if (!due) return true;
    Status put = queue_->Put(table.id, row.pk, row.sk, *due);
    if (!put.ok()) {
      failure = std::move(put);
      return false;
    }
    return true;
  });
  DDBLAB_RETURN_IF_ERROR(scanned);
  return failure;
}

}  // namespace ddblab::engine
