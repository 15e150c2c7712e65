#include "emulator/engine/ttl/ttl_delay.h"

#include <charconv>

#include "emulator/api/duration.h"
#include "emulator/api/random.h"

namespace ddblab::engine {
namespace {

constexpr int64_t kMinute = 60;
constexpr int64_t kHour = 60 * kMinute;

// Uniform in [low, high] from 64 random bits.
int64_t UniformIn(uint64_t bits, int64_t low, int64_t high) {
  if (high <= low) return low;
  uint64_t span = static_cast<uint64_t>(high - low) + 1;
  return low + static_cast<int64_t>(bits % span);
}

Error BadDelay(std::string_view spec, std::string_view why) {
  return Error::Validation("invalid TTL delay '" + std::string(spec) +
                           "': " + std::string(why) +
                           " (expected 0, a duration like 90s or 15m, a "
                           "range like 1m..48h, or aws)");
}

// A delay bound: a duration in whole seconds.
Result<int64_t> ParseDelaySeconds(std::string_view spec,
                                  std::string_view text) {
  Result<Duration> d = ParseDuration(text);
  if (!d.ok()) return BadDelay(spec, d.error().message);
  if (*d % std::chrono::seconds(1) != Duration::zero()) {
    return BadDelay(spec, "delays are whole seconds");
  }
  return static_cast<int64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(*d).count());
}

}  // namespace

Result<TtlDelay> TtlDelay::Parse(std::string_view spec) {
  if (spec == "aws") return Aws();
  if (size_t dots = spec.find(".."); dots != std::string_view::npos) {
    DDBLAB_ASSIGN_OR_RETURN(int64_t low,
                            ParseDelaySeconds(spec, spec.substr(0, dots)));
    DDBLAB_ASSIGN_OR_RETURN(int64_t high,
                            ParseDelaySeconds(spec, spec.substr(dots + 2)));
    if (high < low) {
      return BadDelay(spec, "the range ends before it starts");
    }
    return Uniform(low, high);
  }
  DDBLAB_ASSIGN_OR_RETURN(int64_t seconds, ParseDelaySeconds(spec, spec));
  return Fixed(seconds);
}

TtlDelay TtlDelay::Fixed(int64_t seconds) {
  TtlDelay d;
  d.kind_ = seconds == 0 ? Kind::kNone : Kind::kFixed;
  d.low_ = d.high_ = seconds;
  return d;
}

TtlDelay TtlDelay::Uniform(int64_t low_seconds, int64_t high_seconds) {
  if (low_seconds == high_seconds) return Fixed(low_seconds);
  TtlDelay d;
  d.kind_ = Kind::kUniform;
  d.low_ = low_seconds;
  d.high_ = high_seconds;
  return d;
}

TtlDelay TtlDelay::Aws() {
  TtlDelay d;
  d.kind_ = Kind::kAws;
  d.low_ = kMinute;
  d.high_ = 48 * kHour;
  return d;
}

int64_t TtlDelay::SecondsFor(uint64_t seed, std::string_view item_id) const {
  switch (kind_) {
    case Kind::kNone:
      return 0;
    case Kind::kFixed:
      return low_;
    case Kind::kUniform:
      return UniformIn(Rng::Hash(seed, item_id), low_, high_);
    case Kind::kAws: {
      uint64_t bits = Rng::Hash(seed, item_id);
      // The top bits pick the bucket, the rest place the delay in it.
      uint64_t bucket = (bits >> 48) % 100;
      uint64_t rest = bits & 0xFFFFFFFFFFFFULL;
      if (bucket < 90) return UniformIn(rest, kMinute, 15 * kMinute);
      if (bucket < 98) return UniformIn(rest, 15 * kMinute, 6 * kHour);
      return UniformIn(rest, 6 * kHour, 48 * kHour);
    }
  }
  return 0;
}

std::string TtlDelay::ToString() const {
  switch (kind_) {
    case Kind::kNone:
      return "0";
    case Kind::kFixed:
      return std::to_string(low_) + "s";
    case Kind::kUniform:
      return std::to_string(low_) + "s.." + std::to_string(high_) + "s";
    case Kind::kAws:
      return "aws";
  }
  return "0";
}

}  // namespace ddblab::engine
