// emulator/value/attribute_name.h: the limits on an attribute name that a
// request names directly (an item member, a map key at any depth, a legacy
// AttributesToGet entry or AttributeUpdates member): 1..65535 bytes, with
// DynamoDB's texts for a name out of them.
//
// Thread-safety: stateless functions.
#pragma once

#include <string_view>

#include "emulator/api/result.h"

namespace ddblab::value {

// Measured on DynamoDB for a 65,536-byte name, top level or nested. The
// empty-name text is DynamoDB Local's wording with the same prefix
// (unverified against DynamoDB).
inline constexpr char kAttributeNameTooLargeText[] =
    "1 validation error detected: Attribute name is too large, must be less "
    "than 65536 bytes";
inline constexpr char kEmptyAttributeNameText[] =
    "1 validation error detected: Empty attribute name";

// A ValidationException with one of the texts above for an empty name or
// one longer than kMaxAttributeNameBytes (codec.h); OK otherwise.
Status CheckAttributeName(std::string_view name);

}  // namespace ddblab::value
