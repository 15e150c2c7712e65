// emulator/value/key_codec.cc: order-preserving key encodings.
//
// N layout (memcmp order == numeric order):
//   negative: 0x01, 255 - (L + 130), then per base-100 digit pair p:
//             254 - p, then a 0xFF terminator;
//   zero:     0x02;
//   positive: 0x03, L + 130, then per digit pair p: p + 1.
// L is the exponent of the leading digit (-130..125, one byte once biased).
// The significant digits are grouped in pairs from the leading digit, the
// last pair padded with 0. Normalised numbers have no trailing zeros, so a
// shorter digit string that is a prefix of a longer one is the smaller
// magnitude; the terminator of a negative sorts above every digit byte.
#include "emulator/value/key_codec.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <limits>
#include <utility>

namespace ddblab::value {

namespace {

constexpr uint8_t kNegative = 0x01;
constexpr uint8_t kZero = 0x02;
constexpr uint8_t kPositive = 0x03;
constexpr uint8_t kTerminator = 0xFF;
constexpr int kExponentBias = -Number::kMinMagnitudeExponent;  // 130

Error CorruptKey() { return Error::Internal("corrupt number key encoding"); }

// Writes the decimal digits (values 0..9) of c > 0 to out, most significant
// first; returns their count. out must hold 40.
int DecimalDigits(Uint128 c, char* out) {
  constexpr uint64_t kPow10_19 = 10000000000000000000ull;
  char* end = out;
  if (c > std::numeric_limits<uint64_t>::max()) {
    end =
        std::to_chars(out, out + 40, static_cast<uint64_t>(c / kPow10_19)).ptr;
    const auto lo = static_cast<uint64_t>(c % kPow10_19);
    char buf[20];
    char* lo_end = std::to_chars(buf, buf + sizeof(buf), lo).ptr;
    // Left-pad the low part to 19 digits.
    for (char* p = lo_end; p - buf < 19; ++p) *end++ = '0';
    for (const char* p = buf; p != lo_end; ++p) *end++ = *p;
  } else {
    end = std::to_chars(out, out + 40, static_cast<uint64_t>(c)).ptr;
  }
  for (char* p = out; p != end; ++p) *p = static_cast<char>(*p - '0');
  return static_cast<int>(end - out);
}

}  // namespace

std::string EncodeNumberKey(const Number& n) {
  std::string out;
  if (n.is_zero()) {
    out.push_back(static_cast<char>(kZero));
    return out;
  }
  // Digits, most significant first (at most 38, plus a pad digit).
  char digits[48];
  int count = DecimalDigits(n.coefficient(), digits);
  const int leading = n.exponent() + count - 1;
  if (count % 2 != 0) digits[count++] = 0;
  const bool negative = n.is_negative();
  out.reserve(static_cast<size_t>(3 + count / 2));
  out.push_back(static_cast<char>(negative ? kNegative : kPositive));
  const int biased = leading + kExponentBias;
  out.push_back(static_cast<char>(negative ? 255 - biased : biased));
  for (int i = 0; i < count; i += 2) {
    const int pair = digits[i] * 10 + digits[i + 1];
    out.push_back(static_cast<char>(negative ? 254 - pair : pair + 1));
  }
  if (negative) out.push_back(static_cast<char>(kTerminator));
  return out;
}

std::string EncodeKey(const AttributeValue& value) {
  switch (value.type()) {
    case AttributeValue::Type::kS:
      return value.s();
    case AttributeValue::Type::kB:
      return value.b();
    case AttributeValue::Type::kN:
      return EncodeNumberKey(value.n());
    default:
      assert(false && "EncodeKey: not a key type");
      return std::string();
  }
}

namespace {

Result<Number> DecodeNumberKey(std::string_view bytes) {
  if (bytes.empty()) return CorruptKey();
  const auto tag = static_cast<uint8_t>(bytes[0]);
  if (tag == kZero) {
    if (bytes.size() != 1) return CorruptKey();
    return Number();
  }
  if (tag != kNegative && tag != kPositive) return CorruptKey();
  const bool negative = tag == kNegative;
  std::string_view pairs = bytes.substr(std::min<size_t>(2, bytes.size()));
  if (bytes.size() < 3) return CorruptKey();
  if (negative) {
    if (static_cast<uint8_t>(pairs.back()) != kTerminator) return CorruptKey();
    pairs.remove_suffix(1);
  }
  if (pairs.empty() || pairs.size() > 19) return CorruptKey();
  const int biased = static_cast<uint8_t>(bytes[1]);
  const int leading = (negative ? 255 - biased : biased) - kExponentBias;
  Uint128 coefficient = 0;
  for (char ch : pairs) {
    const int b = static_cast<uint8_t>(ch);
    const int pair = negative ? 254 - b : b - 1;
    if (pair < 0 || pair > 99) return CorruptKey();
    coefficient = coefficient * 100 + static_cast<unsigned>(pair);
  }
  // The coefficient holds 2 * pairs digits starting at the leading digit.
  const int64_t exponent =
      leading - (2 * static_cast<int64_t>(pairs.size()) - 1);
  Result<Number> n = Number::FromParts(negative, coefficient, exponent);
  if (!n.ok()) return CorruptKey();
  // Reject non-canonical encodings (e.g. a leading zero digit).
  if (EncodeNumberKey(*n) != bytes) return CorruptKey();
  return n;
}

}  // namespace

Result<AttributeValue> DecodeKey(AttributeValue::Type type,
                                 std::string_view bytes) {
  switch (type) {
    case AttributeValue::Type::kS:
      return AttributeValue::S(std::string(bytes));
    case AttributeValue::Type::kB:
      return AttributeValue::B(std::string(bytes));
    case AttributeValue::Type::kN: {
      DDBLAB_ASSIGN_OR_RETURN(Number n, DecodeNumberKey(bytes));
      return AttributeValue::N(n);
    }
    default:
      return Error::Internal("DecodeKey: not a key type");
  }
}

}  // namespace ddblab::value
