// emulator/streams/shard_iterator.h: shard iterators as opaque strings.
//
// An iterator names a position in one shard: "the next record has a
// sequence number above after_seq", plus when it was issued (iterators
// expire 15 minutes after issue). Like AWS's, the string is
// "<stream ARN>|1|<base64 payload>", and clients must treat it as opaque.
// The payload carries the stream's internal id (so an iterator of a stream
// that was dropped and re-created under the same ARN is refused), the shard
// ordinal, the position, the issue time and a check value, so that garbage
// and edited iterators are rejected instead of misread.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ddblab::streams {

struct IteratorPosition {
  std::string stream_arn;
  int64_t stream_id = 0;
  int64_t shard = 0;  // ordinal
  int64_t after_seq = 0;
  int64_t issued_ms = 0;
};

std::string EncodeShardIterator(const IteratorPosition& position);
// nullopt if `text` is not an iterator we issued.
std::optional<IteratorPosition> DecodeShardIterator(std::string_view text);

}  // namespace ddblab::streams
