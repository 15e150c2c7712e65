#include "emulator/engine/item_mutation.h"

#include <algorithm>
#include <utility>

#include "emulator/engine/keys.h"
#include "emulator/engine/ops/return_values.h"
#include "emulator/expr/eval_condition.h"
#include "emulator/expr/eval_update.h"
#include "emulator/expr/legacy.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

bool TooDeep(const value::AttributeValue& v, int level) {
  using Type = value::AttributeValue::Type;
  if (v.type() == Type::kM) {
    if (level > value::kMaxNestingDepth) return true;
    for (const auto& [name, child] : v.m()) {
      if (TooDeep(child, level + 1)) return true;
    }
  } else if (v.type() == Type::kL) {
    if (level > value::kMaxNestingDepth) return true;
    for (const value::AttributeValue& child : v.l()) {
      if (TooDeep(child, level + 1)) return true;
    }
  }
  return false;
}

// The declared type of an index key attribute (not a table key), if any.
std::optional<AttrType> IndexKeyType(const Table& table,
                                     const std::string& attr) {
  if (table.key.Contains(attr)) return std::nullopt;
  for (const IndexDef& index : table.indexes) {
    if (index.status == TableStatus::kDeleting) continue;
    for (const KeyElement* k : index.key.HashElements()) {
      if (k->name == attr) return k->type;
    }
    for (const KeyElement* k : index.key.RangeElements()) {
      if (k->name == attr) return k->type;
    }
  }
  return std::nullopt;
}

}  // namespace

Status CheckCondition(const std::optional<expr::ConditionExpression>& condition,
                      const value::Item* old_item, bool return_old_on_failure) {
  if (!condition) return OkStatus();
  static const value::Item kMissing;
  if (expr::EvaluateCondition(*condition,
                              old_item != nullptr ? *old_item : kMissing)) {
    return OkStatus();
  }
  return ConditionFailed(old_item, return_old_on_failure);
}

Status CheckNesting(const value::Item& item) {
  for (const auto& [name, v] : item) {
    if (TooDeep(v, 2)) {
      return Error::Validation(
          "Nesting Levels have exceeded supported limits: Attributes in the "
          "item have nested levels beyond supported limit");
    }
  }
  return OkStatus();
}

Result<UpdateOutcome> ComputeUpdate(const Table& table, const value::Item& key,
                                    const value::Item* old_item,
                                    const ExpressionParams& params) {
  UpdateOutcome out;
  if (!params.update) {
    out.new_item = old_item != nullptr ? *old_item : key;
    return out;
  }
  const expr::UpdateExpression& u = *params.update;
  out.targets = expr::UpdateTargets(u);
  if (old_item == nullptr && !u.actions.empty() &&
      std::all_of(u.actions.begin(), u.actions.end(),
                  [](const expr::UpdateAction& a) {
                    return a.kind == expr::UpdateAction::Kind::kRemove ||
                           a.kind == expr::UpdateAction::Kind::kDelete;
                  })) {
    return out;  // nothing to remove from an item that does not exist
  }
  static const value::Item kMissing;
  const value::Item& base = old_item != nullptr ? *old_item : kMissing;
  DDBLAB_ASSIGN_OR_RETURN(value::Item updated,
                          params.legacy_update
                              ? expr::ApplyAttributeUpdates(u, base)
                              : expr::ApplyUpdate(u, base));
  for (const auto& [name, v] : key) updated.insert_or_assign(name, v);
  if (!params.legacy_update) {
    for (const expr::UpdateAction& a : u.actions) {
      if (a.kind != expr::UpdateAction::Kind::kSet &&
          a.kind != expr::UpdateAction::Kind::kAdd) {
        continue;
      }
      std::optional<AttrType> type = IndexKeyType(table, a.path.top());
      if (!type) continue;
      auto it = updated.find(a.path.top());
      if (it != updated.end() && it->second.type() != *type) {
        return Error::Validation(
            "The update expression attempted to update the secondary index "
            "key to unsupported type");
      }
    }
  }
  if (value::ItemSize(updated) > value::kMaxItemSize) {
    return Error::Validation(
        "Item size to update has exceeded the maximum allowed size");
  }
  DDBLAB_RETURN_IF_ERROR(CheckNesting(updated));
  DDBLAB_RETURN_IF_ERROR(ValidateUpdatedItem(table, updated, old_item));
  out.new_item = std::move(updated);
  return out;
}

}  // namespace ddblab::engine
