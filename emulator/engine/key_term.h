// emulator/engine/key_term.h: one condition of a Query key condition, as the
// typed Query request carries it and the key analysis (single- and
// multi-attribute keys) reads it.
//
// Thread-safety: a plain value type and pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/table.h"
#include "emulator/expr/key_condition.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

// One condition of the key condition, from either form (KeyConditionExpression
// or the legacy KeyConditions). `op` is empty for a legacy operator that
// cannot use the key (NE, NULL, CONTAINS, ...).
struct KeyTerm {
  std::string attr;
  std::optional<expr::RangeOp> op;
  std::vector<value::AttributeValue> values;
};

// The term on `attr`, or null.
const KeyTerm* FindKeyTerm(const std::vector<KeyTerm>& terms,
                           const std::string& attr);

// A term usable on a key attribute of `type`: an indexable operator with
// values of that type (DynamoDB's texts).
Status CheckKeyTerm(const KeyTerm& t, AttrType type);

// The start key's element `k`, when there is a start key: present, of the
// right type and size.
Status CheckStartElement(const value::Item* esk, const KeyElement& k,
                         bool hash);

}  // namespace ddblab::engine
