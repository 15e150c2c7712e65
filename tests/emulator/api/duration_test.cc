// tests/emulator/api/duration_test.cc: the one duration grammar
// (emulator/api/duration.h), once and whole: every unit, bare numbers,
// exact decimals, the limits, each error with its exact message, JSON
// strings and numbers, and DurationText read back.
#include "emulator/api/duration.h"

#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace ddblab {
namespace {

using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;
using Json = nlohmann::json;

constexpr std::string_view kExpected =
    " (expected a number with an optional unit us, ms, s, m, h or d, e.g. "
    "90s, 1.5m, 250ms)";

std::string ErrorOf(std::string_view text) {
  Result<Duration> d = ParseDuration(text);
  return d.ok() ? "ok" : ToString(d.error());
}

std::string Invalid(std::string_view text, std::string_view why) {
  return "ValidationException: invalid duration '" + std::string(text) +
         "': " + std::string(why) + std::string(kExpected);
}

std::string JsonErrorOf(const Json& value) {
  Result<Duration> d = DurationFromJson(value);
  return d.ok() ? "ok" : ToString(d.error());
}

TEST(ParseDurationTest, EveryUnit) {
  EXPECT_EQ(*ParseDuration("7us"), microseconds(7));
  EXPECT_EQ(*ParseDuration("250ms"), milliseconds(250));
  EXPECT_EQ(*ParseDuration("90s"), seconds(90));
  EXPECT_EQ(*ParseDuration("15m"), minutes(15));
  EXPECT_EQ(*ParseDuration("2h"), hours(2));
  EXPECT_EQ(*ParseDuration("3d"), hours(72));
}

TEST(ParseDurationTest, BareNumbersAreSeconds) {
  EXPECT_EQ(*ParseDuration("42"), seconds(42));
  EXPECT_EQ(*ParseDuration("0"), Duration::zero());
  EXPECT_EQ(*ParseDuration("0ms"), Duration::zero());
  EXPECT_EQ(*ParseDuration("007s"), seconds(7));
  EXPECT_EQ(*ParseDuration("1.5"), milliseconds(1500));
}

TEST(ParseDurationTest, DecimalsAreExact) {
  EXPECT_EQ(*ParseDuration("1.5s"), milliseconds(1500));
  EXPECT_EQ(*ParseDuration("0.25"), milliseconds(250));
  EXPECT_EQ(*ParseDuration("1.5m"), seconds(90));
  EXPECT_EQ(*ParseDuration("0.5h"), minutes(30));
  EXPECT_EQ(*ParseDuration("1.25d"), hours(30));
  EXPECT_EQ(*ParseDuration("2.5ms"), microseconds(2500));
  EXPECT_EQ(*ParseDuration("1.5us"), nanoseconds(1500));
  // The finest each unit allows: one nanosecond...
  EXPECT_EQ(*ParseDuration("0.000000001s"), nanoseconds(1));
  EXPECT_EQ(*ParseDuration("0.000001ms"), nanoseconds(1));
  EXPECT_EQ(*ParseDuration("0.001us"), nanoseconds(1));
  EXPECT_EQ(*ParseDuration("0.000000001m"), nanoseconds(60));
  EXPECT_EQ(*ParseDuration("0.000000001d"), nanoseconds(86400));
  // ...and trailing zeros do not count.
  EXPECT_EQ(*ParseDuration("1.500000000000s"), milliseconds(1500));
  EXPECT_EQ(*ParseDuration("2.0h"), hours(2));
}

TEST(ParseDurationTest, AtMostAHundredYears) {
  EXPECT_EQ(*ParseDuration("36500d"), hours(24 * 36500));
  EXPECT_EQ(*ParseDuration("3153600000"), hours(24 * 36500));
  EXPECT_EQ(ErrorOf("36501d"), Invalid("36501d", "longer than 100 years"));
  EXPECT_EQ(ErrorOf("36500.5d"), Invalid("36500.5d", "longer than 100 years"));
  EXPECT_EQ(ErrorOf("3153600001"),
            Invalid("3153600001", "longer than 100 years"));
  EXPECT_EQ(ErrorOf("99999999999999999999us"),
            Invalid("99999999999999999999us", "longer than 100 years"));
}

TEST(ParseDurationTest, EachErrorSaysWhy) {
  EXPECT_EQ(ErrorOf(""), Invalid("", "empty"));
  EXPECT_EQ(ErrorOf("s"), Invalid("s", "no number"));
  EXPECT_EQ(ErrorOf(".5s"), Invalid(".5s", "no number"));
  EXPECT_EQ(ErrorOf("-1s"), Invalid("-1s", "no number"));
  EXPECT_EQ(ErrorOf("+1s"), Invalid("+1s", "no number"));
  EXPECT_EQ(ErrorOf(" 1s"), Invalid(" 1s", "no number"));
  EXPECT_EQ(ErrorOf("1.s"), Invalid("1.s", "no digit after '.'"));
  EXPECT_EQ(ErrorOf("1."), Invalid("1.", "no digit after '.'"));
  EXPECT_EQ(ErrorOf("5x"), Invalid("5x", "unknown unit 'x'"));
  EXPECT_EQ(ErrorOf("5 minutes"),
            Invalid("5 minutes", "unknown unit ' minutes'"));
  EXPECT_EQ(ErrorOf("5S"), Invalid("5S", "unknown unit 'S'"));
  EXPECT_EQ(ErrorOf("1e3s"), Invalid("1e3s", "unknown unit 'e3s'"));
  EXPECT_EQ(ErrorOf("1m30s"), Invalid("1m30s", "unknown unit 'm30s'"));
  EXPECT_EQ(ErrorOf("1.2.3s"), Invalid("1.2.3s", "unknown unit '.3s'"));
  EXPECT_EQ(ErrorOf("5ns"), Invalid("5ns", "unknown unit 'ns'"));
  EXPECT_EQ(ErrorOf("0.0001us"),
            Invalid("0.0001us", "finer than a nanosecond"));
  EXPECT_EQ(ErrorOf("0.0000000001s"),
            Invalid("0.0000000001s", "finer than a nanosecond"));
  EXPECT_EQ(ErrorOf("0.0000001ms"),
            Invalid("0.0000001ms", "finer than a nanosecond"));
}

TEST(DurationFromJsonTest, StringsFollowTheGrammar) {
  EXPECT_EQ(*DurationFromJson(Json("1.5s")), milliseconds(1500));
  EXPECT_EQ(*DurationFromJson(Json("2")), seconds(2));
  EXPECT_EQ(JsonErrorOf(Json("soon")), Invalid("soon", "no number"));
}

TEST(DurationFromJsonTest, NumbersAreSeconds) {
  EXPECT_EQ(*DurationFromJson(Json(2)), seconds(2));
  EXPECT_EQ(*DurationFromJson(Json(0)), Duration::zero());
  EXPECT_EQ(*DurationFromJson(Json(uint64_t{3153600000})), hours(24 * 36500));
  EXPECT_EQ(*DurationFromJson(Json(60.5)), milliseconds(60500));
  EXPECT_EQ(*DurationFromJson(Json(0.1)), milliseconds(100));
  EXPECT_EQ(*DurationFromJson(Json(1e-10)), Duration::zero());  // rounded
  EXPECT_EQ(*DurationFromJson(Json(-0.0)), Duration::zero());
  EXPECT_EQ(JsonErrorOf(Json(-5)),
            "ValidationException: invalid duration -5: negative");
  EXPECT_EQ(JsonErrorOf(Json(-0.5)),
            "ValidationException: invalid duration -0.5: negative");
  EXPECT_EQ(JsonErrorOf(Json(3153600001)),
            "ValidationException: invalid duration 3153600001: longer than "
            "100 years");
  EXPECT_EQ(JsonErrorOf(Json(1e300)),
            "ValidationException: invalid duration 1e+300: longer than 100 "
            "years");
}

TEST(DurationFromJsonTest, OtherTypesAreRefused) {
  const std::string expected =
      "ValidationException: expected a duration such as \"90s\" or "
      "\"1.5m\", or a number of seconds, got ";
  EXPECT_EQ(JsonErrorOf(Json(true)), expected + "true");
  EXPECT_EQ(JsonErrorOf(Json()), expected + "null");
  EXPECT_EQ(JsonErrorOf(Json::array({1})), expected + "[1]");
  EXPECT_EQ(JsonErrorOf(Json{{"s", std::string(80, 'x')}}),
            expected + "{\"s\":\"" + std::string(51, 'x') + "...");
}

TEST(DurationTextTest, LargestUnitThatDivides) {
  EXPECT_EQ(DurationText(Duration::zero()), "0s");
  EXPECT_EQ(DurationText(hours(48)), "2d");
  EXPECT_EQ(DurationText(hours(49)), "49h");
  EXPECT_EQ(DurationText(minutes(90)), "90m");
  EXPECT_EQ(DurationText(seconds(90)), "90s");
  EXPECT_EQ(DurationText(milliseconds(1500)), "1500ms");
  EXPECT_EQ(DurationText(microseconds(1500)), "1500us");
  EXPECT_EQ(DurationText(nanoseconds(1500)), "1.5us");
  EXPECT_EQ(DurationText(nanoseconds(1)), "0.001us");
}

TEST(DurationTextTest, ReadsBackExactly) {
  for (Duration d :
       {Duration(hours(24 * 36500)), Duration(minutes(7)),
        Duration(milliseconds(1)), Duration(nanoseconds(123456789)),
        Duration(nanoseconds(86400000000001)), Duration(nanoseconds(10))}) {
    Result<Duration> back = ParseDuration(DurationText(d));
    ASSERT_TRUE(back.ok()) << DurationText(d);
    EXPECT_EQ(*back, d) << DurationText(d);
  }
}

}  // namespace
}  // namespace ddblab
