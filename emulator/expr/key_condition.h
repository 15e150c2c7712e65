// emulator/expr/key_condition.h: KeyConditionExpression analysis for Query.
//
// The expression is parsed with the condition grammar (all condition errors
// apply, prefixed "Invalid KeyConditionExpression: "), then checked against
// the key schema with DynamoDB's texts, in its order
// (DynamoDB's expression rules):
//   "Invalid operator used in KeyConditionExpression: OR" (NOT, IN, <>,
//     attribute_exists, attribute_not_exists, attribute_type, contains)
//   "KeyConditionExpressions cannot contain nested operations" (size)
//   "Invalid condition in KeyConditionExpression: BETWEEN operator must have
//     the key attribute as its first operand" (and begins_with)
//   "Invalid condition in KeyConditionExpression: Multiple attribute names
//     used in one condition"
//   "KeyConditionExpressions cannot have conditions on nested attributes"
//   "Invalid condition in KeyConditionExpression: No key attribute specified"
//   "KeyConditionExpressions must only contain one condition per key"
//   "Conditions can be of length 1 or 2 only"
//   "Query condition missed key schema element: <name>"
//   "Query key condition not supported"
//   "One or more parameter values were invalid: Condition parameter type
//     does not match schema type"
//
// Thread-safety: stateless functions; `ph` is mutated (used marks).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/expr/ast.h"
#include "emulator/expr/placeholders.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

// The key schema of the table or index being queried.
struct KeySchemaInfo {
  std::string hash_name;
  value::AttributeValue::Type hash_type = value::AttributeValue::Type::kS;
  std::optional<std::string> range_name;
  value::AttributeValue::Type range_type = value::AttributeValue::Type::kS;
};

enum class RangeOp { kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };

// The range operator of the comparison `key <op> value`; `flipped` when the
// key is the right operand (`value <op> key`). Not a comparison: kEq.
RangeOp RangeOpOf(CompareOp op, bool flipped);

struct RangeCondition {
  RangeOp op = RangeOp::kEq;
  value::AttributeValue a;
  value::AttributeValue b;  // upper bound, for kBetween
};

struct KeyCondition {
  value::AttributeValue hash_value;
  std::optional<RangeCondition> range;
};

Result<KeyCondition> ParseKeyCondition(std::string_view text, Placeholders& ph,
                                       const KeySchemaInfo& schema);

// The key analysis alone, on an already parsed condition.
Result<KeyCondition> AnalyzeKeyCondition(const ConditionExpression& c,
                                         const KeySchemaInfo& schema);

// Whether a sort-key value satisfies the range condition (v must have the
// key's type; other types never match).
bool RangeMatches(const RangeCondition& rc, const value::AttributeValue& v);

}  // namespace ddblab::expr
