// emulator/engine/consistency/change_history.cc: recent row changes
// (change_history.h).
#include "emulator/engine/consistency/change_history.h"

#include <algorithm>

namespace ddblab::engine {

TimePoint ChangeHistory::Record(int64_t table_id, int64_t index_id, RowKey key,
                                std::optional<storage::StoredItem> before,
                                TimePoint visible_at) {
  Rows& rows = rows_[{table_id, index_id}];
  visible_at = std::max(visible_at, rows.last_visible);
  rows.last_visible = visible_at;
  rows.by_key[key].push_back(RowChange{visible_at, std::move(before)});
  rows.order.emplace_back(visible_at, std::move(key));
  return visible_at;
}

TimePoint ChangeHistory::LastVisible(int64_t table_id, int64_t index_id) const {
  auto it = rows_.find({table_id, index_id});
  return it == rows_.end() ? TimePoint{} : it->second.last_visible;
}

const ChangeHistory::Rows* ChangeHistory::ChangedAfter(int64_t table_id,
                                                       int64_t index_id,
                                                       TimePoint at) const {
  auto it = rows_.find({table_id, index_id});
  if (it == rows_.end() || it->second.last_visible <= at) return nullptr;
  return &it->second;
}

const std::optional<storage::StoredItem>* ChangeHistory::SeenAt(
    const Rows& rows, const RowKey& key, TimePoint at) {
  auto it = rows.by_key.find(key);
  if (it == rows.by_key.end()) return nullptr;
  for (const RowChange& change : it->second) {
    if (change.visible_at > at) return &change.before;
  }
  return nullptr;
}

void ChangeHistory::Trim(int64_t table_id, int64_t index_id, TimePoint cutoff) {
  auto it = rows_.find({table_id, index_id});
  if (it == rows_.end()) return;
  Rows& rows = it->second;
  while (!rows.order.empty() && rows.order.front().first <= cutoff) {
    auto key_it = rows.by_key.find(rows.order.front().second);
    // The oldest change of the whole index is the oldest of its key.
    key_it->second.pop_front();
    if (key_it->second.empty()) rows.by_key.erase(key_it);
    rows.order.pop_front();
  }
  if (rows.order.empty()) rows_.erase(it);
}

size_t ChangeHistory::PendingAfter(int64_t table_id, int64_t index_id,
                                   TimePoint at) const {
  auto it = rows_.find({table_id, index_id});
  if (it == rows_.end()) return 0;
  const auto& order = it->second.order;
  auto first = std::upper_bound(
      order.begin(), order.end(), at,
      [](TimePoint t, const std::pair<TimePoint, RowKey>& change) {
        return t < change.first;
      });
  return static_cast<size_t>(order.end() - first);
}

void ChangeHistory::ClearIndex(int64_t table_id, int64_t index_id) {
  rows_.erase({table_id, index_id});
}

void ChangeHistory::ClearTable(int64_t table_id) {
  auto it = rows_.lower_bound({table_id, INT64_MIN});
  while (it != rows_.end() && it->first.first == table_id) {
    it = rows_.erase(it);
  }
}

}  // namespace ddblab::engine
