// emulator/engine/consistency/read_view.h: the rows a read sees — the
// store's current rows, or, for a read that lags, those rows as they were
// at a time `at` (change_history.h: changes visible after `at` undone).
//
// Get and Scan keep the store's contracts (storage/item_store.h): the same
// order, bounds, partition, exclusive start and stop. A view of the current
// state (no history, or no change visible after `at` in the table or index
// read) calls the store and nothing else.
//
// Thread-safety: engine lock held for the view's whole life.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/engine/consistency/change_history.h"
#include "emulator/storage/item_store.h"

namespace ddblab::engine {

class ReadView {
 public:
  // The current state.
  explicit ReadView(storage::ItemStore& store) : store_(store) {}
  // The state at `at`, from `history` (null: the current state).
  ReadView(storage::ItemStore& store, const ChangeHistory* history,
           TimePoint at)
      : store_(store), history_(history), at_(at) {}

  // A base-table item.
  Result<std::optional<storage::StoredItem>> Get(int64_t table_id,
                                                 std::string_view pk,
                                                 std::string_view sk) const;
  Status Scan(const storage::ScanSpec& spec,
              const storage::RowVisitor& visit) const;

 private:
  storage::ItemStore& store_;
  const ChangeHistory* history_ = nullptr;
  TimePoint at_{};
};

}  // namespace ddblab::engine
