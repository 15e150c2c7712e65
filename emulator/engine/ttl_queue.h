// emulator/engine/ttl_queue.h: the TTL deletion queue and the ChangeSink
// that keeps it in step with every write.
//
// SQLite table (schema component "ttl"):
//   ttl_queue(table_id, pk, sk, due)   PK (table_id, pk, sk), WITHOUT ROWID
//   index ttl_queue_due(due)           the sweep reads the earliest rows
// One row per item of a TTL-enabled table whose deletion is scheduled; `due`
// is the whole epoch second at which it may be deleted (ttl_schedule.h). The
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
// Ownership: TtlQueue borrows the store's Database (the connection every
// WriteTransaction runs on); the sink shares the queue and borrows the store
// and clock (all owned by EmulatorImpl, which outlives its sinks' use).
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
#include "emulator/engine/ttl_schedule.h"
#include "emulator/storage/item_store.h"
#include "emulator/storage/sqlite.h"

namespace ddblab::engine {

struct TtlQueueRow {
  int64_t table_id = 0;
  std::string pk;
  std::string sk;
  int64_t due = 0;
};

struct TtlQueueTableStats {
  int64_t table_id = 0;
  int64_t waiting = 0;
  int64_t next_due = 0;
};

class TtlQueue {
 public:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::max();

  // Creates or upgrades the schema and prepares the statements.
  static Result<std::shared_ptr<TtlQueue>> Open(storage::Database& db);

  // Insert or replace the row of an item.
  Status Put(int64_t table_id, std::string_view pk, std::string_view sk,
             int64_t due);
  Status Remove(int64_t table_id, std::string_view pk, std::string_view sk);
  Status ClearTable(int64_t table_id);
  // Removes every row up to and including `last` in Due() order: after a
  // sweep batch, the rows it took (one range delete on the due index).
  Status RemoveThrough(const TtlQueueRow& last);

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
  explicit TtlQueue(storage::Database& db) : db_(db) {}
  void Lower(int64_t due);

  storage::Database& db_;
  storage::Database::Slot* put_ = nullptr;
  storage::Database::Slot* remove_ = nullptr;
  storage::Database::Slot* due_ = nullptr;
  storage::Database::Slot* min_ = nullptr;
  storage::Database::Slot* remove_through_ = nullptr;
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
  Status EnqueueExisting(const Table& table);

  std::shared_ptr<TtlQueue> queue_;
  storage::ItemStore& store_;
  TtlSchedule schedule_;
  const Clock& clock_;
};

}  // namespace ddblab::engine
