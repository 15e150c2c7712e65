// emulator/engine/ops/query_multi_key.h: Query key conditions on a GSI with a
// multi-attribute key (several HASH and/or several RANGE attributes).
//
// Rules (DynamoDB, Nov 2025; see docs/spec-notes/multi-attribute-gsi.md):
// every HASH attribute needs an equality; RANGE attributes may be given
// left to right in KeySchema order without gaps, each an equality except
// the last one given, which may be any sort-key condition (<, <=, >, >=,
// BETWEEN, begins_with). The result is a partition (the stored HASH part)
// and byte bounds on the stored RANGE part (multi_key.h: a condition on a
// left prefix of a composite is a byte range).
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/key_term.h"
#include "emulator/engine/table.h"
#include "emulator/expr/key_condition.h"
#include "emulator/storage/item_store.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

struct MultiKeyCondition {
  std::string partition;
  std::optional<storage::SortBound> lower;
  std::optional<storage::SortBound> upper;
};

// DynamoDB's text for a key condition with more conditions than a table key
// takes.
inline constexpr char kConditionCount[] =
    "Conditions can be of length 1 or 2 only";

// Whether `e`, found before the schema is known, must wait for it: the
// condition count error for 3 to 8 conditions, which a multi-attribute key
// may accept (single-attribute keys then get it from AnalyzeTerms).
bool MultiKeyCountDeferred(const Error& e, size_t conditions);

// The terms against a multi-attribute key schema, with the start key's
// elements checked in KeySchema order as for single-attribute keys.
Result<MultiKeyCondition> AnalyzeMultiKeyTerms(
    const KeySchema& key, const std::vector<KeyTerm>& terms,
    const value::Item* esk);

// The start key's position against the condition (same texts as for a
// single-attribute key).
Status CheckMultiKeyStart(const KeySchema& key, const MultiKeyCondition& kc,
                          const value::Item& esk);

}  // namespace ddblab::engine
