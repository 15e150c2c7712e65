#include "emulator/engine/consistency/change_history.h"

#include <gtest/gtest.h>

#include <chrono>

namespace ddblab::engine {
namespace {

using std::chrono::seconds;

TimePoint At(int s) { return TimePoint{} + seconds(s); }

storage::StoredItem Item(const std::string& bytes) {
  return storage::StoredItem{bytes, static_cast<int64_t>(bytes.size())};
}

TEST(ChangeHistoryTest, ARowIsSeenAsItsFirstChangeAfterTheTimeSaysItWas) {
  ChangeHistory h;
  RowKey k{{}, {}, "a", ""};
  h.Record(1, 0, k, std::nullopt, At(10));  // created at 10
  h.Record(1, 0, k, Item("v1"), At(20));    // v1 replaced at 20
  const ChangeHistory::Rows* rows = h.ChangedAfter(1, 0, At(5));
  ASSERT_NE(rows, nullptr);
  const auto* before_create = ChangeHistory::SeenAt(*rows, k, At(5));
  ASSERT_NE(before_create, nullptr);
  EXPECT_FALSE(before_create->has_value());
  const auto* v1 = ChangeHistory::SeenAt(*rows, k, At(15));
  ASSERT_NE(v1, nullptr);
  EXPECT_EQ((*v1)->bytes, "v1");
  EXPECT_EQ(ChangeHistory::SeenAt(*rows, k, At(20)), nullptr);  // current
  EXPECT_EQ(h.ChangedAfter(1, 0, At(20)), nullptr);
}

TEST(ChangeHistoryTest, VisibleTimesNeverGoDownWithinAnIndex) {
  ChangeHistory h;
  EXPECT_EQ(h.Record(1, 2, RowKey{"x", "", "a", ""}, std::nullopt, At(30)),
            At(30));
  // A later write with a shorter lag waits for the earlier one.
  EXPECT_EQ(h.Record(1, 2, RowKey{"x", "", "b", ""}, std::nullopt, At(12)),
            At(30));
  // Another index keeps its own order.
  EXPECT_EQ(h.Record(1, 3, RowKey{"x", "", "b", ""}, std::nullopt, At(12)),
            At(12));
  EXPECT_EQ(h.PendingAfter(1, 2, At(29)), 2u);
  EXPECT_EQ(h.PendingAfter(1, 2, At(30)), 0u);
}

TEST(ChangeHistoryTest, TrimForgetsWhatNoReaderCanSee) {
  ChangeHistory h;
  h.Record(1, 0, RowKey{{}, {}, "a", ""}, Item("v0"), At(10));
  h.Record(1, 0, RowKey{{}, {}, "a", ""}, Item("v1"), At(20));
  h.Record(2, 0, RowKey{{}, {}, "b", ""}, Item("w0"), At(20));
  h.Trim(1, 0, At(10));
  const ChangeHistory::Rows* rows = h.ChangedAfter(1, 0, At(0));
  ASSERT_NE(rows, nullptr);
  EXPECT_EQ(rows->order.size(), 1u);
  const auto* seen =
      ChangeHistory::SeenAt(*rows, RowKey{{}, {}, "a", ""}, At(0));
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ((*seen)->bytes, "v1");  // the oldest kept change
  h.Trim(1, 0, At(20));
  EXPECT_EQ(h.ChangedAfter(1, 0, At(0)), nullptr);
  h.ClearTable(2);
  EXPECT_TRUE(h.empty());
}

}  // namespace
}  // namespace ddblab::engine
