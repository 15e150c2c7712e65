// emulator/engine/ops/transact_request.h: reading and validating the requests
// of TransactWriteItems and TransactGetItems (the DynamoDB API reference) —
// every check that needs no table: JSON types, shape constraints (paths such as
// "transactItems.1.member.put.tableName"), "TransactItems can only contain
// one of Check, Put, Update or Delete", then per action in request order the
// expression-style checks, AttributeValue errors, the Put item size
// ("Item size has exceeded the maximum allowed size") and expression parsing
// (expression_params.h). Legacy parameters do not exist in transactions.
//
// Thread-safety: stateless functions; the results are plain values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/request.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

inline constexpr size_t kMaxTransactActions = 100;
// Aggregate size of the items a transaction writes or reads.
inline constexpr size_t kMaxTransactBytes = 4 * 1024 * 1024;

struct TransactWriteAction {
  enum class Kind { kConditionCheck, kPut, kDelete, kUpdate };
  Kind kind = Kind::kPut;
  std::string table_name;  // as given (name or ARN)
  value::Item item;        // kPut
  value::Item key;         // the others
  bool old_on_condition_failure = false;
  ExpressionParams expr;
};

struct TransactWriteRequest {
  std::vector<TransactWriteAction> actions;
  std::optional<std::string> token;  // ClientRequestToken
  CapacityMode capacity = CapacityMode::kNone;
  bool collection_metrics = false;
  // The TransactItems as given, kept only with a token (the replay check
  // compares them); ParseTransactWrite (ops_transact.h) fills it.
  Json items_json;
};

struct TransactGetAction {
  std::string table_name;
  value::Item key;
  ExpressionParams expr;  // projection only
};

struct TransactGetRequest {
  std::vector<TransactGetAction> actions;
  CapacityMode capacity = CapacityMode::kNone;
};

Result<TransactWriteRequest> ParseTransactWriteItems(
    const Json& request, ExpressionCache* cache = nullptr);
// "Transaction payload size cannot exceed 4MB. Payload Size: <n>" when the
// put items' sizes add up to more than kMaxTransactBytes.
Status CheckTransactPayloadSize(size_t bytes);
Result<TransactGetRequest> ParseTransactGetItems(
    const Json& request, ExpressionCache* cache = nullptr);

}  // namespace ddblab::engine
