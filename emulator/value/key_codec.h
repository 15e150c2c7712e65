// emulator/value/key_codec.h: key attribute values to bytes whose memcmp
// order is DynamoDB's sort order.
//
// S: the UTF-8 bytes; B: the raw bytes; N: an order-preserving encoding of
// the decimal (sign, exponent, digits), so that -1e5 < -2 < -1.5 < 0 < 1e-130
// < 1 < 1.5 < 10 < 1e125 compare the same under memcmp. The encoding of a
// value depends on its type only through which of the three encodings is
// used: compare only values of the same type (a key attribute has one type).
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::value {

// value must be S, N or B.
std::string EncodeKey(const AttributeValue& value);
std::string EncodeNumberKey(const Number& n);

// Inverse of EncodeKey for a key of the given type (S, N or B).
Result<AttributeValue> DecodeKey(AttributeValue::Type type,
                                 std::string_view bytes);

}  // namespace ddblab::value
