// DescribeTable, DeleteTable, ListTables, DescribeLimits, DescribeEndpoints
// (the DynamoDB API reference); CommitTableChange for the other control
// operations.
#include <memory>
#include <utility>

#include "emulator/engine/operations.h"
#include "emulator/engine/ops/ops_table_internal.h"

namespace ddblab::engine {

std::optional<Error> TableBusyError(const Table& table) {
  const std::string prefix =
      "Attempt to change a resource which is still in use: ";
  switch (table.status) {
    case TableStatus::kCreating:
      return Error::ResourceInUse(prefix +
                                  "Table is being created: " + table.name);
    case TableStatus::kUpdating:
      return Error::ResourceInUse(prefix +
                                  "Table is being updated: " + table.name);
    case TableStatus::kDeleting:
      return Error::ResourceInUse(prefix +
                                  "Table is being deleted: " + table.name);
    case TableStatus::kActive:
      break;
  }
  return std::nullopt;
}

Status CommitTableChange(EmulatorImpl& impl, Catalog::Entry* entry,
                         Table next) {
  std::shared_ptr<const Table> current = entry->table;
  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  DDBLAB_RETURN_IF_ERROR(EmulatorImpl::SaveTable(next, *txn));
  for (const auto& sink : impl.sinks()) {
    DDBLAB_RETURN_IF_ERROR(sink->OnTableUpdated(*current, next, *txn));
  }
  DDBLAB_RETURN_IF_ERROR(txn->Commit());
  entry->table = std::make_shared<const Table>(std::move(next));
  return OkStatus();
}

namespace {

Result<Json> DescribeTableOp(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> name = ReadTableName(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                          impl.FindTable(*name, TableLookup::kControl));
  return Json{{"Table", DescribeTable(*entry->table, entry->stats)}};
}

// DeleteTable's TableDescription leaves out CreationDateTime, KeySchema,
// AttributeDefinitions and the GSI and LSI lists (DynamoDB's answer).
Json DeletedTableDescription(Json description) {
  for (const char* member :
       {"CreationDateTime", "KeySchema", "AttributeDefinitions",
        "GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    description.erase(member);
  }
  return description;
}

Result<Json> DeleteTableOp(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> name = ReadTableName(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  auto lock = impl.Lock();
  DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                          impl.FindTable(*name, TableLookup::kControl));
  std::shared_ptr<const Table> table = entry->table;
  if (table->status == TableStatus::kDeleting) {
    return Json{{"TableDescription",
                 DeletedTableDescription(DescribeTable(*table, entry->stats))}};
  }
  bool index_busy = false;
  for (const IndexDef& idx : table->indexes) {
    index_busy = index_busy || idx.status != TableStatus::kActive;
  }
  // A vector index declared by CreateTable is CREATING with its table: that
  // is the table-is-being-created refusal below.
  for (const VectorIndexDef& v : table->vector_indexes) {
    index_busy = index_busy || v.status == TableStatus::kDeleting ||
                 (v.status == TableStatus::kCreating && v.added_by_update);
  }
  if (index_busy) {
    return Error::ResourceInUse(
        "Attempt to change a resource which is still in use: Cannot delete "
        "table while indexes are being created, updated, or deleted.");
  }
  if (std::optional<Error> busy = TableBusyError(*table)) return *busy;
  if (table->deletion_protection) {
    return Error::Validation(
        "Resource cannot be deleted as it is currently protected against "
        "deletion. Disable deletion protection first.");
  }
  Json description = DeletedTableDescription(
      DescribeTable(*table, entry->stats, TableStatus::kDeleting));
  const Duration delay = impl.options().table_status_delay;
  DDBLAB_ASSIGN_OR_RETURN(auto txn, impl.store().Begin());
  if (delay > Duration::zero()) {
    Table next = *table;
    next.status = TableStatus::kDeleting;
    next.status_until = impl.Now() + delay;
    DDBLAB_RETURN_IF_ERROR(EmulatorImpl::SaveTable(next, *txn));
    for (const auto& sink : impl.sinks()) {
      DDBLAB_RETURN_IF_ERROR(sink->OnTableUpdated(*table, next, *txn));
    }
    DDBLAB_RETURN_IF_ERROR(txn->Commit());
    entry->table = std::make_shared<const Table>(std::move(next));
  } else {
    for (const auto& sink : impl.sinks()) {
      DDBLAB_RETURN_IF_ERROR(sink->OnTableDeleted(*table, *txn));
    }
    DDBLAB_RETURN_IF_ERROR(txn->DropTable(table->id));
    DDBLAB_RETURN_IF_ERROR(txn->Commit());
    impl.consistency().ForgetTable(table->id);
    impl.catalog().Erase(table->name);
  }
  return Json{{"TableDescription", std::move(description)}};
}

Result<Json> ListTablesOp(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  std::optional<std::string> start =
      p.String(request, "ExclusiveStartTableName");
  if (start) {
    p.NamePattern(*start, "exclusiveStartTableName");
    p.Length(*start, "exclusiveStartTableName", 3, 255);
  }
  std::optional<int64_t> limit = p.Integer(request, "Limit");
  if (limit) p.Range(*limit, "limit", 1, 100);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  const size_t page = static_cast<size_t>(limit.value_or(100));

  auto lock = impl.Lock();
  DDBLAB_RETURN_IF_ERROR(impl.SettleAll());
  const Catalog::Map& tables = impl.catalog().entries();
  auto it = start ? tables.upper_bound(*start) : tables.begin();
  Json names = Json::array();
  for (; it != tables.end() && names.size() < page; ++it) {
    names.push_back(it->first);
  }
  Json out{{"TableNames", std::move(names)}};
  if (it != tables.end())
    out["LastEvaluatedTableName"] = out["TableNames"].back();
  return out;
}

Result<Json> DescribeLimitsOp(EmulatorImpl&, const Json& request) {
  RequestParser p(request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  return Json{{"AccountMaxReadCapacityUnits", 80000},
              {"AccountMaxWriteCapacityUnits", 80000},
              {"TableMaxReadCapacityUnits", 40000},
              {"TableMaxWriteCapacityUnits", 40000}};
}

Result<Json> DescribeEndpointsOp(EmulatorImpl& impl, const Json& request) {
  RequestParser p(request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  std::string address = impl.options().endpoint_address;
  if (address.empty()) {
    address = "dynamodb." + impl.options().region + ".amazonaws.com";
  }
  Json endpoint{{"Address", address}, {"CachePeriodInMinutes", 1440}};
  return Json{{"Endpoints", Json::array({endpoint})}};
}

}  // namespace

Result<Json> HandleDescribeTable(EmulatorImpl& impl, CallContext& /*call*/,
                                 const Json& request) {
  return DescribeTableOp(impl, request);
}

Result<Json> HandleDeleteTable(EmulatorImpl& impl, CallContext& /*call*/,
                               const Json& request) {
  return DeleteTableOp(impl, request);
}

Result<Json> HandleListTables(EmulatorImpl& impl, CallContext& /*call*/,
                              const Json& request) {
  return ListTablesOp(impl, request);
}

Result<Json> HandleDescribeLimits(EmulatorImpl& impl, CallContext& /*call*/,
                                  const Json& request) {
  return DescribeLimitsOp(impl, request);
}

Result<Json> HandleDescribeEndpoints(EmulatorImpl& impl, CallContext& /*call*/,
                                     const Json& request) {
  return DescribeEndpointsOp(impl, request);
}

}  // namespace ddblab::engine
