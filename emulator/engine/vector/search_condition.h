// emulator/engine/vector/search_condition.h: the grammar SearchVectors
// accepts in SearchConditionExpression, over an expression already parsed
// with the condition grammar (expr::ParseCondition, kSearchCondition).
//
// DynamoDB accepts (captures of August–October 2026): equalities
// `attr = :v` (or `#n = :v`, either operand order) on top-level attributes,
// joined by AND, parentheses allowed. Everything else is refused with a
// ValidationException, checked in this order over the tree:
//   <> < <= > >=  -> "Invalid SearchConditionExpression: Invalid comparator
//                    used in SearchConditionExpression";
//   an equality that is not one attribute against one value (two paths, two
//   values) -> the same comparator text;
//   BETWEEN, IN, OR, NOT, functions (attribute_exists, begins_with, size,
//   ...) -> "Invalid SearchConditionExpression: Invalid operator used in
//   SearchConditionExpression" (captured for BETWEEN and IN; the others are
//   our choice of text);
//   a nested path (a.b, a[0]) -> "Invalid SearchConditionExpression:
//   SearchConditionExpression cannot have conditions on nested attributes";
//   an attribute named twice -> "Invalid SearchConditionExpression:
//   SearchConditionExpression must only contain one condition per
//   attribute".
// The checks against the index (SearchSchema membership, the HASH rules)
// need the table: ops_search_vectors.cc. (A newer DynamoDB guide describes
// IN, BETWEEN and OR; no capture shows DynamoDB accepting them, so they are
// refused here.)
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/expr/ast.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

struct SearchEquality {
  std::string attribute;  // top-level attribute name
  value::AttributeValue value;
};

Result<std::vector<SearchEquality>> AnalyzeSearchCondition(
    const expr::ConditionExpression& condition);

}  // namespace ddblab::engine
