// emulator/engine/multi_key.h: the stored form of index keys, including
// multi-attribute GSI keys (up to four HASH and four RANGE attributes).
//
// A key part (HASH or RANGE) with one attribute is stored as that value's
// plain key encoding (value::EncodeKey), exactly as before multi-attribute
// keys existed. A part with several attributes is the concatenation, in
// KeySchema order, of one component per attribute: the value's key encoding
// with every 0x00 byte written as 0x00 0xFF, then the terminator 0x00 0x01.
// memcmp order of two composites is then the order of their values compared
// attribute by attribute (a value that is a prefix of another sorts first,
// as the terminator sorts below any escaped or plain byte), and the
// composite of the first k attributes is a byte prefix of the full key: a
// condition on a left prefix of the RANGE attributes becomes a range scan.
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/engine/table.h"
#include "emulator/value/attribute_value.h"
#include "emulator/value/item_codec.h"

namespace ddblab::engine {

// Appends one composite component (escaped `encoded` + terminator).
void AppendKeyComponent(std::string_view encoded, std::string* out);
// The escaped bytes of `encoded` alone, without the terminator (the prefix
// shared by every component whose value begins with it).
std::string EscapeKeyComponent(std::string_view encoded);

// The stored HASH / RANGE part of `item` under `key`: nullopt when an
// attribute of the part is missing, has another type than declared, or a
// value a key cannot hold (an empty string or binary, a hash value over
// 2048 bytes, a range value over 1024): such an item is not in the index
// (writes refuse these values first; an index built by UpdateTable skips
// older items holding them). The RANGE part of a schema without RANGE
// attributes is "".
std::optional<std::string> EncodeHashPart(const KeySchema& key,
                                          const value::Item& item);
std::optional<std::string> EncodeRangePart(const KeySchema& key,
                                           const value::Item& item);

// Key attributes read in place from a stored item
// (value::ReadKeyAttributes): values[i] is the attribute named names[i].
// Views: the caller keeps both (and the stored bytes) alive.
struct StoredKeyValues {
  std::span<const std::string_view> names;
  std::span<const value::StoredKeyValue> values;
  // The value of `name`, or null when absent or not among the names.
  const value::StoredKeyValue* Find(std::string_view name) const;
};

// The same parts from stored key attributes (same rules as above).
std::optional<std::string> EncodeHashPart(const KeySchema& key,
                                          const StoredKeyValues& values);
std::optional<std::string> EncodeRangePart(const KeySchema& key,
                                           const StoredKeyValues& values);

}  // namespace ddblab::engine
