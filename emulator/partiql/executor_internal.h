// emulator/partiql/executor_internal.h: helpers shared by executor.cc and
// executor_multi.cc. Internal to emulator/partiql.
//
// Thread-safety: stateless functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/partiql/translate.h"

namespace ddblab::partiql::internal {

// The string member `name` of `obj`, or "" if absent or not a string.
std::string StringMember(const nlohmann::json& obj, std::string_view name);
// The boolean member, false if absent or not a boolean.
bool BoolMember(const nlohmann::json& obj, std::string_view name);
// The member, or null.
const nlohmann::json& Member(const nlohmann::json& obj, std::string_view name);

// An engine error as PartiQL reports it (see executor.h).
Error MapError(Error error, const Plan* plan);

// The BatchStatementError code for an error: "ValidationError",
// "ConditionalCheckFailed", "DuplicateItem", ...
std::string BatchErrorCode(const Error& error);

// "Requested resource not found" (the DynamoDB API reference, data plane).
Error TableNotFound();

// Checks a PartiQL table name; DynamoDB Local's message catalog:
// "Table name should be within the length [3, 255] and only contain 'a-z',
// 'A-Z', '0-9', '-', '_', '.'."
Status CheckTableName(const std::string& name);

}  // namespace ddblab::partiql::internal
