#include "emulator/streams/record_builder.h"

#include <cstdio>

#include "emulator/api/random.h"
#include "emulator/streams/sequence_number.h"
#include "emulator/value/item_codec.h"
#include "emulator/value/item_json.h"
#include "emulator/value/item_size.h"

namespace ddblab::streams {
namespace {

bool HasNew(ViewType v) {
  return v == ViewType::kNewImage || v == ViewType::kNewAndOldImages;
}
bool HasOld(ViewType v) {
  return v == ViewType::kOldImage || v == ViewType::kNewAndOldImages;
}

Result<nlohmann::json> DecodeImage(std::string_view bytes) {
  return value::StoredItemToJson(bytes);
}

}  // namespace

bool IsNoOp(const Change& change) {
  if (change.old_image == nullptr || change.new_image == nullptr) {
    return change.old_image == nullptr && change.new_image == nullptr;
  }
  return change.old_image->bytes == change.new_image->bytes;
}

RecordRow BuildRecord(const Change& change, ViewType view, int64_t now_ms) {
  RecordRow row;
  row.created_ms = now_ms;
  if (change.old_image == nullptr) {
    row.event = EventName::kInsert;
  } else if (change.new_image == nullptr) {
    row.event = EventName::kRemove;
  } else {
    row.event = EventName::kModify;
  }
  row.service_delete = change.service_delete;
  size_t size = value::ItemSize(*change.keys);
  row.keys = value::SerializeItem(*change.keys);
  if (HasNew(view) && change.new_image != nullptr) {
    row.new_image = std::string(change.new_image->bytes);
    size += static_cast<size_t>(change.new_image->size);
  }
  if (HasOld(view) && change.old_image != nullptr) {
    row.old_image = std::string(change.old_image->bytes);
    size += static_cast<size_t>(change.old_image->size);
  }
  row.size_bytes = static_cast<int64_t>(size);
  return row;
}

std::string MakeEventId(uint64_t salt, int64_t shard, int64_t seq) {
  char tag[48];
  int n =
      std::snprintf(tag, sizeof(tag), "%lld#%lld",
                    static_cast<long long>(shard), static_cast<long long>(seq));
  std::string_view text(tag, static_cast<size_t>(n));
  uint64_t hi = Rng::Hash(salt, text);
  uint64_t lo = Rng::Hash(salt ^ 0x9e3779b97f4a7c15ULL, text);
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx",
                static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return buf;
}

Result<nlohmann::json> RenderRecord(const RecordRow& row, ViewType view,
                                    std::string_view region) {
  nlohmann::json dynamodb = nlohmann::json::object();
  dynamodb["ApproximateCreationDateTime"] =
      row.created_ms >= 0 ? row.created_ms / 1000
                          : -((-row.created_ms + 999) / 1000);
  DDBLAB_ASSIGN_OR_RETURN(dynamodb["Keys"], DecodeImage(row.keys));
  if (row.new_image) {
    DDBLAB_ASSIGN_OR_RETURN(dynamodb["NewImage"], DecodeImage(*row.new_image));
  }
  if (row.old_image) {
    DDBLAB_ASSIGN_OR_RETURN(dynamodb["OldImage"], DecodeImage(*row.old_image));
  }
  dynamodb["SequenceNumber"] = FormatSequenceNumber(row.seq);
  dynamodb["SizeBytes"] = row.size_bytes;
  dynamodb["StreamViewType"] = std::string(ViewTypeName(view));

  // Members one by one: an initializer list would copy the images.
  nlohmann::json record = nlohmann::json::object();
  record["eventID"] = row.event_id;
  record["eventName"] = std::string(EventNameText(row.event));
  record["eventVersion"] = "1.1";
  record["eventSource"] = "aws:dynamodb";
  record["awsRegion"] = std::string(region);
  record["dynamodb"] = std::move(dynamodb);
  if (row.service_delete) {
    record["userIdentity"] = {{"PrincipalId", "dynamodb.amazonaws.com"},
                              {"Type", "Service"}};
  }
  return record;
}

}  // namespace ddblab::streams
