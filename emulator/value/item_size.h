// emulator/value/item_size.h: sizes exactly as DynamoDB computes them
// (DynamoDB's data model), for the 400 KB item limit, key size limits
// and capacity units.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstddef>
#include <string_view>

#include "emulator/value/attribute_value.h"

namespace ddblab::value {

inline constexpr size_t kMaxItemSize = 409600;

// S: UTF-8 bytes; B: raw bytes; N: 1 + base-100 digit groups (+1 if
// negative), 1 for zero; BOOL/NULL: 1; sets: sum of elements;
// L: 3 + sum(1 + element); M: 3 + sum(1 + name + value).
size_t AttributeValueSize(const AttributeValue& value);
// The size of an N value.
size_t NumberSize(const Number& n);
// Sum over top-level attributes of name length + value size.
size_t ItemSize(const Item& item);
// Size of a single attribute (name + value), as counted in ItemSize.
size_t AttributeSize(std::string_view name, const AttributeValue& value);

}  // namespace ddblab::value
