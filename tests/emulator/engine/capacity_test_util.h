// tests/emulator/engine/capacity_test_util.h: the fixture of the capacity
// enforcement tests (capacity_*_test.cc): an emulator with
// Options.capacity = kEnforce on a ManualClock, a table "Tbl" (hash key pk),
// items of a chosen size, and DynamoDB's throttle texts to compare with.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

inline constexpr char kArn[] =
    "arn:aws:dynamodb:us-east-1:000000000000:table/Tbl";
inline constexpr char kIndexArn[] =
    "arn:aws:dynamodb:us-east-1:000000000000:table/Tbl/index/ByG";
inline constexpr char kTableText[] =
    "The level of configured provisioned throughput for the table was "
    "exceeded. Consider increasing your provisioning level with the "
    "UpdateTable API.";
inline constexpr char kIndexText[] =
    "The level of configured provisioned throughput for one or more global "
    "secondary indexes of the table was exceeded. Consider increasing your "
    "provisioning level for the under-provisioned global secondary indexes "
    "with the UpdateTable API";
inline constexpr char kOnDemandText[] =
    "Throughput exceeds the current capacity of your table or index. DynamoDB "
    "is automatically scaling your table or index so please try again "
    "shortly. If exceptions persist, check if you have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "bp-partition-key-design.html";

inline Json S(const std::string& s) { return {{"S", s}}; }

inline Json Reasons(const char* member, const std::string& reason,
                    const std::string& resource) {
  return {
      {member, Json::array({{{"reason", reason}, {"resource", resource}}})}};
}

class CapacityTest : public EngineTest {
 protected:
  void SetUp() override {
    Options options;
    options.capacity = Capacity::kEnforce;
    Open(std::move(options));
  }

  // Tbl: hash key pk (S); PROVISIONED read/write units, or PAY_PER_REQUEST
  // when both are 0; with a GSI ByG on attribute g when gsi_write > 0.
  void Create(int64_t read, int64_t write, int64_t gsi_write = 0) {
    Json req{{"TableName", "Tbl"},
             {"AttributeDefinitions",
              Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}}})},
             {"KeySchema",
              Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})}};
    if (read == 0 && write == 0) {
      req["BillingMode"] = "PAY_PER_REQUEST";
    } else {
      req["ProvisionedThroughput"] = {{"ReadCapacityUnits", read},
                                      {"WriteCapacityUnits", write}};
    }
    if (gsi_write > 0) {
      req["AttributeDefinitions"].push_back(
          {{"AttributeName", "g"}, {"AttributeType", "S"}});
      req["GlobalSecondaryIndexes"] = Json::array(
          {{{"IndexName", "ByG"},
            {"KeySchema",
             Json::array({{{"AttributeName", "g"}, {"KeyType", "HASH"}}})},
            {"Projection", {{"ProjectionType", "KEYS_ONLY"}}},
            {"ProvisionedThroughput",
             {{"ReadCapacityUnits", 1}, {"WriteCapacityUnits", gsi_write}}}}});
    }
    Ok("CreateTable", req);
  }
  // An item of pk `key` whose size is `bytes` (at least 8).
  static Json Item(const std::string& key, int64_t bytes = 10) {
    // "pk" + key, "p" + payload: size = 2 + |key| + 1 + |payload|.
    const int64_t payload = bytes - 3 - static_cast<int64_t>(key.size());
    return {{"pk", S(key)},
            {"p", S(std::string(static_cast<size_t>(payload), 'x'))}};
  }
  Result<Json> Put(const std::string& key, int64_t bytes = 10) {
    return emu_->Call("PutItem",
                      {{"TableName", "Tbl"}, {"Item", Item(key, bytes)}});
  }
  bool Exists(const std::string& key) {
    // GetItem spends read units: the tests give the table plenty.
    return Ok("GetItem", {{"TableName", "Tbl"}, {"Key", {{"pk", S(key)}}}})
        .contains("Item");
  }
  // Spends `units` single-unit writes on distinct keys (all must pass).
  void Spend(int64_t units, const std::string& prefix = "s") {
    for (int64_t i = 0; i < units; ++i) {
      Result<Json> r = Put(prefix + std::to_string(i));
      ASSERT_TRUE(r.ok()) << "write " << i << ": " << ToString(r.error());
    }
  }
  void ExpectTableThrottle(const Result<Json>& r) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().Name(), "ProvisionedThroughputExceededException");
    EXPECT_EQ(r.error().message, kTableText);
    EXPECT_EQ(r.error().extra,
              Reasons("ThrottlingReasons",
                      "TableWriteProvisionedThroughputExceeded", kArn));
  }
};

}  // namespace ddblab::engine::testing
