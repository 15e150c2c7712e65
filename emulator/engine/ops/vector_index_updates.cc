// emulator/engine/ops/vector_index_updates.cc: see the header.
#include "emulator/engine/ops/vector_index_updates.h"

#include <algorithm>
#include <utility>

namespace ddblab::engine {
namespace {

Error Invalid(std::string_view text) {
  return Error::Validation(std::string(kInvalidParams) + std::string(text));
}

Error OneOnlineIndex() {
  return Error::LimitExceeded(
      "Subscriber limit exceeded: Only 1 online index can be created or "
      "deleted simultaneously per table");
}

bool InAllocation(const VectorIndexDef& v) {
  return v.status == TableStatus::kCreating && v.added_by_update &&
         !v.backfilling;
}

}  // namespace

VectorIndexUpdates ParseVectorIndexUpdates(RequestParser& p,
                                           const Json& request) {
  VectorIndexUpdates out;
  out.list = p.List(request, "VectorIndexUpdates");
  if (out.list == nullptr) return out;
  for (size_t i = 0; i < out.list->size(); ++i) {
    const std::string path = ElementPath("vectorIndexUpdates", i);
    const Json* u = p.StructValue((*out.list)[i], "VectorIndexUpdate");
    VectorIndexUpdate update;
    if (u != nullptr) {
      if (const Json* c = p.Struct(*u, "Create", "CreateVectorIndexAction")) {
        update.create = ParseVectorIndex(p, *c, MemberPath(path, "create"));
      }
      if (const Json* d = p.Struct(*u, "Delete", "DeleteVectorIndexAction")) {
        update.delete_present = true;
        update.delete_name = p.String(*d, "IndexName");
        p.CheckIndexName(update.delete_name,
                         MemberPath(path, "delete.indexName"));
      }
    }
    out.updates.push_back(std::move(update));
  }
  return out;
}

Status CheckVectorUpdateList(const VectorIndexUpdates& u) {
  for (const VectorIndexUpdate& update : u.updates) {
    if (update.create && update.delete_present) {
      return Invalid(
          "Only one vector index action is allowed per VectorIndexUpdate "
          "object");
    }
    if (!update.create && !update.delete_present) {
      return Invalid(
          "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must "
          "not be null");
    }
  }
  return OkStatus();
}

Status CheckVectorUpdateState(const VectorIndexUpdates& u, const Table& table) {
  for (const VectorIndexUpdate& update : u.updates) {
    const VectorIndexDef* target =
        update.delete_name ? table.FindVectorIndex(*update.delete_name)
                           : nullptr;
    if (target != nullptr && InAllocation(*target)) {
      return Error::ResourceInUse(
          "Attempt to change a resource which is still in use: Index "
          "creation is in resource allocation phase. Retry deletion during "
          "backfilling phase or when the index is active. Table: " +
          table.name + " Index: " + target->name);
    }
    for (const VectorIndexDef& v : table.vector_indexes) {
      if (&v == target) continue;
      if (v.status != TableStatus::kActive) return OneOnlineIndex();
    }
    for (const IndexDef& idx : table.indexes) {
      if (idx.status != TableStatus::kActive) return OneOnlineIndex();
    }
  }
  return OkStatus();
}

Status CheckVectorBilling(const std::optional<std::string>& billing,
                          const Table& table) {
  if (billing == "PROVISIONED" && !table.vector_indexes.empty()) {
    return Invalid(
        "Tables with vector indexes must be in PAY_PER_REQUEST mode");
  }
  return OkStatus();
}

Result<VectorUpdateOutcome> ApplyVectorIndexUpdates(
    const VectorIndexUpdates& u, const std::vector<KeyElement>& request_defs,
    Table* next, TimePoint now, Duration delay) {
  VectorUpdateOutcome out;
  for (const VectorIndexUpdate& update : u.updates) {
    if (update.create) {
      const RawVectorIndex& raw = *update.create;
      if (next->billing != BillingMode::kPayPerRequest) {
        return VectorBillingError();
      }
      if (next->HasIndexNamed(*raw.name)) {
        return Error::Validation(
            "Attempting to create an index which already exists");
      }
      if (next->DefinedType(*raw.attribute)) {
        return Invalid("Conflicting attribute definition for '" +
                       *raw.attribute +
                       "'. An attribute cannot be defined in "
                       "AttributeDefinitions when used as a VectorAttribute.");
      }
      DDBLAB_ASSIGN_OR_RETURN(VectorIndexDef v,
                              BuildVectorIndex(raw, request_defs));
      std::vector<VectorIndexDef> all = next->vector_indexes;
      all.push_back(v);
      DDBLAB_RETURN_IF_ERROR(CheckVectorIndexSet(all));
      for (const SearchSchemaElement& e : v.search_schema) {
        if (!next->DefinedType(e.name)) {
          next->attribute_definitions.push_back(KeyElement{e.name, e.type});
        }
      }
      v.added_by_update = true;
      v.status = delay > Duration::zero() ? TableStatus::kCreating
                                          : TableStatus::kActive;
      v.status_until = now + delay;
      out.created = v.name;
      next->vector_indexes.push_back(std::move(v));
      continue;
    }
    auto it = std::find_if(
        next->vector_indexes.begin(), next->vector_indexes.end(),
        [&](const VectorIndexDef& v) { return v.name == *update.delete_name; });
    if (it == next->vector_indexes.end() || !it->Live()) {
      return Error::ResourceNotFound("Requested resource not found: Index " +
                                     *update.delete_name + " for table " +
                                     next->name);
    }
    if (delay > Duration::zero()) {
      it->status = TableStatus::kDeleting;
      it->backfilling = false;
      it->status_until = now + delay;
      out.deleting = it->name;
    } else {
      out.removed = it->name;
      next->vector_indexes.erase(it);
    }
  }
  return out;
}

}  // namespace ddblab::engine
