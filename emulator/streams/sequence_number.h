// emulator/streams/sequence_number.h: stream sequence numbers as DynamoDB
// shows them (decimal digit strings of 21..40 characters).
//
// Internally a sequence number is a positive int64 counter, one counter per
// stream (so numbers increase within a shard and a child shard's numbers
// exceed its parent's). On the wire it is "1" followed by the counter padded
// to 20 digits: 21 digits, all decimal, and string order equals number
// order. Any other well-formed decimal string is still accepted as input and
// compares as below or above every number we issue.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ddblab::streams {

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
