// emulator/engine/item_mutation.h: the data-dependent steps of an item write,
// shared by PutItem / UpdateItem / DeleteItem and the TransactWriteItems
// actions: evaluating the ConditionExpression against the stored item, and
// computing an UpdateItem's new item.
//
// ComputeUpdate, given the stored item (null if missing) and the parsed
// update (expression or legacy AttributeUpdates):
//   * no update at all (no UpdateExpression / AttributeUpdates, or an empty
//     AttributeUpdates): the new item is the old one, or the key alone;
//   * an item that does not exist and an update made only of REMOVE (and
//     set DELETE) actions: nothing is written (new_item empty);
//   * otherwise the update is applied (expr::ApplyUpdate, or
//     expr::ApplyAttributeUpdates for the legacy texts) to the old item, the
//     key attributes are added, and the result is checked, in order:
//       "The update expression attempted to update the secondary index key
//        to unsupported type" (an expression SET/ADD leaving an index key
//        attribute with another type than declared),
//       "Item size to update has exceeded the maximum allowed size",
//       "Nesting Levels have exceeded supported limits: ...",
//       then ValidateUpdatedItem (index key type / empty-value texts, as
//       for PutItem — what legacy AttributeUpdates get; vector attributes
//       the update changed, with the update texts).
// Runtime errors of the update itself (expr/eval_update.h) are returned as
// they are. All errors are ValidationExceptions and change nothing.
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/table.h"
#include "emulator/expr/ast.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

// Evaluates `condition` (absent: true) against `old_item` (null: the item
// does not exist, i.e. every attribute is absent). A false condition gives
// ConditionFailed(old_item, return_old_on_failure) (return_values.h).
Status CheckCondition(const std::optional<expr::ConditionExpression>& condition,
                      const value::Item* old_item, bool return_old_on_failure);

struct UpdateOutcome {
  std::optional<value::Item> new_item;      // nullopt: nothing to write
  std::vector<expr::DocumentPath> targets;  // for UPDATED_OLD / UPDATED_NEW
};

// `key` is the validated Key parameter (the table key attributes).
Result<UpdateOutcome> ComputeUpdate(const Table& table, const value::Item& key,
                                    const value::Item* old_item,
                                    const ExpressionParams& params);

// "Nesting Levels have exceeded supported limits: ..." when a list or map of
// `item` sits deeper than value::kMaxNestingDepth (top-level containers are
// level 2, as in the wire codec).
Status CheckNesting(const value::Item& item);

}  // namespace ddblab::engine
