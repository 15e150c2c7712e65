// emulator/engine/consistency/consistency.h: ddblab's model of DynamoDB's
// eventual consistency, seeded and on the emulator's clock. Off by default:
// with both lags off and no stale_read fault, nothing is recorded and every
// read sees the current state (one branch per write and per read).
//
//   - Lagging global secondary indexes. A base-table write (any operation,
//     TTL deletions too) changes each GSI `lag` later on the clock; the lag
//     is drawn per write and per index from the model's seeded generator
//     within the index's LagRange (or pinned by an index_lag fault). The
//     changes of one index become visible in write order. Until then a
//     Query or Scan of the index sees the entries as they were: old
//     projected attributes, entries of deleted items, entries under the old
//     key. LSIs stay synchronous. The store always holds the current
//     entries; ChangeHistory keeps what they replaced (change_history.h) and
//     ReadView undoes what a reader must not see yet (read_view.h).
//   - Stale eventually consistent reads. GetItem, BatchGetItem, Query and
//     Scan of the table or an LSI (and PartiQL SELECT) without
//     ConsistentRead see the table as it was `lag` ago, drawn per read (or
//     pinned by a stale_read fault). ConsistentRead, TransactGetItems,
//     condition checks and writes see the current state. Base-table and LSI
//     changes are kept for the longest read lag (or stale_read fault) in
//     force, and no longer.
//
// Settings: the defaults (Options.consistency), per table and per index
// overrides (SetTable), all changeable while running. Settle(now) makes every
// pending index change visible at once. A restart forgets the history: the
// store holds the current state, which every read then sees.
//
// Thread-safety: none; EmulatorImpl owns it under the engine lock.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "emulator/api/clock.h"
#include "emulator/api/lag.h"
#include "emulator/api/random.h"
#include "emulator/engine/call_context.h"
#include "emulator/engine/consistency/change_history.h"
#include "emulator/engine/consistency/read_view.h"
#include "emulator/engine/table.h"
#include "emulator/storage/item_store.h"

namespace ddblab::engine {

// A table's overrides of the defaults.
struct TableLags {
  std::optional<LagRange> read_lag;
  std::optional<LagRange> index_lag;        // every GSI of the table
  std::map<std::string, LagRange> indexes;  // one GSI, by name
};

class Consistency {
 public:
  Consistency(ConsistencyOptions defaults, uint64_t seed);

  const ConsistencyOptions& defaults() const { return defaults_; }
  void SetDefaults(ConsistencyOptions defaults);
  const std::map<std::string, TableLags>& tables() const { return tables_; }
  // Replaces a table's overrides (an empty TableLags removes them).
  void SetTable(const std::string& name, TableLags lags);
  // The longest stale_read fault of the plan (fault::Injector's
  // stale_read_horizon()), so that enough base-table history is kept.
  void set_stale_read_horizon(Duration d) { stale_read_horizon_ = d; }

  LagRange ReadLagOf(const Table& table) const;
  LagRange IndexLagOf(const Table& table, const IndexDef& index) const;

  // Whether any write may need recording: one branch for WriteBatch.
  bool active() const {
    return active_ || stale_read_horizon_ > Duration::zero() ||
           !history_.empty();
  }
  // Whether writes to `table` keep their base-table and LSI changes.
  bool KeepsTableChanges(const Table& table) const;
  // When a change of GSI `index`, written now by a call with `faults`
  // (null: none, e.g. a TTL deletion), becomes visible; nullopt: at once
  // (the index does not lag). Draws from the generator when the lag is a
  // range.
  std::optional<TimePoint> IndexVisibleAt(const Table& table,
                                          const IndexDef& index, TimePoint now,
                                          const CallFaults* faults);

  // What a read of `table` (or of `index` on it; null: the table) sees. A
  // GSI read sees the changes visible by `now`; an eventually consistent
  // read of the table or an LSI sees the state of its drawn lag ago; a
  // consistent one the current state.
  ReadView View(storage::ItemStore& store, const Table& table,
                const IndexDef* index, bool consistent, TimePoint now,
                const CallFaults& faults);

  ChangeHistory& history() { return history_; }
  // Marks (table_id, index_id) as a lagging GSI (its changes are forgotten
  // once visible; Settle applies them).
  void NoteLaggingIndex(int64_t table_id, int64_t index_id) {
    lagging_.insert({table_id, index_id});
  }
  // Forgets what no reader can see any more at `now`.
  void Trim(TimePoint now);
  // Makes every pending index change visible now; returns how many index
  // changes were still pending at `now`.
  size_t Settle(TimePoint now);
  // Index changes of (table_id, index_id) not yet visible at `now`.
  size_t Pending(int64_t table_id, int64_t index_id, TimePoint now) const;
  // A dropped table or index: its history goes.
  void ForgetTable(int64_t table_id);
  void ForgetIndex(int64_t table_id, int64_t index_id);
  void ForgetAll() {
    history_.Clear();
    lagging_.clear();
  }

 private:
  Duration Draw(const LagRange& lag);
  Duration TableHorizon(const Table& table) const;
  void Refresh();

  ConsistencyOptions defaults_;
  std::map<std::string, TableLags> tables_;
  Rng rng_;
  ChangeHistory history_;
  std::set<std::pair<int64_t, int64_t>> lagging_;
  Duration stale_read_horizon_{};
  // Any lag on anywhere, or a stale_read fault: writes may record.
  bool active_ = false;
  // The longest base-table lag in force (defaults, overrides, faults).
  Duration longest_read_lag_{};
};

}  // namespace ddblab::engine
