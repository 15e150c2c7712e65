#include "emulator/engine/ttl/ttl_schedule.h"

#include <gtest/gtest.h>

#include <limits>

#include "emulator/engine/keys.h"

namespace ddblab::engine {
namespace {

using value::AttributeValue;
using value::Item;
using value::Number;

constexpr int64_t kNow = 1704067200;  // 2024-01-01T00:00:00Z

Item WithN(std::string_view text) {
  return Item{{"pk", AttributeValue::S("a")},
              {"exp", AttributeValue::N(*Number::Parse(text))}};
}

// DynamoDB deletes an item whose TTL value is less than now: an item expires
// at the first whole second strictly after its value.
TEST(TtlExpiryTest, ExpiresAtTheFirstWholeSecondAfterItsValue) {
  EXPECT_EQ(TtlExpiry(WithN("1704067200"), "exp"), 1704067201);
  EXPECT_EQ(TtlExpiry(WithN("12345678.1"), "exp"), 12345679);
  EXPECT_EQ(TtlExpiry(WithN("1234567e1"), "exp"), 12345671);
  EXPECT_EQ(TtlExpiry(WithN("1.7040672E9"), "exp"), 1704067201);
  EXPECT_EQ(TtlExpiry(WithN("1704067199.000001"), "exp"), 1704067200);
  EXPECT_EQ(TtlExpiry(WithN("1704067199.999999"), "exp"), 1704067200);
  EXPECT_EQ(TtlExpiry(WithN("-5.5"), "exp"), -5);
  EXPECT_EQ(TtlExpiry(WithN("0"), "exp"), 1);
  EXPECT_EQ(TtlExpiry(WithN("1e100"), "exp"),
            std::numeric_limits<int64_t>::max());
  EXPECT_LT(*TtlExpiry(WithN("-1e100"), "exp"), -kTtlMaxAgeSeconds);
}

TEST(TtlExpiryTest, OnlyATopLevelNumberCounts) {
  EXPECT_EQ(TtlExpiry(WithN("1"), "other"), std::nullopt);
  Item item{{"exp", AttributeValue::S("1704067200")}};
  EXPECT_EQ(TtlExpiry(item, "exp"), std::nullopt);
  item["exp"] = AttributeValue::NS({*Number::Parse("1")});
  EXPECT_EQ(TtlExpiry(item, "exp"), std::nullopt);
  item["exp"] = AttributeValue::Bool(true);
  EXPECT_EQ(TtlExpiry(item, "exp"), std::nullopt);
  item["exp"] = AttributeValue::L({AttributeValue::N(*Number::Parse("1"))});
  EXPECT_EQ(TtlExpiry(item, "exp"), std::nullopt);
  item["exp"] = AttributeValue::M(
      value::AttributeMap{{"exp", AttributeValue::N(*Number::Parse("1"))}});
  EXPECT_EQ(TtlExpiry(item, "exp"), std::nullopt);
}

TEST(TtlEligibleTest, ExpiredByNowAndAtMostFiveYearsOld) {
  // TtlEligible takes the expiry (TtlExpiry): value + 1 for a whole value.
  EXPECT_TRUE(TtlEligible(kNow, kNow));  // the value is now - 1
  EXPECT_TRUE(TtlEligible(kNow - 1, kNow));
  EXPECT_FALSE(TtlEligible(kNow + 1, kNow));  // the value is now: not yet
  // A value of exactly now - five years still counts; one second older not.
  EXPECT_TRUE(TtlEligible(kNow - kTtlMaxAgeSeconds + 1, kNow));
  EXPECT_FALSE(TtlEligible(kNow - kTtlMaxAgeSeconds, kNow));
  EXPECT_FALSE(TtlEligible(162777601, kNow));  // 1975
  EXPECT_EQ(kTtlMaxAgeSeconds, 5 * 31556952);  // std::chrono::years(5)
}

TEST(TtlItemIdTest, UnambiguousAcrossTableAndKeyBoundaries) {
  EXPECT_NE(TtlItemId("ab", "c", ""), TtlItemId("a", "bc", ""));
  EXPECT_NE(TtlItemId("t", "ab", "c"), TtlItemId("t", "a", "bc"));
  EXPECT_EQ(TtlItemId("t", "a", "b"), TtlItemId("t", "a", "b"));
}

TEST(TtlScheduleTest, DueIsExpiryPlusTheItemsDelayNeverBeforeNow) {
  Table table;
  table.name = "t";
  table.ttl.enabled = true;
  table.ttl.attribute = "exp";
  std::string pk = EncodeKeyValue(AttributeValue::S("a"));

  TtlSchedule none(TtlDelay(), 9);
  EXPECT_EQ(none.DueOf(table, pk, "", WithN("1704067300"), kNow), 1704067301);
  // Written already expired: due at the write, not before it.
  EXPECT_EQ(none.DueOf(table, pk, "", WithN("1704067100"), kNow), kNow);
  EXPECT_EQ(none.DueOf(table, pk, "", Item{}, kNow), std::nullopt);
  // Exactly five years old: still scheduled; one second more: never.
  EXPECT_EQ(none.DueOf(table, pk, "",
                       WithN(std::to_string(kNow - kTtlMaxAgeSeconds)), kNow),
            kNow);
  EXPECT_EQ(
      none.DueOf(table, pk, "",
                 WithN(std::to_string(kNow - kTtlMaxAgeSeconds - 1)), kNow),
      std::nullopt);

  TtlSchedule fixed(TtlDelay::Fixed(90), 9);
  EXPECT_EQ(fixed.DueOf(table, pk, "", WithN("1704067300"), kNow), 1704067391);

  TtlDelay uniform = TtlDelay::Uniform(60, 600);
  TtlSchedule ranged(uniform, 9);
  int64_t delay = uniform.SecondsFor(9, TtlItemId("t", pk, ""));
  EXPECT_EQ(ranged.DueOf(table, pk, "", WithN("1704067300"), kNow),
            1704067301 + delay);
  // Saturates instead of overflowing.
  EXPECT_EQ(fixed.DueOf(table, pk, "", WithN("1e100"), kNow),
            std::numeric_limits<int64_t>::max());
}

}  // namespace
}  // namespace ddblab::engine
