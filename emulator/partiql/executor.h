// emulator/partiql/executor.h: DynamoDB's PartiQL API (ExecuteStatement,
// BatchExecuteStatement, ExecuteTransaction) on top of the ordinary
// DynamoDB operations.
//
// Each statement is parsed (parser.h), its table described (the describe
// callback, or a DescribeTable through the call callback when there is
// none), translated (translate.h) and run as GetItem / Query / Scan /
// PutItem / UpdateItem / DeleteItem, or as one TransactGetItems /
// TransactWriteItems for a transaction — all through the call callback. The
// engine's callbacks (engine/ops/ops_partiql.cc) run those operations' typed
// Parse / Execute / Render directly, not through its dispatcher. So PartiQL
// writes get the engine's own conditions, stream records and TTL handling;
// there is no second storage path.
//
// The callback's errors come back as PartiQL reports them: a failed
// INSERT guard is DuplicateItemException "Duplicate primary key exists in
// table"; an unknown table is ResourceNotFoundException "Requested resource
// not found"; the "Invalid <X>Expression: " prefix of an expression error is
// dropped (PartiQL's own texts have none, e.g. "Incorrect number of operands
// ..." pinned on AWS).
//
// The request's JSON shape (types, lengths, enums) is the caller's job
// (engine/ops/ops_partiql.cc checks it with the engine's RequestParser); the
// executor tolerates anything but does not word shape errors.
//
// Thread-safety: an executor serves one request at a time (it caches table
// descriptions for the duration of a request). The callback must be safe to
// call from the calling thread.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/operation.h"
#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"
#include "emulator/partiql/table_info.h"
#include "emulator/partiql/translate.h"

namespace ddblab::partiql {

// Runs one operation (emulator/api/operation.h) with its request.
using CallFn = std::function<Result<nlohmann::json>(
    Operation op, const nlohmann::json& request)>;
// The description of a table by name; ResourceNotFound if it does not exist.
using DescribeFn = std::function<Result<TableInfo>(const std::string& table)>;

class PartiqlExecutor {
 public:
  // Tables are described with a DescribeTable through `call`.
  explicit PartiqlExecutor(CallFn call);
  PartiqlExecutor(CallFn call, DescribeFn describe);

  Result<nlohmann::json> ExecuteStatement(const nlohmann::json& request);
  Result<nlohmann::json> BatchExecuteStatement(const nlohmann::json& request);
  Result<nlohmann::json> ExecuteTransaction(const nlohmann::json& request);

 private:
  // Parses `text` and checks its '?' count against `parameters`.
  Result<Statement> ParseWithParameters(const std::string& text,
                                        const nlohmann::json& parameters);
  // The table's description (the describe callback, or DescribeTable
  // through the call callback; cached for the current request).
  Result<TableInfo> Describe(const std::string& table);
  // Parses, describes and translates one statement.
  Result<Plan> Prepare(const std::string& text,
                       const nlohmann::json& parameters,
                       const PlanOptions& options);
  // Runs a single-item write plan; the response's Items.
  Result<nlohmann::json> RunWrite(const Plan& plan,
                                  const std::string& return_consumed_capacity,
                                  nlohmann::json* consumed);

  CallFn call_;
  DescribeFn describe_;  // may be empty
  std::map<std::string, TableInfo> tables_;
};

}  // namespace ddblab::partiql
