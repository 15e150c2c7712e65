// emulator/value/item_codec.h: a compact binary form of an Item for storage.
//
// Much cheaper to encode and decode than DynamoDB JSON; the storage layer
// keeps items in this form. Numbers keep their exact value; sets keep their
// order. Decoding is defensive: corrupt bytes give an InternalServerError,
// never a crash.
//
// Thread-safety: stateless functions.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/value/attribute_value.h"
#include "emulator/value/number.h"

namespace ddblab::value {

std::string SerializeItem(const Item& item);
Result<Item> DeserializeItem(std::string_view bytes);

// Only the top-level attributes named in `names` (those present), the others
// skipped without being built: for callers that read a few attributes of a
// stored item (index keys of a deleted item, a projection). Bytes are
// checked as far as they are read; corrupt bytes give InternalServerError.
Result<Item> DeserializeAttributes(std::string_view bytes,
                                   std::span<const std::string_view> names);
// A top-level attribute read in place from stored bytes, for key
// computations: S and B values are views into the bytes, N values are
// decoded; other types keep only their type.
struct StoredKeyValue {
  bool present = false;
  AttributeValue::Type type = AttributeValue::Type::kNull;
  std::string_view bytes;  // S, B
  Number number;           // N
};

// out[i] receives the attribute named names[i] (present == false when
// absent; out.size() must equal names.size(); names distinct). Allocates
// nothing: for hot paths that need the key attributes of a stored item (the
// index entries of a deleted item). Corrupt bytes give InternalServerError.
Status ReadKeyAttributes(std::string_view bytes,
                         std::span<const std::string_view> names,
                         std::span<StoredKeyValue> out);

}  // namespace ddblab::value
