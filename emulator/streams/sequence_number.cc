#include "emulator/streams/sequence_number.h"

#include <cstdio>
#include <limits>

namespace ddblab::streams {

int64_t SeqFloor(int64_t now_ms) {
  constexpr int64_t kMaxMs = std::numeric_limits<int64_t>::max() / kSeqPerMs;
  if (now_ms <= 0) return 0;
  return (now_ms > kMaxMs ? kMaxMs : now_ms) * kSeqPerMs;
}

std::string FormatSequenceNumber(int64_t n) {
  if (n < 0) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "1%020lld", static_cast<long long>(n));
    return buf;
  }
  // "1" and n in 20 zero-padded digits, as the snprintf above writes it
  // (without its cost: this runs for every record GetRecords returns).
  std::string out(21, '0');
  out[0] = '1';
  auto u = static_cast<uint64_t>(n);
  for (size_t i = 20; u != 0; --i) {
    out[i] = static_cast<char>('0' + u % 10);
    u /= 10;
  }
  return out;
}

std::optional<SequenceNumber> ParseSequenceNumber(std::string_view text) {
  if (text.size() < 21 || text.size() > 40) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  // Leading zeros make a 21+ digit string smaller than 10^20.
  size_t first = text.find_first_not_of('0');
  if (first == std::string_view::npos) {
    return SequenceNumber{SequenceNumber::Kind::kBelow, 0};
  }
  std::string_view digits = text.substr(first);
  if (digits.size() < 21)
    return SequenceNumber{SequenceNumber::Kind::kBelow, 0};
  if (digits.size() > 21 || digits[0] != '1') {
    return SequenceNumber{SequenceNumber::Kind::kAbove, 0};
  }
  // "1" + 20 digits: the counter is the 20 digits (may exceed int64).
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t value = 0;
  for (char c : digits.substr(1)) {
    int64_t d = c - '0';
    if (value > (kMax - d) / 10) {
      return SequenceNumber{SequenceNumber::Kind::kAbove, 0};
    }
    value = value * 10 + d;
  }
  return SequenceNumber{SequenceNumber::Kind::kValue, value};
}

}  // namespace ddblab::streams
