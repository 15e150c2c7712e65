// tests/emulator/engine/attribute_values_test_util.h: short builders of
// scalar AttributeValues for the key tests (keys_test, multi_key_test).
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "emulator/value/attribute_value.h"
#include "emulator/value/number.h"

namespace ddblab::engine::testing {

inline value::AttributeValue Sv(const std::string& s) {
  return value::AttributeValue::S(s);
}
inline value::AttributeValue Nv(const std::string& n) {
  return value::AttributeValue::N(*value::Number::Parse(n));
}
inline value::AttributeValue Bv(const std::string& b) {
  return value::AttributeValue::B(b);
}

}  // namespace ddblab::engine::testing
