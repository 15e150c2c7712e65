// emulator/partiql/executor.h: DynamoDB's PartiQL API (ExecuteStatement,
// BatchExecuteStatement, ExecuteTransaction) on top of the ordinary
// DynamoDB operations.
//
// Each statement is parsed (parser.h), its table described
// (Operations::Describe), translated (translate.h) into a typed OpRequest
// (op_request.h) and run as GetItem / Query / Scan / PutItem / UpdateItem /
// DeleteItem, or as one TransactGetItems / TransactWriteItems for a
// transaction — all through an Operations. The engine's
// (engine/ops/partiql_operations.h) builds each operation's typed request
// from the OpRequest and runs its Execute and Render directly, not through
// its dispatcher and with no JSON request. So PartiQL writes get the
// engine's own conditions, stream records and TTL handling; there is no
// second storage path. JsonOperations runs the same requests through a
// callback that takes DynamoDB JSON (tests; a DynamoDB client).
//
// The operations' errors come back as PartiQL reports them: a failed
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
// descriptions for the duration of a request). Its Operations must be safe
// to call from the calling thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "emulator/api/operation.h"
#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"
#include "emulator/partiql/op_request.h"
#include "emulator/partiql/table_info.h"
#include "emulator/partiql/translate.h"

namespace ddblab::partiql {

// Runs one operation (emulator/api/operation.h) with its DynamoDB JSON
// request.
using CallFn = std::function<Result<nlohmann::json>(
    Operation op, const nlohmann::json& request)>;

// Operations over a CallFn: each request as its ToJson(); tables described
// with a DescribeTable through the callback.
class JsonOperations : public Operations {
 public:
  explicit JsonOperations(CallFn call) : call_(std::move(call)) {}
  Result<TableInfo> Describe(const std::string& table) override;
  Result<nlohmann::json> Run(Operation op, OpRequest request) override;
  Result<nlohmann::json> RunTransaction(TransactRequest request) override;

 private:
  CallFn call_;
};

class PartiqlExecutor {
 public:
  // `operations` must outlive the executor.
  explicit PartiqlExecutor(Operations& operations);
  // Over a JsonOperations of `call`.
  explicit PartiqlExecutor(CallFn call);

  Result<nlohmann::json> ExecuteStatement(const nlohmann::json& request);
  Result<nlohmann::json> BatchExecuteStatement(const nlohmann::json& request);
  Result<nlohmann::json> ExecuteTransaction(const nlohmann::json& request);

 private:
  // Parses `text` and checks its '?' count against `parameters`.
  Result<Statement> ParseWithParameters(const std::string& text,
                                        const nlohmann::json& parameters);
  // The table's description (cached for the current request).
  Result<TableInfo> Describe(const std::string& table);
  // Parses, describes and translates one statement.
  Result<Plan> Prepare(const std::string& text,
                       const nlohmann::json& parameters,
                       const PlanOptions& options);
  // Runs a single-item write plan; the response's Items.
  Result<nlohmann::json> RunWrite(Plan& plan,
                                  const std::string& return_consumed_capacity,
                                  nlohmann::json* consumed);

  std::unique_ptr<Operations> owned_;  // the JsonOperations of a CallFn
  Operations* operations_;
  std::map<std::string, TableInfo> tables_;
};

}  // namespace ddblab::partiql
