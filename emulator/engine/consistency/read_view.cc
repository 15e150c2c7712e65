// emulator/engine/consistency/read_view.cc: reads at a time (read_view.h).
#include "emulator/engine/consistency/read_view.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ddblab::engine {

namespace {

// A row whose state at `at` differs from the store's, as the read sees it.
struct Past {
  const RowKey* key;
  const std::optional<storage::StoredItem>* seen;  // inner nullopt: absent
};

// The exclusive start of a scan as a row key (ipk/isk empty for the table).
std::optional<RowKey> StartKey(const storage::ScanSpec& spec) {
  if (!spec.start) return std::nullopt;
  const bool base = spec.index_id == storage::kBaseTable;
  return RowKey{base ? std::string() : spec.start->ipk,
                base ? std::string() : spec.start->isk, spec.start->pk,
                spec.start->sk};
}

bool InScan(const storage::ScanSpec& spec, const std::optional<RowKey>& start,
            const RowKey& key) {
  const bool base = spec.index_id == storage::kBaseTable;
  const std::string& part = base ? key.pk : key.ipk;
  const std::string& sort = base ? key.sk : key.isk;
  if (spec.partition && part != *spec.partition) return false;
  if (spec.lower) {
    if (spec.lower->inclusive ? sort < spec.lower->bytes
                              : sort <= spec.lower->bytes) {
      return false;
    }
  }
  if (spec.upper) {
    if (spec.upper->inclusive ? sort > spec.upper->bytes
                              : sort >= spec.upper->bytes) {
      return false;
    }
  }
  if (start && (spec.forward ? key <= *start : key >= *start)) return false;
  return true;
}

// Whether `a` comes before `b` in the scan's direction.
bool Before(const storage::ScanSpec& spec, const RowKey& a, const RowKey& b) {
  return spec.forward ? a < b : b < a;
}

}  // namespace

Result<std::optional<storage::StoredItem>> ReadView::Get(
    int64_t table_id, std::string_view pk, std::string_view sk) const {
  if (history_ != nullptr) {
    if (const ChangeHistory::Rows* rows =
            history_->ChangedAfter(table_id, storage::kBaseTable, at_)) {
      RowKey key{{}, {}, std::string(pk), std::string(sk)};
      if (const auto* seen = ChangeHistory::SeenAt(*rows, key, at_)) {
        return *seen;
      }
    }
  }
  return store_.Get(table_id, pk, sk);
}

Status ReadView::Scan(const storage::ScanSpec& spec,
                      const storage::RowVisitor& visit) const {
  const ChangeHistory::Rows* rows =
      history_ == nullptr
          ? nullptr
          : history_->ChangedAfter(spec.table_id, spec.index_id, at_);
  if (rows == nullptr) return store_.Scan(spec, visit);

  // The rows the scan covers whose state at `at` is not the store's, in
  // scan order.
  std::vector<Past> past;
  const std::optional<RowKey> start = StartKey(spec);
  for (const auto& [key, changes] : rows->by_key) {
    if (!InScan(spec, start, key)) continue;
    if (const auto* seen = ChangeHistory::SeenAt(*rows, key, at_)) {
      past.push_back(Past{&key, seen});
    }
  }
  if (past.empty()) return store_.Scan(spec, visit);
  if (!spec.forward) std::reverse(past.begin(), past.end());

  size_t next = 0;
  bool stopped = false;
  auto emit = [&](const Past& p) {
    if (!p.seen->has_value()) return true;  // absent at `at`
    const storage::StoredItem& item = **p.seen;
    storage::Row row{p.key->ipk, p.key->isk, p.key->pk,
                     p.key->sk,  item.bytes, item.size};
    return visit(row);
  };
  storage::ScanSpec keyed = spec;
  keyed.row_keys = true;  // rows are matched to the history by key
  RowKey current;
  DDBLAB_RETURN_IF_ERROR(store_.Scan(keyed, [&](const storage::Row& row) {
    current.ipk.assign(row.ipk);
    current.isk.assign(row.isk);
    current.pk.assign(row.pk);
    current.sk.assign(row.sk);
    while (next < past.size() && Before(spec, *past[next].key, current)) {
      stopped = !emit(past[next++]);
      if (stopped) return false;
    }
    if (next < past.size() && *past[next].key == current) {
      // The row changed after `at`: the reader sees what it held then.
      stopped = !emit(past[next++]);
    } else {
      stopped = !visit(row);
    }
    return !stopped;
  }));
  while (!stopped && next < past.size()) {
    if (!emit(past[next++])) break;
  }
  return OkStatus();
}

}  // namespace ddblab::engine
