// CreateTable (the DynamoDB API reference).
#include <set>
#include <utility>

#include "emulator/engine/operations.h"
#include "emulator/engine/ops/ops_table_internal.h"
#include "emulator/engine/table_schema.h"
#include "emulator/engine/vector/vector_schema.h"

namespace ddblab::engine {
namespace {

constexpr size_t kMaxLocalIndexes = 5;
constexpr size_t kMaxGlobalIndexes = 20;
constexpr size_t kMaxNonKeyAttributesPerTable = 100;

Error Invalid(std::string_view text) {
  return Error::Validation(std::string(kInvalidParams) + std::string(text));
}

struct CreateTableRequest {
  std::string name;
  std::vector<KeyElement> defs;
  std::vector<RawKeyElement> key;
  BillingMode billing = BillingMode::kProvisioned;
  bool billing_explicit = false;
  RawThroughput throughput;
  RawOnDemandSettings on_demand;
  const Json* lsi_list = nullptr;
  const Json* gsi_list = nullptr;
  std::vector<RawIndex> lsis;
  std::vector<RawIndex> gsis;
  const Json* vector_list = nullptr;
  std::vector<RawVectorIndex> vectors;
  std::optional<bool> stream_enabled;
  std::optional<std::string> stream_view;
  bool stream_present = false;
  Json sse;  // SSESpecification if Enabled
  std::vector<Tag> tags;
  std::optional<std::string> resource_policy;  // as given
  std::string table_class;
  bool deletion_protection = false;
};

Result<CreateTableRequest> Parse(const Json& req) {
  RequestParser p(req);
  CreateTableRequest r;
  auto defs = ParseAttributeDefinitions(p, req, true);
  std::optional<std::string> name = p.String(req, "TableName");
  p.CheckNewTableName(name, "tableName");
  std::optional<std::string> billing = p.String(req, "BillingMode");
  if (billing)
    p.Enum(*billing, "billingMode", {"PROVISIONED", "PAY_PER_REQUEST"});
  r.throughput = ParseThroughput(p, req, "provisionedThroughput");
  r.on_demand = ParseOnDemandSettings(p, req, "");
  r.key = ParseKeySchema(p, req, "keySchema", true, true, nullptr);
  r.lsi_list = p.List(req, "LocalSecondaryIndexes");
  if (r.lsi_list != nullptr) {
    for (size_t i = 0; i < r.lsi_list->size(); ++i) {
      r.lsis.push_back(ParseIndex(
          p, (*r.lsi_list)[i], ElementPath("localSecondaryIndexes", i), false));
    }
  }
  r.gsi_list = p.List(req, "GlobalSecondaryIndexes");
  if (r.gsi_list != nullptr) {
    for (size_t i = 0; i < r.gsi_list->size(); ++i) {
      r.gsis.push_back(ParseIndex(
          p, (*r.gsi_list)[i], ElementPath("globalSecondaryIndexes", i), true));
    }
  }
  r.vector_list = p.List(req, "VectorIndexes");
  if (r.vector_list != nullptr) {
    for (size_t i = 0; i < r.vector_list->size(); ++i) {
      r.vectors.push_back(ParseVectorIndex(p, (*r.vector_list)[i],
                                           ElementPath("vectorIndexes", i)));
    }
  }
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
  if (const Json* s = p.Struct(req, "SSESpecification", "SSESpecification")) {
    std::optional<bool> enabled = p.Bool(*s, "Enabled");
    std::optional<std::string> type = p.String(*s, "SSEType");
    if (type) p.Enum(*type, "sSESpecification.sSEType", {"AES256", "KMS"});
    std::optional<std::string> key = p.String(*s, "KMSMasterKeyId");
    if (enabled.value_or(false)) {
      r.sse = Json{{"Status", "ENABLED"}, {"SSEType", "KMS"}};
      if (key) r.sse["KMSMasterKeyArn"] = *key;
    }
  }
  bool tags_present = false;
  r.tags = ParseTags(p, req, "tags", &tags_present);
  r.resource_policy = p.String(req, "ResourcePolicy");
  std::optional<std::string> table_class = p.String(req, "TableClass");
  if (table_class) {
    p.Enum(*table_class, "tableClass",
           {"STANDARD", "STANDARD_INFREQUENT_ACCESS"});
  }
  std::optional<bool> protection = p.Bool(req, "DeletionProtectionEnabled");
  DDBLAB_RETURN_IF_ERROR(p.Finish());

  r.name = *name;
  r.defs = ToDefinitions(defs);
  r.billing_explicit = billing.has_value();
  if (billing == "PAY_PER_REQUEST") r.billing = BillingMode::kPayPerRequest;
  r.table_class = table_class.value_or("");
  r.deletion_protection = protection.value_or(false);
  return r;
}

// The operation-specific checks, in DynamoDB's order. Fills `table`.
Status Validate(const CreateTableRequest& r, Table* table) {
  DDBLAB_RETURN_IF_ERROR(CheckTableThroughput(r.throughput, r.billing));
  DDBLAB_RETURN_IF_ERROR(CheckDuplicateDefinitions(r.defs));
  DDBLAB_ASSIGN_OR_RETURN(table->key, BuildTableKey(r.key, r.defs));
  if (r.lsi_list == nullptr && r.gsi_list == nullptr &&
      r.vector_list == nullptr && r.key.size() != r.defs.size()) {
    return Invalid(
        "Number of attributes in KeySchema does not exactly match number of "
        "attributes defined in AttributeDefinitions");
  }
  std::set<std::string> index_names;
  size_t non_key_total = 0;
  if (r.lsi_list != nullptr) {
    if (r.lsis.empty())
      return Invalid("List of LocalSecondaryIndexes is empty");
    if (!table->key.range) {
      return Invalid(
          "Table KeySchema does not have a range key, which is required when "
          "specifying a LocalSecondaryIndex");
    }
    for (const RawIndex& raw : r.lsis) {
      DDBLAB_ASSIGN_OR_RETURN(IndexDef idx,
                              BuildIndex(raw, r.defs, table->key, false));
      if (!index_names.insert(idx.name).second) {
        return Invalid("Duplicate index name: " + idx.name);
      }
      non_key_total += idx.non_key_attributes.size();
      table->indexes.push_back(std::move(idx));
    }
    if (r.lsis.size() > kMaxLocalIndexes) {
      return Invalid(
          "Number of LocalSecondaryIndexes exceeds per-table limit of 5");
    }
  }
  if (r.gsi_list != nullptr) {
    if (r.gsis.empty()) {
      return Invalid("List of GlobalSecondaryIndexes is empty");
    }
    for (const RawIndex& raw : r.gsis) {
      DDBLAB_ASSIGN_OR_RETURN(IndexDef idx,
                              BuildIndex(raw, r.defs, table->key, true));
      if (!index_names.insert(idx.name).second) {
        return Invalid("Duplicate index name: " + idx.name);
      }
      DDBLAB_RETURN_IF_ERROR(CheckIndexThroughput(raw, r.billing));
      idx.throughput = IndexThroughput(raw, r.billing);
      DDBLAB_RETURN_IF_ERROR(
          ApplyOnDemandSettings(raw.on_demand, &idx.on_demand));
      non_key_total += idx.non_key_attributes.size();
      table->indexes.push_back(std::move(idx));
    }
    if (r.gsis.size() > kMaxGlobalIndexes) {
      return Invalid(
          "GlobalSecondaryIndex count exceeds the per-table limit of 20");
    }
  }
  if (r.vector_list != nullptr) {
    // Vector indexes (vector_schema.h); names share the GSI/LSI namespace.
    if (r.vectors.empty()) return Invalid("List of VectorIndexes is empty");
    if (r.billing != BillingMode::kPayPerRequest) return VectorBillingError();
    for (const RawVectorIndex& raw : r.vectors) {
      if (!index_names.insert(*raw.name).second) {
        return Invalid("Duplicate index name: " + *raw.name);
      }
      DDBLAB_ASSIGN_OR_RETURN(VectorIndexDef v, BuildVectorIndex(raw, r.defs));
      non_key_total += v.non_key_attributes.size();
      table->vector_indexes.push_back(std::move(v));
    }
    DDBLAB_RETURN_IF_ERROR(CheckVectorIndexSet(table->vector_indexes));
  }
  if (!table->indexes.empty() || !table->vector_indexes.empty()) {
    DDBLAB_RETURN_IF_ERROR(CheckDefinitionsUsed(
        r.defs, table->key, table->indexes, table->vector_indexes));
  }
  if (non_key_total > kMaxNonKeyAttributesPerTable) {
    return Invalid(
        "The number of attributes in key schema and non-key attributes of all "
        "secondary indexes exceeds the limit of 100");
  }
  if (r.stream_present) {
    if (*r.stream_enabled && !r.stream_view) {
      return Invalid(
          "Table is being created with a stream enabled, UpdateViewType is "
          "required");
    }
    if (!*r.stream_enabled && r.stream_view) {
      return Invalid(
          "Table is being created with a stream disabled, UpdateViewType "
          "should not be specified");
    }
  }
  DDBLAB_RETURN_IF_ERROR(CheckTags(r.tags, {}));
  DDBLAB_RETURN_IF_ERROR(ApplyOnDemandSettings(r.on_demand, &table->on_demand));
  // ResourcePolicy: checked like PutResourcePolicy's Policy (stored with the
  // table, revision id = creation time, set in CreateTable).
  if (r.resource_policy) {
    DDBLAB_ASSIGN_OR_RETURN(std::string document,
                            CanonicalPolicy(*r.resource_policy));
    table->policies.table.policy = StoredPolicy{std::move(document), ""};
  }
  return OkStatus();
}

Result<Json> CreateTable(EmulatorImpl& impl, const Json& request) {
  DDBLAB_ASSIGN_OR_RETURN(CreateTableRequest r, Parse(request));
  Table table;
  DDBLAB_RETURN_IF_ERROR(Validate(r, &table));

  auto lock = impl.Lock();
  if (impl.FindTable(r.name, TableLookup::kControl).ok()) {
    return Error::ResourceInUse("Table already exists: " + r.name);
  }
  const TimePoint now = impl.Now();
  const Duration delay = impl.options().table_status_delay;
  table.name = r.name;
  table.arn = impl.TableArn(r.name);
  table.created = now;
  table.status =
      delay > Duration::zero() ? TableStatus::kCreating : TableStatus::kActive;
  table.status_until = now + delay;
  // Keep only definitions that key something (all of them, after Validate).
  table.attribute_definitions = r.defs;
  table.billing = r.billing;
  table.billing_explicit = r.billing_explicit;
  if (r.billing == BillingMode::kPayPerRequest) {
    table.last_update_to_pay_per_request = now;
  } else {
    table.throughput.read = *r.throughput.read;
    table.throughput.write = *r.throughput.write;
  }
  for (IndexDef& idx : table.indexes) {
    idx.id = table.next_index_id++;
    if (idx.global) {
      idx.status = table.status;
      idx.status_until = table.status_until;
    }
  }
  for (VectorIndexDef& v : table.vector_indexes) {
    v.status = table.status;
    v.status_until = table.status_until;
  }
  if (r.stream_enabled.value_or(false)) {
    table.stream.enabled = true;
    table.stream.view_type = *r.stream_view;
    table.stream.label = FormatStreamLabel(now);
    table.stream.arn = table.arn + "/stream/" + table.stream.label;
  }
  table.tags = r.tags;
  if (table.policies.table.policy) {
    table.policies.table.last_revision =
        NextRevision(now, table.policies.table);
    table.policies.table.policy->revision = table.policies.table.last_revision;
  }
  table.deletion_protection = r.deletion_protection;
  table.table_class = r.table_class;
  table.sse_description = r.sse;
  if (!table.sse_description.is_null() &&
      !table.sse_description.contains("KMSMasterKeyArn")) {
    table.sse_description["KMSMasterKeyArn"] =
        "arn:aws:kms:" + impl.options().region + ":" +
        impl.options().account_id + ":key/";
  }

  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  DDBLAB_ASSIGN_OR_RETURN(table.id, txn->CreateTable(table.name, "{}"));
  const std::string salt =
      "table/" + std::to_string(table.id) + "/" + table.name;
  table.uuid = impl.NewUuid(salt);
  if (!table.sse_description.is_null() &&
      table.sse_description["KMSMasterKeyArn"] ==
          "arn:aws:kms:" + impl.options().region + ":" +
              impl.options().account_id + ":key/") {
    table.sse_description["KMSMasterKeyArn"] =
        table.sse_description["KMSMasterKeyArn"].get<std::string>() +
        impl.NewUuid(salt + "/kms");
  }
  DDBLAB_RETURN_IF_ERROR(EmulatorImpl::SaveTable(table, *txn));
  for (const auto& sink : impl.sinks()) {
    DDBLAB_RETURN_IF_ERROR(sink->OnTableCreated(table, *txn));
  }
  DDBLAB_RETURN_IF_ERROR(txn->Commit());

  // The answer always says CREATING, even when the table is usable at once.
  Table shown = table;
  for (IndexDef& idx : shown.indexes) {
    if (idx.global) idx.status = TableStatus::kCreating;
  }
  for (VectorIndexDef& v : shown.vector_indexes) {
    v.status = TableStatus::kCreating;
  }
  TableStats stats;
  for (const IndexDef& idx : table.indexes) stats.indexes[idx.id] = {};
  for (const VectorIndexDef& v : table.vector_indexes) {
    stats.vector_indexes[v.name] = {};
  }
  Json description = DescribeTable(shown, stats, TableStatus::kCreating);
  impl.catalog().Publish(std::make_shared<const Table>(std::move(table)),
                         std::move(stats));
  return Json{{"TableDescription", std::move(description)}};
}

}  // namespace

Result<Json> HandleCreateTable(EmulatorImpl& impl, CallContext& /*call*/,
                               const Json& request) {
  return CreateTable(impl, request);
}

}  // namespace ddblab::engine
