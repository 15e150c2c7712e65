#include "emulator/value/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "emulator/api/random.h"

namespace ddblab::value {
namespace {

Number Num(std::string_view text) {
  Result<Number> r = Number::Parse(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : Number();
}

int Memcmp(const std::string& a, const std::string& b) {
  const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c != 0) return c < 0 ? -1 : 1;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

int Sign(std::strong_ordering o) { return o < 0 ? -1 : (o > 0 ? 1 : 0); }

TEST(KeyCodecTest, OrderOfDocumentedExamples) {
  const char* ascending[] = {"-9.9999999999999999999999999999999999999e125",
                             "-1e125",
                             "-1e5",
                             "-2",
                             "-1.5",
                             "-1.05",
                             "-1.0000000000000000000000000000000000001",
                             "-1",
                             "-0.99",
                             "-1e-129",
                             "-1.5e-130",
                             "-1e-130",
                             "0",
                             "1e-130",
                             "1.5e-130",
                             "1e-129",
                             "0.99",
                             "1",
                             "1.0000000000000000000000000000000000001",
                             "1.05",
                             "1.5",
                             "10",
                             "10.01",
                             "11",
                             "99",
                             "100",
                             "101",
                             "1e125",
                             "9.9999999999999999999999999999999999999e125"};
  std::vector<std::string> keys;
  for (const char* t : ascending) keys.push_back(EncodeNumberKey(Num(t)));
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = 0; j < keys.size(); ++j) {
      EXPECT_EQ(Memcmp(keys[i], keys[j]), Sign(i <=> j))
          << ascending[i] << " vs " << ascending[j];
    }
  }
}

TEST(KeyCodecTest, EqualValuesEncodeEqually) {
  EXPECT_EQ(EncodeNumberKey(Num("1000")), EncodeNumberKey(Num("1e3")));
  EXPECT_EQ(EncodeNumberKey(Num("-0")), EncodeNumberKey(Num("0.000")));
  EXPECT_EQ(EncodeKey(AttributeValue::N(Num("1.50"))),
            EncodeNumberKey(Num("1.5")));
}

TEST(KeyCodecTest, StringAndBinaryAreRawBytes) {
  EXPECT_EQ(EncodeKey(AttributeValue::S("héllo")), "héllo");
  EXPECT_EQ(EncodeKey(AttributeValue::B(std::string("\0\xff", 2))),
            std::string("\0\xff", 2));
  // UTF-8 byte order: "a" > "A", "¿" (C2 BF) > "z".
  EXPECT_GT(Memcmp(EncodeKey(AttributeValue::S("a")),
                   EncodeKey(AttributeValue::S("A"))),
            0);
  EXPECT_GT(Memcmp(EncodeKey(AttributeValue::S("¿")),
                   EncodeKey(AttributeValue::S("z"))),
            0);
  EXPECT_LT(Memcmp(EncodeKey(AttributeValue::S("ab")),
                   EncodeKey(AttributeValue::S("abc"))),
            0);
  EXPECT_GT(Memcmp(EncodeKey(AttributeValue::B("\x80")),
                   EncodeKey(AttributeValue::B("\x7f"))),
            0);
}

TEST(KeyCodecTest, DecodeRoundTrip) {
  for (const char* text :
       {"0", "1", "-1", "1.5", "-1.5", "1e125", "-1e125", "1e-130", "-1e-130",
        "12345678901234567890123456789012345678",
        "-0.00000000000000000000000000000000000001"}) {
    Result<AttributeValue> v =
        DecodeKey(AttributeValue::Type::kN, EncodeNumberKey(Num(text)));
    ASSERT_TRUE(v.ok()) << text;
    EXPECT_EQ(v->n(), Num(text)) << text;
  }
  Result<AttributeValue> s = DecodeKey(AttributeValue::Type::kS, "abc");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, AttributeValue::S("abc"));
  Result<AttributeValue> b =
      DecodeKey(AttributeValue::Type::kB, std::string("\0\1", 2));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(*b, AttributeValue::B(std::string("\0\1", 2)));
}

TEST(KeyCodecTest, DecodeRejectsCorruptNumbers) {
  const std::string good = EncodeNumberKey(Num("-12.5"));
  std::vector<std::string> bad = {
      "",
      std::string("\x02\x00", 2),
      "\x04",
      "\x03",
      "\x03\x82",                       // no digits
      std::string("\x03\x82\x00", 3),   // digit byte 0 is not a pair
      "\x03\x82\x66",                   // pair 101
      "\x03\x82\x01",                   // leading pair 00: not canonical
      "\x03\x82\x0b\x01",               // trailing pair 00: not canonical
      good.substr(0, good.size() - 1),  // negative without terminator
      std::string("\x03\x82") + std::string(20, '\x0b'),  // 40 digits
  };
  for (const std::string& bytes : bad) {
    Result<AttributeValue> r = DecodeKey(AttributeValue::Type::kN, bytes);
    ASSERT_FALSE(r.ok()) << testing::PrintToString(bytes);
    EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
  }
  EXPECT_FALSE(DecodeKey(AttributeValue::Type::kM, "x").ok());
}

// A random Number with 1..38 digits and a leading exponent anywhere in
// range, or zero.
Number RandomNumber(Rng& rng) {
  if (rng.Uniform(20) == 0) return Number();
  int digits = 1 + static_cast<int>(rng.Uniform(38));
  if (rng.Bernoulli(0.3)) digits = 1 + static_cast<int>(rng.Uniform(3));
  Uint128 c = 1 + rng.Uniform(9);
  for (int i = 1; i < digits; ++i) c = c * 10 + rng.Uniform(10);
  int64_t leading;
  if (rng.Bernoulli(0.5)) {
    leading = static_cast<int64_t>(rng.Uniform(256)) - 130;
  } else {
    leading = static_cast<int64_t>(rng.Uniform(7)) - 3;  // many near-ties
  }
  Result<Number> n =
      Number::FromParts(rng.Bernoulli(0.5), c, leading - (digits - 1));
  EXPECT_TRUE(n.ok());
  return n.ok() ? *n : Number();
}

TEST(KeyCodecTest, MemcmpOrderIsNumericOrderProperty) {
  Rng rng(0x6b6579636f646563);
  std::vector<Number> numbers;
  for (int i = 0; i < 3000; ++i) numbers.push_back(RandomNumber(rng));
  // Near-equal pairs: same digits with one more/less trailing digit.
  for (int i = 0; i < 500; ++i) {
    const Number& n = numbers[i];
    if (n.is_zero() || n.significant_digits() >= 38) continue;
    Result<Number> longer = Number::FromParts(
        n.is_negative(), n.coefficient() * 10 + 1 + rng.Uniform(9),
        static_cast<int64_t>(n.exponent()) - 1);
    if (longer.ok()) numbers.push_back(*longer);
  }
  std::vector<std::string> keys;
  for (const Number& n : numbers) keys.push_back(EncodeNumberKey(n));
  for (size_t i = 0; i < numbers.size(); ++i) {
    Result<AttributeValue> back = DecodeKey(AttributeValue::Type::kN, keys[i]);
    ASSERT_TRUE(back.ok()) << numbers[i].ToString();
    ASSERT_EQ(back->n(), numbers[i]) << numbers[i].ToString();
  }
  for (size_t i = 0; i < numbers.size(); ++i) {
    for (size_t j = i; j < std::min(numbers.size(), i + 200); ++j) {
      ASSERT_EQ(Memcmp(keys[i], keys[j]), Sign(numbers[i] <=> numbers[j]))
          << numbers[i].ToString() << " vs " << numbers[j].ToString()
          << " seed " << rng.seed();
    }
  }
  // Sorting by key bytes sorts numerically.
  std::vector<size_t> order(numbers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  for (size_t i = 1; i < order.size(); ++i) {
    ASSERT_LE(numbers[order[i - 1]], numbers[order[i]]);
  }
}

}  // namespace
}  // namespace ddblab::value
