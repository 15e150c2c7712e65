#include "emulator/engine/ttl/ttl_queue.h"

#include <array>
#include <utility>

#include "emulator/engine/keys.h"
#include "emulator/value/item_codec.h"

namespace ddblab::engine {
namespace {

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

Result<std::shared_ptr<TtlQueue>> TtlQueue::Open(storage::ItemStore& store) {
  DDBLAB_RETURN_IF_ERROR(store.ttl_queue().EnsureSchema());
  std::shared_ptr<TtlQueue> queue(new TtlQueue(store));
  DDBLAB_RETURN_IF_ERROR(queue->RefreshEarliest());
  return queue;
}

void TtlQueue::Lower(int64_t due) {
  int64_t current = earliest_.load(std::memory_order_relaxed);
  while (due < current && !earliest_.compare_exchange_weak(
                              current, due, std::memory_order_release)) {
  }
}

Status TtlQueue::Put(storage::TtlQueueStore& rows, int64_t table_id,
                     std::string_view pk, std::string_view sk, int64_t due) {
  DDBLAB_RETURN_IF_ERROR(rows.Put(table_id, pk, sk, due));
  Lower(due);
  return OkStatus();
}

Status TtlQueue::Remove(storage::TtlQueueStore& rows, int64_t table_id,
                        std::string_view pk, std::string_view sk) {
  return rows.Remove(table_id, pk, sk);
}

Status TtlQueue::ClearTable(storage::TtlQueueStore& rows, int64_t table_id) {
  return rows.ClearTable(table_id);
}

Status TtlQueue::RemoveThrough(storage::TtlQueueStore& rows,
                               const TtlQueueRow& last) {
  return rows.RemoveThrough(last);
}

Result<std::vector<TtlQueueRow>> TtlQueue::Due(int64_t now_s, int64_t limit) {
  return store_.ttl_queue().Due(now_s, limit);
}

Result<std::vector<TtlQueueTableStats>> TtlQueue::Stats() {
  return store_.ttl_queue().Stats();
}

Result<std::optional<int64_t>> TtlQueue::DueOf(int64_t table_id,
                                               std::string_view pk,
                                               std::string_view sk) {
  return store_.ttl_queue().DueOf(table_id, pk, sk);
}

Status TtlQueue::RefreshEarliest() {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<int64_t> earliest,
                          store_.ttl_queue().Earliest());
  earliest_.store(earliest.value_or(kEmpty), std::memory_order_release);
  return OkStatus();
}

// ---------------------------------------------------------------------------
// TtlQueueSink

Status TtlQueueSink::OnChange(const ChangeEvent& event,
                              storage::WriteTransaction& txn) {
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
    return queue_->Remove(txn.ttl_queue(), table.id, key.pk, key.sk);
  }
  return queue_->Put(txn.ttl_queue(), table.id, key.pk, key.sk, *due);
}

Status TtlQueueSink::OnTableUpdated(const Table& before, const Table& after,
                                    storage::WriteTransaction& txn) {
  if (before.ttl.enabled == after.ttl.enabled &&
      before.ttl.attribute == after.ttl.attribute) {
    return OkStatus();
  }
  if (before.ttl.enabled) {
    DDBLAB_RETURN_IF_ERROR(queue_->ClearTable(txn.ttl_queue(), before.id));
  }
  if (after.ttl.enabled) return EnqueueExisting(after, txn);
  return OkStatus();
}

Status TtlQueueSink::OnTableDeleted(const Table& table,
                                    storage::WriteTransaction& txn) {
  return queue_->ClearTable(txn.ttl_queue(), table.id);
}

Status TtlQueueSink::EnqueueExisting(const Table& table,
                                     storage::WriteTransaction& txn) {
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
    Status put = queue_->Put(txn.ttl_queue(), table.id, row.pk, row.sk, *due);
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
