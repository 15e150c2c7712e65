// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction.
//
// The handlers check the request's JSON types and shape constraints with
// RequestParser, then hand it to partiql::PartiqlExecutor over the engine's
// PartiqlOperations (partiql_operations.h): a table is described straight
// from the catalog (no DescribeTable), and every statement's plan — a typed
// partiql::OpRequest, not JSON — becomes the engine's own typed GetItem /
// Query / Scan / PutItem / UpdateItem / DeleteItem / TransactGetItems /
// TransactWriteItems request and runs through its Execute and Render
// (operations.h) — never through the dispatcher or EmulatorImpl::Call — so
// conditions, stream records and TTL are the engine's. They run in the
// PartiQL call's own CallContext: its capacity ledger (with
// ExecuteTransaction's factor 2) is charged for them. JSON remains only
// where the wire has it: the PartiQL request and response, and each
// operation's rendered response, whose items become the statement's Items.
//
// Thread-safety: the handlers hold no lock themselves (each Execute takes
// it) and are safe to run concurrently.
#include <limits>
#include <string>

#include "emulator/engine/operations.h"
#include "emulator/engine/ops/partiql_operations.h"
#include "emulator/engine/request.h"
#include "emulator/partiql/executor.h"

namespace ddblab::engine {
namespace {

// Lengths from the DynamoDB API model (botocore dynamodb-2012-08-10).
constexpr int64_t kMaxStatement = 8192;
constexpr int64_t kMaxNextToken = 32768;

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
  PartiqlOperations operations(impl, call);
  return partiql::PartiqlExecutor(operations).ExecuteStatement(request);
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
  PartiqlOperations operations(impl, call);
  return partiql::PartiqlExecutor(operations).BatchExecuteStatement(request);
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
  PartiqlOperations operations(impl, call);
  return partiql::PartiqlExecutor(operations).ExecuteTransaction(request);
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
