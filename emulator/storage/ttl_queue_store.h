// emulator/storage/ttl_queue_store.h: the typed store of the TTL deletion
// queue.
//
// Table (schema component "ttl", created by EnsureSchema):
//   ttl_queue(table_id, pk, sk, due)   PK (table_id, pk, sk), WITHOUT ROWID
//   index ttl_queue_due(due)           the sweep reads the earliest rows
// One row per item whose TTL deletion is scheduled; `due` is the whole epoch
// second at which it may be deleted. The engine decides what goes in
// (engine/ttl/ttl_queue.h); this store only keeps the rows.
//
// Reached through the ItemStore (reads) or the open WriteTransaction
// (writes, which then commit or roll back with the items).
//
// Ownership: owned by its ItemStore. Thread-safety: none; callers hold the
// engine lock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::storage {

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

class TtlQueueStore {
 public:
  virtual ~TtlQueueStore() = default;

  // Creates or upgrades the table (its own transaction: call outside any
  // open transaction).
  virtual Status EnsureSchema() = 0;

  // Insert or replace the row of an item.
  virtual Status Put(int64_t table_id, std::string_view pk, std::string_view sk,
                     int64_t due) = 0;
  virtual Status Remove(int64_t table_id, std::string_view pk,
                        std::string_view sk) = 0;
  virtual Status ClearTable(int64_t table_id) = 0;
  // Removes every row up to and including `last` in Due() order (one range
  // delete on the due index).
  virtual Status RemoveThrough(const TtlQueueRow& last) = 0;

  // Rows with due <= now_s, earliest first (then by table, key), at most
  // `limit`.
  virtual Result<std::vector<TtlQueueRow>> Due(int64_t now_s,
                                               int64_t limit) = 0;
  // Per table: row count and earliest due, by table id.
  virtual Result<std::vector<TtlQueueTableStats>> Stats() = 0;
  // The row of one item, if any.
  virtual Result<std::optional<int64_t>> DueOf(int64_t table_id,
                                               std::string_view pk,
                                               std::string_view sk) = 0;
  // The earliest due time of all rows (nullopt: the queue is empty).
  virtual Result<std::optional<int64_t>> Earliest() = 0;
};

}  // namespace ddblab::storage
