// emulator/streams/stream_service.h: DynamoDB Streams on top of the stream
// log — the write side (enable, disable, append) and the read side
// (ListStreams, DescribeStream, GetShardIterator, GetRecords semantics, with
// typed inputs and results), plus on-demand shard splits.
//
// Every method takes the stream log to run on (storage::StreamStore) and
// the engine's `now`: the write path passes the log of the item's open
// transaction, the read operations that of a transaction of their own.
// Rollover, trimming and expiry are applied lazily here (appends roll over the
// target shard; reads apply everything due on what they touch), so results only
// depend on the clock values passed in.
//
// Error messages (ResourceNotFoundException / ValidationException /
// ExpiredIteratorException / TrimmedDataAccessException) are the DynamoDB
// Streams texts where known (see the .cc for the chosen ones).
//
// Ownership: holds its configuration and two caches for the write path:
// the enabled streams it appends to, and when it last trimmed each.
// Thread-safety: none; callers hold the engine lock.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/streams/record_builder.h"
#include "emulator/streams/shards.h"
#include "emulator/streams/stream_log.h"

namespace ddblab::streams {

struct StreamsConfig {
  ShardPolicy shards;
  Duration iterator_lifetime = std::chrono::minutes(15);
  std::string region = "us-east-1";
};

// A table's stream as the engine knows it.
struct StreamSpec {
  std::string arn;
  std::string table_name;
  std::string label;
  ViewType view_type = ViewType::kKeysOnly;
  std::string key_schema;  // JSON text: [{"AttributeName":..,"KeyType":..}]
  TimePoint created;
};

enum class IteratorType {
  kTrimHorizon,
  kLatest,
  kAtSequenceNumber,
  kAfterSequenceNumber
};
std::optional<IteratorType> ParseIteratorType(std::string_view name);

// Whether `arn` has the shape arn:<partition>:dynamodb:<region>:<account>:
// table/<name>/stream/<label>.
bool IsStreamArn(std::string_view arn);

struct StreamSummary {
  std::string arn;
  std::string table_name;
  std::string label;
};

struct ListStreamsResult {
  std::vector<StreamSummary> streams;
  std::optional<std::string> last_evaluated_arn;
};

struct DescribeStreamResult {
  StreamRow stream;
  std::vector<ShardRow> shards;
  std::optional<std::string> last_evaluated_shard_id;
};

struct GetRecordsResult {
  nlohmann::json records = nlohmann::json::array();
  std::optional<std::string> next_iterator;
};

struct SplitResult {
  std::vector<std::string> closed;
  std::vector<std::string> created;
};

// GetRecords stops before exceeding this many bytes (summed SizeBytes).
inline constexpr int64_t kMaxGetRecordsBytes = 1 << 20;

class StreamService {
 public:
  explicit StreamService(StreamsConfig config) : config_(std::move(config)) {}

  const StreamsConfig& config() const { return config_; }

  // Creates the stream tables (outside any transaction).
  static Status EnsureSchema(StreamLog& log);

  // ---- Write side.
  // Creates the stream with its initial shards. Enabling an ARN that is
  // already an enabled stream does nothing; a disabled stream under the same
  // ARN (same table name and millisecond) is replaced.
  Status Enable(StreamLog& log, const StreamSpec& spec);
  // DISABLED; open shards closed. Unknown or already disabled: nothing.
  Status Disable(StreamLog& log, std::string_view arn, TimePoint now);
  // Appends the record of `change` to the enabled stream `arn`; no-op
  // changes append nothing. Returns false (and appends nothing) if there is
  // no enabled stream with that ARN: Enable it and call again, with
  // may_cache false (the stream row is not committed yet).
  Result<bool> Append(StreamLog& log, std::string_view arn,
                      std::string_view partition_key, const Change& change,
                      TimePoint now, bool may_cache = true);

  // ---- Read side.
  Result<ListStreamsResult> ListStreams(
      StreamLog& log, const std::optional<std::string>& table_name, int limit,
      const std::optional<std::string>& exclusive_start_arn, TimePoint now);
  // `child_of`: ShardFilter CHILD_SHARDS of that shard id.
  Result<DescribeStreamResult> DescribeStream(
      StreamLog& log, std::string_view arn, int limit,
      const std::optional<std::string>& exclusive_start_shard_id,
      const std::optional<std::string>& child_of, TimePoint now);
  Result<std::string> GetShardIterator(
      StreamLog& log, std::string_view arn, std::string_view shard_id,
      IteratorType type, const std::optional<std::string>& sequence_number,
      TimePoint now);
  // `visibility_delay` (a fault): records written less than that long
  // before `now` are not read yet (the next iterator stops before them).
  Result<GetRecordsResult> GetRecords(
      StreamLog& log, std::string_view iterator, int limit, TimePoint now,
      Duration visibility_delay = Duration::zero());

  // ---- Control.
  // Splits the open shard `shard_id`, or every open shard, of the enabled
  // stream `arn` into two children each.
  Result<SplitResult> Split(StreamLog& log, std::string_view arn,
                            const std::optional<std::string>& shard_id,
                            TimePoint now);

 private:
  // The stream `arn` after expiry is applied; not-found error if none.
  Result<StreamRow> LiveStream(StreamLog& log, std::string_view arn,
                               int64_t now_ms);

  StreamsConfig config_;
  std::map<int64_t, int64_t> next_trim_ms_;  // stream id -> clock ms
  // Enabled streams met by Append, by ARN (their identity and view type
  // never change while enabled; shard state is always read from the log).
  // Only Enable and Disable end a stream's enabled life, and both drop the
  // entry; an entry is only added from committed rows (see Append).
  std::map<std::string, StreamRow, std::less<>> streams_;

  // The open shards of a stream as Append last saw them (with each one's
  // last seq, kept up to date by Append), valid while the log's
  // generation() is unchanged: any shard change or rollback moves it.
  struct OpenShards {
    uint64_t generation = 0;
    bool filled = false;
    std::vector<ShardRow> shards;
  };
  // The open shard for `hash`, rolled over first if due: from the cache,
  // or from the log (refilling the cache).
  Result<ShardRow*> ShardFor(StreamLog& log, StreamRow& stream, uint64_t hash,
                             int64_t now_ms);
  std::map<int64_t, OpenShards> open_shards_;  // stream id ->
};

}  // namespace ddblab::streams
