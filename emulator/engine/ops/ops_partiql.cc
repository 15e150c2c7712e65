// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction.
//
// The handlers check the request's JSON types and shape constraints with
// RequestParser, then hand it to partiql::PartiqlExecutor. Its callbacks
// stay inside the engine: a table is described straight from the catalog
// (no DescribeTable), and every statement runs as the engine's own typed
// GetItem / Query / Scan / PutItem / UpdateItem / DeleteItem /
// TransactGetItems / TransactWriteItems (operations.h: Parse, Execute,
// Render) — never through the dispatcher or EmulatorImpl::Call — so
// conditions, stream records and TTL are the engine's. They run in the
// PartiQL call's own CallContext: its capacity ledger (with
// ExecuteTransaction's factor 2) is charged for them. The executor names
// the operation by enum (emulator/api/operation.h); the requests are still
// JSON, parsed by each operation's Parse.
//
// Thread-safety: the handlers hold no lock themselves (each Execute takes
// it) and are safe to run concurrently.
#include <limits>
#include <memory>
#include <string>

#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/operations.h"
#include "emulator/engine/request.h"
#include "emulator/partiql/executor.h"
#include "emulator/partiql/table_info.h"

namespace ddblab::engine {
namespace {

// Lengths from the DynamoDB API model (botocore dynamodb-2012-08-10).
constexpr int64_t kMaxStatement = 8192;
constexpr int64_t kMaxNextToken = 32768;

// One operation of a statement's plan, through its typed core, in the
// PartiQL call's context (its capacity ledger: an ExecuteTransaction's
// factor 2 applies to the TransactWriteItems it runs).
Result<Json> RunOperation(EmulatorImpl& impl, CallContext& call, Operation op,
                          const Json& request) {
  switch (op) {
    case Operation::kGetItem:
      return RunTyped<ParseGetItem, ExecuteGetItem, RenderGetItem>(impl, call,
                                                                   request);
    case Operation::kPutItem:
      return RunTyped<ParsePutItem, ExecutePutItem, RenderWriteItem>(impl, call,
                                                                     request);
    case Operation::kDeleteItem:
      return RunTyped<ParseDeleteItem, ExecuteDeleteItem, RenderWriteItem>(
          impl, call, request);
    case Operation::kUpdateItem:
      return RunTyped<ParseUpdateItem, ExecuteUpdateItem, RenderUpdateItem>(
          impl, call, request);
    case Operation::kQuery:
      return RunTyped<ParseQuery, ExecuteQuery, RenderQuery>(impl, call,
                                                             request);
    case Operation::kScan:
      return RunTyped<ParseScan, ExecuteScan, RenderScan>(impl, call, request);
    case Operation::kTransactGetItems:
      return RunTyped<ParseTransactGet, ExecuteTransactGet, RenderTransactGet>(
          impl, call, request);
    case Operation::kTransactWriteItems:
      return RunTyped<ParseTransactWrite, ExecuteTransactWrite,
                      RenderTransactWrite>(impl, call, request);
    default:
      return Error::Internal("PartiQL planned an unexpected operation: " +
                             std::string(NameOf(op)));
  }
}

partiql::KeySchema PartiqlKeys(const KeySchema& key) {
  partiql::KeySchema out;
  out.hash = key.hash.name;
  if (key.range) out.range = key.range->name;
  // A multi-attribute GSI key: the other HASH, then the other RANGE
  // attributes, in KeySchema order.
  for (const KeyElement& k : key.more_hash) out.more.push_back(k.name);
  for (const KeyElement& k : key.more_range) out.more.push_back(k.name);
  return out;
}

// What the translator needs of a table, from the catalog (as a
// DescribeTable would show it: any status; GSIs, then LSIs).
Result<partiql::TableInfo> DescribeForPartiql(EmulatorImpl& impl,
                                              const std::string& name) {
  std::shared_ptr<const Table> table;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(name, TableLookup::kControl));
    table = entry->table;
  }
  partiql::TableInfo info;
  info.name = table->name;
  info.keys = PartiqlKeys(table->key);
  for (const KeyElement& a : table->attribute_definitions) {
    info.attribute_types[a.name] =
        std::string(value::AttributeValue::TypeName(a.type));
  }
  for (bool global : {true, false}) {
    for (const IndexDef& index : table->indexes) {
      if (index.global != global) continue;
      partiql::IndexInfo out;
      out.name = index.name;
      out.global = index.global;
      out.keys = PartiqlKeys(index.key);
      out.projection_type = std::string(ProjectionTypeName(index.projection));
      if (index.projection == ProjectionType::kInclude) {
        out.non_key_attributes = index.non_key_attributes;
      }
      info.indexes.push_back(std::move(out));
    }
  }
  for (const VectorIndexDef& v : table->vector_indexes) {
    info.vector_indexes.push_back(v.name);
  }
  return info;
}

partiql::PartiqlExecutor MakeExecutor(EmulatorImpl& impl, CallContext& call) {
  return partiql::PartiqlExecutor(
      [&impl, &call](Operation op, const Json& request) {
        return RunOperation(impl, call, op, request);
      },
      [&impl](const std::string& table) {
        return DescribeForPartiql(impl, table);
      });
}

void CheckReturnConsumedCapacity(RequestParser& p, const Json& request) {
  if (auto v = p.String(request, "ReturnConsumedCapacity")) {
    p.Enum(*v, "returnConsumedCapacity", {"INDEXES", "TOTAL", "NONE"});
  }
}

void CheckReturnValuesOnFailure(RequestParser& p, const Json& obj,
                                const std::string& path) {
  if (auto v = p.String(obj, "ReturnValuesOnConditionCheckFailure")) {
    p.Enum(*v, path, {"ALL_OLD", "NONE"});
  }
}

// Statement + Parameters of one statement (top level or a list element).
void CheckStatement(RequestParser& p, const Json& obj,
                    const std::string& prefix) {
  auto statement = p.String(obj, "Statement");
  p.NotNull(statement.has_value(), prefix + "statement");
  if (statement) p.Length(*statement, prefix + "statement", 1, kMaxStatement);
  if (const Json* parameters = p.List(obj, "Parameters")) {
    p.ListLength(*parameters, prefix + "parameters", 1,
                 std::numeric_limits<int64_t>::max());
    for (const Json& parameter : *parameters) {
      p.StructValue(parameter, "AttributeValue");
    }
  }
  CheckReturnValuesOnFailure(p, obj,
                             prefix + "returnValuesOnConditionCheckFailure");
}

Result<Json> ExecuteStatement(EmulatorImpl& impl, CallContext& call,
                              const Json& request) {
  RequestParser p(request);
  CheckStatement(p, request, "");
  (void)p.Bool(request, "ConsistentRead");
  if (auto token = p.String(request, "NextToken")) {
    p.Length(*token, "nextToken", 1, kMaxNextToken);
  }
  if (auto limit = p.Integer(request, "Limit")) {
    p.Range(*limit, "limit", 1, std::nullopt);
  }
  CheckReturnConsumedCapacity(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  return MakeExecutor(impl, call).ExecuteStatement(request);
}

Result<Json> BatchExecuteStatement(EmulatorImpl& impl, CallContext& call,
                                   const Json& request) {
  RequestParser p(request);
  const Json* statements = p.List(request, "Statements");
  p.NotNull(statements != nullptr, "statements");
  if (statements != nullptr) {
    p.ListLength(*statements, "statements", 1, 25);
    for (size_t i = 0; i < statements->size(); ++i) {
      const Json* item =
          p.StructValue((*statements)[i], "BatchStatementRequest");
      if (item == nullptr) continue;
      CheckStatement(p, *item, ElementPath("statements", i) + ".");
      (void)p.Bool(*item, "ConsistentRead");
    }
  }
  CheckReturnConsumedCapacity(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  return MakeExecutor(impl, call).BatchExecuteStatement(request);
}

Result<Json> ExecuteTransaction(EmulatorImpl& impl, CallContext& call,
                                const Json& request) {
  RequestParser p(request);
  const Json* statements = p.List(request, "TransactStatements");
  p.NotNull(statements != nullptr, "transactStatements");
  if (statements != nullptr) {
    p.ListLength(*statements, "transactStatements", 1, 100);
    for (size_t i = 0; i < statements->size(); ++i) {
      const Json* item =
          p.StructValue((*statements)[i], "ParameterizedStatement");
      if (item == nullptr) continue;
      CheckStatement(p, *item, ElementPath("transactStatements", i) + ".");
    }
  }
  if (auto token = p.String(request, "ClientRequestToken")) {
    p.Length(*token, "clientRequestToken", 1, 36);
  }
  CheckReturnConsumedCapacity(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  return MakeExecutor(impl, call).ExecuteTransaction(request);
}

}  // namespace

Result<Json> HandleExecuteStatement(EmulatorImpl& impl, CallContext& call,
                                    const Json& request) {
  return ExecuteStatement(impl, call, request);
}

Result<Json> HandleBatchExecuteStatement(EmulatorImpl& impl, CallContext& call,
                                         const Json& request) {
  return BatchExecuteStatement(impl, call, request);
}

Result<Json> HandleExecuteTransaction(EmulatorImpl& impl, CallContext& call,
                                      const Json& request) {
  return ExecuteTransaction(impl, call, request);
}

}  // namespace ddblab::engine
