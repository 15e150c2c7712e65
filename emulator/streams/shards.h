// emulator/streams/shards.h: the shards of a stream — creation, choice of
// the shard for an item, rollover, split, closing, retention.
//
// Each open shard covers a range of 64-bit partition-key hashes; the open
// shards of a stream partition the whole range, so every item has exactly
// one open shard at a time and its records stay in order. A new stream gets
// `initial_shards` shards. A shard is replaced by children when it
//   * rolls over: `rollover` after its creation (one child, same range),
//   * is split on demand (two children halving its range; one if the range
//     is a single hash);
// children carry ParentShardId, and the parent is closed at the same time
// (EndingSequenceNumber = its last record, or its start if it has none).
// Sequence numbers (sequence_number.h) are time-based and increase within a
// shard; a child's StartingSequenceNumber is above its parent's end, and no
// record carries a shard's StartingSequenceNumber.
//
// Retention: records older than `retention` are trimmed; a closed shard is
// dropped `retention` after it closed (all its records are then trimmed);
// a disabled stream is dropped `retention` after it was disabled.
// Everything happens lazily, driven by the `now` the caller passes (the
// engine Clock), never on a timer.
//
// Shard ids: "shardId-<20-digit creation ms>-<8 hex>", where the hex is the
// shard ordinal (4 digits) and 4 digits derived from the seed, so ShardId
// order is creation order.
//
// The functions update the StreamRow's shard counter and save it.
//
// Thread-safety: none; callers hold the engine lock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/streams/stream_log.h"

namespace ddblab::streams {

struct ShardPolicy {
  int initial_shards = 1;
  Duration rollover = std::chrono::hours(4);  // zero: never
  Duration retention = std::chrono::hours(24);
  uint64_t seed = 0;
};

int64_t ToMillis(TimePoint t);

// The routing hash of an encoded partition key (independent of the seed, so
// a reopened database routes items to the same shards).
uint64_t PartitionHash(std::string_view partition_key);

std::string MakeShardId(int64_t created_ms, int64_t ordinal, uint64_t seed,
                        std::string_view stream_arn);

// Creates the initial shards of a freshly inserted stream.
Status CreateInitialShards(StreamLog& log, StreamRow& stream, int64_t now_ms,
                           const ShardPolicy& policy);

// Whether `shard` (of an enabled stream) is due to roll over at now_ms.
bool RolloverDue(const StreamRow& stream, const ShardRow& shard, int64_t now_ms,
                 const ShardPolicy& policy);

// The open shard for partition hash `hash`, rolled over first if due.
Result<ShardRow> ShardForAppend(StreamLog& log, StreamRow& stream,
                                uint64_t hash, int64_t now_ms,
                                const ShardPolicy& policy);

// The sequence number for a record appended to `shard` now.
Result<int64_t> NextRecordSeq(StreamLog& log, const ShardRow& shard,
                              int64_t now_ms);

// Closes `shard` (open) and creates `children` (1 or 2) children splitting
// its hash range. Returns the children.
Result<std::vector<ShardRow>> ReplaceShard(StreamLog& log, StreamRow& stream,
                                           const ShardRow& shard, int children,
                                           int64_t now_ms,
                                           const ShardPolicy& policy);

// Closes every open shard (the stream is being disabled).
Status CloseAllShards(StreamLog& log, StreamRow& stream, int64_t now_ms);

// Applies due rollovers of the stream's open shards (enabled streams),
// trims every shard and drops expired closed shards. Returns false if the
// whole stream expired and was dropped.
Result<bool> MaintainStream(StreamLog& log, StreamRow& stream, int64_t now_ms,
                            const ShardPolicy& policy);

// The same for one shard: rollover if due, then trim. `shard` is updated.
Status MaintainShard(StreamLog& log, StreamRow& stream, ShardRow& shard,
                     int64_t now_ms, const ShardPolicy& policy);

// Whether a disabled stream's retention has ended.
bool StreamExpired(const StreamRow& stream, int64_t now_ms,
                   const ShardPolicy& policy);

}  // namespace ddblab::streams
