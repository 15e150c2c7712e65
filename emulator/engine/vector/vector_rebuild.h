// emulator/engine/vector/vector_rebuild.h: building the in-memory data of
// vector indexes from a table's stored items — when a database is opened
// (Catalog::Load), when UpdateTable adds an index (its backfill), and by
// any code that fills a table's items outside the write path (a restore
// must call RebuildVectorIndexes after its commit).
//
// Items that do not belong to an index (vector_entry.h: missing or invalid
// vector, missing or invalid HASH value, INLINE_FILTER value of another
// type) are skipped silently, as DynamoDB's backfill skips them.
//
// Thread-safety: the engine lock must be held (the store and the catalog
// entry are guarded by it).
#pragma once

#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/catalog.h"
#include "emulator/engine/table.h"
#include "emulator/engine/vector/vector_store.h"
#include "emulator/storage/item_store.h"

namespace ddblab::engine {

// The data of each of `indexes` (in that order) from every stored item of
// `table`, in one pass over its items.
Result<std::vector<VectorIndexData>> BuildVectorIndexData(
    storage::ItemStore& store, const Table& table,
    const std::vector<const VectorIndexDef*>& indexes);

// Replaces entry.vectors (and the vector counters of entry.stats) with the
// data of every live vector index of entry.table.
Status RebuildVectorIndexes(storage::ItemStore& store, Catalog::Entry& entry);

// Sets the counters of one index from its data.
void UpdateVectorStats(const std::string& index, const VectorIndexData& data,
                       TableStats* stats);

}  // namespace ddblab::engine
