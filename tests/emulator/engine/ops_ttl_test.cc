#include <gtest/gtest.h>

#include <chrono>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::minutes;

Json Spec(bool enabled, const std::string& attr) {
  return {{"Enabled", enabled}, {"AttributeName", attr}};
}

class TtlTest : public EngineTest {
 protected:
  Json Update(bool enabled, const std::string& attr) {
    return Ok("UpdateTimeToLive",
              {{"TableName", "ttl"},
               {"TimeToLiveSpecification", Spec(enabled, attr)}});
  }
  std::string UpdateError(bool enabled, const std::string& attr) {
    return FailText("UpdateTimeToLive",
                    {{"TableName", "ttl"},
                     {"TimeToLiveSpecification", Spec(enabled, attr)}});
  }
  Json DescribeTtl() {
    return Ok("DescribeTimeToLive", {{"TableName", "ttl"}});
  }
};

TEST_F(TtlTest, EnableDescribeDisable) {
  CreateTable("ttl");
  EXPECT_EQ(DescribeTtl(), Json::parse(R"({"TimeToLiveDescription":
                                          {"TimeToLiveStatus": "DISABLED"}})"));
  EXPECT_EQ(Update(true, "expires"), Json::parse(R"({"TimeToLiveSpecification":
                            {"Enabled": true, "AttributeName": "expires"}})"));
  EXPECT_EQ(
      DescribeTtl(),
      Json::parse(R"({"TimeToLiveDescription": {"TimeToLiveStatus": "ENABLED",
                                                      "AttributeName": "expires"}})"));
  EXPECT_EQ(UpdateError(true, "expires"),
            "ValidationException: TimeToLive is already enabled");
  EXPECT_EQ(UpdateError(true, "other"),
            "ValidationException: TimeToLive is active on a different "
            "AttributeName: current AttributeName is expires");
  EXPECT_EQ(Update(false, "expires"), Json::parse(R"({"TimeToLiveSpecification":
                            {"Enabled": false, "AttributeName": "expires"}})"));
  EXPECT_EQ(DescribeTtl()["TimeToLiveDescription"]["TimeToLiveStatus"],
            "DISABLED");
  EXPECT_EQ(UpdateError(false, "expires"),
            "ValidationException: TimeToLive is already disabled");
  // The spec is stored in the table metadata for the TTL layer.
  auto lock = impl().Lock();
  EXPECT_FALSE(impl().catalog().Find("ttl")->table->ttl.enabled);
}

TEST_F(TtlTest, CooldownOnTheClock) {
  Options options;
  options.ttl_update_cooldown = minutes(60);
  Open(options);
  CreateTable("ttl");
  Update(true, "e");
  // Content errors come before the cooldown error.
  EXPECT_EQ(UpdateError(true, "e"),
            "ValidationException: TimeToLive is already enabled");
  EXPECT_EQ(
      UpdateError(false, "e"),
      "ValidationException: Time to live has been modified multiple times "
      "within a fixed interval");
  clock_->Advance(minutes(59));
  EXPECT_EQ(
      UpdateError(false, "e"),
      "ValidationException: Time to live has been modified multiple times "
      "within a fixed interval");
  clock_->Advance(minutes(1));
  Update(false, "e");
}

TEST_F(TtlTest, Errors) {
  EXPECT_EQ(FailText("DescribeTimeToLive", {{"TableName", "nope"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "nope not found");
  EXPECT_EQ(FailText("UpdateTimeToLive",
                     {{"TableName", "nope"},
                      {"TimeToLiveSpecification", Spec(true, "e")}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "nope not found");
  CreateTable("ttl");
  EXPECT_EQ(FailText("UpdateTimeToLive", {{"TableName", "ttl"}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'timeToLiveSpecification' failed to satisfy constraint: Member "
            "must not be null");
  EXPECT_EQ(
      UpdateError(true, std::string(256, 'a')),
      "ValidationException: 1 validation error detected: Value '" +
          std::string(256, 'a') +
          "' at 'timeToLiveSpecification.attributeName' failed to satisfy "
          "constraint: Member must have length less than or equal to 255");
  EXPECT_EQ(FailText("UpdateTimeToLive",
                     {{"TableName", "ttl"},
                      {"TimeToLiveSpecification", Json::object()}}),
            "ValidationException: 2 validation errors detected: Value null at "
            "'timeToLiveSpecification.attributeName' failed to satisfy "
            "constraint: Member must not be null; Value null at "
            "'timeToLiveSpecification.enabled' failed to satisfy constraint: "
            "Member must not be null");
  EXPECT_EQ(
      FailText("UpdateTimeToLive",
               {{"TableName", "ttl"},
                {"TimeToLiveSpecification",
                 {{"Enabled", 1}, {"AttributeName", "e"}}}}),
      "SerializationException: NUMBER_VALUE cannot be converted to Boolean");
}

}  // namespace
}  // namespace ddblab::engine::testing
