// emulator/streams/sequence_number.h: stream sequence numbers as DynamoDB
// shows them (decimal digit strings of 21..40 characters).
//
// Internally a sequence number is a non-negative int64. Numbers are
// time-based: a record gets max(<clock ms> * kSeqPerMs, <previous number in
// its shard> + 1), so they increase within a shard and show when the record
// was written; a new shard starts above its parent's last number, so a
// child's numbers exceed its parent's. (Numbers of sibling shards may be
// equal: they are only ordered within a shard, as on AWS.) On the wire a
// number is "1" followed by the value padded to 20 digits: 21 decimal
// digits, and string order equals number order. Any other well-formed
// decimal string is still accepted as input and compares as below or above
// every number we issue.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ddblab::streams {

inline constexpr int64_t kSeqPerMs = 1'000'000;

// The lowest number a record written at `now_ms` may get.
int64_t SeqFloor(int64_t now_ms);

// "100000000000000000042" for 42. `n` must be >= 0.
std::string FormatSequenceNumber(int64_t n);

// A parsed sequence number: the counter value, or a position below/above
// every counter we can issue.
struct SequenceNumber {
  enum class Kind { kBelow, kValue, kAbove };
  Kind kind = Kind::kValue;
  int64_t value = 0;  // kValue only
};

// nullopt unless `text` is 21..40 ASCII decimal digits.
std::optional<SequenceNumber> ParseSequenceNumber(std::string_view text);

}  // namespace ddblab::streams
