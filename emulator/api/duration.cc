// emulator/api/duration.cc: the duration grammar (duration.h).
#include "emulator/api/duration.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

namespace ddblab {
namespace {

struct Unit {
  std::string_view name;
  int64_t nanos;
  // Decimals that still land on whole nanoseconds.
  size_t max_fraction_digits;
};

// Largest first (DurationText picks the first that divides).
constexpr Unit kUnits[] = {
    {"d", 86'400'000'000'000, 9}, {"h", 3'600'000'000'000, 9},
    {"m", 60'000'000'000, 9},     {"s", 1'000'000'000, 9},
    {"ms", 1'000'000, 6},         {"us", 1'000, 3},
};
constexpr const Unit& kSeconds = kUnits[3];

constexpr int64_t kMaxSeconds = int64_t{100} * 365 * 86400;
constexpr int64_t kMaxNanos = kMaxSeconds * 1'000'000'000;

Error BadDuration(std::string_view text, std::string_view why) {
  return Error::Validation(
      "invalid duration '" + std::string(text) + "': " + std::string(why) +
      " (expected a number with an optional unit us, ms, s, m, h or d, e.g. "
      "90s, 1.5m, 250ms)");
}

Error BadNumber(const nlohmann::json& value, std::string_view why) {
  return Error::Validation("invalid duration " + value.dump() + ": " +
                           std::string(why));
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The number of leading digits of `text` from `from`.
size_t DigitsFrom(std::string_view text, size_t from) {
  size_t end = from;
  while (end < text.size() && IsDigit(text[end])) ++end;
  return end - from;
}

}  // namespace

Result<Duration> ParseDuration(std::string_view text) {
  if (text.empty()) return BadDuration(text, "empty");
  const size_t whole_digits = DigitsFrom(text, 0);
  if (whole_digits == 0) return BadDuration(text, "no number");
  const std::string_view whole = text.substr(0, whole_digits);
  std::string_view fraction;
  size_t at = whole_digits;
  if (at < text.size() && text[at] == '.') {
    const size_t fraction_digits = DigitsFrom(text, at + 1);
    if (fraction_digits == 0) return BadDuration(text, "no digit after '.'");
    fraction = text.substr(at + 1, fraction_digits);
    at += 1 + fraction_digits;
  }
  const std::string_view unit_name = text.substr(at);
  const Unit* unit = unit_name.empty() ? &kSeconds : nullptr;
  for (const Unit& u : kUnits) {
    if (u.name == unit_name) unit = &u;
  }
  if (unit == nullptr) {
    return BadDuration(text, "unknown unit '" + std::string(unit_name) + "'");
  }
  uint64_t n = 0;
  auto [end, ec] =
      std::from_chars(whole.data(), whole.data() + whole.size(), n);
  // A whole part too large for 64 bits is far beyond 100 years in any unit.
  if (ec != std::errc() || n > static_cast<uint64_t>(kMaxNanos / unit->nanos)) {
    return BadDuration(text, "longer than 100 years");
  }
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (fraction.size() > unit->max_fraction_digits) {
    return BadDuration(text, "finer than a nanosecond");
  }
  // 0.d1d2...dk units = (d1d2...dk) * (unit / 10^k) nanoseconds, exactly.
  int64_t digits = 0;
  int64_t scale = unit->nanos;
  for (char c : fraction) {
    digits = digits * 10 + (c - '0');
    scale /= 10;
  }
  const int64_t nanos = static_cast<int64_t>(n) * unit->nanos + digits * scale;
  if (nanos > kMaxNanos) return BadDuration(text, "longer than 100 years");
  return Duration(nanos);
}

Result<Duration> DurationFromJson(const nlohmann::json& value) {
  if (value.is_string()) {
    return ParseDuration(value.get_ref<const std::string&>());
  }
  if (value.is_number_unsigned() || value.is_number_integer()) {
    if (value.is_number_integer() && !value.is_number_unsigned() &&
        value.get<int64_t>() < 0) {
      return BadNumber(value, "negative");
    }
    const uint64_t seconds = value.get<uint64_t>();
    if (seconds > static_cast<uint64_t>(kMaxSeconds)) {
      return BadNumber(value, "longer than 100 years");
    }
    return std::chrono::seconds(seconds);
  }
  if (value.is_number_float()) {
    const double seconds = value.get<double>();
    if (std::isnan(seconds)) return BadNumber(value, "not a number");
    if (seconds < 0) return BadNumber(value, "negative");
    if (seconds > static_cast<double>(kMaxSeconds)) {
      return BadNumber(value, "longer than 100 years");
    }
    return Duration(std::llround(seconds * 1e9));
  }
  std::string shown = value.dump();
  if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
  return Error::Validation(
      "expected a duration such as \"90s\" or \"1.5m\", or a number of "
      "seconds, got " +
      shown);
}

std::string DurationText(Duration d) {
  const int64_t ns = d.count();
  if (ns == 0) return "0s";
  if (ns < 0) return "-" + DurationText(-d);
  for (const Unit& unit : kUnits) {
    if (ns % unit.nanos == 0) {
      return std::to_string(ns / unit.nanos) + std::string(unit.name);
    }
  }
  std::string fraction = std::to_string(ns % 1000);
  fraction.insert(0, 3 - fraction.size(), '0');
  while (fraction.back() == '0') fraction.pop_back();
  return std::to_string(ns / 1000) + "." + fraction + "us";
}

}  // namespace ddblab
