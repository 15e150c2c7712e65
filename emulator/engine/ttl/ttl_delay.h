// emulator/engine/ttl/ttl_delay.h: how long after expiry a TTL deletion is due.
//
// DynamoDB deletes expired items "within a few days", typically minutes
// (DynamoDB's TTL and Streams documentation). The emulator lets the user choose
// (Options.ttl_delay, `ddblab serve --ttl-delay`):
//   "0"          deleted at the first sweep at or after expiry (the default)
//   "90s", "15m" a fixed delay
//   "1m..48h"    uniform in [low, high], whole seconds
//   "aws"        most deletions within minutes, a long tail up to 48 h:
//                90% uniform in [1m, 15m], 8% in [15m, 6h], 2% in [6h, 48h]
// The delay of an item comes from Rng::Hash(seed, item id) — never from the
// order of writes — so the same seed gives the same deletion times.
//
// Durations ("90s") are a non-negative integer with an optional unit: ms, s,
// m, h or d; a bare number is seconds.
//
// Thread-safety: immutable value types and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab::engine {

class TtlDelay {
 public:
  enum class Kind { kNone, kFixed, kUniform, kAws };

  TtlDelay() = default;  // "0"

  // Parses a delay spec (see above). Delays are whole seconds.
  static Result<TtlDelay> Parse(std::string_view spec);
  static TtlDelay Fixed(int64_t seconds);
  static TtlDelay Uniform(int64_t low_seconds, int64_t high_seconds);
  static TtlDelay Aws();

  Kind kind() const { return kind_; }
  int64_t low_seconds() const { return low_; }
  int64_t high_seconds() const { return high_; }

  // The delay of one item, in whole seconds: a function of the seed and the
  // item id only (see TtlItemId in ttl_schedule.h).
  int64_t SecondsFor(uint64_t seed, std::string_view item_id) const;

  // The spec back ("0", "90s", "60s..172800s", "aws").
  std::string ToString() const;

 private:
  Kind kind_ = Kind::kNone;
  int64_t low_ = 0;
  int64_t high_ = 0;
};

}  // namespace ddblab::engine
