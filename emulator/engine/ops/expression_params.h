// emulator/engine/ops/expression_params.h: the expression parameters of one
// request (or one transaction action), read, validated and parsed in
// DynamoDB's order, from either the expression or the legacy form.
//
// An operation declares what it has with an ExpressionSpec, then:
//
//   RequestParser p(request);
//   ... read its own members ...
//   ExpressionInput in = ReadExpressionInput(p, request, kPutItemSpec);
//   DDBLAB_RETURN_IF_ERROR(p.Finish());          // JSON types, constraints
//   DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(in));   // mixing styles
//   ... its own content errors (Item values, ReturnValues, item size) ...
//   DDBLAB_ASSIGN_OR_RETURN(ExpressionParams e, ParseExpressions(in));
//   ... lock, find the table ...
//   DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(e, table));
//
// ReadExpressionInput (phase 1) reads the members' JSON types through the
// RequestParser — ConditionExpression / UpdateExpression / ... as strings,
// Expected / AttributeUpdates / QueryFilter / ScanFilter as maps,
// AttributesToGet as a list of strings, ConditionalOperator as the enum
// [AND, OR] — and decodes ExpressionAttributeNames / Values; a JSON-shape
// error inside those maps goes to the parser as SerializationException (it
// must win over constraint errors), their ValidationExceptions are kept for
// phase 3.
//
// CheckExpressionStyles (phase 2) is expr::CheckParameterStyles for the
// spec's operation: "Can not use both expression and non-expression
// parameters in the same request: ...", "ExpressionAttributeNames can only
// be specified when using expressions", "ExpressionAttributeValues can only
// be specified when using expressions: ConditionExpression is null".
// Transaction actions (spec.operation empty) have no legacy members: only
// the names/values checks apply, worded as for the matching operation.
//
// ParseExpressions (phase 3), in DynamoDB's order (DynamoDB's expression rules
// last bullet, legacy first as dynalite's validateAttributeConditions runs
// before validateExpressions):
//   1. legacy conversions: AttributeUpdates, then Expected (+
//      ConditionalOperator), then QueryFilter/ScanFilter, then
//      AttributesToGet (texts in emulator/expr/legacy.h);
//   2. the names map (emptiness, key syntax), the values map (emptiness, key
//      syntax, each value's contents);
//   3. UpdateExpression, ConditionExpression, KeyConditionExpression,
//      FilterExpression, ProjectionExpression ("Invalid <Param>: ...");
//   4. unused names, then unused values.
// KeyConditionExpression is only parsed with the condition grammar here; the
// key analysis needs the schema (expr::AnalyzeKeyCondition). Legacy
// KeyConditions need the schema too and are left to the caller.
//
// CheckExpressionKeys (after the table lookup): nested paths on key
// attributes ("Key attributes must be scalars; ... Key: <a>", then
// "IndexKey: <a>") over every path of every expression, then update targets
// on table keys ("Cannot update attribute <k>. This attribute is part of the
// key").
//
// Thread-safety: plain values and stateless functions; an ExpressionInput
// borrows the request JSON, which must outlive it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"
#include "emulator/expr/expr.h"

namespace ddblab::engine {

class ExpressionCache;  // expression_cache.h

// What a request may carry. `operation` selects the legacy members and the
// style-check texts: "GetItem", "PutItem", "DeleteItem", "UpdateItem",
// "Query", "Scan"; a transaction action sets `operation` empty and
// `values_text` to the "<X> is null" wording for stray values.
struct ExpressionSpec {
  std::string_view operation;
  bool condition = false;      // ConditionExpression (+ Expected)
  bool update = false;         // UpdateExpression (+ AttributeUpdates)
  bool key_condition = false;  // KeyConditionExpression
  bool filter = false;         // FilterExpression (+ QueryFilter / ScanFilter)
  bool projection = false;     // ProjectionExpression (+ AttributesToGet)
  bool values = true;          // has ExpressionAttributeValues (GetItem: no)
  bool legacy = true;          // has the legacy members (transactions: no)
  std::string_view values_text;  // transaction actions only
};

namespace expression_spec_internal {
constexpr ExpressionSpec Make(std::string_view operation, bool condition,
                              bool update, bool key_condition, bool filter,
                              bool projection, bool values, bool legacy,
                              std::string_view values_text) {
  ExpressionSpec s;
  s.operation = operation;
  s.condition = condition;
  s.update = update;
  s.key_condition = key_condition;
  s.filter = filter;
  s.projection = projection;
  s.values = values;
  s.legacy = legacy;
  s.values_text = values_text;
  return s;
}
}  // namespace expression_spec_internal

// Arguments: operation, condition, update, key_condition, filter,
// projection, values, legacy, values_text.
inline constexpr ExpressionSpec kGetItemSpec = expression_spec_internal::Make(
    "GetItem", false, false, false, false, true, false, true, "");
inline constexpr ExpressionSpec kPutItemSpec = expression_spec_internal::Make(
    "PutItem", true, false, false, false, false, true, true, "");
inline constexpr ExpressionSpec kDeleteItemSpec =
    expression_spec_internal::Make("DeleteItem", true, false, false, false,
                                   false, true, true, "");
inline constexpr ExpressionSpec kUpdateItemSpec =
    expression_spec_internal::Make("UpdateItem", true, true, false, false,
                                   false, true, true, "");
inline constexpr ExpressionSpec kQuerySpec = expression_spec_internal::Make(
    "Query", false, false, true, true, true, true, true, "");
inline constexpr ExpressionSpec kScanSpec = expression_spec_internal::Make(
    "Scan", false, false, false, true, true, true, true, "");
// TransactWriteItems actions and TransactGetItems Get (no legacy members).
inline constexpr ExpressionSpec kTransactConditionSpec =
    expression_spec_internal::Make("", true, false, false, false, false, true,
                                   false, "ConditionExpression is null");
inline constexpr ExpressionSpec kTransactUpdateSpec =
    expression_spec_internal::Make(
        "", true, true, false, false, false, true, false,
        "UpdateExpression and ConditionExpression are null");
inline constexpr ExpressionSpec kTransactGetSpec =
    expression_spec_internal::Make("", false, false, false, false, true, false,
                                   false, "");

// Phase 1 result. Borrows `request`.
struct ExpressionInput {
  const Json* request = nullptr;
  ExpressionSpec spec;
  // The decoded names/values, or the ValidationException their contents
  // gave (reported in phase 3).
  expr::Placeholders placeholders;
  std::optional<Error> placeholder_error;
  std::optional<std::string> condition_text;
  std::optional<std::string> update_text;
  std::optional<std::string> key_condition_text;
  std::optional<std::string> filter_text;
  std::optional<std::string> projection_text;
  const Json* expected = nullptr;
  const Json* conditional_operator = nullptr;
  const Json* attribute_updates = nullptr;
  const Json* legacy_filter = nullptr;  // QueryFilter or ScanFilter
  const Json* attributes_to_get = nullptr;
};

// Phase 3 result.
struct ExpressionParams {
  // ConditionExpression, or the converted Expected.
  std::optional<expr::ConditionExpression> condition;
  // UpdateExpression, or the converted AttributeUpdates (legacy_update:
  // apply it with expr::ApplyAttributeUpdates for the legacy error texts).
  std::optional<expr::UpdateExpression> update;
  bool legacy_update = false;
  // KeyConditionExpression, parsed with the condition grammar only.
  std::optional<expr::ConditionExpression> key_condition;
  // FilterExpression, or the converted QueryFilter / ScanFilter.
  std::optional<expr::ConditionExpression> filter;
  bool legacy_filter = false;
  // ProjectionExpression, or the converted AttributesToGet.
  std::optional<expr::ProjectionExpression> projection;
  bool legacy_projection = false;
  // The placeholders after parsing (used marks set).
  expr::Placeholders placeholders;
};

ExpressionInput ReadExpressionInput(RequestParser& p, const Json& request,
                                    const ExpressionSpec& spec);

Status CheckExpressionStyles(const ExpressionInput& in);

// Consumes `in` (moves the placeholders into the result). With a cache
// (the emulator's, expression_cache.h), the expressions are looked up there
// first: same results, same errors.
Result<ExpressionParams> ParseExpressions(ExpressionInput in,
                                          ExpressionCache* cache = nullptr);

// Key checks that need the table (see the header comment).
Status CheckExpressionKeys(const ExpressionParams& e, const Table& table);

// The table's key attribute names, and every index's key attribute names
// (deduplicated, table keys excluded).
std::vector<std::string> TableKeyNames(const Table& table);
std::vector<std::string> IndexKeyNames(const Table& table);

}  // namespace ddblab::engine
