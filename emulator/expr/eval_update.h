// emulator/expr/eval_update.h: applying a parsed UpdateExpression to an item.
//
// Semantics (DynamoDB's expression rules): every right-hand side and every
// ADD/DELETE operand is evaluated against the item as it was before the
// update; SET creates or replaces (a list index past the end appends, several
// in ascending index order); REMOVE deletes (list indexes refer to the
// original positions; absent targets are no-ops; on a missing item REMOVE is
// ignored entirely); ADD adds numbers or unions sets (an absent target takes
// the operand); DELETE subtracts set elements and removes the attribute when
// the set becomes empty. Runtime errors are ValidationExceptions:
//   "The document path provided in the update expression is invalid for update"
//   "The provided expression refers to an attribute that does not exist in the
//   item" "An operand in the update expression has an incorrect data type" and
//   value::Number's overflow / precision texts for + - and ADD.
// Beyond the expression language, ADD also accepts a list operand (appends;
// used by legacy AttributeUpdates conversions).
//
// Thread-safety: stateless functions over immutable inputs.
#pragma once

#include <vector>

#include "emulator/api/result.h"
#include "emulator/expr/ast.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

// The target path of every action, in action order. paths[i].top() is the
// top-level attribute written, paths[i].nested() whether it is nested.
std::vector<DocumentPath> UpdateTargets(const UpdateExpression& u);

// Returns the updated copy of `item` (an empty item stands for a missing
// item). `item` itself is never modified.
Result<value::Item> ApplyUpdate(const UpdateExpression& u,
                                const value::Item& item);

// The value of a SET right-hand side against `item` (exposed for tests and
// ReturnValues computations).
Result<value::AttributeValue> EvaluateUpdateValue(const UpdateValue& v,
                                                  const value::Item& item);

}  // namespace ddblab::expr
