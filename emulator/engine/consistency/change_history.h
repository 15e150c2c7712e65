// emulator/engine/consistency/change_history.h: the recent changes of the
// rows of a table and of its indexes, kept so that a read can see them as
// they were (consistency.h decides which changes are kept and for how long).
//
// A change of one row (a base-table item, keyed (pk, sk); or an index entry,
// keyed (ipk, isk, pk, sk)) records what the row held BEFORE it (the stored
// bytes and size, or nothing when the row did not exist) and the time it
// becomes visible: a base-table or LSI write is visible when it is made; a
// GSI change when it reaches the index (write time + lag). Within one
// (table, index), changes are recorded in write order with visible times
// that never go down (Record raises a time below the last one to it), so:
//
//   the row as seen at time T = the `before` of its first change visible
//   after T, or the current row when it has none.
//
// Trim forgets changes no reader can see any more; Clear* forget all of a
// table or an index (settle, DeleteTable, index deletion).
//
// Thread-safety: none; the engine lock guards the owner (Consistency).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "emulator/api/clock.h"
#include "emulator/storage/item_store.h"

namespace ddblab::engine {

// A row's position: (ipk, isk, pk, sk); ipk and isk empty for the base
// table. Ordered as storage orders rows (bytes, column by column).
struct RowKey {
  std::string ipk, isk, pk, sk;
  friend auto operator<=>(const RowKey&, const RowKey&) = default;
};

struct RowChange {
  TimePoint visible_at;
  std::optional<storage::StoredItem> before;  // nullopt: the row was absent
};

class ChangeHistory {
 public:
  struct Rows {
    std::map<RowKey, std::deque<RowChange>> by_key;
    // Every change's key, in the order recorded (= visible_at order).
    std::deque<std::pair<TimePoint, RowKey>> order;
    TimePoint last_visible{};
  };

  // Records a change of `key` in (table_id, index_id). Returns the visible
  // time kept (at least the last one of that index).
  TimePoint Record(int64_t table_id, int64_t index_id, RowKey key,
                   std::optional<storage::StoredItem> before,
                   TimePoint visible_at);

  // The last visible time recorded for (table_id, index_id), or the epoch.
  TimePoint LastVisible(int64_t table_id, int64_t index_id) const;

  // The rows of (table_id, index_id) with a change visible after `at`, or
  // null when there are none (the current rows are what a read at `at`
  // sees).
  const Rows* ChangedAfter(int64_t table_id, int64_t index_id,
                           TimePoint at) const;

  // The row at `key` as seen at `at`: nullopt when its current state is
  // what a reader sees; else what it held (an inner nullopt: absent).
  static const std::optional<storage::StoredItem>* SeenAt(const Rows& rows,
                                                          const RowKey& key,
                                                          TimePoint at);

  // Forgets, in (table_id, index_id), the changes visible at or before
  // `cutoff`.
  void Trim(int64_t table_id, int64_t index_id, TimePoint cutoff);
  // Changes of (table_id, index_id) visible after `at`.
  size_t PendingAfter(int64_t table_id, int64_t index_id, TimePoint at) const;

  void ClearIndex(int64_t table_id, int64_t index_id);
  void ClearTable(int64_t table_id);
  void Clear() { rows_.clear(); }
  bool empty() const { return rows_.empty(); }

  // Every (table_id, index_id) with changes kept.
  template <typename F>
  void ForEach(F&& f) const {
    for (const auto& [id, rows] : rows_) f(id.first, id.second, rows);
  }

 private:
  std::map<std::pair<int64_t, int64_t>, Rows> rows_;
};

}  // namespace ddblab::engine
