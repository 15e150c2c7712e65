#include "emulator/streams/sequence_number.h"

#include <gtest/gtest.h>

#include <limits>

namespace ddblab::streams {
namespace {

using Kind = SequenceNumber::Kind;

TEST(SequenceNumberTest, FormatIsTwentyOneDecimalDigits) {
  EXPECT_EQ(FormatSequenceNumber(0), "100000000000000000000");
  EXPECT_EQ(FormatSequenceNumber(42), "100000000000000000042");
  EXPECT_EQ(FormatSequenceNumber(9223372036854775807), "109223372036854775807");
  // String order is number order.
  EXPECT_LT(FormatSequenceNumber(9), FormatSequenceNumber(10));
}

TEST(SequenceNumberTest, SeqFloorIsTheClockInMillionths) {
  EXPECT_EQ(SeqFloor(1704067200000), 1704067200000000000);
  EXPECT_EQ(FormatSequenceNumber(SeqFloor(1704067200000)),
            "101704067200000000000");
  EXPECT_EQ(SeqFloor(-5), 0);
  EXPECT_EQ(SeqFloor(std::numeric_limits<int64_t>::max()),
            std::numeric_limits<int64_t>::max() / kSeqPerMs * kSeqPerMs);
}

TEST(SequenceNumberTest, ParseRoundTrips) {
  for (int64_t n : {0LL, 1LL, 42LL, 123456789012LL, 9223372036854775807LL}) {
    auto seq = ParseSequenceNumber(FormatSequenceNumber(n));
    ASSERT_TRUE(seq.has_value()) << n;
    EXPECT_EQ(seq->kind, Kind::kValue);
    EXPECT_EQ(seq->value, n);
  }
}

TEST(SequenceNumberTest, ParseOtherWellFormedNumbers) {
  auto below = ParseSequenceNumber("000000000000000000001");
  ASSERT_TRUE(below);
  EXPECT_EQ(below->kind, Kind::kBelow);
  EXPECT_EQ(ParseSequenceNumber("000000000000000000000")->kind, Kind::kBelow);
  EXPECT_EQ(ParseSequenceNumber("099999999999999999999")->kind, Kind::kBelow);
  EXPECT_EQ(ParseSequenceNumber("300000000000000499659")->kind, Kind::kAbove);
  EXPECT_EQ(ParseSequenceNumber("1000000000000000000000")->kind, Kind::kAbove);
  // Above int64 within the 21-digit form.
  EXPECT_EQ(ParseSequenceNumber("199999999999999999999")->kind, Kind::kAbove);
  // Leading zeros before a 21-digit value.
  auto padded = ParseSequenceNumber("0100000000000000000007");
  ASSERT_TRUE(padded);
  EXPECT_EQ(padded->kind, Kind::kValue);
  EXPECT_EQ(padded->value, 7);
}

TEST(SequenceNumberTest, ParseRejectsMalformed) {
  EXPECT_FALSE(ParseSequenceNumber(""));
  EXPECT_FALSE(ParseSequenceNumber("10000000000000000000"));  // 20 digits
  EXPECT_FALSE(ParseSequenceNumber(std::string(41, '1')));
  EXPECT_FALSE(ParseSequenceNumber("10000000000000000000x"));
  EXPECT_FALSE(ParseSequenceNumber("-10000000000000000000"));
  EXPECT_FALSE(ParseSequenceNumber("1000000000 0000000000"));
}

}  // namespace
}  // namespace ddblab::streams
