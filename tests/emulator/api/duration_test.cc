#include "emulator/api/duration.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace ddblab {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

std::string DurationError(std::string_view text) {
  Result<Duration> d = ParseDuration(text);
  return d.ok() ? "ok" : ToString(d.error());
}

TEST(ParseDurationTest, UnitsAndBareSeconds) {
  EXPECT_EQ(*ParseDuration("90s"), seconds(90));
  EXPECT_EQ(*ParseDuration("15m"), minutes(15));
  EXPECT_EQ(*ParseDuration("2h"), hours(2));
  EXPECT_EQ(*ParseDuration("3d"), hours(72));
  EXPECT_EQ(*ParseDuration("250ms"), milliseconds(250));
  EXPECT_EQ(*ParseDuration("42"), seconds(42));
  EXPECT_EQ(*ParseDuration("0"), Duration::zero());
}

TEST(ParseDurationTest, Errors) {
  const std::string expected =
      " (expected a whole number with an optional unit ms, s, m, h or d, "
      "e.g. 90s, 15m, 2h)";
  EXPECT_EQ(DurationError(""),
            "ValidationException: invalid duration '': empty" + expected);
  EXPECT_EQ(DurationError("s"),
            "ValidationException: invalid duration 's': no number" + expected);
  EXPECT_EQ(
      DurationError("-1s"),
      "ValidationException: invalid duration '-1s': no number" + expected);
  EXPECT_EQ(DurationError("5x"),
            "ValidationException: invalid duration '5x': unknown unit 'x'" +
                expected);
  EXPECT_EQ(DurationError("1.5h"),
            "ValidationException: invalid duration '1.5h': unknown unit '.5h'" +
                expected);
  EXPECT_EQ(DurationError("99999999999999999999"),
            "ValidationException: invalid duration '99999999999999999999': "
            "number too large" +
                expected);
  EXPECT_EQ(DurationError("36501d"),
            "ValidationException: invalid duration '36501d': longer than 100 "
            "years" +
                expected);
  EXPECT_EQ(DurationError("36500d"), "ok");
}

}  // namespace
}  // namespace ddblab
