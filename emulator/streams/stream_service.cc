#include "emulator/streams/stream_service.h"

#include <algorithm>
#include <utility>

#include "emulator/api/random.h"
#include "emulator/streams/sequence_number.h"
#include "emulator/streams/shard_iterator.h"

namespace ddblab::streams {
namespace {

// The write path trims a stream at most this often (reads always trim).
constexpr int64_t kAppendTrimIntervalMs = 60 * 1000;

int64_t Millis(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

Error StreamNotFound(std::string_view arn) {
  return Error::ResourceNotFound("Requested resource not found: Stream: " +
                                 std::string(arn) + " not found");
}

Error ShardNotFound() {
  return Error::ResourceNotFound(
      "Requested resource not found: Shard does not exist");
}

Error Trimmed() {
  return Error::Of(ErrorType::kTrimmedDataAccess,
                   "The data you are trying to access has been trimmed.");
}

Error BadSequenceNumber(std::string_view seq, std::string_view shard_id) {
  return Error::Validation("Invalid SequenceNumber " + std::string(seq) +
                           " for shard " + std::string(shard_id));
}

}  // namespace

std::optional<IteratorType> ParseIteratorType(std::string_view name) {
  if (name == "TRIM_HORIZON") return IteratorType::kTrimHorizon;
  if (name == "LATEST") return IteratorType::kLatest;
  if (name == "AT_SEQUENCE_NUMBER") return IteratorType::kAtSequenceNumber;
  if (name == "AFTER_SEQUENCE_NUMBER") {
    return IteratorType::kAfterSequenceNumber;
  }
  return std::nullopt;
}

bool IsStreamArn(std::string_view arn) {
  // arn:<partition>:dynamodb:<region>:<account>:table/<name>/stream/<label>
  std::string_view rest = arn;
  std::string_view parts[5];
  for (std::string_view& part : parts) {
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return false;
    part = rest.substr(0, colon);
    rest.remove_prefix(colon + 1);
  }
  if (parts[0] != "arn" || parts[1].empty() || parts[2] != "dynamodb" ||
      parts[3].empty() || parts[4].empty()) {
    return false;
  }
  constexpr std::string_view kTable = "table/";
  constexpr std::string_view kStream = "/stream/";
  if (rest.substr(0, kTable.size()) != kTable) return false;
  rest.remove_prefix(kTable.size());
  size_t slash = rest.find(kStream);
  if (slash == 0 || slash == std::string_view::npos) return false;
  std::string_view name = rest.substr(0, slash);
  std::string_view label = rest.substr(slash + kStream.size());
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return !label.empty();
}

Status StreamService::EnsureSchema(StreamLog& log) {
  return log.EnsureSchema();
}

// ---------------------------------------------------------------------------
// Write side

Status StreamService::Enable(StreamLog& log, const StreamSpec& spec) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<StreamRow> existing,
                          log.FindStream(spec.arn));
  if (existing) {
    if (existing->enabled()) return OkStatus();
    DDBLAB_RETURN_IF_ERROR(log.DeleteStream(existing->id));
    next_trim_ms_.erase(existing->id);
  }
  streams_.erase(spec.arn);
  StreamRow row;
  row.arn = spec.arn;
  row.table_name = spec.table_name;
  row.label = spec.label;
  row.view_type = spec.view_type;
  row.key_schema = spec.key_schema;
  row.created_ms = ToMillis(spec.created);
  row.salt = Rng::Hash(config_.shards.seed,
                       spec.arn + "#" + std::to_string(row.created_ms));
  DDBLAB_ASSIGN_OR_RETURN(row.id, log.InsertStream(row));
  return CreateInitialShards(log, row, row.created_ms, config_.shards);
}

Status StreamService::Disable(StreamLog& log, std::string_view arn,
                              TimePoint now) {
  if (auto hit = streams_.find(arn); hit != streams_.end()) {
    streams_.erase(hit);
  }
  DDBLAB_ASSIGN_OR_RETURN(std::optional<StreamRow> stream, log.FindStream(arn));
  if (!stream || !stream->enabled()) return OkStatus();
  const int64_t now_ms = ToMillis(now);
  DDBLAB_RETURN_IF_ERROR(CloseAllShards(log, *stream, now_ms));
  return log.SetDisabled(stream->id, now_ms);
}

Result<bool> StreamService::Append(StreamLog& log, std::string_view arn,
                                   std::string_view partition_key,
                                   const Change& change, TimePoint now,
                                   bool may_cache) {
  if (IsNoOp(change)) return true;
  std::optional<StreamRow> stream;
  if (auto hit = streams_.find(arn); hit != streams_.end()) {
    stream = hit->second;
  } else {
    DDBLAB_ASSIGN_OR_RETURN(stream, log.FindStream(arn));
    if (!stream || !stream->enabled()) return false;
    if (may_cache) streams_.emplace(stream->arn, *stream);
  }
  const int64_t now_ms = ToMillis(now);
  const uint64_t hash = PartitionHash(partition_key);
  DDBLAB_ASSIGN_OR_RETURN(ShardRow * shard,
                          ShardFor(log, *stream, hash, now_ms));
  int64_t& next_trim = next_trim_ms_[stream->id];
  if (now_ms >= next_trim) {
    next_trim = now_ms + kAppendTrimIntervalMs;
    DDBLAB_ASSIGN_OR_RETURN(
        bool trimmed, log.Trim(stream->id, shard->ordinal,
                               now_ms - Millis(config_.shards.retention) + 1));
    if (trimmed) {  // the cache is stale now: read the shard again
      DDBLAB_ASSIGN_OR_RETURN(shard, ShardFor(log, *stream, hash, now_ms));
    }
  }
  RecordRow row = BuildRecord(change, stream->view_type, now_ms);
  DDBLAB_ASSIGN_OR_RETURN(row.seq, NextRecordSeq(log, *shard, now_ms));
  DDBLAB_RETURN_IF_ERROR(log.InsertRecord(stream->id, shard->ordinal, row));
  shard->last_seq = row.seq;
  return true;
}

Result<ShardRow*> StreamService::ShardFor(StreamLog& log, StreamRow& stream,
                                          uint64_t hash, int64_t now_ms) {
  OpenShards& cache = open_shards_[stream.id];
  if (cache.filled && cache.generation == log.generation()) {
    for (ShardRow& shard : cache.shards) {
      if (hash < shard.hash_lo || hash > shard.hash_hi) continue;
      if (!RolloverDue(stream, shard, now_ms, config_.shards)) return &shard;
      break;  // the slow path rolls it over
    }
  }
  cache.filled = false;
  DDBLAB_ASSIGN_OR_RETURN(
      ShardRow chosen,
      ShardForAppend(log, stream, hash, now_ms, config_.shards));
  DDBLAB_ASSIGN_OR_RETURN(cache.shards, log.OpenShards(stream.id));
  cache.generation = log.generation();
  cache.filled = true;
  for (ShardRow& shard : cache.shards) {
    if (shard.ordinal == chosen.ordinal) return &shard;
  }
  return Error::Internal("stream " + stream.arn + " lost its open shard");
}

// ---------------------------------------------------------------------------
// Read side

Result<StreamRow> StreamService::LiveStream(StreamLog& log,
                                            std::string_view arn,
                                            int64_t now_ms) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<StreamRow> stream, log.FindStream(arn));
  if (!stream) return StreamNotFound(arn);
  if (StreamExpired(*stream, now_ms, config_.shards)) {
    DDBLAB_RETURN_IF_ERROR(log.DeleteStream(stream->id));
    return StreamNotFound(arn);
  }
  return std::move(*stream);
}

Result<ListStreamsResult> StreamService::ListStreams(
    StreamLog& log, const std::optional<std::string>& table_name, int limit,
    const std::optional<std::string>& exclusive_start_arn, TimePoint now) {
  const int64_t now_ms = ToMillis(now);
  DDBLAB_ASSIGN_OR_RETURN(std::vector<StreamRow> all, log.ListStreams());
  ListStreamsResult out;
  bool more = false;
  for (const StreamRow& s : all) {
    if (StreamExpired(s, now_ms, config_.shards)) {
      DDBLAB_RETURN_IF_ERROR(log.DeleteStream(s.id));
      continue;
    }
    if (table_name && s.table_name != *table_name) continue;
    if (exclusive_start_arn && s.arn <= *exclusive_start_arn) continue;
    if (static_cast<int>(out.streams.size()) >= limit) {
      more = true;
      continue;  // keep going: expired streams still get dropped
    }
    out.streams.push_back({s.arn, s.table_name, s.label});
  }
  if (more) out.last_evaluated_arn = out.streams.back().arn;
  return out;
}

Result<DescribeStreamResult> StreamService::DescribeStream(
    StreamLog& log, std::string_view arn, int limit,
    const std::optional<std::string>& exclusive_start_shard_id,
    const std::optional<std::string>& child_of, TimePoint now) {
  const int64_t now_ms = ToMillis(now);
  DDBLAB_ASSIGN_OR_RETURN(StreamRow stream, LiveStream(log, arn, now_ms));
  DDBLAB_ASSIGN_OR_RETURN(bool alive,
                          MaintainStream(log, stream, now_ms, config_.shards));
  if (!alive) return StreamNotFound(arn);
  DDBLAB_ASSIGN_OR_RETURN(std::vector<ShardRow> shards, log.Shards(stream.id));
  DescribeStreamResult out;
  if (exclusive_start_shard_id &&
      std::none_of(shards.begin(), shards.end(), [&](const ShardRow& s) {
        return s.shard_id == *exclusive_start_shard_id;
      })) {
    out.stream = std::move(stream);
    return out;  // unknown start shard: an empty page
  }
  bool more = false;
  for (ShardRow& s : shards) {
    if (exclusive_start_shard_id && s.shard_id <= *exclusive_start_shard_id) {
      continue;
    }
    if (child_of && s.parent_shard_id != *child_of) continue;
    if (static_cast<int>(out.shards.size()) >= limit) {
      more = true;
      break;
    }
    out.shards.push_back(std::move(s));
  }
  if (more) out.last_evaluated_shard_id = out.shards.back().shard_id;
  out.stream = std::move(stream);
  return out;
}

Result<std::string> StreamService::GetShardIterator(
    StreamLog& log, std::string_view arn, std::string_view shard_id,
    IteratorType type, const std::optional<std::string>& sequence_number,
    TimePoint now) {
  const int64_t now_ms = ToMillis(now);
  DDBLAB_ASSIGN_OR_RETURN(StreamRow stream, LiveStream(log, arn, now_ms));
  DDBLAB_ASSIGN_OR_RETURN(std::optional<ShardRow> found,
                          log.FindShard(stream.id, shard_id));
  if (!found) return ShardNotFound();
  ShardRow shard = std::move(*found);
  DDBLAB_RETURN_IF_ERROR(
      MaintainShard(log, stream, shard, now_ms, config_.shards));

  int64_t after = 0;
  switch (type) {
    case IteratorType::kTrimHorizon:
      after = std::max(shard.start_seq, shard.trim_seq);
      break;
    case IteratorType::kLatest:
      if (shard.end_seq) {
        after = *shard.end_seq;
      } else {
        DDBLAB_ASSIGN_OR_RETURN(std::optional<int64_t> last,
                                log.LastSeq(stream.id, shard.ordinal));
        after = std::max({shard.start_seq, shard.trim_seq, last.value_or(0)});
      }
      break;
    case IteratorType::kAtSequenceNumber:
    case IteratorType::kAfterSequenceNumber: {
      std::optional<SequenceNumber> seq =
          ParseSequenceNumber(sequence_number.value_or(""));
      if (!seq) {
        return Error::Validation("Invalid SequenceNumber: " +
                                 sequence_number.value_or(""));
      }
      int64_t upper = std::max(shard.start_seq, shard.trim_seq);
      if (shard.end_seq) {
        upper = *shard.end_seq;
      } else {
        DDBLAB_ASSIGN_OR_RETURN(std::optional<int64_t> last,
                                log.LastSeq(stream.id, shard.ordinal));
        upper = std::max(upper, last.value_or(0));
      }
      if (seq->kind != SequenceNumber::Kind::kValue ||
          seq->value < shard.start_seq || seq->value > upper) {
        return BadSequenceNumber(*sequence_number, shard.shard_id);
      }
      after =
          type == IteratorType::kAtSequenceNumber ? seq->value - 1 : seq->value;
      if (after < shard.trim_seq) return Trimmed();
      break;
    }
  }
  return EncodeShardIterator(
      {stream.arn, stream.id, shard.ordinal, after, now_ms});
}

Result<GetRecordsResult> StreamService::GetRecords(StreamLog& log,
                                                   std::string_view iterator,
                                                   int limit, TimePoint now,
                                                   Duration visibility_delay) {
  std::optional<IteratorPosition> pos = DecodeShardIterator(iterator);
  if (!pos) return Error::Validation("Invalid ShardIterator");
  const int64_t now_ms = ToMillis(now);
  if (now_ms - pos->issued_ms > Millis(config_.iterator_lifetime)) {
    return Error::Of(ErrorType::kExpiredIterator,
                     "The provided iterator exceeds the maximum age allowed.");
  }
  DDBLAB_ASSIGN_OR_RETURN(StreamRow stream,
                          LiveStream(log, pos->stream_arn, now_ms));
  if (stream.id != pos->stream_id) return StreamNotFound(pos->stream_arn);
  DDBLAB_ASSIGN_OR_RETURN(std::optional<ShardRow> found,
                          log.ShardByOrdinal(stream.id, pos->shard));
  if (!found) return ShardNotFound();
  ShardRow shard = std::move(*found);
  DDBLAB_RETURN_IF_ERROR(
      MaintainShard(log, stream, shard, now_ms, config_.shards));
  if (pos->after_seq < shard.trim_seq) return Trimmed();

  GetRecordsResult out;
  int64_t after = pos->after_seq;
  int64_t bytes = 0;
  bool exhausted = true;
  const int64_t visible_until = now_ms - Millis(visibility_delay);
  Status render_status;
  DDBLAB_RETURN_IF_ERROR(
      log.ReadRecords(stream.id, shard.ordinal, after, [&](RecordRow&& row) {
        const int count = static_cast<int>(out.records.size());
        if (row.created_ms > visible_until) {  // not visible yet
          exhausted = false;
          return false;
        }
        if (count >= limit ||
            (count > 0 && bytes + row.size_bytes > kMaxGetRecordsBytes)) {
          exhausted = false;
          return false;
        }
        row.event_id = MakeEventId(stream.salt, shard.ordinal, row.seq);
        Result<nlohmann::json> json =
            RenderRecord(row, stream.view_type, config_.region);
        if (!json.ok()) {
          render_status = std::move(json).error();
          return false;
        }
        out.records.push_back(std::move(*json));
        bytes += row.size_bytes;
        after = row.seq;
        return true;
      }));
  DDBLAB_RETURN_IF_ERROR(render_status);
  if (shard.open() || !exhausted) {
    out.next_iterator = EncodeShardIterator(
        {stream.arn, stream.id, shard.ordinal, after, now_ms});
  }
  return out;
}

// ---------------------------------------------------------------------------
// Control

Result<SplitResult> StreamService::Split(
    StreamLog& log, std::string_view arn,
    const std::optional<std::string>& shard_id, TimePoint now) {
  const int64_t now_ms = ToMillis(now);
  DDBLAB_ASSIGN_OR_RETURN(StreamRow stream, LiveStream(log, arn, now_ms));
  if (!stream.enabled()) {
    return Error::Validation("Stream " + stream.arn +
                             " is DISABLED: its shards cannot be split");
  }
  DDBLAB_ASSIGN_OR_RETURN(bool alive,
                          MaintainStream(log, stream, now_ms, config_.shards));
  if (!alive) return StreamNotFound(arn);
  std::vector<ShardRow> targets;
  if (shard_id) {
    DDBLAB_ASSIGN_OR_RETURN(std::optional<ShardRow> shard,
                            log.FindShard(stream.id, *shard_id));
    if (!shard) return ShardNotFound();
    if (!shard->open()) {
      return Error::Validation("Shard " + *shard_id +
                               " is closed: only open shards can be split");
    }
    targets.push_back(std::move(*shard));
  } else {
    DDBLAB_ASSIGN_OR_RETURN(targets, log.OpenShards(stream.id));
  }
  SplitResult out;
  for (const ShardRow& shard : targets) {
    DDBLAB_ASSIGN_OR_RETURN(
        std::vector<ShardRow> children,
        ReplaceShard(log, stream, shard, 2, now_ms, config_.shards));
    out.closed.push_back(shard.shard_id);
    for (const ShardRow& child : children)
      out.created.push_back(child.shard_id);
  }
  return out;
}

}  // namespace ddblab::streams
