#include "emulator/engine/vector/vector_rebuild.h"

#include <utility>

#include "emulator/engine/keys.h"
#include "emulator/engine/vector/vector_entry.h"
#include "emulator/value/item_codec.h"

namespace ddblab::engine {

Result<std::vector<VectorIndexData>> BuildVectorIndexData(
    storage::ItemStore& store, const Table& table,
    const std::vector<const VectorIndexDef*>& indexes) {
  std::vector<VectorIndexData> out;
  out.reserve(indexes.size());
  for (const VectorIndexDef* v : indexes) {
    out.emplace_back(static_cast<size_t>(v->dimensions));
  }
  if (indexes.empty()) return out;
  Status inner = OkStatus();
  storage::ScanSpec spec;
  spec.table_id = table.id;
  DDBLAB_RETURN_IF_ERROR(store.Scan(spec, [&](const storage::Row& row) {
    Result<value::Item> item = value::DeserializeItem(row.item);
    if (!item.ok()) {
      inner = std::move(item).error();
      return false;
    }
    for (size_t i = 0; i < indexes.size(); ++i) {
      std::optional<VectorEntry> e =
          ComputeVectorEntry(table, *indexes[i], *item, row.item, row.size);
      if (e) out[i].Upsert(row.pk, row.sk, std::move(*e));
    }
    return true;
  }));
  DDBLAB_RETURN_IF_ERROR(inner);
  return out;
}

void UpdateVectorStats(const std::string& index, const VectorIndexData& data,
                       TableStats* stats) {
  stats->vector_indexes[index] =
      IndexStats{static_cast<int64_t>(data.size()), data.bytes()};
}

Status RebuildVectorIndexes(storage::ItemStore& store, Catalog::Entry& entry) {
  entry.vectors.clear();
  entry.stats.vector_indexes.clear();
  const Table& table = *entry.table;
  std::vector<const VectorIndexDef*> live;
  for (const VectorIndexDef& v : table.vector_indexes) {
    if (v.Live()) {
      live.push_back(&v);
    } else {
      entry.stats.vector_indexes[v.name] = {};
    }
  }
  if (live.empty()) return OkStatus();
  DDBLAB_ASSIGN_OR_RETURN(std::vector<VectorIndexData> data,
                          BuildVectorIndexData(store, table, live));
  for (size_t i = 0; i < live.size(); ++i) {
    UpdateVectorStats(live[i]->name, data[i], &entry.stats);
    entry.vectors.emplace(live[i]->name, std::move(data[i]));
  }
  return OkStatus();
}

}  // namespace ddblab::engine
