// emulator/expr/legacy.h: DynamoDB's legacy (pre-expression) request
// parameters, converted into the expression AST so that the engine has one
// evaluation path (DynamoDB's expression rules, the DynamoDB API reference).
//
//   Expected + ConditionalOperator       -> ConditionExpression
//   QueryFilter / ScanFilter (+ ConditionalOperator) -> ConditionExpression
//   AttributeUpdates                     -> UpdateExpression (apply it with
//                                           ApplyAttributeUpdates)
//   AttributesToGet                      -> ProjectionExpression
//   KeyConditions                        -> KeyCondition
//
// Every function validates its parameter the way DynamoDB does and returns
// its exact error (type + text). JSON type errors and enum constraint errors
// ("1 validation error detected: ...") belong to the engine's RequestParser,
// which runs first; the texts returned here for them are a safety net so that
// malformed input never crashes. JSON null members count as absent. Object
// members are visited in nlohmann::json order (sorted by name).
//
// ComparisonOperator semantics (what each converts to; `a` is the attribute,
// v the AttributeValueList):
//   EQ a = v0        NE a <> v0 (true when a is absent)    LE/LT/GE/GT
//   NOT_NULL attribute_exists(a)   NULL attribute_not_exists(a)
//   CONTAINS contains(a, v0)   BEGINS_WITH begins_with(a, v0)
//   NOT_CONTAINS attribute_exists(a) AND NOT contains(a, v0)  (false when a
//     is absent, as on DynamoDB)
//   IN a IN (v...)   BETWEEN a BETWEEN v0 AND v1
// Allowed AttributeValueList types (else "ComparisonOperator <OP> is not
// valid for <T> AttributeValue type"): EQ/NE any type; LE/LT/GE/GT/IN/BETWEEN
// S, N, B; CONTAINS/NOT_CONTAINS S, N, B, BOOL, NULL; BEGINS_WITH S, B.
//
// Thread-safety: stateless functions over immutable inputs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/expr/ast.h"
#include "emulator/expr/key_condition.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

// Expected {attr: {Value | Exists | ComparisonOperator + AttributeValueList}}
// combined with ConditionalOperator (AND by default, or OR). `expected` may
// be JSON null (absent); an absent or empty Expected gives a condition that
// is always true. Call it whenever Expected or ConditionalOperator is in the
// request: a ConditionalOperator needs two or more entries
// ("ConditionalOperator cannot be used without Filter or Expected",
// "ConditionalOperator can only be used when Filter or Expected has two or
// more elements"). Per entry, in DynamoDB's order:
//   "... Exists and ComparisonOperator cannot be used together for Attribute:
//   a"
//   "... Value and AttributeValueList cannot be used together for Attribute: a"
//   "... AttributeValueList can only be used with a ComparisonOperator for
//    Attribute: a"
//   "... Value cannot be used when Exists is false for Attribute: a"
//   "... Value or AttributeValueList must be used with ComparisonOperator: EQ
//    for Attribute: a"
//   "... Value must be provided when Exists is null|true for Attribute: a"
// then the AttributeValue checks, then the operator's argument checks
// ("Invalid number of argument(s) for the <OP> ComparisonOperator",
// "... is not valid for <T> AttributeValue type", "AttributeValues inside
// AttributeValueList must be of same type", "The BETWEEN condition was
// provided a range where the lower bound is greater than the upper bound").
// ("..." = "One or more parameter values were invalid: ").
Result<ConditionExpression> ConvertExpected(
    const nlohmann::json& expected, const nlohmann::json* conditional_operator);

// QueryFilter / ScanFilter {attr: {ComparisonOperator, AttributeValueList}}
// with ConditionalOperator; `param` is "QueryFilter" or "ScanFilter" (used in
// constraint texts). Same operator checks and ConditionalOperator rules as
// ConvertExpected; `filter` may be JSON null (absent).
Result<ConditionExpression> ConvertFilter(
    const nlohmann::json& filter, const nlohmann::json* conditional_operator,
    std::string_view param);

// "QueryFilter can only contain non-primary key attributes: Primary key
// attribute: <a>" if the filter names one of `key_names` (the keys of the
// queried table or index).
Status CheckQueryFilterKeys(const nlohmann::json& query_filter,
                            const std::vector<std::string>& key_names);

// AttributeUpdates {attr: {Value, Action PUT (default) | ADD | DELETE}}:
// PUT -> SET attr = Value; DELETE without Value -> REMOVE attr; DELETE with
// a set -> DELETE attr Value (elements); ADD -> ADD attr Value (numbers add,
// sets union, lists append, absent attributes take the value). Errors:
//   "... Only DELETE action is allowed when no attribute value is specified"
//   "... DELETE action with value is not supported for the type <T>"
//   "... ADD action is not supported for the type <T>"
//   "Item size to update has exceeded the maximum allowed size"
// An empty AttributeUpdates gives an empty UpdateExpression.
Result<UpdateExpression> ConvertAttributeUpdates(const nlohmann::json& updates);

// ApplyUpdate for a converted AttributeUpdates: the same result, with
// DynamoDB's legacy text for an ADD/DELETE type clash with the stored value
// ("Type mismatch for attribute to update" instead of the expression text).
Result<value::Item> ApplyAttributeUpdates(const UpdateExpression& u,
                                          const value::Item& item);

// AttributesToGet [names] -> a projection of those top-level attributes
// (names are literal: a '.' is part of the name). Duplicates:
//   "One or more parameter values were invalid: Duplicate value in attribute
//    name: <a>"
Result<ProjectionExpression> ConvertAttributesToGet(
    const nlohmann::json& names);

// KeyConditions (Query) -> KeyCondition for the queried table or index.
// Operator checks as for filters, then "Conditions can be of length 1 or 2
// only", then per key (hash, then range):
//   "Query key condition not supported" (2 conditions on a hash-only key, or
//     a hash condition other than EQ)
//   "Query condition missed key schema element: <name>"
//   "Attempted conditional constraint is not an indexable operation"
//     (NULL, NOT_NULL, NE, CONTAINS, NOT_CONTAINS, IN)
//   "One or more parameter values were invalid: Condition parameter type does
//     not match schema type"
Result<KeyCondition> ConvertKeyConditions(const nlohmann::json& key_conditions,
                                          const KeySchemaInfo& schema);

// The request-level checks on mixing styles, for `operation` one of
// GetItem, PutItem, DeleteItem, UpdateItem, Query, Scan, BatchGetItem (other
// operations: always ok). Only the members the operation has are looked at.
//   "Can not use both expression and non-expression parameters in the same
//    request: Non-expression parameters: {AttributesToGet} Expression
//    parameters: {ProjectionExpression}"
//    (non-expression order: AttributeUpdates, AttributesToGet, Expected,
//    QueryFilter, ScanFilter, ConditionalOperator, KeyConditions — the last
//    only together with KeyConditionExpression; expression order:
//    UpdateExpression, ProjectionExpression, ConditionExpression,
//    FilterExpression, KeyConditionExpression)
//   "ExpressionAttributeNames can only be specified when using expressions"
//   "ExpressionAttributeValues can only be specified when using expressions:
//    <X> is null" / "<X> and <Y> are null" (PutItem, DeleteItem:
//    ConditionExpression; UpdateItem: UpdateExpression and
//    ConditionExpression; Query: FilterExpression and KeyConditionExpression;
//    Scan: FilterExpression; GetItem and BatchGetItem have no such member).
// For BatchGetItem, `request` is the whole request; AttributesToGet and
// ProjectionExpression are accumulated across the tables of RequestItems.
Status CheckParameterStyles(const nlohmann::json& request,
                            std::string_view operation);

}  // namespace ddblab::expr
