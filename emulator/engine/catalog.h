// emulator/engine/catalog.h: the in-memory table catalog.
//
// Maps table name -> Entry {published Table snapshot, live TableStats, the
// in-memory float32 data of its vector indexes}, in name order (ListTables
// order). The persistent copy is the store's `tables` rows (Table::ToMeta);
// Load() rebuilds the catalog from them, recomputes the counters from the
// stored rows and rebuilds the vector data from the stored items
// (vector/vector_rebuild.h).
//
// Mutations of the persistent copy go through a storage transaction made by
// the caller; the catalog is updated after the commit succeeds, so a failed
// control-plane change leaves both untouched.
//
// Thread-safety: guarded by the engine lock (EmulatorImpl::Lock()).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/engine/table.h"
#include "emulator/engine/vector/vector_store.h"
#include "emulator/storage/item_store.h"

namespace ddblab::engine {

class Catalog {
 public:
  struct Entry {
    std::shared_ptr<const Table> table;
    TableStats stats;
    // The data of the table's live vector indexes, by name; changed only
    // after the commit that made the change (item_writer.h).
    VectorIndexSet vectors;
  };
  using Map = std::map<std::string, Entry, std::less<>>;

  // Replaces the contents with the tables of the store.
  Status Load(storage::ItemStore& store);

  Entry* Find(std::string_view name);
  const Map& entries() const { return entries_; }
  Map& mutable_entries() { return entries_; }

  // Inserts or replaces the table (keeping the stats of an existing entry
  // unless `stats` is given).
  Entry& Publish(std::shared_ptr<const Table> table);
  Entry& Publish(std::shared_ptr<const Table> table, TableStats stats);
  void Erase(std::string_view name);

  // The entry of a table id (linear; for the rare callers holding an id).
  Entry* FindById(int64_t table_id);

 private:
  Map entries_;
};

}  // namespace ddblab::engine
