// emulator/storage/stream_store.h: the typed store behind DynamoDB Streams
// (streams, shards, records) and the row types it reads and writes.
//
// Tables (schema component "streams", created by EnsureSchema):
//   stream_streams  one row per stream ever enabled (kept, DISABLED, for the
//                   retention period after it is disabled), with the
//                   counter of shard ordinals (written only when shards are
//                   created, never per record);
//   stream_shards   (stream_id, ordinal) -> shard: id, parent, hash range,
//                   sequence range, close time, trim point;
//   stream_records  (stream_id, shard ordinal, seq) -> one stream record,
//                   images stored as value::SerializeItem bytes.
// Times are epoch milliseconds of the engine Clock.
//
// A StreamStore is reached through the ItemStore (reads) or the open
// WriteTransaction (writes): both reach the same rows, so records commit or
// roll back with the item they describe. It keeps no state of its own.
// generation() moves on every change to streams or shards (not on the
// appending of records) and on every rollback: a cache filled at generation
// g (the streams layer's open-shard cache) is valid while generation() == g.
//
// Ownership: owned by its ItemStore. Thread-safety: none; callers hold the
// engine lock.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::storage {

enum class ViewType { kKeysOnly, kNewImage, kOldImage, kNewAndOldImages };
// "KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES".
std::string_view ViewTypeName(ViewType type);
std::optional<ViewType> ParseViewType(std::string_view name);

enum class EventName { kInsert = 1, kModify = 2, kRemove = 3 };
// "INSERT", "MODIFY", "REMOVE".
std::string_view EventNameText(EventName name);

struct StreamRow {
  int64_t id = 0;
  std::string arn;
  std::string table_name;
  std::string label;
  ViewType view_type = ViewType::kKeysOnly;
  std::string key_schema;  // JSON text: [{"AttributeName":..,"KeyType":..}]
  int64_t created_ms = 0;
  std::optional<int64_t> disabled_ms;  // set once DISABLED
  int64_t next_shard = 0;              // the next shard ordinal
  uint64_t salt = 0;  // from the seed at creation; makes eventIDs

  bool enabled() const { return !disabled_ms.has_value(); }
};

struct ShardRow {
  int64_t stream_id = 0;
  int64_t ordinal = 0;  // creation order within the stream
  std::string shard_id;
  std::string parent_shard_id;  // empty: no parent
  uint64_t hash_lo = 0;         // partition-key hashes [hash_lo, hash_hi]
  uint64_t hash_hi = 0;
  int64_t created_ms = 0;
  int64_t start_seq = 0;  // no record carries it; all records are above
  std::optional<int64_t> end_seq;  // set once closed
  std::optional<int64_t> closed_ms;
  int64_t trim_seq = 0;  // the last trimmed record's seq; 0: none trimmed
  // Not stored: the highest seq stored in the shard, 0 if none, -1 if not
  // looked up (OpenShards and new shards know it).
  int64_t last_seq = -1;

  bool open() const { return !end_seq.has_value(); }
};

struct RecordRow {
  int64_t seq = 0;
  int64_t created_ms = 0;
  EventName event = EventName::kInsert;
  bool service_delete = false;  // a TTL deletion (userIdentity)
  int64_t size_bytes = 0;
  std::string event_id;  // not stored: derived from the stream's salt

  std::string keys;                      // serialized item
  std::optional<std::string> new_image;  // stored only if the view has it
  std::optional<std::string> old_image;
};

class StreamStore {
 public:
  virtual ~StreamStore() = default;

  // Creates or upgrades the tables (its own transaction: call outside any
  // open transaction).
  virtual Status EnsureSchema() = 0;
  // See the header comment.
  virtual uint64_t generation() const = 0;

  // ---- Streams.
  virtual Result<std::optional<StreamRow>> FindStream(std::string_view arn) = 0;
  // Every stream, in ARN order.
  virtual Result<std::vector<StreamRow>> ListStreams() = 0;
  // Inserts `row` (id ignored); returns the new id.
  virtual Result<int64_t> InsertStream(const StreamRow& row) = 0;
  // Saves next_shard.
  virtual Status SaveCounters(const StreamRow& row) = 0;
  virtual Status SetDisabled(int64_t stream_id, int64_t disabled_ms) = 0;
  // Removes the stream, its shards and its records.
  virtual Status DeleteStream(int64_t stream_id) = 0;

  // ---- Shards.
  // Every shard of the stream, in ShardId order.
  virtual Result<std::vector<ShardRow>> Shards(int64_t stream_id) = 0;
  virtual Result<std::vector<ShardRow>> OpenShards(int64_t stream_id) = 0;
  virtual Result<std::optional<ShardRow>> FindShard(
      int64_t stream_id, std::string_view shard_id) = 0;
  virtual Result<std::optional<ShardRow>> ShardByOrdinal(int64_t stream_id,
                                                         int64_t ordinal) = 0;
  virtual Status InsertShard(const ShardRow& row) = 0;
  virtual Status CloseShard(int64_t stream_id, int64_t ordinal, int64_t end_seq,
                            int64_t closed_ms) = 0;
  // Removes the shard and its records.
  virtual Status DeleteShard(int64_t stream_id, int64_t ordinal) = 0;

  // ---- Records.
  virtual Status InsertRecord(int64_t stream_id, int64_t shard,
                              const RecordRow& row) = 0;
  // The highest seq stored in the shard (nullopt if empty).
  virtual Result<std::optional<int64_t>> LastSeq(int64_t stream_id,
                                                 int64_t shard) = 0;
  // Visits the shard's records with seq > after_seq in order until `visit`
  // returns false.
  virtual Status ReadRecords(int64_t stream_id, int64_t shard,
                             int64_t after_seq,
                             const std::function<bool(RecordRow&&)>& visit) = 0;
  // Deletes the shard's leading records created before cutoff_ms and
  // records the last one's seq as the shard's trim point. Returns whether
  // anything was trimmed.
  virtual Result<bool> Trim(int64_t stream_id, int64_t shard,
                            int64_t cutoff_ms) = 0;
};

}  // namespace ddblab::storage
