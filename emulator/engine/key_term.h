// emulator/engine/key_term.h: one condition of a Query key condition, as the
// typed Query request carries it and the key analysis (single- and
// multi-attribute keys) reads it.
//
// Thread-safety: a plain value type.
#pragma once

#include <optional>
#include <string>
#include <vector>

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

}  // namespace ddblab::engine
