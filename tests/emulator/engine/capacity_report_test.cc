// The capacity report (Emulator::CapacityReport, GET /_ddblab/capacity):
// entries of deleted tables and GSIs are dropped, and a table created again
// under the same name starts with fresh buckets and an empty series.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/capacity_test_util.h"

namespace ddblab::engine::testing {
namespace {

using CapacityReportTest = CapacityTest;

TEST_F(CapacityReportTest, DeletedGsiAndTableLeaveTheReport) {
  Create(10000, 10000, /*gsi_write=*/10);
  Json item = Item("k");
  item["g"] = S("x");
  Ok("PutItem", {{"TableName", "Tbl"}, {"Item", item}});
  Json report = emu_->CapacityReport();
  ASSERT_EQ(report["Tables"].size(), 1u);
  ASSERT_EQ(report["Tables"][0]["GlobalSecondaryIndexes"].size(), 1u);
  EXPECT_EQ(report["Tables"][0]["GlobalSecondaryIndexes"][0]["IndexName"],
            "ByG");
  Ok("UpdateTable", {{"TableName", "Tbl"},
                     {"GlobalSecondaryIndexUpdates",
                      Json::array({{{"Delete", {{"IndexName", "ByG"}}}}})}});
  report = emu_->CapacityReport();
  ASSERT_EQ(report["Tables"].size(), 1u);
  EXPECT_FALSE(report["Tables"][0].contains("GlobalSecondaryIndexes"));
  EXPECT_EQ(report["Tables"][0]["TableName"], "Tbl");
  Ok("DeleteTable", {{"TableName", "Tbl"}});
  EXPECT_EQ(emu_->CapacityReport(),
            Json({{"Enforced", true}, {"Tables", Json::array()}}));
}

TEST_F(CapacityReportTest, ATableCreatedAgainStartsAfresh) {
  Create(10000, 5);
  Spend(1500);
  ExpectTableThrottle(Put("x"));
  Ok("DeleteTable", {{"TableName", "Tbl"}});
  Create(10000, 5);
  EXPECT_EQ(emu_->CapacityReport()["Tables"], Json::array());
  Spend(1500, "n");  // a full burst again
  Json report = emu_->CapacityReport();
  ASSERT_EQ(report["Tables"].size(), 1u);
  // Only the new table's second, and none of the old throttles.
  EXPECT_EQ(report["Tables"][0]["Write"]["Consumed"],
            Json::array({{{"Second", ManualClock::kDefaultStartEpochSeconds},
                          {"Units", 1500.0}}}));
  EXPECT_EQ(report["Tables"][0]["ThrottledRequests"], Json::object());
  ExpectTableThrottle(Put("x"));
}

}  // namespace
}  // namespace ddblab::engine::testing
