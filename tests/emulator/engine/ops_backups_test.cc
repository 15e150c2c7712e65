// DescribeContinuousBackups / UpdateContinuousBackups: shapes, errors and
// the point-in-time recovery setting kept per table across a reopen.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

using BackupsTest = EngineTest;

Json Disabled() {
  return Json::parse(R"({"ContinuousBackupsDescription":{
      "ContinuousBackupsStatus":"ENABLED",
      "PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":"DISABLED"}}})");
}

TEST_F(BackupsTest, DescribeAndUpdate) {
  CreateTable("pitr");
  CreateTable("other");
  EXPECT_EQ(Ok("DescribeContinuousBackups", {{"TableName", "pitr"}}),
            Disabled());
  const double t0 = ToEpochSecondsDouble(clock_->Now());
  Json on =
      Ok("UpdateContinuousBackups", {{"TableName", "pitr"},
                                     {"PointInTimeRecoverySpecification",
                                      {{"PointInTimeRecoveryEnabled", true}}}});
  Json want = Json::parse(R"({"ContinuousBackupsDescription":{
      "ContinuousBackupsStatus":"ENABLED",
      "PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":"ENABLED",
        "RecoveryPeriodInDays":35}}})");
  auto& d =
      want["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"];
  d["EarliestRestorableDateTime"] = t0;
  d["LatestRestorableDateTime"] = t0;
  EXPECT_EQ(on, want);
  clock_->Advance(std::chrono::hours(1));
  d["LatestRestorableDateTime"] = t0 + 3600 - 300;
  EXPECT_EQ(Ok("DescribeContinuousBackups", {{"TableName", "pitr"}}), want);
  // Kept per table; by ARN too.
  EXPECT_EQ(Ok("DescribeContinuousBackups", {{"TableName", "other"}}),
            Disabled());
  EXPECT_EQ(
      Ok("DescribeContinuousBackups",
         {{"TableName", "arn:aws:dynamodb:us-east-1:000000000000:table/pitr"}}),
      want);
  Json days = Ok(
      "UpdateContinuousBackups",
      {{"TableName", "pitr"},
       {"PointInTimeRecoverySpecification",
        {{"PointInTimeRecoveryEnabled", true}, {"RecoveryPeriodInDays", 7}}}});
  EXPECT_EQ(days["ContinuousBackupsDescription"]
                ["PointInTimeRecoveryDescription"]["RecoveryPeriodInDays"],
            7);
  EXPECT_EQ(Ok("UpdateContinuousBackups",
               {{"TableName", "pitr"},
                {"PointInTimeRecoverySpecification",
                 {{"PointInTimeRecoveryEnabled", false}}}}),
            Disabled());
  EXPECT_EQ(Ok("DescribeContinuousBackups", {{"TableName", "pitr"}}),
            Disabled());
}

TEST_F(BackupsTest, Errors) {
  CreateTable("pitr");
  EXPECT_EQ(FailText("DescribeContinuousBackups", {{"TableName", "nope"}}),
            "TableNotFoundException: Table not found: nope");
  EXPECT_EQ(FailText("UpdateContinuousBackups",
                     {{"TableName", "nope"},
                      {"PointInTimeRecoverySpecification",
                       {{"PointInTimeRecoveryEnabled", true}}}}),
            "TableNotFoundException: Table not found: nope");
  EXPECT_EQ(Fail("DescribeContinuousBackups", Json::object()).type,
            ErrorType::kValidation);
  EXPECT_EQ(FailText("UpdateContinuousBackups", {{"TableName", "pitr"}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'pointInTimeRecoverySpecification' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(FailText("UpdateContinuousBackups",
                     {{"TableName", "pitr"},
                      {"PointInTimeRecoverySpecification",
                       {{"PointInTimeRecoveryEnabled", true},
                        {"RecoveryPeriodInDays", 36}}}}),
            "ValidationException: 1 validation error detected: Value '36' at "
            "'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed "
            "to satisfy constraint: Member must have value less than or equal "
            "to 35");
  // Nothing changed.
  EXPECT_EQ(Ok("DescribeContinuousBackups", {{"TableName", "pitr"}}),
            Disabled());
}

TEST_F(BackupsTest, SettingSurvivesReopen) {
  const std::string dir =
      ::testing::TempDir() + "pitr_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = dir + "/ddb.sqlite";
  Open(options);
  CreateTable("kept");
  Ok("UpdateContinuousBackups", {{"TableName", "kept"},
                                 {"PointInTimeRecoverySpecification",
                                  {{"PointInTimeRecoveryEnabled", true}}}});
  Json before = Ok("DescribeContinuousBackups", {{"TableName", "kept"}});
  Open(options);
  EXPECT_EQ(Ok("DescribeContinuousBackups", {{"TableName", "kept"}}), before);
  emu_.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ddblab::engine::testing
