// harness/patterns/common.h: what the DynamoDB patterns share: the list of
// invariant violations, idempotent table setup, attribute-value helpers,
// backoff waits and the epoch/ISO time formats.
//
// Everything goes through a Backend; nothing here knows which one.
//
// Thread-safety: free functions; each is as thread-safe as the Backend it is
// given.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "harness/backend/backend.h"

namespace ddblab::harness::patterns {

using json = nlohmann::json;

// What an invariant check found wrong, one readable sentence per problem.
// Empty means the invariant holds.
using Problems = std::vector<std::string>;

// {"S": s} and {"N": "<n>"}.
json S(std::string_view s);
json N(int64_t n);
// The integer in {"N": "..."}; nullopt when `value` is not a whole N.
std::optional<int64_t> AsInt(const json& value);

// A ValidationException "<pattern>: table name must be 3 to 255
// characters of a-z, A-Z, 0-9, '_', '-' and '.', got \"<table>\"" unless
// `table` is a valid DynamoDB table name.
Status CheckTableName(std::string_view pattern, const std::string& table);

// Creates the table described by `create_table` (a CreateTable request) and
// waits until it is ACTIVE. A table that already exists is accepted when
// its key schema matches; otherwise a ValidationException says what
// differs. Waiting uses the backend's clock (instant on the emulator).
Status EnsureTable(Backend& backend, const json& create_table);

// Makes sure `table` has a stream of `view_type` (NEW_AND_OLD_IMAGES,
// NEW_IMAGE, ...): enables one with UpdateTable where it has none and waits
// until the table is ACTIVE again. A table whose stream has another view
// type is a ValidationException saying so (changing it would break the
// table's other consumers).
Status EnsureStream(Backend& backend, const std::string& table,
                    std::string_view view_type);

// Makes sure DynamoDB's TTL is on for `table` on `attribute` (ENABLED or
// ENABLING). TTL on another attribute is a ValidationException.
Status EnsureTtl(Backend& backend, const std::string& table,
                 std::string_view attribute);

// Waits `d` on the backend's time: advances the clock where the backend has
// clock control (a simulated wait, deterministic), sleeps on its clock
// otherwise.
void WaitFor(Backend& backend, Duration d);

// The errors an AWS SDK retries by itself (standard mode; the
// classification of harness/backend/retry_policy.h): throttling, server
// errors and transport failures. TransactionCanceledException is not one of
// them, whatever its reasons.
bool SdkRetries(const Error& error);

// "2024-01-01T00:01:30Z" (UTC, whole seconds).
std::string IsoSeconds(int64_t epoch_seconds);

// Every item of `table` (Scan, all pages, consistent reads).
Result<std::vector<json>> ScanAll(Backend& backend, std::string_view table);

}  // namespace ddblab::harness::patterns
