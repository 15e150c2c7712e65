#include "emulator/value/number.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "emulator/api/random.h"

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

Number N(std::string_view text) {
  Result<Number> r = Number::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << ToString(r.error());
  return r.ok() ? *r : Number();
}

std::string Canon(std::string_view text) { return N(text).ToString(); }

void ExpectValidation(const Result<Number>& r, std::string_view message) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().type, ErrorType::kValidation);
  EXPECT_EQ(r.error().message, message);
}

TEST(NumberTest, ParsesAcceptedSyntax) {
  EXPECT_EQ(Canon("3"), "3");
  EXPECT_EQ(Canon("-7.1234"), "-7.1234");
  EXPECT_EQ(Canon("-17e5"), "-1700000");
  EXPECT_EQ(Canon("-17.4E37"), "-174" + std::string(36, '0'));
  EXPECT_EQ(Canon("+3"), "3");
  EXPECT_EQ(Canon(".123"), "0.123");
  EXPECT_EQ(Canon("0001.23"), "1.23");
  EXPECT_EQ(Canon("1e+5"), "100000");
  EXPECT_EQ(Canon("5."), "5");
  EXPECT_EQ(Canon("1e-5"), "0.00001");
  EXPECT_EQ(Canon("1.50"), "1.5");
  EXPECT_EQ(Canon("1e3"), "1000");
  EXPECT_EQ(Canon("-0"), "0");
  EXPECT_EQ(Canon("-0.000"), "0");
  EXPECT_EQ(Canon("0.5"), "0.5");
  EXPECT_EQ(Canon("-.5e1"), "-5");
  EXPECT_EQ(Canon("120.0"), "120");
  EXPECT_EQ(Canon("0010.0100"), "10.01");
}

TEST(NumberTest, NormalisedRepresentation) {
  Number n = N("0001.2300");
  EXPECT_EQ(n.coefficient(), 123u);
  EXPECT_EQ(n.exponent(), -2);
  EXPECT_EQ(n.significant_digits(), 3);
  EXPECT_FALSE(n.is_negative());
  Number z = N("-0e5");
  EXPECT_TRUE(z.is_zero());
  EXPECT_FALSE(z.is_negative());
  EXPECT_EQ(z.exponent(), 0);
  EXPECT_EQ(z, Number());
  EXPECT_EQ(N("1000").coefficient(), 1u);
  EXPECT_EQ(N("1000").exponent(), 3);
  EXPECT_EQ(N("1000").significant_digits(), 1);
}

TEST(NumberTest, EqualByValue) {
  for (const char* text : {"1000", "1e3", "1E+3", "1000.0", "001000", "+1000",
                           "0.1e4", "10000e-1"}) {
    EXPECT_EQ(N(text), N("1000")) << text;
    EXPECT_EQ(Canon(text), "1000") << text;
  }
  EXPECT_NE(N("1"), N("-1"));
  EXPECT_NE(N("1"), N("1.0000000000000000000000000000000000001"));
}

TEST(NumberTest, RejectsUnparsable) {
  for (const char* text :
       {"NaN",   "Infinity", "-Infinity", "-NaN",  "dog", " 1",    "1 ",
        "1e",    "e5",       ".",         "-",     "+",   "1.2.3", "1e5.5",
        "--1",   "+-1",      "0x10",      "1,000", "١",   "1e+",   "1e-",
        "1_000", "\t1",      "inf",       "1d"}) {
    ExpectValidation(Number::Parse(text),
                     std::string(kNotNumeric) + ": " + text);
  }
  ExpectValidation(Number::Parse(""), kNotNumeric);
}

TEST(NumberTest, SignificantDigitLimit) {
  // 38 digits are fine, 39 are not; leading and trailing zeros don't count.
  const std::string d38(38, '9');
  EXPECT_EQ(Canon(d38), d38);
  EXPECT_EQ(N(d38).significant_digits(), 38);
  EXPECT_EQ(Canon("000" + d38 + "000"), d38 + "000");
  EXPECT_EQ(Canon("0.000" + d38 + "000"), "0.000" + d38);
  EXPECT_EQ(Canon("1" + std::string(36, '0') + "1"),
            "1" + std::string(36, '0') + "1");
  ExpectValidation(Number::Parse(std::string(39, '9')), kTooManyDigits);
  ExpectValidation(Number::Parse("1" + std::string(37, '0') + "1"),
                   kTooManyDigits);
  ExpectValidation(Number::Parse("1." + std::string(37, '0') + "1"),
                   kTooManyDigits);
  ExpectValidation(Number::Parse("-12345678901234567890.1234567890123456789"),
                   kTooManyDigits);
  // A long run of zeros is not significant.
  EXPECT_EQ(Canon("1" + std::string(100, '0') + "e-100"), "1");
  EXPECT_EQ(Canon(std::string(1000, '0')), "0");
}

TEST(NumberTest, MagnitudeLimits) {
  const std::string max = "9." + std::string(37, '9') + "E+125";
  EXPECT_EQ(Canon(max), std::string(38, '9') + std::string(88, '0'));
  EXPECT_EQ(Canon("1E+125"), "1" + std::string(125, '0'));
  EXPECT_EQ(Canon("1E+125").size(), 126u);
  EXPECT_EQ(Canon("1E-130"), "0." + std::string(129, '0') + "1");
  EXPECT_EQ(Canon("-1E-130"), "-0." + std::string(129, '0') + "1");
  EXPECT_EQ(N("1.5E-130").exponent(), -131);
  ExpectValidation(Number::Parse("1e126"), kOverflow);
  ExpectValidation(Number::Parse("-1e126"), kOverflow);
  ExpectValidation(Number::Parse("10E125"), kOverflow);
  ExpectValidation(Number::Parse("1" + std::string(126, '0')), kOverflow);
  ExpectValidation(Number::Parse("1e999999999999999999999"), kOverflow);
  ExpectValidation(Number::Parse("1e-131"), kUnderflow);
  ExpectValidation(Number::Parse("-1e-131"), kUnderflow);
  ExpectValidation(Number::Parse("0.1e-130"), kUnderflow);
  ExpectValidation(Number::Parse("1e-999999999999999999999"), kUnderflow);
  // Range is checked before the digit count.
  ExpectValidation(Number::Parse(std::string(39, '9') + "e100"), kOverflow);
  // Zero is fine whatever its exponent.
  EXPECT_EQ(Canon("0e126"), "0");
  EXPECT_EQ(Canon("0e-131"), "0");
  EXPECT_EQ(Canon("0.0e126"), "0");
}

TEST(NumberTest, FromParts) {
  Result<Number> n = Number::FromParts(true, 1500, -3);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->ToString(), "-1.5");
  EXPECT_EQ(n->coefficient(), 15u);
  EXPECT_EQ(n->exponent(), -1);
  ASSERT_TRUE(Number::FromParts(true, 0, 77).ok());
  EXPECT_EQ(Number::FromParts(true, 0, 77)->ToString(), "0");
  ExpectValidation(Number::FromParts(false, 1, 126), kOverflow);
  ExpectValidation(Number::FromParts(false, 1, -131), kUnderflow);
  const Uint128 max = ~static_cast<Uint128>(0);
  ExpectValidation(Number::FromParts(false, max, 0), kTooManyDigits);
  ExpectValidation(Number::FromParts(false, 1, int64_t{1} << 40), kOverflow);
}

TEST(NumberTest, FromInt64) {
  EXPECT_EQ(Number::FromInt64(0).ToString(), "0");
  EXPECT_EQ(Number::FromInt64(-1200).ToString(), "-1200");
  EXPECT_EQ(Number::FromInt64(-1200), N("-1.2e3"));
  EXPECT_EQ(Number::FromInt64(std::numeric_limits<int64_t>::min()).ToString(),
            "-9223372036854775808");
  EXPECT_EQ(Number::FromInt64(std::numeric_limits<int64_t>::max()).ToString(),
            "9223372036854775807");
}

TEST(NumberTest, ToInt64) {
  EXPECT_EQ(N("42").ToInt64(), 42);
  EXPECT_EQ(N("-42e2").ToInt64(), -4200);
  EXPECT_EQ(N("0").ToInt64(), 0);
  EXPECT_EQ(N("1.5").ToInt64(), std::nullopt);
  EXPECT_EQ(N("9223372036854775807").ToInt64(),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(N("9223372036854775808").ToInt64(), std::nullopt);
  EXPECT_EQ(N("-9223372036854775808").ToInt64(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(N("-9223372036854775809").ToInt64(), std::nullopt);
  EXPECT_EQ(N("1e19").ToInt64(), std::nullopt);
  EXPECT_EQ(N("1e100").ToInt64(), std::nullopt);
}

TEST(NumberTest, FloorToInt64) {
  EXPECT_EQ(N("1.5").FloorToInt64(), 1);
  EXPECT_EQ(N("-1.5").FloorToInt64(), -2);
  EXPECT_EQ(N("-2").FloorToInt64(), -2);
  EXPECT_EQ(N("0.999").FloorToInt64(), 0);
  EXPECT_EQ(N("-0.001").FloorToInt64(), -1);
  EXPECT_EQ(N("1e-130").FloorToInt64(), 0);
  EXPECT_EQ(N("-1e-130").FloorToInt64(), -1);
  EXPECT_EQ(N("1700000000.75").FloorToInt64(), 1700000000);
  EXPECT_EQ(N("1e100").FloorToInt64(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(N("-1e100").FloorToInt64(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(N("9223372036854775807.5").FloorToInt64(),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(N("-9223372036854775808").FloorToInt64(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(N("-9223372036854775807.5").FloorToInt64(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(N("-9223372036854775808.5").FloorToInt64(),
            std::numeric_limits<int64_t>::min());
}

TEST(NumberTest, ToDouble) {
  EXPECT_DOUBLE_EQ(N("1.5").ToDouble(), 1.5);
  EXPECT_DOUBLE_EQ(N("-2e10").ToDouble(), -2e10);
  EXPECT_DOUBLE_EQ(N("0").ToDouble(), 0.0);
  EXPECT_DOUBLE_EQ(N("1e-130").ToDouble(), 1e-130);
  EXPECT_DOUBLE_EQ(N("1e125").ToDouble(), 1e125);
}

TEST(NumberTest, Ordering) {
  const char* ascending[] = {"-1e125", "-1e5",    "-2",  "-1.5",   "-1.05",
                             "-1",     "-1e-130", "0",   "1e-130", "0.5",
                             "1",      "1.05",    "1.5", "10",     "99",
                             "100",    "1e125"};
  for (size_t i = 0; i < std::size(ascending); ++i) {
    for (size_t j = 0; j < std::size(ascending); ++j) {
      EXPECT_EQ(N(ascending[i]) <=> N(ascending[j]), i <=> j)
          << ascending[i] << " vs " << ascending[j];
    }
  }
  EXPECT_TRUE(N("1") == N("1.0"));
  EXPECT_TRUE((N("1") <=> N("1.0")) == 0);
}

Result<Number> Add(std::string_view a, std::string_view b) {
  return Number::Add(N(a), N(b));
}
Result<Number> Sub(std::string_view a, std::string_view b) {
  return Number::Subtract(N(a), N(b));
}
std::string Ok(const Result<Number>& r) {
  EXPECT_TRUE(r.ok()) << ToString(r.error());
  return r.ok() ? r->ToString() : "<error>";
}

TEST(NumberTest, AddAndSubtract) {
  EXPECT_EQ(Ok(Add("1", "2")), "3");
  EXPECT_EQ(Ok(Add("1.5", "-1.5")), "0");
  EXPECT_EQ(Ok(Add("0", "-7")), "-7");
  EXPECT_EQ(Ok(Add("-7", "0")), "-7");
  EXPECT_EQ(Ok(Add("0.1", "0.2")), "0.3");
  EXPECT_EQ(Ok(Add("999", "1")), "1000");
  EXPECT_EQ(Ok(Add("1e10", "1e-10")), "10000000000.0000000001");
  EXPECT_EQ(Ok(Sub("1", "3")), "-2");
  EXPECT_EQ(Ok(Sub("-1", "-3")), "2");
  EXPECT_EQ(Ok(Sub("5", "0")), "5");
  EXPECT_EQ(Ok(Sub("0", "5")), "-5");
  EXPECT_EQ(Ok(Sub("0", "0")), "0");
  EXPECT_EQ(Ok(Sub("2e-130", "1e-130")), "0." + std::string(129, '0') + "1");
  // 38-digit results are exact.
  const std::string d37(37, '9');
  EXPECT_EQ(Ok(Add(d37, "1")), "1" + std::string(37, '0'));
  EXPECT_EQ(Ok(Add(std::string(38, '9'), "1")), "1" + std::string(38, '0'));
  EXPECT_EQ(Ok(Add("1e40", "1e3")), "1" + std::string(36, '0') + "1" + "000");
  // Large exponent gap, but cancellation brings the result into range.
  EXPECT_EQ(Ok(Sub("1e40", "99999999999999999999999999999999999999e2")), "100");
  EXPECT_EQ(Ok(Add("-1e40", "99999999999999999999999999999999999999e2")),
            "-100");
}

TEST(NumberTest, AddErrors) {
  // AWS reports results needing more than 38 digits as overflow.
  ExpectValidation(Add("1e50", "1"), kOverflow);
  ExpectValidation(Add(std::string(38, '9'), "0.1"), kOverflow);
  ExpectValidation(Add("9e125", "9e125"), kOverflow);
  ExpectValidation(Sub("-9e125", "9e125"), kOverflow);
  ExpectValidation(Add("1e125", "1e-130"), kOverflow);
  ExpectValidation(Sub("1e125", "1e-130"), kOverflow);
  ExpectValidation(Add("-1e125", "1e-130"), kOverflow);
  ExpectValidation(Sub("1.1e-130", "1.09e-130"), kUnderflow);
  ExpectValidation(Add(std::string(38, '9') + "e88", "1e88"), kOverflow);
}

// Reference: exact addition via Add must agree with ordering properties.
TEST(NumberTest, RandomAddSubtractConsistency) {
  Rng rng(20240521);
  for (int iter = 0; iter < 20000; ++iter) {
    auto random_number = [&rng]() {
      const int digits = 1 + static_cast<int>(rng.Uniform(15));
      Uint128 c = 0;
      for (int i = 0; i < digits; ++i) c = c * 10 + rng.Uniform(10);
      const int64_t e = static_cast<int64_t>(rng.Uniform(21)) - 10;
      Result<Number> n = Number::FromParts(rng.Bernoulli(0.5), c, e);
      EXPECT_TRUE(n.ok());
      return n.ok() ? *n : Number();
    };
    const Number a = random_number();
    const Number b = random_number();
    Result<Number> sum = Number::Add(a, b);
    ASSERT_TRUE(sum.ok()) << a.ToString() << " + " << b.ToString();
    Result<Number> back = Number::Subtract(*sum, b);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, a) << a.ToString() << " + " << b.ToString();
    EXPECT_EQ(Number::Add(b, a)->ToString(), sum->ToString());
    // Ordering: b > 0 => a + b > a.
    if (!b.is_zero()) {
      EXPECT_EQ(*sum <=> a, b <=> Number())
          << a.ToString() << " " << b.ToString();
    }
    // Round trip through the canonical text.
    EXPECT_EQ(N(sum->ToString()), *sum);
  }
}

// An independent reference for exact addition: fixed-point digit vectors
// with digit k at 10^(k - kShift).
struct RefDecimal {
  static constexpr int kShift = 200;
  static constexpr int kWidth = 420;
  bool negative = false;
  std::vector<int> digits = std::vector<int>(kWidth, 0);

  static RefDecimal From(const Number& n) {
    RefDecimal r;
    r.negative = n.is_negative();
    int k = n.exponent() + kShift;
    for (Uint128 c = n.coefficient(); c != 0; c /= 10, ++k) {
      r.digits[k] = static_cast<int>(c % 10);
    }
    return r;
  }
  static int CompareMagnitude(const RefDecimal& a, const RefDecimal& b) {
    for (int k = kWidth - 1; k >= 0; --k) {
      if (a.digits[k] != b.digits[k]) return a.digits[k] < b.digits[k] ? -1 : 1;
    }
    return 0;
  }
  static RefDecimal Add(const RefDecimal& a, const RefDecimal& b) {
    RefDecimal r;
    if (a.negative == b.negative) {
      r.negative = a.negative;
      int carry = 0;
      for (int k = 0; k < kWidth; ++k) {
        const int s = a.digits[k] + b.digits[k] + carry;
        r.digits[k] = s % 10;
        carry = s / 10;
      }
      return r;
    }
    const bool a_bigger = CompareMagnitude(a, b) >= 0;
    const RefDecimal& big = a_bigger ? a : b;
    const RefDecimal& small = a_bigger ? b : a;
    r.negative = big.negative;
    int borrow = 0;
    for (int k = 0; k < kWidth; ++k) {
      int d = big.digits[k] - small.digits[k] - borrow;
      borrow = d < 0;
      r.digits[k] = d < 0 ? d + 10 : d;
    }
    return r;
  }
  // "<canonical text>" or "overflow" / "underflow" as DynamoDB reports it.
  std::string Describe() const {
    int hi = kWidth - 1;
    while (hi >= 0 && digits[hi] == 0) --hi;
    if (hi < 0) return "0";
    int lo = 0;
    while (digits[lo] == 0) ++lo;
    if (hi - lo + 1 > 38) return "overflow";
    if (hi - kShift > 125) return "overflow";
    if (hi - kShift < -130) return "underflow";
    std::string out = negative ? "-" : "";
    const int top = std::max(hi, kShift);
    const int bottom = std::min(lo, kShift);
    for (int k = top; k >= bottom; --k) {
      if (k == kShift - 1) out += '.';
      out += static_cast<char>('0' + digits[k]);
    }
    return out;
  }
};

std::string Describe(const Result<Number>& r) {
  if (r.ok()) return r->ToString();
  if (r.error().message == kOverflow) return "overflow";
  if (r.error().message == kUnderflow) return "underflow";
  return r.error().message;
}

TEST(NumberTest, AddMatchesReferenceAcrossTheWholeRange) {
  Rng rng(77);
  auto random_number = [&rng]() {
    const int digits = 1 + static_cast<int>(rng.Uniform(38));
    Uint128 c = 1 + rng.Uniform(9);
    for (int i = 1; i < digits; ++i) c = c * 10 + rng.Uniform(10);
    // Cluster exponents so results of every kind (exact, cancelling,
    // too many digits, out of range) are common.
    const int64_t leading = rng.Bernoulli(0.3)
                                ? static_cast<int64_t>(rng.Uniform(256)) - 130
                                : (rng.Bernoulli(0.5) ? 120 : -125) +
                                      static_cast<int64_t>(rng.Uniform(11)) - 5;
    Result<Number> n =
        Number::FromParts(rng.Bernoulli(0.5), c, leading - (digits - 1));
    return n.ok() ? *n : Number::FromInt64(1);
  };
  int ok = 0;
  for (int iter = 0; iter < 30000; ++iter) {
    Number a = random_number();
    Number b = random_number();
    if (rng.Bernoulli(0.2)) {
      // Near-cancellation: b = -(a with its last digit changed).
      Result<Number> c = Number::FromParts(
          !a.is_negative(), a.coefficient() + rng.Uniform(3) - 1, a.exponent());
      if (c.ok()) b = *c;
    }
    const std::string expected =
        RefDecimal::Add(RefDecimal::From(a), RefDecimal::From(b)).Describe();
    ASSERT_EQ(Describe(Number::Add(a, b)), expected)
        << a.ToString() << " + " << b.ToString();
    RefDecimal neg_b = RefDecimal::From(b);
    neg_b.negative = !neg_b.negative;
    ASSERT_EQ(Describe(Number::Subtract(a, b)),
              RefDecimal::Add(RefDecimal::From(a), neg_b).Describe())
        << a.ToString() << " - " << b.ToString();
    if (expected != "overflow" && expected != "underflow") ++ok;
  }
  EXPECT_GT(ok, 1000);
}

}  // namespace
}  // namespace ddblab::value
