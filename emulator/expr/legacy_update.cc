// emulator/expr/legacy_update.cc: AttributeUpdates and AttributesToGet,
// converted into update and projection ASTs (see legacy.h).
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "emulator/expr/eval_update.h"
#include "emulator/expr/legacy.h"
#include "emulator/expr/legacy_internal.h"
#include "emulator/value/attribute_name.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::expr {
namespace {

using legacy_internal::EnumConstraint;
using legacy_internal::kInvalid;
using legacy_internal::Member;
using legacy_internal::StringMember;
using legacy_internal::WrongJsonType;
using value::AttributeValue;
using Type = AttributeValue::Type;
using Json = nlohmann::json;

// The evaluator's text for an ADD/DELETE operand that clashes with the
// stored value, and DynamoDB's text for the same clash in AttributeUpdates.
constexpr std::string_view kExpressionTypeClash =
    "An operand in the update expression has an incorrect data type";
constexpr char kLegacyTypeClash[] = "Type mismatch for attribute to update";

enum class Action { kPut, kAdd, kDelete };

Result<Action> ReadAction(const Json& update, const std::string& attr) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<std::string> action,
                          StringMember(update, "Action"));
  if (!action || *action == "PUT") return Action::kPut;
  if (*action == "ADD") return Action::kAdd;
  if (*action == "DELETE") return Action::kDelete;
  return EnumConstraint(*action, "attributeUpdates." + attr + ".member.action",
                        "[ADD, PUT, DELETE]");
}

bool AddableType(Type t) {
  return t == Type::kN || t == Type::kSS || t == Type::kNS || t == Type::kBS ||
         t == Type::kL;
}

}  // namespace

Result<UpdateExpression> ConvertAttributeUpdates(const Json& updates) {
  UpdateExpression out;
  if (updates.is_null()) return out;
  if (!updates.is_object()) return WrongJsonType(updates);
  size_t running_size = 0;
  for (const auto& [attr, update] : updates.items()) {
    DDBLAB_RETURN_IF_ERROR(value::CheckAttributeName(attr));
    if (update.is_null()) {
      return Error::Validation(
          "Supplied AttributeValueUpdate is empty, must contain one of the "
          "supported actions: " +
          attr + " is null");
    }
    if (!update.is_object()) return WrongJsonType(update);
    DDBLAB_ASSIGN_OR_RETURN(Action action, ReadAction(update, attr));
    std::optional<AttributeValue> v;
    if (const Json* value_json = Member(update, "Value")) {
      DDBLAB_ASSIGN_OR_RETURN(v, value::DecodeAttributeValue(*value_json));
    }
    if (!v && action != Action::kDelete) {
      return Error::Validation(
          std::string(kInvalid) +
          "Only DELETE action is allowed when no attribute value is specified");
    }
    if (v && action == Action::kDelete && !v->is_set()) {
      return Error::Validation(
          std::string(kInvalid) +
          "DELETE action with value is not supported for the type " +
          std::string(AttributeValue::TypeName(v->type())));
    }
    if (v && action == Action::kAdd && !AddableType(v->type())) {
      return Error::Validation(
          std::string(kInvalid) + "ADD action is not supported for the type " +
          std::string(AttributeValue::TypeName(v->type())));
    }
    if (action != Action::kDelete) {
      running_size += value::AttributeSize(attr, *v);
      if (running_size > value::kMaxItemSize) {
        return Error::Validation(
            "Item size to update has exceeded the maximum allowed size");
      }
    }
    DocumentPath path(attr);
    switch (action) {
      case Action::kPut:
        out.actions.push_back(
            UpdateAction::Set(std::move(path), UpdateValue::Value(*v)));
        break;
      case Action::kAdd:
        out.actions.push_back(UpdateAction::Add(std::move(path), *v));
        break;
      case Action::kDelete:
        out.actions.push_back(v ? UpdateAction::Delete(std::move(path), *v)
                                : UpdateAction::Remove(std::move(path)));
        break;
    }
  }
  return out;
}

Result<value::Item> ApplyAttributeUpdates(const UpdateExpression& u,
                                          const value::Item& item) {
  Result<value::Item> r = ApplyUpdate(u, item);
  if (!r.ok() && r.error().type == ErrorType::kValidation &&
      r.error().message == kExpressionTypeClash) {
    return Error::Validation(kLegacyTypeClash);
  }
  return r;
}

Result<ProjectionExpression> ConvertAttributesToGet(const Json& names) {
  ProjectionExpression out;
  if (!names.is_array()) return WrongJsonType(names);
  if (names.empty()) {
    return Error::Validation(
        "1 validation error detected: Value '[]' at 'attributesToGet' failed "
        "to satisfy constraint: Member must have length greater than or equal "
        "to 1");
  }
  std::set<std::string, std::less<>> seen;
  for (const Json& name : names) {
    if (!name.is_string()) return WrongJsonType(name);
    const std::string& s = name.get_ref<const std::string&>();
    DDBLAB_RETURN_IF_ERROR(value::CheckAttributeName(s));
    if (!seen.insert(s).second) {
      return Error::Validation(std::string(kInvalid) +
                               "Duplicate value in attribute name: " + s);
    }
    out.paths.emplace_back(s);
  }
  return out;
}

}  // namespace ddblab::expr
