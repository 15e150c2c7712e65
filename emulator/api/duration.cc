// ParseDuration (emulator/api/duration.h).
#include "emulator/api/duration.h"

#include <charconv>
#include <cstdint>
#include <string>

namespace ddblab {
namespace {

Error BadDuration(std::string_view text, std::string_view why) {
  return Error::Validation("invalid duration '" + std::string(text) +
                           "': " + std::string(why) +
                           " (expected a whole number with an optional unit "
                           "ms, s, m, h or d, e.g. 90s, 15m, 2h)");
}

}  // namespace

Result<Duration> ParseDuration(std::string_view text) {
  if (text.empty()) return BadDuration(text, "empty");
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  if (digits == 0) return BadDuration(text, "no number");
  uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + digits, n);
  if (ec != std::errc() || end != text.data() + digits) {
    return BadDuration(text, "number too large");
  }
  std::string_view unit = text.substr(digits);
  int64_t nanos_per_unit = 0;
  if (unit.empty() || unit == "s") {
    nanos_per_unit = 1'000'000'000;
  } else if (unit == "ms") {
    nanos_per_unit = 1'000'000;
  } else if (unit == "m") {
    nanos_per_unit = 60LL * 1'000'000'000;
  } else if (unit == "h") {
    nanos_per_unit = 3600LL * 1'000'000'000;
  } else if (unit == "d") {
    nanos_per_unit = 86400LL * 1'000'000'000;
  } else {
    return BadDuration(text, "unknown unit '" + std::string(unit) + "'");
  }
  // Limit to 100 years so that time points stay far from overflow.
  constexpr int64_t kMaxNanos = 100LL * 365 * 86400 * 1'000'000'000;
  if (n > static_cast<uint64_t>(kMaxNanos / nanos_per_unit)) {
    return BadDuration(text, "longer than 100 years");
  }
  return Duration(static_cast<int64_t>(n) * nanos_per_unit);
}

}  // namespace ddblab
