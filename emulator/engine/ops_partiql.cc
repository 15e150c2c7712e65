// PartiQL operations: shape checks, then partiql::PartiqlExecutor over
// EmulatorImpl::Call (see ops_partiql.h).
#include "emulator/engine/ops_partiql.h"

#include <limits>
#include <string>

#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/request.h"
#include "emulator/partiql/executor.h"

namespace ddblab::engine {
namespace {

// Lengths from the DynamoDB API model (botocore dynamodb-2012-08-10).
constexpr int64_t kMaxStatement = 8192;
constexpr int64_t kMaxNextToken = 32768;

partiql::PartiqlExecutor MakeExecutor(EmulatorImpl& impl) {
  return partiql::PartiqlExecutor(
      [&impl](std::string_view op, const Json& request) {
        return impl.Call(op, request);
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

Result<Json> ExecuteStatement(EmulatorImpl& impl, const Json& request) {
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
  return MakeExecutor(impl).ExecuteStatement(request);
}

Result<Json> BatchExecuteStatement(EmulatorImpl& impl, const Json& request) {
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
  return MakeExecutor(impl).BatchExecuteStatement(request);
}

Result<Json> ExecuteTransaction(EmulatorImpl& impl, const Json& request) {
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
  return MakeExecutor(impl).ExecuteTransaction(request);
}

}  // namespace

void RegisterPartiqlOps(Dispatcher& d) {
  d.Register("ExecuteStatement", ExecuteStatement);
  d.Register("BatchExecuteStatement", BatchExecuteStatement);
  d.Register("ExecuteTransaction", ExecuteTransaction);
}

}  // namespace ddblab::engine
