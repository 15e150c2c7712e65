#include "emulator/api/lag.h"

#include <gtest/gtest.h>

namespace ddblab {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(LagRangeTest, ZeroIsOff) {
  auto lag = ParseLagRange("0");
  ASSERT_TRUE(lag.ok()) << lag.error().message;
  EXPECT_TRUE(lag->off());
  EXPECT_EQ(LagRangeText(*lag), "0s");
}

TEST(LagRangeTest, OneDurationIsAFixedLag) {
  auto lag = ParseLagRange("2s");
  ASSERT_TRUE(lag.ok()) << lag.error().message;
  EXPECT_EQ(lag->min, seconds(2));
  EXPECT_EQ(lag->max, seconds(2));
  EXPECT_FALSE(lag->off());
  EXPECT_EQ(LagRangeText(*lag), "2s");
}

TEST(LagRangeTest, ARangeKeepsBothEnds) {
  auto lag = ParseLagRange("500ms..1.5s");
  ASSERT_TRUE(lag.ok()) << lag.error().message;
  EXPECT_EQ(lag->min, milliseconds(500));
  EXPECT_EQ(lag->max, milliseconds(1500));
  EXPECT_EQ(LagRangeText(*lag), "500ms..1500ms");
  EXPECT_EQ(*ParseLagRange(LagRangeText(*lag)), *lag);
}

TEST(LagRangeTest, BadTextSaysWhatIsWrong) {
  auto reversed = ParseLagRange("2s..1s");
  ASSERT_FALSE(reversed.ok());
  EXPECT_EQ(reversed.error().message,
            "invalid lag '2s..1s': the lower end is above the upper end");
  auto unit = ParseLagRange("0..5 min");
  ASSERT_FALSE(unit.ok());
  EXPECT_EQ(unit.error().Name(), "ValidationException");
  EXPECT_EQ(unit.error().message.rfind("invalid lag '0..5 min': ", 0), 0u)
      << unit.error().message;
  EXPECT_FALSE(ParseLagRange("").ok());
  EXPECT_FALSE(ParseLagRange("..1s").ok());
}

TEST(LagRangeTest, JsonTakesTextOrSeconds) {
  auto text = LagRangeFromJson("0..2s");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->max, seconds(2));
  auto number = LagRangeFromJson(1.5);
  ASSERT_TRUE(number.ok());
  EXPECT_EQ(number->min, milliseconds(1500));
  EXPECT_EQ(number->max, milliseconds(1500));
  EXPECT_FALSE(LagRangeFromJson(-1).ok());
  EXPECT_FALSE(LagRangeFromJson(nlohmann::json::array()).ok());
}

}  // namespace
}  // namespace ddblab
