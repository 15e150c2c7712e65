// emulator/partiql/op_request.h: the DynamoDB requests a PartiQL plan runs,
// as typed values — one GetItem / Query / Scan / PutItem / UpdateItem /
// DeleteItem (OpRequest), or one TransactGetItems / TransactWriteItems
// (TransactRequest) — and Operations, what the executor runs them on.
//
// Keys, items and expression attribute values are value::AttributeValues
// (literal.h builds them); expressions are DynamoDB expression text over
// "#nK" / ":vK" placeholders (expr_writer.h), parsed by the engine's own
// expression parser, so their errors are the engine's. The engine
// (engine/ops/partiql_operations.h) turns an OpRequest into its typed
// request directly; nothing is written as JSON on the way.
//
// ToJson() writes the same request as DynamoDB JSON, members as a client
// would send them: for an Operations that speaks JSON (JsonOperations in
// executor.h: tests, DescribeTable through the call), Plan::DebugString and
// the TransactItems a ClientRequestToken is remembered with.
//
// Thread-safety: plain values; Operations implementations say their own.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/api/operation.h"
#include "emulator/api/result.h"
#include "emulator/partiql/table_info.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::partiql {

struct OpRequest {
  std::string table_name;
  std::optional<std::string> index_name;  // Query, Scan
  // GetItem, UpdateItem, DeleteItem and a ConditionCheck: the key; PutItem:
  // the item.
  std::optional<value::Item> key;
  std::optional<value::Item> item;
  std::optional<std::string> condition_expression;
  std::optional<std::string> update_expression;
  std::optional<std::string> key_condition_expression;
  std::optional<std::string> filter_expression;
  std::optional<std::string> projection_expression;
  // ExpressionAttributeNames / Values: "#n0" -> attribute, ":v0" -> value.
  std::vector<std::pair<std::string, std::string>> names;
  std::vector<std::pair<std::string, value::AttributeValue>> values;
  bool consistent_read = false;
  bool scan_index_forward = true;  // Query
  // UpdateItem / DeleteItem RETURNING: "ALL_OLD", "UPDATED_OLD", "ALL_NEW",
  // "UPDATED_NEW"; empty for none.
  std::string return_values;
  // As the statement gave it ("ALL_OLD" or "NONE"), or empty.
  std::string return_values_on_condition_check_failure;

  // Set by the executor for the call.
  std::string return_consumed_capacity;  // as the request gave it, or empty
  std::optional<int64_t> limit;          // Query, Scan
  // Query, Scan: the key inside the client's NextToken, still as the client
  // sent it (the engine decodes it as it decodes ExclusiveStartKey); null
  // for none.
  nlohmann::json exclusive_start_key;
};

// The request as DynamoDB JSON (TableName, Key, ConditionExpression, ...).
nlohmann::json ToJson(const OpRequest& request);

enum class TransactAction { kGet, kConditionCheck, kPut, kUpdate, kDelete };

struct TransactItem {
  TransactAction action = TransactAction::kGet;
  OpRequest request;
};

struct TransactRequest {
  bool write = false;  // TransactWriteItems; else TransactGetItems
  std::vector<TransactItem> items;
  std::string return_consumed_capacity;  // or empty
  std::string client_request_token;      // writes only; or empty
};

// The TransactItems list as DynamoDB JSON ([{"Put": {...}}, ...]).
nlohmann::json TransactItemsJson(const TransactRequest& request);
// The whole request as DynamoDB JSON.
nlohmann::json ToJson(const TransactRequest& request);

// What the executor runs its plans on: the engine's operations
// (engine/ops/partiql_operations.h) or a JSON callback (JsonOperations).
// Responses are DynamoDB JSON response bodies (Item, Items, Attributes,
// LastEvaluatedKey, ConsumedCapacity, Responses); errors DynamoDB's.
class Operations {
 public:
  virtual ~Operations() = default;
  // The description of a table by name; ResourceNotFound if it does not
  // exist.
  virtual Result<TableInfo> Describe(const std::string& table) = 0;
  // One GetItem, Query, Scan, PutItem, UpdateItem or DeleteItem.
  virtual Result<nlohmann::json> Run(Operation op, OpRequest request) = 0;
  // One TransactGetItems or TransactWriteItems.
  virtual Result<nlohmann::json> RunTransaction(TransactRequest request) = 0;
};

}  // namespace ddblab::partiql
