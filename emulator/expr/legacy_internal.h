// emulator/expr/legacy_internal.h: helpers shared by the legacy-parameter
// conversions (legacy_condition.cc, legacy_update.cc, legacy_params.cc).
// Not part of the expression layer's public surface.
//
// Thread-safety: stateless functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/error.h"
#include "emulator/api/result.h"

namespace ddblab::expr::legacy_internal {

// The prefix of DynamoDB's INVALID_PARAMETER_VALUE errors.
inline constexpr std::string_view kInvalid =
    "One or more parameter values were invalid: ";

// Member `name` of `obj`, or nullptr when `obj` is not an object or the
// member is absent or JSON null.
const nlohmann::json* Member(const nlohmann::json& obj, std::string_view name);

// True for an absent parameter (JSON null).
inline bool IsAbsent(const nlohmann::json* j) {
  return j == nullptr || j->is_null();
}

// A SerializationException for a value of the wrong JSON type (the engine's
// RequestParser normally reports these first, with Coral's exact texts).
Error WrongJsonType(const nlohmann::json& got);

// "1 validation error detected: Value '<value>' at '<path>' failed to
// satisfy constraint: Member must satisfy enum value set: <set>".
Error EnumConstraint(std::string_view value, std::string_view path,
                     std::string_view set);
// "1 validation error detected: Value null at '<path>' failed to satisfy
// constraint: Member must not be null".
Error NotNullConstraint(std::string_view path);

// "queryFilter" for "QueryFilter".
std::string LowerFirst(std::string_view s);

// A JSON string member as text; WrongJsonType for other types.
Result<std::optional<std::string>> StringMember(const nlohmann::json& obj,
                                                std::string_view name);

// A JSON boolean member (Coral also accepts the strings "true"/"false").
Result<std::optional<bool>> BoolMember(const nlohmann::json& obj,
                                       std::string_view name);

}  // namespace ddblab::expr::legacy_internal
