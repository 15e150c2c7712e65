// emulator/expr/legacy_params.cc: the request-level style checks
// (CheckParameterStyles) and the helpers of legacy_internal.h.
#include <array>
#include <string>
#include <vector>

#include "emulator/expr/legacy.h"
#include "emulator/expr/legacy_internal.h"

namespace ddblab::expr {
namespace legacy_internal {

const nlohmann::json* Member(const nlohmann::json& obj, std::string_view name) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(name);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

Error WrongJsonType(const nlohmann::json& got) {
  if (got.is_array()) {
    return Error::Serialization("Start of list found where not expected");
  }
  if (got.is_object()) {
    return Error::Serialization(
        "Start of structure or map found where not expected");
  }
  return Error::Serialization("Unexpected value type in payload");
}

Error EnumConstraint(std::string_view value, std::string_view path,
                     std::string_view set) {
  std::string msg = "1 validation error detected: Value '";
  msg += value;
  msg += "' at '";
  msg += path;
  msg += "' failed to satisfy constraint: Member must satisfy enum value set: ";
  msg += set;
  return Error::Validation(std::move(msg));
}

Error NotNullConstraint(std::string_view path) {
  std::string msg = "1 validation error detected: Value null at '";
  msg += path;
  msg += "' failed to satisfy constraint: Member must not be null";
  return Error::Validation(std::move(msg));
}

std::string LowerFirst(std::string_view s) {
  std::string out(s);
  if (!out.empty() && out[0] >= 'A' && out[0] <= 'Z') {
    out[0] = static_cast<char>(out[0] - 'A' + 'a');
  }
  return out;
}

Result<std::optional<std::string>> StringMember(const nlohmann::json& obj,
                                                std::string_view name) {
  const nlohmann::json* m = Member(obj, name);
  if (m == nullptr) return std::optional<std::string>();
  if (!m->is_string()) return WrongJsonType(*m);
  return std::optional<std::string>(m->get<std::string>());
}

Result<std::optional<bool>> BoolMember(const nlohmann::json& obj,
                                       std::string_view name) {
  const nlohmann::json* m = Member(obj, name);
  if (m == nullptr) return std::optional<bool>();
  if (m->is_boolean()) return std::optional<bool>(m->get<bool>());
  if (m->is_string()) {
    const std::string& s = m->get_ref<const std::string&>();
    if (s == "true") return std::optional<bool>(true);
    if (s == "false") return std::optional<bool>(false);
  }
  return WrongJsonType(*m);
}

}  // namespace legacy_internal

namespace {

using legacy_internal::Member;

// Every style-sensitive member, in the order DynamoDB lists them.
enum Param : unsigned {
  kAttributeUpdates = 1u << 0,
  kAttributesToGet = 1u << 1,
  kExpected = 1u << 2,
  kQueryFilter = 1u << 3,
  kScanFilter = 1u << 4,
  kConditionalOperator = 1u << 5,
  kKeyConditions = 1u << 6,
  kUpdateExpression = 1u << 7,
  kProjectionExpression = 1u << 8,
  kConditionExpression = 1u << 9,
  kFilterExpression = 1u << 10,
  kKeyConditionExpression = 1u << 11,
};

struct ParamName {
  Param param;
  std::string_view name;
};

constexpr std::array<ParamName, 7> kNonExpression = {{
    {kAttributeUpdates, "AttributeUpdates"},
    {kAttributesToGet, "AttributesToGet"},
    {kExpected, "Expected"},
    {kQueryFilter, "QueryFilter"},
    {kScanFilter, "ScanFilter"},
    {kConditionalOperator, "ConditionalOperator"},
    {kKeyConditions, "KeyConditions"},
}};

constexpr std::array<ParamName, 5> kExpression = {{
    {kUpdateExpression, "UpdateExpression"},
    {kProjectionExpression, "ProjectionExpression"},
    {kConditionExpression, "ConditionExpression"},
    {kFilterExpression, "FilterExpression"},
    {kKeyConditionExpression, "KeyConditionExpression"},
}};

constexpr unsigned kAllExpressions = kUpdateExpression | kProjectionExpression |
                                     kConditionExpression | kFilterExpression |
                                     kKeyConditionExpression;

struct OperationParams {
  std::string_view operation;
  unsigned members;  // the style-sensitive members the operation has
  // The expressions that use ExpressionAttributeValues, and the text naming
  // them; 0 when the operation has no ExpressionAttributeValues.
  unsigned value_expressions;
  std::string_view values_text;
};

constexpr std::array<OperationParams, 6> kOperations = {{
    {"GetItem", kAttributesToGet | kProjectionExpression, 0, ""},
    {"PutItem", kExpected | kConditionalOperator | kConditionExpression,
     kConditionExpression, "ConditionExpression is null"},
    {"DeleteItem", kExpected | kConditionalOperator | kConditionExpression,
     kConditionExpression, "ConditionExpression is null"},
    {"UpdateItem",
     kAttributeUpdates | kExpected | kConditionalOperator | kUpdateExpression |
         kConditionExpression,
     kUpdateExpression | kConditionExpression,
     "UpdateExpression and ConditionExpression are null"},
    {"Query",
     kAttributesToGet | kQueryFilter | kConditionalOperator | kKeyConditions |
         kProjectionExpression | kFilterExpression | kKeyConditionExpression,
     kFilterExpression | kKeyConditionExpression,
     "FilterExpression and KeyConditionExpression are null"},
    {"Scan",
     kAttributesToGet | kScanFilter | kConditionalOperator |
         kProjectionExpression | kFilterExpression,
     kFilterExpression, "FilterExpression is null"},
}};

// The style-sensitive members present in `request`, among `members`.
unsigned Present(const nlohmann::json& request, unsigned members) {
  unsigned present = 0;
  for (const ParamName& p : kNonExpression) {
    if ((members & p.param) && Member(request, p.name)) present |= p.param;
  }
  for (const ParamName& p : kExpression) {
    if ((members & p.param) && Member(request, p.name)) present |= p.param;
  }
  return present;
}

std::string Names(unsigned present, const ParamName* begin,
                  const ParamName* end) {
  std::string out = "{";
  bool first = true;
  for (const ParamName* p = begin; p != end; ++p) {
    if (!(present & p->param)) continue;
    if (!first) out += ", ";
    out += p->name;
    first = false;
  }
  out += "}";
  return out;
}

// "Can not use both ..." when `present` mixes the styles. KeyConditions only
// conflicts with KeyConditionExpression (it may go with FilterExpression).
Status CheckMixing(unsigned present) {
  if (!(present & kKeyConditionExpression)) present &= ~kKeyConditions;
  const unsigned legacy = present & ~kAllExpressions;
  const unsigned modern = present & kAllExpressions;
  if (legacy == 0 || modern == 0) return OkStatus();
  return Error::Validation(
      "Can not use both expression and non-expression parameters in the same "
      "request: Non-expression parameters: " +
      Names(legacy, kNonExpression.data(),
            kNonExpression.data() + kNonExpression.size()) +
      " Expression parameters: " +
      Names(modern, kExpression.data(),
            kExpression.data() + kExpression.size()));
}

constexpr char kNamesWithoutExpressions[] =
    "ExpressionAttributeNames can only be specified when using expressions";

Status CheckBatchGet(const nlohmann::json& request) {
  const nlohmann::json* items = Member(request, "RequestItems");
  if (items == nullptr || !items->is_object()) return OkStatus();
  // DynamoDB remembers AttributesToGet and ProjectionExpression across the
  // tables of one request.
  unsigned seen = 0;
  for (const auto& [table, kaa] : items->items()) {
    if (!kaa.is_object()) continue;
    seen |= Present(kaa, kAttributesToGet | kProjectionExpression);
    if ((seen & kAttributesToGet) && (seen & kProjectionExpression)) {
      DDBLAB_RETURN_IF_ERROR(CheckMixing(seen));
    }
    if (Member(kaa, "ExpressionAttributeNames") &&
        !Member(kaa, "ProjectionExpression")) {
      return Error::Validation(kNamesWithoutExpressions);
    }
  }
  return OkStatus();
}

}  // namespace

Status CheckParameterStyles(const nlohmann::json& request,
                            std::string_view operation) {
  if (operation == "BatchGetItem") return CheckBatchGet(request);
  const OperationParams* op = nullptr;
  for (const OperationParams& o : kOperations) {
    if (o.operation == operation) op = &o;
  }
  if (op == nullptr || !request.is_object()) return OkStatus();
  const unsigned present = Present(request, op->members);
  DDBLAB_RETURN_IF_ERROR(CheckMixing(present));
  if (Member(request, "ExpressionAttributeNames") &&
      !(present & kAllExpressions)) {
    return Error::Validation(kNamesWithoutExpressions);
  }
  if (op->value_expressions != 0 &&
      Member(request, "ExpressionAttributeValues") &&
      !(present & op->value_expressions)) {
    return Error::Validation(
        "ExpressionAttributeValues can only be specified when using "
        "expressions: " +
        std::string(op->values_text));
  }
  return OkStatus();
}

}  // namespace ddblab::expr
