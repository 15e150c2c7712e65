// emulator/engine/ops/return_values.h: the ReturnValues of the item writes
// (the DynamoDB API reference) and the old item of a failed condition
// (ReturnValuesOnConditionCheckFailure).
//
//   PutItem / DeleteItem: NONE | ALL_OLD ("ReturnValues can only be ALL_OLD
//     or NONE" otherwise: CheckPutDeleteReturnValues in item_request.h).
//     ALL_OLD returns the replaced / deleted item, nothing if there was none.
//   UpdateItem:
//     ALL_OLD     the whole old item; nothing if there was none.
//     UPDATED_OLD the old values of the update's target paths that existed
//                 (rewriting the same value still counts).
//     ALL_NEW     the whole new item; nothing if no item was written.
//     UPDATED_NEW the new values at the target paths (removed ones are
//                 absent) — never key attributes (they can't be targets).
//   UPDATED_* project the target paths like a ProjectionExpression: a nested
//   target comes back inside its parent hierarchy holding only the touched
//   part, list elements as a compacted list. DynamoDB's quirks follow from
//   projecting the new item at the written paths: `SET a.c[100]` (which
//   appends at the end) is not reported by UPDATED_NEW, and after
//   `REMOVE a.c[1]` UPDATED_NEW reports the element that shifted into a.c[1].
//   An empty result means no "Attributes" member.
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "emulator/api/error.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/expr/path.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

// "NONE", "ALL_OLD", ... (the enum is checked by the RequestParser first).
ReturnValues ParseReturnValues(std::string_view name);

// The "Attributes" of an UpdateItem response, or nullopt for none.
// `old_item` is null when the item did not exist, `new_item` when nothing
// was written; `targets` are the update's target paths in action order.
std::optional<value::Item> UpdateReturnAttributes(
    ReturnValues rv, const value::Item* old_item, const value::Item* new_item,
    const std::vector<expr::DocumentPath>& targets);

// The ConditionalCheckFailedException "The conditional request failed", with
// {"Item": old} in Error.extra when `return_old` and the item existed.
Error ConditionFailed(const value::Item* old_item, bool return_old);

// Sets out["ConsumedCapacity"] unless `mode` is kNone.
void AddConsumedCapacity(Json& out, std::string_view table_name,
                         const Consumed& used, CapacityMode mode);

}  // namespace ddblab::engine
