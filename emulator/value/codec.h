// emulator/value/codec.h: the wire codec, DynamoDB JSON <-> AttributeValue.
//
// Decoding checks everything DynamoDB checks on an AttributeValue and
// returns its exact error (DynamoDB's data model):
// SerializationException for JSON of the wrong shape (a JSON number in "N",
// malformed base64, a non-object where an AttributeValue belongs),
// ValidationException for an empty value, more than one type key, NULL:false,
// invalid numbers, empty or duplicate sets, nesting deeper than 32 levels and
// attribute names that are empty or longer than 65535 bytes.
// Empty strings and binaries are accepted (key checks are the engine's).
//
// Thread-safety: stateless functions.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::value {

inline constexpr int kMaxNestingDepth = 32;
// Attribute names (item members and map keys at any depth) are 1..65535
// bytes.
inline constexpr size_t kMaxAttributeNameBytes = 65535;

Result<AttributeValue> DecodeAttributeValue(const nlohmann::json& json);
nlohmann::json EncodeAttributeValue(const AttributeValue& value);

// An item or a key: a JSON object of name -> AttributeValue.
Result<Item> DecodeItem(const nlohmann::json& json);
nlohmann::json EncodeItem(const Item& item);

// RFC 4648 base64 with padding. Decoding rejects missing padding and
// illegal characters (returns false).
std::string Base64Encode(std::string_view bytes);
bool Base64Decode(std::string_view text, std::string* bytes);

}  // namespace ddblab::value
