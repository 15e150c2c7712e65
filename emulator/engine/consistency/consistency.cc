// emulator/engine/consistency/consistency.cc: the eventual-consistency
// model (consistency.h).
#include "emulator/engine/consistency/consistency.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace ddblab::engine {

Consistency::Consistency(ConsistencyOptions defaults, uint64_t seed)
    : defaults_(defaults), rng_(Rng(seed).Fork("consistency")) {
  Refresh();
}

void Consistency::SetDefaults(ConsistencyOptions defaults) {
  defaults_ = defaults;
  Refresh();
}

void Consistency::SetTable(const std::string& name, TableLags lags) {
  if (!lags.read_lag && !lags.index_lag && lags.indexes.empty()) {
    tables_.erase(name);
  } else {
    tables_[name] = std::move(lags);
  }
  Refresh();
}

void Consistency::Refresh() {
  longest_read_lag_ = defaults_.read_lag.max;
  active_ = !defaults_.read_lag.off() || !defaults_.index_lag.off();
  for (const auto& [name, lags] : tables_) {
    if (lags.read_lag) {
      longest_read_lag_ = std::max(longest_read_lag_, lags.read_lag->max);
      active_ = active_ || !lags.read_lag->off();
    }
    if (lags.index_lag) active_ = active_ || !lags.index_lag->off();
    for (const auto& [index, lag] : lags.indexes) {
      active_ = active_ || !lag.off();
    }
  }
}

LagRange Consistency::ReadLagOf(const Table& table) const {
  auto it = tables_.find(table.name);
  if (it != tables_.end() && it->second.read_lag) return *it->second.read_lag;
  return defaults_.read_lag;
}

LagRange Consistency::IndexLagOf(const Table& table,
                                 const IndexDef& index) const {
  auto it = tables_.find(table.name);
  if (it != tables_.end()) {
    auto idx = it->second.indexes.find(index.name);
    if (idx != it->second.indexes.end()) return idx->second;
    if (it->second.index_lag) return *it->second.index_lag;
  }
  return defaults_.index_lag;
}

Duration Consistency::TableHorizon(const Table& table) const {
  return std::max(ReadLagOf(table).max, stale_read_horizon_);
}

bool Consistency::KeepsTableChanges(const Table& table) const {
  return TableHorizon(table) > Duration::zero();
}

Duration Consistency::Draw(const LagRange& lag) {
  if (lag.min == lag.max) return lag.max;
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  const auto lo = duration_cast<milliseconds>(lag.min).count();
  const auto hi = duration_cast<milliseconds>(lag.max).count();
  return milliseconds(lo + static_cast<int64_t>(rng_.Uniform(
                               static_cast<uint64_t>(hi - lo) + 1)));
}

std::optional<TimePoint> Consistency::IndexVisibleAt(const Table& table,
                                                     const IndexDef& index,
                                                     TimePoint now,
                                                     const CallFaults* faults) {
  if (!index.global) return std::nullopt;
  if (faults != nullptr) {
    for (const CallFaults::IndexLag& f : faults->index_lags) {
      if (f.table == table.name && f.index == index.name) {
        return now + f.duration;
      }
    }
  }
  const LagRange lag = IndexLagOf(table, index);
  // An index that stopped lagging still keeps write order behind its
  // pending changes (ChangeHistory::Record raises the time).
  if (lag.off()) {
    if (history_.LastVisible(table.id, index.id) > now) return now;
    return std::nullopt;
  }
  return now + Draw(lag);
}

ReadView Consistency::View(storage::ItemStore& store, const Table& table,
                           const IndexDef* index, bool consistent,
                           TimePoint now, const CallFaults& faults) {
  if (history_.empty()) return ReadView(store);
  Trim(now);  // reads too keep no more history than a reader can see
  if (index != nullptr && index->global) return ReadView(store, &history_, now);
  if (consistent) return ReadView(store);
  Duration lag = faults.stale_read;
  if (lag == Duration::zero()) {
    const LagRange range = ReadLagOf(table);
    if (range.off()) return ReadView(store);
    lag = Draw(range);
  }
  return ReadView(store, &history_, now - lag);
}

void Consistency::Trim(TimePoint now) {
  if (history_.empty()) return;
  std::vector<std::pair<int64_t, int64_t>> ids;
  history_.ForEach(
      [&](int64_t table_id, int64_t index_id, const ChangeHistory::Rows&) {
        ids.emplace_back(table_id, index_id);
      });
  const Duration keep = std::max(longest_read_lag_, stale_read_horizon_);
  for (const auto& [table_id, index_id] : ids) {
    const bool lagging = lagging_.count({table_id, index_id}) > 0;
    history_.Trim(table_id, index_id, lagging ? now : now - keep);
  }
}

size_t Consistency::Settle(TimePoint now) {
  size_t pending = 0;
  for (const auto& [table_id, index_id] : lagging_) {
    pending += history_.PendingAfter(table_id, index_id, now);
    history_.ClearIndex(table_id, index_id);
  }
  return pending;
}

size_t Consistency::Pending(int64_t table_id, int64_t index_id,
                            TimePoint now) const {
  if (lagging_.count({table_id, index_id}) == 0) return 0;
  return history_.PendingAfter(table_id, index_id, now);
}

void Consistency::ForgetTable(int64_t table_id) {
  history_.ClearTable(table_id);
  std::erase_if(lagging_, [&](const std::pair<int64_t, int64_t>& id) {
    return id.first == table_id;
  });
}

void Consistency::ForgetIndex(int64_t table_id, int64_t index_id) {
  history_.ClearIndex(table_id, index_id);
  lagging_.erase({table_id, index_id});
}

}  // namespace ddblab::engine
