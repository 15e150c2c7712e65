// On-demand backups: CreateBackup, DescribeBackup, ListBackups,
// DeleteBackup and RestoreTableFromBackup (the DynamoDB API reference).
//
// A backup is a snapshot in the same database (storage/backup_store.h): the
// source table's metadata and a copy of its item rows, taken in one
// transaction, so it survives DeleteTable of its source as on DynamoDB.
// Status on the clock (backup_record.h): CREATING for
// Options.table_status_delay, then AVAILABLE (at once with the default
// delay of zero). BackupType is always USER.
//
// Restore builds a new table from the backup's metadata, the way DynamoDB
// does. The API reference of RestoreTableFromBackup says "You must manually
// set up the following on the restored table: Auto scaling policies, IAM
// policies, Amazon CloudWatch metrics and alarms, Tags, Stream settings,
// Time to Live (TTL) settings", and CreateBackup says a backup includes the
// GSIs, the LSIs, streams and the provisioned capacity. So the restored
// table keeps the key schema, the LSIs and GSIs (or the
// GlobalSecondaryIndexOverride / LocalSecondaryIndexOverride subset), the
// vector indexes, the billing mode and throughput (or their overrides), SSE
// (or SSESpecificationOverride), the table class and every item; it has no
// stream, no TTL, no tags, point-in-time recovery off and deletion
// protection off. It is CREATING then ACTIVE like a new table
// (Options.table_status_delay), with a RestoreSummary whose
// RestoreInProgress is true while CREATING. Its items are written through
// the ordinary write path (indexes and vector indexes rebuilt) in the
// transaction that creates it, and charge no capacity.
//
// Errors. Input shapes use the Coral constraint texts (request.h). The
// texts below were not found in DynamoDB's documentation or in a capture
// (the exception names are those the API reference lists for each
// operation); they are chosen in DynamoDB's style and are NOT verified:
//   TableNotFoundException       "Table not found: <name>" (as
//                                DescribeContinuousBackups)
//   TableInUseException          "Table is being created: <name>" /
//                                "Table is being deleted: <name>"
//   BackupInUseException         "Backup is being created: <arn>" /
//                                "Backup is being restored: <arn>"
//   TableAlreadyExistsException  "Table already exists: <name>"
//   ValidationException          override checks, see below.
// Verified: BackupNotFoundException "Backup not found: <arn>" (DynamoDB's
// answer to a DescribeBackup of a missing backup, as a user's log quotes
// it).
//
// Thread-safety: the handlers take the engine lock.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/engine/backup_record.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/operations.h"
#include "emulator/engine/ops/ops_table_internal.h"
#include "emulator/engine/table_schema.h"
#include "emulator/value/item_codec.h"

namespace ddblab::engine {
namespace {

Error TableNotFound(const std::string& name) {
  return Error::Of(ErrorType::kTableNotFound, "Table not found: " + name);
}

Error BackupNotFound(const std::string& arn) {
  return Error::Of(ErrorType::kBackupNotFound, "Backup not found: " + arn);
}

// BackupArn / ExclusiveStartBackupArn: 37..1024 characters.
void CheckBackupArn(RequestParser& p, const std::optional<std::string>& arn,
                    std::string_view path, bool required) {
  if (required) p.NotNull(arn.has_value(), path);
  if (arn) p.Length(*arn, path, 37, 1024);
}

// A Timestamp member (epoch seconds, possibly fractional).
std::optional<TimePoint> ReadTimestamp(RequestParser& p, const Json& obj,
                                       std::string_view member) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(member);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) {
    // Unverified text (Coral's for a non-number Timestamp).
    p.SerializationError(
        std::string(it->is_string() ? "STRING_VALUE" : "Value") +
        " cannot be converted to Timestamp");
    return std::nullopt;
  }
  double seconds = it->get<double>();
  if (!std::isfinite(seconds)) return std::nullopt;
  seconds = std::clamp(seconds, -9.0e9, 9.0e9);
  return TimePoint(std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(seconds)));
}

Result<std::vector<BackupRecord>> LoadBackups(storage::ItemStore& store) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<storage::BackupRow> rows,
                          store.backups().List());
  std::vector<BackupRecord> out;
  out.reserve(rows.size());
  for (const storage::BackupRow& row : rows) {
    DDBLAB_ASSIGN_OR_RETURN(BackupRecord b, BackupRecord::FromRow(row));
    out.push_back(std::move(b));
  }
  return out;
}

Result<BackupRecord> FindBackup(storage::ItemStore& store,
                                const std::string& arn) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<BackupRecord> all, LoadBackups(store));
  for (BackupRecord& b : all) {
    if (b.arn == arn) return std::move(b);
  }
  return BackupNotFound(arn);
}

// Whether a table being restored from `arn` is still CREATING (status
// transitions applied first).
Result<bool> RestoreInProgress(EmulatorImpl& impl, const std::string& arn)
    DDBLAB_REQUIRES(impl.mu()) {
  DDBLAB_RETURN_IF_ERROR(impl.SettleAll());
  for (const auto& [name, entry] : impl.catalog().entries()) {
    const Table& t = *entry.table;
    if (t.status == TableStatus::kCreating && t.restore_summary.is_object() &&
        t.restore_summary.value("SourceBackupArn", "") == arn) {
      return true;
    }
  }
  return false;
}

// ---- CreateBackup.

Result<Json> CreateBackup(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> table_name = ReadTableName(p, request);
  std::optional<std::string> backup_name = p.String(request, "BackupName");
  p.NotNull(backup_name.has_value(), "backupName");
  if (backup_name) {
    p.NamePattern(*backup_name, "backupName");
    p.Length(*backup_name, "backupName", 3, 255);
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());

  auto lock = impl.Lock();
  Result<Catalog::Entry*> found =
      impl.FindTable(*table_name, TableLookup::kControl);
  if (!found.ok()) {
    if (found.error().type != ErrorType::kResourceNotFound) {
      return found.error();
    }
    return TableNotFound(impl.TableNameOf(*table_name).value_or(*table_name));
  }
  const Catalog::Entry& entry = **found;
  const Table& table = *entry.table;
  if (table.status == TableStatus::kCreating) {
    return Error::Of(ErrorType::kTableInUse,
                     "Table is being created: " + table.name);
  }
  if (table.status == TableStatus::kDeleting) {
    return Error::Of(ErrorType::kTableInUse,
                     "Table is being deleted: " + table.name);
  }
  DDBLAB_ASSIGN_OR_RETURN(std::vector<storage::BackupRow> rows,
                          impl.store().backups().List());
  const TimePoint now = impl.Now();
  BackupRecord b;
  b.name = *backup_name;
  b.created = now;
  b.available_at = now + impl.options().table_status_delay;
  b.size_bytes = entry.stats.size_bytes;
  b.item_count = entry.stats.item_count;
  b.source = table;
  // The 8 hex digits: seeded (the same run gives the same ARNs), unique.
  for (size_t n = rows.size();; ++n) {
    const std::string uuid = impl.NewUuid("backup/" + table.uuid + "/" +
                                          b.name + "/" + std::to_string(n));
    b.arn = MakeBackupArn(table.arn, now, uuid.substr(0, 8));
    bool taken = std::any_of(rows.begin(), rows.end(),
                             [&](const auto& r) { return r.arn == b.arn; });
    if (!taken) break;
  }
  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  DDBLAB_ASSIGN_OR_RETURN(b.id,
                          txn->backups().Create(b.arn, b.ToMeta(), table.id));
  DDBLAB_RETURN_IF_ERROR(txn->Commit());
  return Json{{"BackupDetails", BackupDetailsJson(b, b.StatusAt(now))}};
}

// ---- DescribeBackup / DeleteBackup.

std::optional<std::string> ReadBackupArn(RequestParser& p,
                                         const Json& request) {
  std::optional<std::string> arn = p.String(request, "BackupArn");
  CheckBackupArn(p, arn, "backupArn", true);
  return arn;
}

Result<Json> DescribeBackup(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> arn = ReadBackupArn(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(BackupRecord b, FindBackup(impl.store(), *arn));
  return Json{
      {"BackupDescription", BackupDescriptionJson(b, b.StatusAt(impl.Now()))}};
}

Result<Json> DeleteBackup(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> arn = ReadBackupArn(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(BackupRecord b, FindBackup(impl.store(), *arn));
  if (!b.Available(impl.Now())) {
    return Error::Of(ErrorType::kBackupInUse,
                     "Backup is being created: " + b.arn);
  }
  DDBLAB_ASSIGN_OR_RETURN(bool restoring, RestoreInProgress(impl, b.arn));
  if (restoring) {
    return Error::Of(ErrorType::kBackupInUse,
                     "Backup is being restored: " + b.arn);
  }
  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  DDBLAB_RETURN_IF_ERROR(txn->backups().Delete(b.id));
  DDBLAB_RETURN_IF_ERROR(txn->Commit());
  return Json{{"BackupDescription", BackupDescriptionJson(b, "DELETED")}};
}

// ---- ListBackups.

Result<Json> ListBackups(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> table_name = p.String(request, "TableName");
  if (table_name) p.CheckTableNameOrArn(table_name, "tableName");
  std::optional<int64_t> limit = p.Integer(request, "Limit");
  if (limit) p.Range(*limit, "limit", 1, 100);
  std::optional<TimePoint> lower =
      ReadTimestamp(p, request, "TimeRangeLowerBound");
  std::optional<TimePoint> upper =
      ReadTimestamp(p, request, "TimeRangeUpperBound");
  std::optional<std::string> start =
      p.String(request, "ExclusiveStartBackupArn");
  CheckBackupArn(p, start, "exclusiveStartBackupArn", false);
  std::optional<std::string> type = p.String(request, "BackupType");
  if (type)
    p.Enum(*type, "backupType", {"USER", "SYSTEM", "AWS_BACKUP", "ALL"});
  DDBLAB_RETURN_IF_ERROR(p.Finish());

  std::optional<std::string> wanted_table;
  if (table_name) {
    // An ARN of another account or Region matches no backup.
    wanted_table = impl.TableNameOf(*table_name).value_or("\n");
  }
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(std::vector<BackupRecord> all,
                          LoadBackups(impl.store()));
  // ARN order: by table name, then creation time. ExclusiveStartBackupArn
  // then needs no lookup (a deleted backup's ARN still places the page).
  std::sort(all.begin(), all.end(),
            [](const BackupRecord& a, const BackupRecord& b) {
              return a.arn < b.arn;
            });
  const TimePoint now = impl.Now();
  // Only USER backups exist here; SYSTEM and AWS_BACKUP list nothing.
  const bool user = !type || *type == "USER" || *type == "ALL";
  const size_t max = static_cast<size_t>(limit.value_or(100));
  Json summaries = Json::array();
  std::optional<std::string> last;
  for (const BackupRecord& b : all) {
    if (!user) break;
    if (start && b.arn <= *start) continue;
    if (wanted_table && b.table_name() != *wanted_table) continue;
    // TimeRangeLowerBound is inclusive, TimeRangeUpperBound exclusive.
    if (lower && b.created < *lower) continue;
    if (upper && b.created >= *upper) continue;
    if (summaries.size() == max) {
      last = summaries.back().at("BackupArn").get<std::string>();
      break;
    }
    summaries.push_back(BackupSummaryJson(b, b.StatusAt(now)));
  }
  Json out{{"BackupSummaries", std::move(summaries)}};
  if (last) out["LastEvaluatedBackupArn"] = *last;
  return out;
}

// ---- RestoreTableFromBackup.

struct RestoreRequest {
  std::string target;
  std::string arn;
  std::optional<BillingMode> billing;
  RawThroughput throughput;  // ProvisionedThroughputOverride
  RawOnDemandSettings on_demand;
  const Json* gsi_list = nullptr;
  std::vector<RawIndex> gsis;
  const Json* lsi_list = nullptr;
  std::vector<RawIndex> lsis;
  bool sse_present = false;
  Json sse;  // SSEDescription if enabled
};

Result<RestoreRequest> ParseRestore(const Json& request) {
  RequestParser p(request);
  RestoreRequest r;
  std::optional<std::string> target = p.String(request, "TargetTableName");
  p.NotNull(target.has_value(), "targetTableName");
  if (target) {
    p.NamePattern(*target, "targetTableName");
    p.Length(*target, "targetTableName", 3, 255);
  }
  std::optional<std::string> arn = ReadBackupArn(p, request);
  std::optional<std::string> billing = p.String(request, "BillingModeOverride");
  if (billing) {
    p.Enum(*billing, "billingModeOverride", {"PROVISIONED", "PAY_PER_REQUEST"});
  }
  r.gsi_list = p.List(request, "GlobalSecondaryIndexOverride");
  if (r.gsi_list != nullptr) {
    for (size_t i = 0; i < r.gsi_list->size(); ++i) {
      r.gsis.push_back(
          ParseIndex(p, (*r.gsi_list)[i],
                     ElementPath("globalSecondaryIndexOverride", i), true));
    }
  }
  r.lsi_list = p.List(request, "LocalSecondaryIndexOverride");
  if (r.lsi_list != nullptr) {
    for (size_t i = 0; i < r.lsi_list->size(); ++i) {
      r.lsis.push_back(ParseIndex(p, (*r.lsi_list)[i],
                                  ElementPath("localSecondaryIndexOverride", i),
                                  false));
    }
  }
  if (request.is_object() &&
      request.contains("ProvisionedThroughputOverride")) {
    const Json wrapper{
        {"ProvisionedThroughput", request.at("ProvisionedThroughputOverride")}};
    r.throughput = ParseThroughput(p, wrapper, "provisionedThroughputOverride");
  }
  if (request.is_object() && request.contains("OnDemandThroughputOverride")) {
    const Json wrapper{
        {"OnDemandThroughput", request.at("OnDemandThroughputOverride")}};
    r.on_demand = ParseOnDemandSettings(p, wrapper, "");
  }
  if (const Json* s =
          p.Struct(request, "SSESpecificationOverride", "SSESpecification")) {
    r.sse_present = true;
    std::optional<bool> enabled = p.Bool(*s, "Enabled");
    std::optional<std::string> sse_type = p.String(*s, "SSEType");
    if (sse_type) {
      p.Enum(*sse_type, "sSESpecificationOverride.sSEType", {"AES256", "KMS"});
    }
    std::optional<std::string> key = p.String(*s, "KMSMasterKeyId");
    if (enabled.value_or(false)) {
      r.sse = Json{{"Status", "ENABLED"}, {"SSEType", "KMS"}};
      if (key) r.sse["KMSMasterKeyArn"] = *key;
    }
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  r.target = *target;
  r.arn = *arn;
  if (billing) {
    r.billing = *billing == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest
                                              : BillingMode::kProvisioned;
  }
  return r;
}

// The overridden index list: each override must name an index of the same
// kind in the backup (unverified text), and is built like a CreateTable
// index against the backup's attribute definitions.
Result<std::vector<IndexDef>> OverrideIndexes(const Table& source,
                                              const std::vector<RawIndex>& raws,
                                              bool global,
                                              BillingMode billing) {
  std::vector<IndexDef> out;
  for (const RawIndex& raw : raws) {
    const IndexDef* old = source.FindIndex(raw.name.value_or(""));
    if (old == nullptr || old->global != global) {
      return Error::Validation(std::string(kInvalidParams) +
                               (global ? "Global" : "Local") +
                               " secondary index " + raw.name.value_or("") +
                               " is not an index of the backup");
    }
    DDBLAB_ASSIGN_OR_RETURN(
        IndexDef idx,
        BuildIndex(raw, source.attribute_definitions, source.key, global));
    for (const IndexDef& seen : out) {
      if (seen.name == idx.name) {
        return Error::Validation(std::string(kInvalidParams) +
                                 "Duplicate index name: " + idx.name);
      }
    }
    if (global) {
      DDBLAB_RETURN_IF_ERROR(CheckIndexThroughput(raw, billing));
      idx.throughput = IndexThroughput(raw, billing);
      DDBLAB_RETURN_IF_ERROR(
          ApplyOnDemandSettings(raw.on_demand, &idx.on_demand));
    }
    out.push_back(std::move(idx));
  }
  return out;
}

// The restored table's metadata (no id, uuid or status yet).
Result<Table> RestoredTable(const BackupRecord& b, const RestoreRequest& r,
                            const EmulatorImpl& impl, TimePoint now) {
  const Table& source = b.source;
  Table t;
  t.name = r.target;
  t.arn = impl.TableArn(r.target);
  t.created = now;
  t.attribute_definitions = source.attribute_definitions;
  t.key = source.key;
  t.vector_indexes = source.vector_indexes;
  t.table_class = source.table_class;
  t.billing = r.billing.value_or(source.billing);
  t.billing_explicit = source.billing_explicit || r.billing.has_value();
  t.on_demand = source.on_demand;
  DDBLAB_RETURN_IF_ERROR(ApplyOnDemandSettings(r.on_demand, &t.on_demand));
  if (t.billing == BillingMode::kPayPerRequest) {
    DDBLAB_RETURN_IF_ERROR(CheckTableThroughput(r.throughput, t.billing));
    t.last_update_to_pay_per_request = now;
  } else if (r.throughput.present ||
             source.billing == BillingMode::kPayPerRequest) {
    DDBLAB_RETURN_IF_ERROR(CheckTableThroughput(r.throughput, t.billing));
    t.throughput.read = *r.throughput.read;
    t.throughput.write = *r.throughput.write;
  } else {
    t.throughput.read = source.throughput.read;
    t.throughput.write = source.throughput.write;
  }
  // Secondary indexes: the backup's, or the overrides' subset.
  std::vector<IndexDef> gsis;
  std::vector<IndexDef> lsis;
  for (const IndexDef& idx : source.indexes) {
    (idx.global ? gsis : lsis).push_back(idx);
  }
  if (r.gsi_list != nullptr) {
    DDBLAB_ASSIGN_OR_RETURN(gsis,
                            OverrideIndexes(source, r.gsis, true, t.billing));
  } else {
    for (IndexDef& g : gsis) {
      // A billing change moves the GSIs with the table.
      if (t.billing == BillingMode::kPayPerRequest) {
        g.throughput = Throughput{};
      } else if (source.billing == BillingMode::kPayPerRequest) {
        g.throughput = Throughput{};
        g.throughput.read = t.throughput.read;
        g.throughput.write = t.throughput.write;
      } else {
        Throughput fresh;
        fresh.read = g.throughput.read;
        fresh.write = g.throughput.write;
        g.throughput = fresh;
      }
    }
  }
  if (r.lsi_list != nullptr) {
    DDBLAB_ASSIGN_OR_RETURN(lsis,
                            OverrideIndexes(source, r.lsis, false, t.billing));
  }
  for (IndexDef& idx : lsis) t.indexes.push_back(std::move(idx));
  for (IndexDef& idx : gsis) t.indexes.push_back(std::move(idx));
  t.PruneAttributeDefinitions();
  if (r.sse_present) {
    t.sse_description = r.sse;
  } else {
    t.sse_description = source.sse_description;
  }
  t.restore_summary = Json{{"SourceBackupArn", b.arn},
                           {"SourceTableArn", source.arn},
                           {"RestoreDateTime", ToEpochSecondsDouble(now)}};
  return t;
}

Result<Json> RestoreTableFromBackup(EmulatorImpl& impl, const Json& request) {
  DDBLAB_ASSIGN_OR_RETURN(RestoreRequest r, ParseRestore(request));

  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(BackupRecord b, FindBackup(impl.store(), r.arn));
  const TimePoint now = impl.Now();
  if (!b.Available(now)) {
    return Error::Of(ErrorType::kBackupInUse,
                     "Backup is being created: " + b.arn);
  }
  if (Result<Catalog::Entry*> existing =
          impl.FindTable(r.target, TableLookup::kControl);
      existing.ok()) {
    if ((*existing)->table->status == TableStatus::kDeleting) {
      return Error::Of(ErrorType::kTableInUse,
                       "Table is being deleted: " + r.target);
    }
    return Error::Of(ErrorType::kTableAlreadyExists,
                     "Table already exists: " + r.target);
  }
  DDBLAB_ASSIGN_OR_RETURN(Table table, RestoredTable(b, r, impl, now));
  const Duration delay = impl.options().table_status_delay;
  table.status =
      delay > Duration::zero() ? TableStatus::kCreating : TableStatus::kActive;
  table.status_until = now + delay;
  for (IndexDef& idx : table.indexes) {
    idx.id = table.next_index_id++;
    idx.backfilling = false;
    idx.status = idx.global ? table.status : TableStatus::kActive;
    idx.status_until = table.status_until;
  }
  for (VectorIndexDef& v : table.vector_indexes) {
    v.status = table.status;
    v.status_until = table.status_until;
    v.added_by_update = false;
    v.backfilling = false;
  }

  CapacityLedger free_of_charge;
  WriteBatch batch(impl, free_of_charge);
  DDBLAB_RETURN_IF_ERROR(batch.Begin());
  storage::WriteTransaction& txn = batch.txn();
  DDBLAB_ASSIGN_OR_RETURN(table.id, txn.CreateTable(table.name, "{}"));
  table.uuid =
      impl.NewUuid("table/" + std::to_string(table.id) + "/" + table.name);
  DDBLAB_RETURN_IF_ERROR(EmulatorImpl::SaveTable(table, txn));
  for (const auto& sink : impl.sinks()) {
    DDBLAB_RETURN_IF_ERROR(sink->OnTableCreated(table, txn));
  }
  TableStats empty;
  for (const IndexDef& idx : table.indexes) empty.indexes[idx.id] = {};
  for (const VectorIndexDef& v : table.vector_indexes) {
    empty.vector_indexes[v.name] = {};
  }
  // The answer: CREATING, restore in progress, no items counted yet.
  Json description = DescribeTable(table, empty, TableStatus::kCreating);
  if (description.contains("GlobalSecondaryIndexes")) {
    for (Json& g : description["GlobalSecondaryIndexes"]) {
      g["IndexStatus"] = "CREATING";
    }
  }
  if (description.contains("VectorIndexes")) {
    for (Json& v : description["VectorIndexes"]) v["IndexStatus"] = "CREATING";
  }
  // Published before the items are written (the batch counts them into
  // the catalog entry on commit); erased again if anything fails.
  auto published = std::make_shared<const Table>(std::move(table));
  impl.catalog().Publish(published, std::move(empty));
  Status written = [&]() -> Status {
    Status status = OkStatus();
    Consumed used;  // charged to nobody
    Status scan =
        txn.backups().ScanItems(b.id, [&](const storage::BackupItemRow& row) {
          Result<value::Item> item = value::DeserializeItem(row.item);
          if (!item.ok()) {
            status = item.error();
            return false;
          }
          Result<PrimaryKey> key = ExtractItemKey(*published, *item);
          if (!key.ok()) {
            status = key.error();
            return false;
          }
          ExistingItem none;
          status = batch.ApplyInto(*published, *key, none, &*item, &used);
          return status.ok();
        });
    DDBLAB_RETURN_IF_ERROR(scan);
    DDBLAB_RETURN_IF_ERROR(status);
    return batch.Commit();
  }();
  if (!written.ok()) {
    impl.catalog().Erase(published->name);
    return written.error();
  }
  return Json{{"TableDescription", std::move(description)}};
}

}  // namespace

Result<Json> HandleCreateBackup(EmulatorImpl& impl, CallContext& /*call*/,
                                const Json& request) {
  return CreateBackup(impl, request);
}

Result<Json> HandleDescribeBackup(EmulatorImpl& impl, CallContext& /*call*/,
                                  const Json& request) {
  return DescribeBackup(impl, request);
}

Result<Json> HandleListBackups(EmulatorImpl& impl, CallContext& /*call*/,
                               const Json& request) {
  return ListBackups(impl, request);
}

Result<Json> HandleDeleteBackup(EmulatorImpl& impl, CallContext& /*call*/,
                                const Json& request) {
  return DeleteBackup(impl, request);
}

Result<Json> HandleRestoreTableFromBackup(EmulatorImpl& impl,
                                          CallContext& /*call*/,
                                          const Json& request) {
  return RestoreTableFromBackup(impl, request);
}

}  // namespace ddblab::engine
