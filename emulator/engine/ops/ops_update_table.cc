// UpdateTable (the DynamoDB API reference): billing mode, throughput, streams,
// GSI create (with backfill from existing items) / update / delete, vector
// index create (with backfill) / delete (vector_index_updates.h), deletion
// protection, table class, SSE.
#include <algorithm>
#include <utility>

#include "emulator/engine/keys.h"
#include "emulator/engine/operations.h"
#include "emulator/engine/ops/gsi_update_checks.h"
#include "emulator/engine/ops/ops_table_internal.h"
#include "emulator/engine/ops/vector_index_updates.h"
#include "emulator/engine/table_schema.h"
#include "emulator/engine/vector/vector_rebuild.h"
#include "emulator/value/item_codec.h"

namespace ddblab::engine {
namespace {

Error Invalid(std::string_view text) {
  return Error::Validation(std::string(kInvalidParams) + std::string(text));
}

struct GsiUpdate {
  enum class Kind { kCreate, kUpdate, kDelete } kind = Kind::kCreate;
  RawIndex create;                  // kCreate
  std::optional<std::string> name;  // kUpdate / kDelete
  RawThroughput throughput;         // kUpdate
  RawOnDemandSettings on_demand;    // kUpdate
};

struct UpdateTableRequest {
  std::string name;
  std::vector<KeyElement> defs;
  std::optional<std::string> billing;
  RawThroughput throughput;
  RawOnDemandSettings on_demand;
  std::vector<GsiUpdate> gsi_updates;
  bool stream_present = false;
  std::optional<bool> stream_enabled;
  std::optional<std::string> stream_view;
  const Json* sse = nullptr;
  std::optional<bool> deletion_protection;
  std::optional<std::string> table_class;
  bool anything = false;           // some updatable member is present
  bool defs_present = false;       // AttributeDefinitions given
  const Json* gsi_list = nullptr;  // GlobalSecondaryIndexUpdates as received
  VectorIndexUpdates vector_updates;
};

Result<UpdateTableRequest> Parse(const Json& req) {
  RequestParser p(req);
  UpdateTableRequest r;
  auto defs = ParseAttributeDefinitions(p, req, false);
  std::optional<std::string> name = ReadTableName(p, req);
  r.billing = p.String(req, "BillingMode");
  if (r.billing) {
    p.Enum(*r.billing, "billingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  }
  r.throughput = ParseThroughput(p, req, "provisionedThroughput");
  r.on_demand = ParseOnDemandSettings(p, req, "");
  const Json* updates = p.List(req, "GlobalSecondaryIndexUpdates");
  if (updates != nullptr) {
    for (size_t i = 0; i < updates->size(); ++i) {
      std::string path = ElementPath("globalSecondaryIndexUpdates", i);
      const Json* u =
          p.StructValue((*updates)[i], "GlobalSecondaryIndexUpdate");
      if (u == nullptr) continue;
      if (const Json* c =
              p.Struct(*u, "Create", "CreateGlobalSecondaryIndexAction")) {
        GsiUpdate g;
        g.kind = GsiUpdate::Kind::kCreate;
        g.create = ParseIndex(p, *c, MemberPath(path, "create"), true);
        r.gsi_updates.push_back(std::move(g));
      }
      if (const Json* s =
              p.Struct(*u, "Update", "UpdateGlobalSecondaryIndexAction")) {
        GsiUpdate g;
        g.kind = GsiUpdate::Kind::kUpdate;
        g.name = p.String(*s, "IndexName");
        p.CheckIndexName(g.name, MemberPath(path, "update.indexName"));
        g.throughput = ParseThroughput(
            p, *s, MemberPath(path, "update.provisionedThroughput"));
        g.on_demand = ParseOnDemandSettings(p, *s, MemberPath(path, "update"));
        r.gsi_updates.push_back(std::move(g));
      }
      if (const Json* s =
              p.Struct(*u, "Delete", "DeleteGlobalSecondaryIndexAction")) {
        GsiUpdate g;
        g.kind = GsiUpdate::Kind::kDelete;
        g.name = p.String(*s, "IndexName");
        p.CheckIndexName(g.name, MemberPath(path, "delete.indexName"));
        r.gsi_updates.push_back(std::move(g));
      }
    }
  }
  r.vector_updates = ParseVectorIndexUpdates(p, req);
  if (const Json* s =
          p.Struct(req, "StreamSpecification", "StreamSpecification", true)) {
    r.stream_present = true;
    r.stream_enabled = p.Bool(*s, "StreamEnabled");
    p.NotNull(r.stream_enabled.has_value(),
              "streamSpecification.streamEnabled");
    r.stream_view = p.String(*s, "StreamViewType");
    if (r.stream_view) {
      p.Enum(*r.stream_view, "streamSpecification.streamViewType",
             {"NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY"});
    }
  }
  r.sse = p.Struct(req, "SSESpecification", "SSESpecification");
  r.deletion_protection = p.Bool(req, "DeletionProtectionEnabled");
  r.table_class = p.String(req, "TableClass");
  if (r.table_class) {
    p.Enum(*r.table_class, "tableClass",
           {"STANDARD", "STANDARD_INFREQUENT_ACCESS"});
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  r.name = *name;
  r.defs = ToDefinitions(defs);
  r.defs_present = req.contains("AttributeDefinitions") &&
                   !req.at("AttributeDefinitions").is_null();
  r.gsi_list = updates;
  // An empty GlobalSecondaryIndexUpdates counts as absent here; with another
  // change it is refused on its own (gsi_update_checks.h).
  r.anything = r.billing || r.throughput.present || HasGsiUpdates(updates) ||
               r.vector_updates.present() || r.stream_present ||
               r.sse != nullptr || r.deletion_protection || r.table_class;
  for (std::string_view member : {"ReplicaUpdates", "MultiRegionConsistency",
                                  "OnDemandThroughput", "WarmThroughput"}) {
    if (req.contains(member) && !req.at(member).is_null()) r.anything = true;
  }
  return r;
}

// Checks that need no table.
Status ValidateRequest(const UpdateTableRequest& r) {
  if (!r.anything) {
    return Error::Validation(
        "At least one of ProvisionedThroughput, BillingMode, "
        "UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, "
        "ReplicaUpdates, MultiRegionConsistency, DeletionProtectionEnabled, "
        "OnDemandThroughput, WarmThroughput or TableClass is required");
  }
  DDBLAB_RETURN_IF_ERROR(CheckGsiUpdateList(r.gsi_list));
  DDBLAB_RETURN_IF_ERROR(CheckVectorUpdateList(r.vector_updates));
  int creates_or_deletes = static_cast<int>(r.vector_updates.updates.size());
  for (const GsiUpdate& g : r.gsi_updates) {
    if (g.kind != GsiUpdate::Kind::kUpdate) ++creates_or_deletes;
  }
  if (creates_or_deletes > 1) {
    return Error::LimitExceeded(
        "Subscriber limit exceeded: Only 1 online index can be created or "
        "deleted simultaneously per table");
  }
  if (r.stream_present && creates_or_deletes > 0) {
    return Invalid(
        "You cannot create or delete index while changing stream status");
  }
  if (r.stream_present) {
    if (*r.stream_enabled && !r.stream_view) {
      return Invalid(
          "If stream is being enabled then UpdateViewType is required");
    }
    if (!*r.stream_enabled && r.stream_view) {
      return Invalid(
          "If stream is being disabled, then UpdateViewType must not be "
          "specified");
    }
  }
  return OkStatus();
}

// Applies billing / throughput changes to `next`.
Status ApplyThroughput(const UpdateTableRequest& r, const Table& current,
                       Table* next, TimePoint now) {
  BillingMode billing = current.billing;
  if (r.billing) {
    billing = *r.billing == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest
                                              : BillingMode::kProvisioned;
  }
  if (billing == BillingMode::kPayPerRequest) {
    if (r.throughput.present) {
      return Invalid(
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
          "when BillingMode is PAY_PER_REQUEST");
    }
    if (current.billing != billing) {
      next->billing = billing;
      next->billing_explicit = true;
      next->last_update_to_pay_per_request = now;
      next->throughput = Throughput{};
      for (IndexDef& idx : next->indexes) {
        if (idx.global) idx.throughput = Throughput{};
      }
    }
    return OkStatus();
  }
  if (current.billing != billing) {
    // Switching to PROVISIONED needs the capacity.
    DDBLAB_RETURN_IF_ERROR(CheckTableThroughput(r.throughput, billing));
    next->billing = billing;
    next->billing_explicit = true;
    next->throughput.read = *r.throughput.read;
    next->throughput.write = *r.throughput.write;
    for (IndexDef& idx : next->indexes) {
      if (idx.global) {
        idx.throughput.read = *r.throughput.read;
        idx.throughput.write = *r.throughput.write;
      }
    }
    return OkStatus();
  }
  if (!r.throughput.present) {
    if (r.billing) next->billing_explicit = true;
    return OkStatus();
  }
  DDBLAB_RETURN_IF_ERROR(CheckTableThroughput(r.throughput, billing));
  const Throughput& cur = current.throughput;
  if (*r.throughput.read == cur.read && *r.throughput.write == cur.write) {
    return Error::Validation(
        "The provisioned throughput for the table will not change. The "
        "requested value equals the current value. Current ReadCapacityUnits "
        "provisioned for the table: " +
        std::to_string(cur.read) +
        ". Requested ReadCapacityUnits: " + std::to_string(*r.throughput.read) +
        ". Current WriteCapacityUnits provisioned for the table: " +
        std::to_string(cur.write) + ". Requested WriteCapacityUnits: " +
        std::to_string(*r.throughput.write) +
        ". Refer to the Amazon DynamoDB Developer Guide for current limits "
        "and how to request higher limits.");
  }
  if (*r.throughput.read > cur.read || *r.throughput.write > cur.write) {
    next->throughput.last_increase = now;
  }
  if (*r.throughput.read < cur.read || *r.throughput.write < cur.write) {
    next->throughput.last_decrease = now;
    next->throughput.decreases_today++;
  }
  next->throughput.read = *r.throughput.read;
  next->throughput.write = *r.throughput.write;
  if (r.billing) next->billing_explicit = true;
  return OkStatus();
}

struct BackfillRow {
  std::string pk;
  std::string sk;
  IndexEntry entry;
};

// The entries of a new index, built from every stored item.
Result<std::vector<BackfillRow>> Backfill(EmulatorImpl& impl,
                                          const Table& table,
                                          const IndexDef& idx)
    DDBLAB_REQUIRES(impl.mu()) {
  std::vector<BackfillRow> rows;
  Status inner = OkStatus();
  storage::ScanSpec spec;
  spec.table_id = table.id;
  DDBLAB_RETURN_IF_ERROR(impl.store().Scan(spec, [&](const storage::Row& row) {
    Result<value::Item> item = value::DeserializeItem(row.item);
    if (!item.ok()) {
      inner = std::move(item).error();
      return false;
    }
    std::optional<IndexEntry> e =
        ComputeIndexEntry(table, idx, *item, row.item, row.size);
    if (e) {
      rows.push_back(
          BackfillRow{std::string(row.pk), std::string(row.sk), std::move(*e)});
    }
    return true;
  }));
  DDBLAB_RETURN_IF_ERROR(inner);
  return rows;
}

Result<Json> UpdateTable(EmulatorImpl& impl, const Json& request) {
  DDBLAB_ASSIGN_OR_RETURN(UpdateTableRequest r, Parse(request));
  DDBLAB_RETURN_IF_ERROR(ValidateRequest(r));

  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                          impl.FindTable(r.name, TableLookup::kControl));
  std::shared_ptr<const Table> current = entry->table;
  if (r.vector_updates.present()) {
    DDBLAB_RETURN_IF_ERROR(CheckVectorUpdateState(r.vector_updates, *current));
  }
  for (const GsiUpdate& g : r.gsi_updates) {
    if (g.kind == GsiUpdate::Kind::kUpdate) continue;
    // One online index operation at a time, vector indexes included.
    for (const VectorIndexDef& v : current->vector_indexes) {
      if (v.status != TableStatus::kActive) {
        return Error::LimitExceeded(
            "Subscriber limit exceeded: Only 1 online index can be created "
            "or deleted simultaneously per table");
      }
    }
  }
  if (current->status == TableStatus::kUpdating) {
    return Error::ResourceInUse(
        "Attempt to change a resource which is still in use: Table: " +
        current->name + " is in the process of being updated.");
  }
  if (std::optional<Error> busy = TableBusyError(*current)) return *busy;

  const TimePoint now = impl.Now();
  const Duration delay = impl.options().table_status_delay;
  Table next = *current;

  if (r.stream_present) {
    if (*r.stream_enabled && current->stream.enabled) {
      return Error::Validation(
          "Table already has an enabled stream: TableName: " + current->name);
    }
    if (!*r.stream_enabled && !current->stream.enabled) {
      return Error::Validation("Table has no stream to disable: TableName: " +
                               current->name);
    }
  }
  DDBLAB_RETURN_IF_ERROR(CheckVectorBilling(r.billing, *current));
  DDBLAB_RETURN_IF_ERROR(ApplyThroughput(r, *current, &next, now));
  DDBLAB_RETURN_IF_ERROR(ApplyOnDemandSettings(r.on_demand, &next.on_demand));

  // Attribute definitions: existing ones may be repeated, not retyped.
  for (const KeyElement& d : r.defs) {
    std::optional<AttrType> existing = current->DefinedType(d.name);
    if (existing && *existing != d.type) {
      return Invalid(
          "Attributes cannot be redefined. Please check that your attribute "
          "has the same type as previously defined.");
    }
  }
  std::vector<KeyElement> defs = current->attribute_definitions;
  for (const KeyElement& d : r.defs) {
    if (!current->DefinedType(d.name)) defs.push_back(d);
  }

  std::optional<IndexDef> created;
  std::vector<int64_t> dropped;
  for (const GsiUpdate& g : r.gsi_updates) {
    if (g.kind == GsiUpdate::Kind::kCreate) {
      if (!r.defs_present) {
        return Invalid("AttributeDefinitions is not specified for index: " +
                       *g.create.name);
      }
      if (next.HasIndexNamed(*g.create.name)) {
        return Error::Validation(
            "Attempting to create an index which already exists");
      }
      int gsis = 0;
      for (const IndexDef& idx : next.indexes) gsis += idx.global ? 1 : 0;
      if (gsis >= 20) {
        return Error::LimitExceeded(
            "GlobalSecondaryIndex count exceeds the per-table limit of 20");
      }
      DDBLAB_ASSIGN_OR_RETURN(IndexDef idx,
                              BuildIndex(g.create, defs, next.key, true));
      DDBLAB_RETURN_IF_ERROR(CheckIndexThroughput(g.create, next.billing));
      idx.throughput = IndexThroughput(g.create, next.billing);
      DDBLAB_RETURN_IF_ERROR(
          ApplyOnDemandSettings(g.create.on_demand, &idx.on_demand));
      idx.id = next.next_index_id++;
      idx.status = delay > Duration::zero() ? TableStatus::kCreating
                                            : TableStatus::kActive;
      idx.backfilling = delay > Duration::zero();
      idx.status_until = now + delay;
      created = idx;
      next.indexes.push_back(std::move(idx));
    } else {
      auto it =
          std::find_if(next.indexes.begin(), next.indexes.end(),
                       [&](const IndexDef& i) { return i.name == *g.name; });
      if (it == next.indexes.end() ||
          (it->global && it->status == TableStatus::kDeleting)) {
        // DynamoDB's text for an Update of a missing GSI (observed live);
        // that a Delete gets the same text is our assumption.
        return Error::ResourceNotFound("Requested resource not found: Index " +
                                       *g.name + " for table " + current->name);
      }
      if (!it->global) {
        return Error::Validation(
            std::string(g.kind == GsiUpdate::Kind::kUpdate ? "Cannot update"
                                                           : "Cannot delete") +
            " an index that is not a GlobalSecondaryIndex: " + *g.name);
      }
      if (g.kind == GsiUpdate::Kind::kUpdate) {
        DDBLAB_RETURN_IF_ERROR(
            ApplyOnDemandSettings(g.on_demand, &it->on_demand));
        if (next.billing == BillingMode::kPayPerRequest &&
            (g.throughput.present || !g.on_demand.present())) {
          return Invalid(
              "ProvisionedThroughput should not be specified for index: " +
              *g.name + " when BillingMode is PAY_PER_REQUEST");
        }
        if (g.throughput.read) it->throughput.read = *g.throughput.read;
        if (g.throughput.write) it->throughput.write = *g.throughput.write;
      } else if (delay > Duration::zero()) {
        it->status = TableStatus::kDeleting;
        it->status_until = now + delay;
      } else {
        dropped.push_back(it->id);
        next.indexes.erase(it);
      }
    }
  }
  DDBLAB_ASSIGN_OR_RETURN(
      VectorUpdateOutcome vector_outcome,
      ApplyVectorIndexUpdates(r.vector_updates, r.defs, &next, now, delay));
  if (created) {
    // New key attributes become part of the definitions.
    std::vector<const KeyElement*> keys = created->key.HashElements();
    for (const KeyElement* k : created->key.RangeElements()) keys.push_back(k);
    for (const KeyElement* k : keys) {
      if (!next.DefinedType(k->name)) next.attribute_definitions.push_back(*k);
    }
  }
  next.PruneAttributeDefinitions();

  if (r.stream_present) {
    if (*r.stream_enabled) {
      next.stream.enabled = true;
      next.stream.view_type = *r.stream_view;
      next.stream.label = FormatStreamLabel(now);
      // A new stream never reuses the previous one's ARN (disable and
      // re-enable within one millisecond): move the label on.
      for (TimePoint t = now; next.stream.label == current->stream.label;) {
        t += std::chrono::milliseconds(1);
        next.stream.label = FormatStreamLabel(t);
      }
      next.stream.arn = next.arn + "/stream/" + next.stream.label;
    } else {
      next.stream.enabled = false;
      next.stream.view_type.clear();
    }
  }
  if (r.deletion_protection) next.deletion_protection = *r.deletion_protection;
  if (r.table_class) next.table_class = *r.table_class;
  if (r.sse != nullptr) {
    bool enabled = r.sse->value("Enabled", false);
    if (enabled) {
      next.sse_description = Json{{"Status", "ENABLED"}, {"SSEType", "KMS"}};
      std::string key =
          "arn:aws:kms:" + impl.options().region + ":" +
          impl.options().account_id + ":key/" +
          impl.NewUuid("table/" + std::to_string(next.id) + "/kms");
      if (auto it = r.sse->find("KMSMasterKeyId");
          it != r.sse->end() && it->is_string()) {
        key = it->get<std::string>();
      }
      next.sse_description["KMSMasterKeyArn"] = key;
    } else {
      next.sse_description = nullptr;
    }
  }
  if (delay > Duration::zero()) {
    next.status = TableStatus::kUpdating;
    next.status_until = now + delay;
  }

  // One transaction: metadata, index backfill or drop, sinks.
  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  IndexStats created_stats;
  if (created) {
    const IndexDef& idx = *next.FindIndex(created->name);
    DDBLAB_ASSIGN_OR_RETURN(std::vector<BackfillRow> rows,
                            Backfill(impl, next, idx));
    for (const BackfillRow& row : rows) {
      DDBLAB_RETURN_IF_ERROR(
          txn->PutIndexEntry(next.id, idx.id, row.entry.ipk, row.entry.isk,
                             row.pk, row.sk, row.entry.bytes, row.entry.size));
      created_stats.count++;
      created_stats.bytes += row.entry.size;
    }
  }
  for (int64_t id : dropped)
    DDBLAB_RETURN_IF_ERROR(txn->DropIndex(next.id, id));
  // A new vector index is filled from the stored items (its data live in
  // memory only: nothing to write in the transaction).
  std::vector<VectorIndexData> vector_backfill;
  if (vector_outcome.created) {
    DDBLAB_ASSIGN_OR_RETURN(
        vector_backfill,
        BuildVectorIndexData(impl.store(), next,
                             {next.FindVectorIndex(*vector_outcome.created)}));
  }
  DDBLAB_RETURN_IF_ERROR(EmulatorImpl::SaveTable(next, *txn));
  for (const auto& sink : impl.sinks()) {
    DDBLAB_RETURN_IF_ERROR(sink->OnTableUpdated(*current, next, *txn));
  }
  DDBLAB_RETURN_IF_ERROR(txn->Commit());

  if (created) entry->stats.indexes[created->id] = created_stats;
  for (int64_t id : dropped) {
    entry->stats.indexes.erase(id);
    impl.consistency().ForgetIndex(next.id, id);
  }
  if (vector_outcome.created) {
    UpdateVectorStats(*vector_outcome.created, vector_backfill.front(),
                      &entry->stats);
    entry->vectors.insert_or_assign(*vector_outcome.created,
                                    std::move(vector_backfill.front()));
  }
  for (const std::optional<std::string>& gone :
       {vector_outcome.removed, vector_outcome.deleting}) {
    if (!gone) continue;
    entry->vectors.erase(*gone);
    if (gone == vector_outcome.removed) {
      entry->stats.vector_indexes.erase(*gone);
    }
  }
  // The answer shows the change in progress.
  Table shown = next;
  if (created) {
    for (IndexDef& idx : shown.indexes) {
      if (idx.id == created->id) {
        idx.status = TableStatus::kCreating;
        idx.backfilling = false;
      }
    }
  }
  for (VectorIndexDef& v : shown.vector_indexes) {
    if (vector_outcome.created && v.name == *vector_outcome.created) {
      v.status = TableStatus::kCreating;
      v.backfilling = false;
    }
  }
  Json description = DescribeTable(shown, entry->stats, TableStatus::kUpdating);
  entry->table = std::make_shared<const Table>(std::move(next));
  return Json{{"TableDescription", std::move(description)}};
}

}  // namespace

Result<Json> HandleUpdateTable(EmulatorImpl& impl, CallContext& /*call*/,
                               const Json& request) {
  return UpdateTable(impl, request);
}

}  // namespace ddblab::engine
