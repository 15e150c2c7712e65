#include "emulator/engine/catalog.h"

#include <utility>

#include "emulator/engine/vector/vector_rebuild.h"

namespace ddblab::engine {

Status Catalog::Load(storage::ItemStore& store) {
  entries_.clear();
  DDBLAB_ASSIGN_OR_RETURN(std::vector<storage::CatalogRow> rows,
                          store.LoadCatalog());
  for (const storage::CatalogRow& row : rows) {
    Json meta = Json::parse(row.meta, nullptr, /*allow_exceptions=*/false);
    if (meta.is_discarded()) {
      return Error::Internal("corrupt table metadata for " + row.name);
    }
    DDBLAB_ASSIGN_OR_RETURN(Table table, Table::FromMeta(meta));
    table.id = row.table_id;
    TableStats stats;
    DDBLAB_ASSIGN_OR_RETURN(storage::Stats base,
                            store.ComputeStats(table.id, storage::kBaseTable));
    stats.item_count = base.count;
    stats.size_bytes = base.bytes;
    for (const IndexDef& idx : table.indexes) {
      DDBLAB_ASSIGN_OR_RETURN(storage::Stats s,
                              store.ComputeStats(table.id, idx.id));
      stats.indexes[idx.id] = IndexStats{s.count, s.bytes};
    }
    std::string name = table.name;
    Entry& entry = entries_[name] =
        Entry{std::make_shared<const Table>(std::move(table)), stats, {}};
    DDBLAB_RETURN_IF_ERROR(RebuildVectorIndexes(store, entry));
  }
  return OkStatus();
}

Catalog::Entry* Catalog::Find(std::string_view name) {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second;
}

Catalog::Entry& Catalog::Publish(std::shared_ptr<const Table> table) {
  auto it = entries_.find(table->name);
  if (it == entries_.end()) {
    std::string name = table->name;
    return entries_[name] = Entry{std::move(table), TableStats{}, {}};
  }
  it->second.table = std::move(table);
  return it->second;
}

Catalog::Entry& Catalog::Publish(std::shared_ptr<const Table> table,
                                 TableStats stats) {
  std::string name = table->name;
  return entries_[name] = Entry{std::move(table), std::move(stats), {}};
}

void Catalog::Erase(std::string_view name) {
  auto it = entries_.find(name);
  if (it != entries_.end()) entries_.erase(it);
}

Catalog::Entry* Catalog::FindById(int64_t table_id) {
  for (auto& [name, entry] : entries_) {
    if (entry.table->id == table_id) return &entry;
  }
  return nullptr;
}

}  // namespace ddblab::engine
