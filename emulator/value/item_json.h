// emulator/value/item_json.h: stored item bytes (item_codec.h) straight to
// wire DynamoDB JSON, without building an Item in between.
//
// StoredItemToJson(bytes) gives exactly EncodeItem(*DeserializeItem(bytes))
// (same numbers, same set and list order, same base64), and fails where
// DeserializeItem fails, with the same InternalServerError "corrupt stored
// item" — never a crash. Use it for reads that return whole items (no
// projection, no filter); anything that inspects attributes goes through
// DeserializeItem.
//
// Thread-safety: stateless functions.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "emulator/api/result.h"

namespace ddblab::value {

Result<nlohmann::json> StoredItemToJson(std::string_view bytes);

// Only the top-level attributes named in `names` (those present):
// exactly EncodeItem(*DeserializeAttributes(bytes, names)), failing where
// DeserializeAttributes fails. For projections of top-level attributes.
Result<nlohmann::json> StoredAttributesToJson(
    std::string_view bytes, std::span<const std::string_view> names);

}  // namespace ddblab::value
