// emulator/value/item_codec.h: a compact binary form of an Item for storage.
//
// Much cheaper to encode and decode than DynamoDB JSON; the storage layer
// keeps items in this form. Numbers keep their exact value; sets keep their
// order. Decoding is defensive: corrupt bytes give an InternalServerError,
// never a crash.
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::value {

std::string SerializeItem(const Item& item);
Result<Item> DeserializeItem(std::string_view bytes);

// Only the top-level attributes named in `names` (those present), the others
// skipped without being built: for callers that read a few attributes of a
// stored item (index keys of a deleted item, a projection). Bytes are
// checked as far as they are read; corrupt bytes give InternalServerError.
Result<Item> DeserializeAttributes(std::string_view bytes,
                                   std::span<const std::string_view> names);
// The same without building an Item: out[i] receives the attribute named
// names[i] (nullopt when absent; out.size() must equal names.size()). The
// names must be distinct. For hot paths that need a few attributes of a
// stored item (the index keys of a deleted item).
Status DeserializeNamedAttributes(std::string_view bytes,
                                  std::span<const std::string_view> names,
                                  std::span<std::optional<AttributeValue>> out);

}  // namespace ddblab::value
