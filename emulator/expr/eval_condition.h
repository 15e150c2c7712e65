// emulator/expr/eval_condition.h: evaluating a parsed ConditionExpression /
// FilterExpression against an item.
//
// Semantics (DynamoDB's expression rules, DynamoDB's data model): `=` is type +
// value equality, `<>` its negation (an absent operand is unequal to
// anything, even another absent one); `<`, `<=`, `>`, `>=` and BETWEEN
// compare S (bytes), N (numerically) and B (bytes) of the same type and are
// false otherwise or when an operand is absent; IN is equality with any
// candidate; size() gives S/B byte length, set/list/map element counts and no
// value for N, BOOL and NULL. Evaluation never fails: type mismatches coming
// from item data simply make the condition false.
//
// Thread-safety: stateless functions over immutable inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "emulator/expr/ast.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

// An empty item stands for a missing item (every attribute absent).
bool EvaluateCondition(const ConditionExpression& c, const value::Item& item);
bool EvaluateCondition(const Condition& c, const value::Item& item);

// -1/0/1 for two S, N or B values of the same type; nullopt otherwise.
std::optional<int> CompareScalars(const value::AttributeValue& a,
                                  const value::AttributeValue& b);

// The value of size(v), or nullopt for N, BOOL and NULL.
std::optional<int64_t> SizeOf(const value::AttributeValue& v);

// begins_with(a, b): a and b both S (prefix) or both B (byte prefix).
bool BeginsWith(const value::AttributeValue& a, const value::AttributeValue& b);

// contains(haystack, needle): substring for S/B, membership for sets (needle
// of the element type) and lists (any element equal to needle).
bool Contains(const value::AttributeValue& haystack,
              const value::AttributeValue& needle);

// Every document path the condition reads (in text order, duplicates kept),
// e.g. for "Filter Expression can only contain non-primary key attributes".
std::vector<const DocumentPath*> ReferencedPaths(const Condition& c);

}  // namespace ddblab::expr
