// emulator/engine/ttl/ttl_queue.h: the TTL deletion queue and the ChangeSink
// that keeps it in step with every write.
//
// The rows live in the store's TTL queue (storage/ttl_queue_store.h, which
// holds the SQL): one row per item of a TTL-enabled table whose deletion is
// scheduled; `due` is the whole epoch second at which it may be deleted
// (ttl_schedule.h). The
// sweeper (ttl_sweeper.h) reads rows with due <= now, so a sweep costs what
// it deletes, never a table scan.
//
// TtlQueueSink (a ChangeSink, see change_event.h) maintains the rows in the
// transaction of each write: a write that sets or changes the TTL value adds
// or replaces the row, one that removes it (or deletes the item) removes the
// row — except TTL deletions (Origin::kTtl): the sweeper removes the rows of
// its batch itself, in one range delete. Enabling TTL enqueues the table's
// existing items (one pass, in the UpdateTimeToLive transaction); disabling TTL
// or dropping the table clears its rows.
//
// TtlQueue also keeps an in-memory hint of the earliest due time, so that
// "is anything due?" costs one atomic load: every Put lowers it, and
// RefreshEarliest() (after a sweep, at startup) re-reads MIN(due). It may be
// early (a rolled-back Put), never late.
//
// Ownership: TtlQueue borrows the store (reads); writes go to the sub-store
// of the transaction they belong to. The sink shares the queue and borrows the
// store and clock (all owned by EmulatorImpl, which outlives its sinks' use).
// Thread-safety: everything but earliest_hint() needs the engine lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/change_event.h"
#include "emulator/engine/ttl/ttl_schedule.h"
#include "emulator/storage/item_store.h"
#include "emulator/storage/ttl_queue_store.h"

namespace ddblab::engine {

using storage::TtlQueueRow;
using storage::TtlQueueTableStats;

class TtlQueue {
 public:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::max();

  // Creates or upgrades the queue's table (store.ttl_queue().EnsureSchema())
  // and reads the earliest due time.
  static Result<std::shared_ptr<TtlQueue>> Open(storage::ItemStore& store);

  // Writes go to `rows`: the open transaction's txn.ttl_queue() (or, in
  // tests, the store's, outside any transaction).
  // Insert or replace the row of an item (and lower the hint).
  Status Put(storage::TtlQueueStore& rows, int64_t table_id,
             std::string_view pk, std::string_view sk, int64_t due);
  Status Remove(storage::TtlQueueStore& rows, int64_t table_id,
                std::string_view pk, std::string_view sk);
  Status ClearTable(storage::TtlQueueStore& rows, int64_t table_id);
  // Removes every row up to and including `last` in Due() order: after a
  // sweep batch, the rows it took (one range delete on the due index).
  Status RemoveThrough(storage::TtlQueueStore& rows, const TtlQueueRow& last);

  // Reads, through the store.
  // Rows with due <= now_s, earliest first (then by table, key), at most
  // `limit`.
  Result<std::vector<TtlQueueRow>> Due(int64_t now_s, int64_t limit);
  // Per table: row count and earliest due, by table id.
  Result<std::vector<TtlQueueTableStats>> Stats();
  // The row of one item, if any (tests, diagnostics).
  Result<std::optional<int64_t>> DueOf(int64_t table_id, std::string_view pk,
                                       std::string_view sk);

  // Lock-free: the earliest due time, or kEmpty (see above).
  int64_t earliest_hint() const {
    return earliest_.load(std::memory_order_acquire);
  }
  Status RefreshEarliest();

 private:
  explicit TtlQueue(storage::ItemStore& store) : store_(store) {}
  void Lower(int64_t due);

  storage::ItemStore& store_;
  std::atomic<int64_t> earliest_{kEmpty};
};

class TtlQueueSink final : public ChangeSink {
 public:
  TtlQueueSink(std::shared_ptr<TtlQueue> queue, storage::ItemStore& store,
               TtlSchedule schedule, const Clock& clock)
      : queue_(std::move(queue)),
        store_(store),
        schedule_(schedule),
        clock_(clock) {}

  bool Wants(const Table& table) const override { return table.ttl.enabled; }
  Status OnChange(const ChangeEvent& event,
                  storage::WriteTransaction& txn) override;
  Status OnTableUpdated(const Table& before, const Table& after,
                        storage::WriteTransaction& txn) override;
  Status OnTableDeleted(const Table& table,
                        storage::WriteTransaction& txn) override;

 private:
  // Adds a row for every item of `table` that TTL will delete.
  Status EnqueueExisting(const Table& table, storage::WriteTransaction& txn);

  std::shared_ptr<TtlQueue> queue_;
  storage::ItemStore& store_;
  TtlSchedule schedule_;
  const Clock& clock_;
};

}  // namespace ddblab::engine
