// emulator/streams/record_builder.h: from an item change to a stored stream
// record, and from a stored record to the GetRecords JSON.
//
// What a record holds (DynamoDB's TTL and Streams documentation): eventName
// INSERT (no old item), MODIFY (both), REMOVE (no new item); Keys always;
// NewImage / OldImage per the view type, where they exist; SizeBytes = item
// size of Keys + of each image included; userIdentity {"PrincipalId":
// "dynamodb.amazonaws.com", "Type": "Service"} on TTL deletions only. eventID
// is 32 hex digits derived from the stream's salt (drawn from the seed when the
// stream is created and stored with it), the shard and the sequence number:
// unique, deterministic, the same after a restart, and never stored per record.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/api/result.h"
#include "emulator/streams/stream_log.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::streams {

// An item image in its stored form: records keep these bytes as they are.
struct StoredImage {
  std::string_view bytes;  // value::SerializeItem
  int64_t size = 0;        // value::ItemSize
};

// One item change. Images are null where the item did not / does not exist.
struct Change {
  const value::Item* keys = nullptr;
  const StoredImage* old_image = nullptr;
  const StoredImage* new_image = nullptr;
  bool service_delete = false;  // a TTL deletion
};

// Whether the change visibly modifies nothing: neither image exists, or both
// have the same stored bytes. (Equal items whose sets list their members in
// another order have different bytes: the caller, which has the decoded
// items, filters those out before appending.)
bool IsNoOp(const Change& change);

// The record for `change` under `view`, without seq and event id.
RecordRow BuildRecord(const Change& change, ViewType view, int64_t now_ms);

// 32 lower-case hex digits.
std::string MakeEventId(uint64_t salt, int64_t shard, int64_t seq);

// The GetRecords "Records" element.
Result<nlohmann::json> RenderRecord(const RecordRow& row, ViewType view,
                                    std::string_view region);

}  // namespace ddblab::streams
