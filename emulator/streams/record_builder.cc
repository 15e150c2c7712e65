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

namespace {

// `v` in decimal at `out` (room for 20 characters); returns the end.
char* PutDecimal(char* out, int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0) {
    *out++ = '-';
    u = 0 - u;
  }
  char digits[20];
  size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

// `v` as 16 lower-case hex digits at `out`.
void PutHex16(char* out, uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 15; i >= 0; --i) {
    out[i] = kHex[v & 0xf];
    v >>= 4;
  }
}

}  // namespace

std::string MakeEventId(uint64_t salt, int64_t shard, int64_t seq) {
  // The text hashed is "<shard>#<seq>" in decimal; written by hand rather
  // than with snprintf, as for every record GetRecords returns.
  char tag[48];
  char* end = PutDecimal(tag, shard);
  *end++ = '#';
  end = PutDecimal(end, seq);
  std::string_view text(tag, static_cast<size_t>(end - tag));
  uint64_t hi = Rng::Hash(salt, text);
  uint64_t lo = Rng::Hash(salt ^ 0x9e3779b97f4a7c15ULL, text);
  std::string id(32, '0');
  PutHex16(id.data(), hi);
  PutHex16(id.data() + 16, lo);
  return id;
}

Result<nlohmann::json> RenderRecord(const RecordRow& row, ViewType view,
                                    std::string_view region) {
  // Members are appended in key order with end() as the hint (each object
  // is a std::map): no search per member, and the images are moved in, not
  // copied. This runs for every record GetRecords returns.
  nlohmann::json dynamodb = nlohmann::json::object();
  auto& d = dynamodb.get_ref<nlohmann::json::object_t&>();
  auto put = [](nlohmann::json::object_t& o, const char* key,
                nlohmann::json value) {
    o.emplace_hint(o.end(), key, std::move(value));
  };
  put(d, "ApproximateCreationDateTime",
      row.created_ms >= 0 ? row.created_ms / 1000
                          : -((-row.created_ms + 999) / 1000));
  DDBLAB_ASSIGN_OR_RETURN(nlohmann::json keys, DecodeImage(row.keys));
  put(d, "Keys", std::move(keys));
  if (row.new_image) {
    DDBLAB_ASSIGN_OR_RETURN(nlohmann::json image, DecodeImage(*row.new_image));
    put(d, "NewImage", std::move(image));
  }
  if (row.old_image) {
    DDBLAB_ASSIGN_OR_RETURN(nlohmann::json image, DecodeImage(*row.old_image));
    put(d, "OldImage", std::move(image));
  }
  put(d, "SequenceNumber", FormatSequenceNumber(row.seq));
  put(d, "SizeBytes", row.size_bytes);
  put(d, "StreamViewType", std::string(ViewTypeName(view)));

  nlohmann::json record = nlohmann::json::object();
  auto& r = record.get_ref<nlohmann::json::object_t&>();
  put(r, "awsRegion", std::string(region));
  put(r, "dynamodb", std::move(dynamodb));
  put(r, "eventID", row.event_id);
  put(r, "eventName", std::string(EventNameText(row.event)));
  put(r, "eventSource", "aws:dynamodb");
  put(r, "eventVersion", "1.1");
  if (row.service_delete) {
    put(r, "userIdentity",
        {{"PrincipalId", "dynamodb.amazonaws.com"}, {"Type", "Service"}});
  }
  return record;
}

}  // namespace ddblab::streams
