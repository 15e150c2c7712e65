// emulator/value/number.cc: parsing, arithmetic, comparison and formatting of
// DynamoDB's 38-digit decimal Number.
#include "emulator/value/number.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>

namespace ddblab::value {

namespace {

constexpr char kNotNumeric[] =
    "The parameter cannot be converted to a numeric value";
constexpr char kTooManyDigits[] =
    "Attempting to store more than 38 significant digits in a Number";
constexpr char kOverflow[] =
    "Number overflow. Attempting to store a number with magnitude larger than "
    "supported range";
constexpr char kUnderflow[] =
    "Number underflow. Attempting to store a number with magnitude smaller "
    "than supported range";

constexpr std::array<Uint128, 39> MakePow10() {
  std::array<Uint128, 39> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}
constexpr std::array<Uint128, 39> kPow10 = MakePow10();  // 10^0 .. 10^38
constexpr uint64_t kPow10_19 = 10000000000000000000ull;

// Number of decimal digits of c (0 for 0). Valid for every 128-bit value
// below 10^39, i.e. all of them.
int DigitCount(Uint128 c) {
  if (c == 0) return 0;
  const auto hi = static_cast<uint64_t>(c >> 64);
  const auto lo = static_cast<uint64_t>(c);
  const int bits =
      hi != 0 ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(lo);
  const int t = (bits * 1233) >> 12;  // floor(log10(2^bits)) or one less
  if (t >= 39) return 39;
  return t + (c >= kPow10[t] ? 1 : 0);
}

// Appends the decimal digits of c (at least one digit).
void AppendDigits(Uint128 c, std::string* out) {
  char buf[48];
  if (c <= std::numeric_limits<uint64_t>::max()) {
    auto r = std::to_chars(buf, buf + sizeof(buf), static_cast<uint64_t>(c));
    out->append(buf, r.ptr);
    return;
  }
  // c < 2^128 < 10^39: at most 39 digits = hi (<= 20 digits) + 19 digits.
  const Uint128 hi = c / kPow10_19;
  const auto lo = static_cast<uint64_t>(c % kPow10_19);
  AppendDigits(hi, out);
  auto r = std::to_chars(buf, buf + sizeof(buf), lo);
  const auto len = static_cast<size_t>(r.ptr - buf);
  out->append(19 - len, '0');
  out->append(buf, len);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Compares |a| and |b| for normalised non-negative parts.
std::strong_ordering CompareMagnitude(Uint128 ca, int ea, Uint128 cb, int eb) {
  if (ca == 0 || cb == 0) return (ca != 0) <=> (cb != 0);
  const int da = DigitCount(ca);
  const int db = DigitCount(cb);
  const int la = ea + da - 1;
  const int lb = eb + db - 1;
  if (la != lb) return la <=> lb;
  // Same leading exponent: align the coefficients to the same digit count.
  if (da < db) ca *= kPow10[db - da];
  if (db < da) cb *= kPow10[da - db];
  return ca <=> cb;
}

}  // namespace

Number::Number(bool negative, Uint128 coefficient, int exponent)
    : negative_(negative && coefficient != 0),
      coefficient_(coefficient),
      exponent_(coefficient != 0 ? exponent : 0) {}

Result<Number> Number::FromParts(bool negative, Uint128 coefficient,
                                 int64_t exponent) {
  if (coefficient == 0) return Number();
  while (coefficient % 10 == 0) {
    coefficient /= 10;
    ++exponent;
  }
  const int digits = DigitCount(coefficient);
  const int64_t leading = exponent + digits - 1;
  if (leading > kMaxMagnitudeExponent) return Error::Validation(kOverflow);
  if (leading < kMinMagnitudeExponent) return Error::Validation(kUnderflow);
  if (digits > kMaxDigits) return Error::Validation(kTooManyDigits);
  return Number(negative, coefficient, static_cast<int>(exponent));
}

Result<Number> Number::Parse(std::string_view text) {
  if (text.empty()) return Error::Validation(kNotNumeric);
  auto bad = [&text]() {
    std::string msg(kNotNumeric);
    msg += ": ";
    msg.append(text);
    return Error::Validation(std::move(msg));
  };
  const size_t n = text.size();
  size_t i = 0;
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    ++i;
  }
  const size_t int_begin = i;
  while (i < n && IsDigit(text[i])) ++i;
  const size_t int_end = i;
  size_t frac_begin = i;
  size_t frac_end = i;
  if (i < n && text[i] == '.') {
    ++i;
    frac_begin = i;
    while (i < n && IsDigit(text[i])) ++i;
    frac_end = i;
  }
  if (int_begin == int_end && frac_begin == frac_end) return bad();
  int64_t exp10 = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    if (i == n || !IsDigit(text[i])) return bad();
    while (i < n && IsDigit(text[i])) {
      // Saturate: any exponent this large is out of range anyway.
      if (exp10 < 1000000000000LL) exp10 = exp10 * 10 + (text[i] - '0');
      ++i;
    }
    if (exp_negative) exp10 = -exp10;
  }
  if (i != n) return bad();

  // The digits form one sequence D (integer part then fraction part); the
  // value is D * 10^(exp10 - fraction length).
  const size_t int_len = int_end - int_begin;
  const size_t total = int_len + (frac_end - frac_begin);
  auto digit_at = [&](size_t k) {
    return k < int_len ? text[int_begin + k] : text[frac_begin + (k - int_len)];
  };
  size_t first = 0;
  while (first < total && digit_at(first) == '0') ++first;
  if (first == total) return Number();  // zero, whatever its exponent
  size_t last = total - 1;
  while (digit_at(last) == '0') --last;
  const int64_t unit_exp =
      exp10 - static_cast<int64_t>(frac_end - frac_begin);  // exp of D's end
  const int64_t leading = unit_exp + static_cast<int64_t>(total - 1 - first);
  const int64_t lowest = unit_exp + static_cast<int64_t>(total - 1 - last);
  if (leading > kMaxMagnitudeExponent) return Error::Validation(kOverflow);
  if (leading < kMinMagnitudeExponent) return Error::Validation(kUnderflow);
  if (last - first + 1 > static_cast<size_t>(kMaxDigits)) {
    return Error::Validation(kTooManyDigits);
  }
  Uint128 coefficient = 0;
  for (size_t k = first; k <= last; ++k) {
    coefficient = coefficient * 10 + static_cast<unsigned>(digit_at(k) - '0');
  }
  return Number(negative, coefficient, static_cast<int>(lowest));
}

Number Number::FromInt64(int64_t v) {
  const bool negative = v < 0;
  Uint128 c = negative ? static_cast<Uint128>(0 - static_cast<uint64_t>(v))
                       : static_cast<Uint128>(v);
  int e = 0;
  while (c != 0 && c % 10 == 0) {
    c /= 10;
    ++e;
  }
  return Number(negative, c, e);
}

namespace {

// The result of an exact signed addition, checked: more than 38 digits is
// reported as overflow (as AWS does), then the range.
Result<Number> Finish(bool negative, Uint128 coefficient, int64_t exponent) {
  if (coefficient == 0) return Number();
  while (coefficient % 10 == 0) {
    coefficient /= 10;
    ++exponent;
  }
  if (DigitCount(coefficient) > Number::kMaxDigits) {
    return Error::Validation(kOverflow);
  }
  return Number::FromParts(negative, coefficient, exponent);
}

// Adds (an, ca, ea) and (bn, cb, eb), both non-zero and normalised.
Result<Number> AddParts(bool an, Uint128 ca, int ea, bool bn, Uint128 cb,
                        int eb) {
  const int e = std::min(ea, eb);
  const int da = DigitCount(ca);
  const int db = DigitCount(cb);
  const int sa = ea - e;
  const int sb = eb - e;
  if (da + sa <= Number::kMaxDigits && db + sb <= Number::kMaxDigits) {
    // Both aligned coefficients are below 10^38; their sum is below 2^128.
    const Uint128 xa = ca * kPow10[sa];
    const Uint128 xb = cb * kPow10[sb];
    if (an == bn) return Finish(an, xa + xb, e);
    if (xa >= xb) return Finish(an, xa - xb, e);
    return Finish(bn, xb - xa, e);
  }
  // Slow path: the digits span more than 38 positions. Work digit by digit
  // over positions e .. max leading exponent + 1 (at most ~300 for valid
  // numbers).
  const int top = std::max(ea + da, eb + db);  // one past the leading digit
  const int span = top - e + 1;
  constexpr int kMaxSpan = 400;
  if (span > kMaxSpan) return Error::Validation(kOverflow);
  std::array<uint8_t, kMaxSpan> x{};
  std::array<uint8_t, kMaxSpan> y{};
  for (int k = sa; ca != 0; ++k, ca /= 10) {
    x[k] = static_cast<uint8_t>(ca % 10);
  }
  for (int k = sb; cb != 0; ++k, cb /= 10) {
    y[k] = static_cast<uint8_t>(cb % 10);
  }
  bool negative = an;
  if (an == bn) {
    int carry = 0;
    for (int k = 0; k < span; ++k) {
      const int s = x[k] + y[k] + carry;
      x[k] = static_cast<uint8_t>(s % 10);
      carry = s / 10;
    }
  } else {
    // Subtract the smaller magnitude from the larger.
    int cmp = 0;
    for (int k = span - 1; k >= 0 && cmp == 0; --k) {
      cmp = (x[k] > y[k]) - (x[k] < y[k]);
    }
    if (cmp == 0) return Number();
    if (cmp < 0) {
      std::swap(x, y);
      negative = bn;
    }
    int borrow = 0;
    for (int k = 0; k < span; ++k) {
      int d = x[k] - y[k] - borrow;
      borrow = d < 0 ? 1 : 0;
      if (d < 0) d += 10;
      x[k] = static_cast<uint8_t>(d);
    }
  }
  int hi = span - 1;
  while (hi >= 0 && x[hi] == 0) --hi;
  if (hi < 0) return Number();
  int lo = 0;
  while (x[lo] == 0) ++lo;
  if (hi - lo + 1 > Number::kMaxDigits) return Error::Validation(kOverflow);
  Uint128 c = 0;
  for (int k = hi; k >= lo; --k) c = c * 10 + x[k];
  return Finish(negative, c, static_cast<int64_t>(e) + lo);
}

}  // namespace

Result<Number> Number::Add(const Number& a, const Number& b) {
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;
  return AddParts(a.negative_, a.coefficient_, a.exponent_, b.negative_,
                  b.coefficient_, b.exponent_);
}

Result<Number> Number::Subtract(const Number& a, const Number& b) {
  if (b.is_zero()) return a;
  const Number neg_b(!b.negative_, b.coefficient_, b.exponent_);
  if (a.is_zero()) return neg_b;
  return AddParts(a.negative_, a.coefficient_, a.exponent_, neg_b.negative_,
                  neg_b.coefficient_, neg_b.exponent_);
}

std::string Number::ToString() const {
  if (coefficient_ == 0) return "0";
  std::string digits;
  AppendDigits(coefficient_, &digits);
  std::string out;
  out.reserve(digits.size() + 8 +
              static_cast<size_t>(exponent_ < 0 ? -exponent_ : exponent_));
  if (negative_) out.push_back('-');
  if (exponent_ >= 0) {
    out += digits;
    out.append(static_cast<size_t>(exponent_), '0');
    return out;
  }
  const auto frac = static_cast<size_t>(-exponent_);
  if (frac >= digits.size()) {
    out += "0.";
    out.append(frac - digits.size(), '0');
    out += digits;
  } else {
    out.append(digits, 0, digits.size() - frac);
    out.push_back('.');
    out.append(digits, digits.size() - frac, std::string::npos);
  }
  return out;
}

int Number::significant_digits() const { return DigitCount(coefficient_); }

std::optional<int64_t> Number::ToInt64() const {
  if (coefficient_ == 0) return 0;
  if (exponent_ < 0) return std::nullopt;  // normalised: not an integer
  if (DigitCount(coefficient_) + exponent_ > 19) return std::nullopt;
  const Uint128 mag = coefficient_ * kPow10[exponent_];
  const Uint128 limit = static_cast<Uint128>(1) << 63;  // |INT64_MIN|
  if (negative_) {
    if (mag > limit) return std::nullopt;
    return static_cast<int64_t>(0 - static_cast<uint64_t>(mag));
  }
  if (mag >= limit) return std::nullopt;
  return static_cast<int64_t>(mag);
}

int64_t Number::FloorToInt64() const {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (coefficient_ == 0) return 0;
  Uint128 int_part;
  bool has_fraction = false;
  if (exponent_ >= 0) {
    if (DigitCount(coefficient_) + exponent_ > 19) {
      return negative_ ? kMin : kMax;
    }
    int_part = coefficient_ * kPow10[exponent_];
  } else if (-exponent_ > 38) {
    int_part = 0;
    has_fraction = true;
  } else {
    int_part = coefficient_ / kPow10[-exponent_];
    has_fraction = coefficient_ % kPow10[-exponent_] != 0;
  }
  const Uint128 limit = static_cast<Uint128>(1) << 63;
  if (!negative_) {
    if (int_part >= limit) return kMax;
    return static_cast<int64_t>(int_part);
  }
  if (has_fraction) int_part += 1;
  if (int_part >= limit) return kMin;
  return -static_cast<int64_t>(int_part);
}

double Number::ToDouble() const {
  if (coefficient_ == 0) return 0.0;
  std::string text;
  if (negative_) text.push_back('-');
  AppendDigits(coefficient_, &text);
  text.push_back('e');
  text += std::to_string(exponent_);
  return std::strtod(text.c_str(), nullptr);
}

std::strong_ordering operator<=>(const Number& a, const Number& b) {
  if (a.negative_ != b.negative_) {
    return a.negative_ ? std::strong_ordering::less
                       : std::strong_ordering::greater;
  }
  const std::strong_ordering mag = CompareMagnitude(
      a.coefficient_, a.exponent_, b.coefficient_, b.exponent_);
  return a.negative_ ? 0 <=> mag : mag;
}

}  // namespace ddblab::value
