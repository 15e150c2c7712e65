#include "emulator/streams/shards.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "emulator/api/random.h"
#include "emulator/streams/sequence_number.h"

namespace ddblab::streams {
namespace {

// Fixed so that routing never depends on the emulator's seed.
constexpr uint64_t kRoutingSeed = 0x5d0c5e1a7b3f9e21ULL;

int64_t Millis(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

bool ShardExpired(const ShardRow& shard, int64_t now_ms,
                  const ShardPolicy& policy) {
  return shard.closed_ms &&
         *shard.closed_ms + Millis(policy.retention) <= now_ms;
}

// Records created at or before this are past retention.
int64_t TrimCutoff(int64_t now_ms, const ShardPolicy& policy) {
  return now_ms - Millis(policy.retention) + 1;
}

Result<int64_t> EndSeqOf(StreamLog& log, const ShardRow& shard) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<int64_t> last,
                          log.LastSeq(shard.stream_id, shard.ordinal));
  int64_t end = std::max(shard.start_seq, shard.trim_seq);
  if (last) end = std::max(end, *last);
  return end;
}

ShardRow NewShard(StreamRow& stream, int64_t created_ms, uint64_t lo,
                  uint64_t hi, std::string parent, uint64_t seed,
                  int64_t min_start) {
  ShardRow row;
  row.stream_id = stream.id;
  row.ordinal = stream.next_shard++;
  row.shard_id = MakeShardId(created_ms, row.ordinal, seed, stream.arn);
  row.parent_shard_id = std::move(parent);
  row.hash_lo = lo;
  row.hash_hi = hi;
  row.created_ms = created_ms;
  row.start_seq = std::max(min_start, SeqFloor(created_ms));
  row.last_seq = 0;  // empty
  return row;
}

}  // namespace

bool RolloverDue(const StreamRow& stream, const ShardRow& shard, int64_t now_ms,
                 const ShardPolicy& policy) {
  if (!stream.enabled() || !shard.open()) return false;
  if (policy.rollover <= Duration::zero()) return false;
  return now_ms - shard.created_ms >= Millis(policy.rollover);
}

int64_t ToMillis(TimePoint t) {
  return std::chrono::floor<std::chrono::milliseconds>(t)
      .time_since_epoch()
      .count();
}

uint64_t PartitionHash(std::string_view partition_key) {
  return Rng::Hash(kRoutingSeed, partition_key);
}

std::string MakeShardId(int64_t created_ms, int64_t ordinal, uint64_t seed,
                        std::string_view stream_arn) {
  std::string tag(stream_arn);
  tag += "#shard#" + std::to_string(ordinal);
  unsigned noise = static_cast<unsigned>(Rng::Hash(seed, tag) & 0xFFFF);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "shardId-%020lld-%04x%04x",
                static_cast<long long>(created_ms),
                static_cast<unsigned>(ordinal & 0xFFFF), noise);
  return buf;
}

Status CreateInitialShards(StreamLog& log, StreamRow& stream, int64_t now_ms,
                           const ShardPolicy& policy) {
  const uint64_t n = static_cast<uint64_t>(std::max(1, policy.initial_shards));
  const uint64_t step = std::numeric_limits<uint64_t>::max() / n;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t lo = i * step;
    uint64_t hi =
        i + 1 == n ? std::numeric_limits<uint64_t>::max() : (i + 1) * step - 1;
    DDBLAB_RETURN_IF_ERROR(
        log.InsertShard(NewShard(stream, now_ms, lo, hi, "", policy.seed, 0)));
  }
  return log.SaveCounters(stream);
}

Result<std::vector<ShardRow>> ReplaceShard(StreamLog& log, StreamRow& stream,
                                           const ShardRow& shard, int children,
                                           int64_t now_ms,
                                           const ShardPolicy& policy) {
  if (!shard.open()) return Error::Internal("ReplaceShard on a closed shard");
  DDBLAB_ASSIGN_OR_RETURN(int64_t end, EndSeqOf(log, shard));
  DDBLAB_RETURN_IF_ERROR(log.CloseShard(stream.id, shard.ordinal, end, now_ms));
  // Shard ids sort by creation time: never go back in time.
  const int64_t created = std::max(now_ms, shard.created_ms);
  const uint64_t seed = policy.seed;
  std::vector<ShardRow> out;
  if (children >= 2 && shard.hash_lo < shard.hash_hi) {
    uint64_t mid = shard.hash_lo + (shard.hash_hi - shard.hash_lo) / 2;
    out.push_back(NewShard(stream, created, shard.hash_lo, mid, shard.shard_id,
                           seed, end + 1));
    out.push_back(NewShard(stream, created, mid + 1, shard.hash_hi,
                           shard.shard_id, seed, end + 1));
  } else {
    out.push_back(NewShard(stream, created, shard.hash_lo, shard.hash_hi,
                           shard.shard_id, seed, end + 1));
  }
  for (const ShardRow& child : out) {
    DDBLAB_RETURN_IF_ERROR(log.InsertShard(child));
  }
  DDBLAB_RETURN_IF_ERROR(log.SaveCounters(stream));
  return out;
}

Result<ShardRow> ShardForAppend(StreamLog& log, StreamRow& stream,
                                uint64_t hash, int64_t now_ms,
                                const ShardPolicy& policy) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<ShardRow> open,
                          log.OpenShards(stream.id));
  for (ShardRow& shard : open) {
    if (hash < shard.hash_lo || hash > shard.hash_hi) continue;
    if (!RolloverDue(stream, shard, now_ms, policy)) return std::move(shard);
    // The caller's row may be cached: take the current shard counter.
    DDBLAB_ASSIGN_OR_RETURN(std::optional<StreamRow> fresh,
                            log.FindStream(stream.arn));
    if (!fresh) return Error::Internal("stream " + stream.arn + " vanished");
    stream = std::move(*fresh);
    DDBLAB_ASSIGN_OR_RETURN(
        std::vector<ShardRow> children,
        ReplaceShard(log, stream, shard, 1, now_ms, policy));
    return std::move(children.front());
  }
  return Error::Internal("stream " + stream.arn +
                         " has no open shard for a partition hash");
}

Result<int64_t> NextRecordSeq(StreamLog& log, const ShardRow& shard,
                              int64_t now_ms) {
  int64_t prev = std::max({shard.start_seq, shard.trim_seq, shard.last_seq});
  if (shard.last_seq < 0) {
    DDBLAB_ASSIGN_OR_RETURN(std::optional<int64_t> last,
                            log.LastSeq(shard.stream_id, shard.ordinal));
    if (last) prev = std::max(prev, *last);
  }
  return std::max(prev + 1, SeqFloor(now_ms));
}

Status CloseAllShards(StreamLog& log, StreamRow& stream, int64_t now_ms) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<ShardRow> open,
                          log.OpenShards(stream.id));
  for (const ShardRow& shard : open) {
    DDBLAB_ASSIGN_OR_RETURN(int64_t end, EndSeqOf(log, shard));
    DDBLAB_RETURN_IF_ERROR(
        log.CloseShard(stream.id, shard.ordinal, end, now_ms));
  }
  return OkStatus();
}

bool StreamExpired(const StreamRow& stream, int64_t now_ms,
                   const ShardPolicy& policy) {
  return stream.disabled_ms &&
         *stream.disabled_ms + Millis(policy.retention) <= now_ms;
}

Result<bool> MaintainStream(StreamLog& log, StreamRow& stream, int64_t now_ms,
                            const ShardPolicy& policy) {
  if (StreamExpired(stream, now_ms, policy)) {
    DDBLAB_RETURN_IF_ERROR(log.DeleteStream(stream.id));
    return false;
  }
  DDBLAB_ASSIGN_OR_RETURN(std::vector<ShardRow> shards, log.Shards(stream.id));
  for (ShardRow& shard : shards) {
    if (ShardExpired(shard, now_ms, policy)) {
      DDBLAB_RETURN_IF_ERROR(log.DeleteShard(stream.id, shard.ordinal));
      continue;
    }
    if (RolloverDue(stream, shard, now_ms, policy)) {
      DDBLAB_ASSIGN_OR_RETURN(
          std::vector<ShardRow> children,
          ReplaceShard(log, stream, shard, 1, now_ms, policy));
      (void)children;
    }
    DDBLAB_ASSIGN_OR_RETURN(bool trimmed, log.Trim(stream.id, shard.ordinal,
                                                   TrimCutoff(now_ms, policy)));
    (void)trimmed;
  }
  return true;
}

Status MaintainShard(StreamLog& log, StreamRow& stream, ShardRow& shard,
                     int64_t now_ms, const ShardPolicy& policy) {
  if (RolloverDue(stream, shard, now_ms, policy)) {
    DDBLAB_ASSIGN_OR_RETURN(
        std::vector<ShardRow> children,
        ReplaceShard(log, stream, shard, 1, now_ms, policy));
    (void)children;
  }
  DDBLAB_ASSIGN_OR_RETURN(bool trimmed, log.Trim(stream.id, shard.ordinal,
                                                 TrimCutoff(now_ms, policy)));
  (void)trimmed;
  DDBLAB_ASSIGN_OR_RETURN(std::optional<ShardRow> fresh,
                          log.ShardByOrdinal(stream.id, shard.ordinal));
  if (fresh) shard = std::move(*fresh);
  return OkStatus();
}

}  // namespace ddblab::streams
