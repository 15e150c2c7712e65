// emulator/expr/eval_update.cc
#include "emulator/expr/eval_update.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

namespace ddblab::expr {
namespace {

using value::AttributeValue;
using value::Number;
using Type = AttributeValue::Type;

constexpr char kBadPath[] =
    "The document path provided in the update expression is invalid for update";
constexpr char kMissing[] =
    "The provided expression refers to an attribute that does not exist in "
    "the item";
constexpr char kBadType[] =
    "An operand in the update expression has an incorrect data type";

// The new leaf value for the current one (nullptr = absent); nullopt removes
// the leaf (a no-op when it is absent).
using LeafFn = std::function<Result<std::optional<AttributeValue>>(
    const AttributeValue* current)>;

// Rebuilds `container` with fn applied at path.elements[i..].
Result<AttributeValue> Rebuild(const AttributeValue& container,
                               const DocumentPath& path, size_t i,
                               const LeafFn& fn) {
  const PathElement& e = path.elements[i];
  const bool last = i + 1 == path.elements.size();
  if (e.is_index) {
    if (container.type() != Type::kL) return Error::Validation(kBadPath);
    value::AttributeList list = container.l();
    const bool present = e.index < list.size();
    if (!last) {
      if (!present) return Error::Validation(kBadPath);
      DDBLAB_ASSIGN_OR_RETURN(list[e.index],
                              Rebuild(list[e.index], path, i + 1, fn));
      return AttributeValue::L(std::move(list));
    }
    DDBLAB_ASSIGN_OR_RETURN(std::optional<AttributeValue> leaf,
                            fn(present ? &list[e.index] : nullptr));
    if (leaf) {
      if (present) {
        list[e.index] = std::move(*leaf);
      } else {
        list.push_back(std::move(*leaf));
      }
    } else if (present) {
      list.erase(list.begin() + e.index);
    }
    return AttributeValue::L(std::move(list));
  }
  if (container.type() != Type::kM) return Error::Validation(kBadPath);
  value::AttributeMap map = container.m();
  auto it = map.find(e.name);
  if (!last) {
    if (it == map.end()) return Error::Validation(kBadPath);
    DDBLAB_ASSIGN_OR_RETURN(it->second, Rebuild(it->second, path, i + 1, fn));
    return AttributeValue::M(std::move(map));
  }
  DDBLAB_ASSIGN_OR_RETURN(std::optional<AttributeValue> leaf,
                          fn(it == map.end() ? nullptr : &it->second));
  if (leaf) {
    map.insert_or_assign(e.name, std::move(*leaf));
  } else if (it != map.end()) {
    map.erase(it);
  }
  return AttributeValue::M(std::move(map));
}

Status Modify(value::Item& item, const DocumentPath& path, const LeafFn& fn) {
  const std::string& top = path.top();
  auto it = item.find(top);
  if (!path.nested()) {
    DDBLAB_ASSIGN_OR_RETURN(std::optional<AttributeValue> leaf,
                            fn(it == item.end() ? nullptr : &it->second));
    if (leaf) {
      item.insert_or_assign(top, std::move(*leaf));
    } else if (it != item.end()) {
      item.erase(it);
    }
    return OkStatus();
  }
  if (it == item.end()) return Error::Validation(kBadPath);
  DDBLAB_ASSIGN_OR_RETURN(it->second, Rebuild(it->second, path, 1, fn));
  return OkStatus();
}

// REMOVE on an existing item: every step but the last must exist with the
// container type the next step needs. Returns whether the target exists.
Result<bool> CheckRemovable(const value::Item& item, const DocumentPath& path) {
  auto it = item.find(path.top());
  if (it == item.end()) {
    if (path.nested()) return Error::Validation(kBadPath);
    return false;
  }
  const AttributeValue* v = &it->second;
  for (size_t i = 1; i < path.size(); ++i) {
    const PathElement& e = path.elements[i];
    const bool last = i + 1 == path.size();
    const AttributeValue* next = nullptr;
    if (e.is_index) {
      if (v->type() != Type::kL) return Error::Validation(kBadPath);
      if (e.index < v->l().size()) next = &v->l()[e.index];
    } else {
      if (v->type() != Type::kM) return Error::Validation(kBadPath);
      auto mit = v->m().find(e.name);
      if (mit != v->m().end()) next = &mit->second;
    }
    if (next == nullptr) {
      if (last) return false;
      return Error::Validation(kBadPath);
    }
    v = next;
  }
  return true;
}

template <class T, class Eq>
std::vector<T> Union(const std::vector<T>& a, const std::vector<T>& b, Eq eq) {
  std::vector<T> out = a;
  for (const T& x : b) {
    bool found = false;
    for (const T& y : a) {
      if (eq(x, y)) {
        found = true;
        break;
      }
    }
    if (!found) out.push_back(x);
  }
  return out;
}

template <class T>
std::vector<T> Difference(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out;
  for (const T& x : a) {
    if (std::find(b.begin(), b.end(), x) == b.end()) out.push_back(x);
  }
  return out;
}

Result<std::optional<AttributeValue>> AddLeaf(const AttributeValue* current,
                                              const AttributeValue& operand) {
  if (current == nullptr) return std::optional<AttributeValue>(operand);
  if (current->type() != operand.type()) return Error::Validation(kBadType);
  auto eq = [](const auto& x, const auto& y) { return x == y; };
  switch (operand.type()) {
    case Type::kN: {
      DDBLAB_ASSIGN_OR_RETURN(Number sum,
                              Number::Add(current->n(), operand.n()));
      return std::optional<AttributeValue>(AttributeValue::N(sum));
    }
    case Type::kSS:
      return std::optional<AttributeValue>(
          AttributeValue::SS(Union(current->ss(), operand.ss(), eq)));
    case Type::kNS:
      return std::optional<AttributeValue>(
          AttributeValue::NS(Union(current->ns(), operand.ns(), eq)));
    case Type::kBS:
      return std::optional<AttributeValue>(
          AttributeValue::BS(Union(current->bs(), operand.bs(), eq)));
    case Type::kL: {
      value::AttributeList list = current->l();
      list.insert(list.end(), operand.l().begin(), operand.l().end());
      return std::optional<AttributeValue>(AttributeValue::L(std::move(list)));
    }
    default:
      return Error::Validation(kBadType);
  }
}

Result<std::optional<AttributeValue>> DeleteLeaf(
    const AttributeValue* current, const AttributeValue& operand) {
  if (current == nullptr) return std::optional<AttributeValue>();
  if (current->type() != operand.type() || !operand.is_set()) {
    return Error::Validation(kBadType);
  }
  std::optional<AttributeValue> out;
  switch (operand.type()) {
    case Type::kSS: {
      auto rest = Difference(current->ss(), operand.ss());
      if (!rest.empty()) out = AttributeValue::SS(std::move(rest));
      break;
    }
    case Type::kNS: {
      auto rest = Difference(current->ns(), operand.ns());
      if (!rest.empty()) out = AttributeValue::NS(std::move(rest));
      break;
    }
    default: {
      auto rest = Difference(current->bs(), operand.bs());
      if (!rest.empty()) out = AttributeValue::BS(std::move(rest));
      break;
    }
  }
  return out;
}

}  // namespace

std::vector<DocumentPath> UpdateTargets(const UpdateExpression& u) {
  std::vector<DocumentPath> out;
  out.reserve(u.actions.size());
  for (const UpdateAction& a : u.actions) out.push_back(a.path);
  return out;
}

Result<AttributeValue> EvaluateUpdateValue(const UpdateValue& v,
                                           const value::Item& item) {
  switch (v.kind) {
    case UpdateValue::Kind::kPath: {
      const AttributeValue* found = FindPath(item, v.path);
      if (found == nullptr) return Error::Validation(kMissing);
      return *found;
    }
    case UpdateValue::Kind::kValue:
      return v.value;
    case UpdateValue::Kind::kIfNotExists: {
      const AttributeValue* found = FindPath(item, v.path);
      if (found != nullptr) return *found;
      if (v.args.empty()) return Error::Validation(kMissing);
      return EvaluateUpdateValue(v.args[0], item);
    }
    case UpdateValue::Kind::kListAppend:
    case UpdateValue::Kind::kPlus:
    case UpdateValue::Kind::kMinus:
      break;
  }
  if (v.args.size() != 2) return Error::Validation(kBadType);
  DDBLAB_ASSIGN_OR_RETURN(AttributeValue a,
                          EvaluateUpdateValue(v.args[0], item));
  DDBLAB_ASSIGN_OR_RETURN(AttributeValue b,
                          EvaluateUpdateValue(v.args[1], item));
  if (v.kind == UpdateValue::Kind::kListAppend) {
    if (a.type() != Type::kL || b.type() != Type::kL) {
      return Error::Validation(kBadType);
    }
    value::AttributeList list = a.l();
    list.insert(list.end(), b.l().begin(), b.l().end());
    return AttributeValue::L(std::move(list));
  }
  if (a.type() != Type::kN || b.type() != Type::kN) {
    return Error::Validation(kBadType);
  }
  DDBLAB_ASSIGN_OR_RETURN(Number r, v.kind == UpdateValue::Kind::kPlus
                                        ? Number::Add(a.n(), b.n())
                                        : Number::Subtract(a.n(), b.n()));
  return AttributeValue::N(r);
}

Result<value::Item> ApplyUpdate(const UpdateExpression& u,
                                const value::Item& item) {
  const bool missing_item = item.empty();
  // Phase 1, against the original item and in action order: SET values,
  // ADD/DELETE leaf results, REMOVE path checks.
  struct Pending {
    const UpdateAction* action;
    std::optional<AttributeValue> leaf;  // SET value or ADD/DELETE result
  };
  std::vector<Pending> writes;
  std::vector<const DocumentPath*> removes;
  for (const UpdateAction& a : u.actions) {
    switch (a.kind) {
      case UpdateAction::Kind::kSet: {
        DDBLAB_ASSIGN_OR_RETURN(AttributeValue v,
                                EvaluateUpdateValue(a.value, item));
        writes.push_back({&a, std::move(v)});
        break;
      }
      case UpdateAction::Kind::kRemove: {
        if (missing_item) break;
        DDBLAB_ASSIGN_OR_RETURN(bool exists, CheckRemovable(item, a.path));
        if (exists) removes.push_back(&a.path);
        break;
      }
      case UpdateAction::Kind::kAdd: {
        DDBLAB_ASSIGN_OR_RETURN(std::optional<AttributeValue> leaf,
                                AddLeaf(FindPath(item, a.path), a.operand));
        writes.push_back({&a, std::move(leaf)});
        break;
      }
      case UpdateAction::Kind::kDelete: {
        DDBLAB_ASSIGN_OR_RETURN(std::optional<AttributeValue> leaf,
                                DeleteLeaf(FindPath(item, a.path), a.operand));
        writes.push_back({&a, std::move(leaf)});
        break;
      }
    }
  }
  // Phase 2: writes in path order, so that list appends land in ascending
  // index order. Targets never overlap, so other orders are equivalent.
  std::stable_sort(writes.begin(), writes.end(),
                   [](const Pending& x, const Pending& y) {
                     return PathLess(x.action->path, y.action->path);
                   });
  value::Item out = item;
  for (Pending& w : writes) {
    std::optional<AttributeValue>& leaf = w.leaf;
    DDBLAB_RETURN_IF_ERROR(
        Modify(out, w.action->path,
               [&leaf](const AttributeValue*)
                   -> Result<std::optional<AttributeValue>> { return leaf; }));
  }
  // Phase 3: removals of targets that existed, last position first, so each
  // list index still names its original element.
  std::stable_sort(removes.begin(), removes.end(),
                   [](const DocumentPath* x, const DocumentPath* y) {
                     return PathLess(*y, *x);
                   });
  for (const DocumentPath* p : removes) {
    DDBLAB_RETURN_IF_ERROR(Modify(
        out, *p,
        [](const AttributeValue*) -> Result<std::optional<AttributeValue>> {
          return std::optional<AttributeValue>();
        }));
  }
  return out;
}

}  // namespace ddblab::expr
