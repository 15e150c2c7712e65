// OpenBackend: the backend string, in-process options and the controls
// (present, or an error saying they are missing).
#include "harness/backend/backend.h"

#include <gtest/gtest.h>

namespace ddblab::harness {
namespace {

using std::chrono::seconds;

TEST(BackendTest, EmulatorWithManualClockHasEveryControl) {
  auto backend =
      OpenBackend("emulator?clock=manual=1800000000&stream_shards=2");
  ASSERT_TRUE(backend.ok()) << ToString(backend.error());
  Backend& b = **backend;
  EXPECT_EQ(b.name(), "emulator");
  EXPECT_TRUE(b.Has(Capability::kClock));
  EXPECT_TRUE(b.Has(Capability::kTtlSweep));
  EXPECT_TRUE(b.Has(Capability::kStreamShards));
  EXPECT_TRUE(b.Has(Capability::kFaultPlan));
  EXPECT_EQ(ToEpochSeconds(b.clock().Now()), 1800000000);
  ASSERT_TRUE(b.AdvanceClock(seconds(90)).ok());
  EXPECT_EQ(ToEpochSeconds(b.clock().Now()), 1800000090);
  ASSERT_TRUE(b.SetClock(FromEpochSeconds(1800000100)).ok());
  EXPECT_EQ(ToEpochSeconds(b.clock().Now()), 1800000100);
  Status back = b.SetClock(FromEpochSeconds(1));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.error().message, "cannot move the clock backwards");
  Status bad = b.SetFaultPlan(
      nlohmann::json::parse(R"({"rules": [{"effect": "thorttle"}]})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "rules[0].effect: unknown effect \"thorttle\"");
  ASSERT_TRUE(b.SetFaultPlan(nlohmann::json::parse(
                                 R"({"rules": [{"operation": "ListTables",
                                                "nth": [1], "effect": "unavailable"}]})"))
                  .ok());
  auto first = b.Call("ListTables", nlohmann::json::object());
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().Name(), "ServiceUnavailable");
  EXPECT_TRUE(b.Call("ListTables", nlohmann::json::object()).ok());
  auto swept = b.SweepTtl();
  ASSERT_TRUE(swept.ok());
  EXPECT_EQ(*swept, 0);
}

// The TTL rule through the harness' in-process backend: its AdvanceClock
// moves the emulator's ManualClock, and only a move (or a sweep) deletes.
TEST(BackendTest, EmulatorTtlDeletionsWaitForAClockMove) {
  auto backend = OpenBackend("emulator?clock=manual=1800000000");
  ASSERT_TRUE(backend.ok()) << ToString(backend.error());
  Backend& b = **backend;
  ASSERT_TRUE(
      b.Call("CreateTable", nlohmann::json::parse(R"({"TableName":"ttl_rule",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "BillingMode":"PAY_PER_REQUEST"})"))
          .ok());
  ASSERT_TRUE(b.Call("UpdateTimeToLive", nlohmann::json::parse(R"({
        "TableName":"ttl_rule", "TimeToLiveSpecification":
        {"Enabled":true, "AttributeName":"exp"}})"))
                  .ok());
  ASSERT_TRUE(
      b.Call("PutItem", nlohmann::json::parse(R"({"TableName":"ttl_rule",
        "Item":{"pk":{"S":"a"},"exp":{"N":"1799999990"}}})"))
          .ok());
  const nlohmann::json get = nlohmann::json::parse(
      R"({"TableName":"ttl_rule","Key":{"pk":{"S":"a"}}})");
  for (int i = 0; i < 2; ++i) {
    auto got = b.Call("GetItem", get);
    ASSERT_TRUE(got.ok()) << ToString(got.error());
    EXPECT_TRUE(got->contains("Item"));  // expired, not yet deleted
  }
  ASSERT_TRUE(b.AdvanceClock(seconds(1)).ok());
  auto got = b.Call("GetItem", get);
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(*got, nlohmann::json::object());
}

TEST(BackendTest, EmulatorStreamShardsAndSplit) {
  auto backend = OpenBackend("emulator?clock=manual&stream_shards=2");
  ASSERT_TRUE(backend.ok());
  Backend& b = **backend;
  auto created =
      b.Call("CreateTable", nlohmann::json::parse(R"({"TableName":"shards",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "BillingMode":"PAY_PER_REQUEST",
        "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}})"));
  ASSERT_TRUE(created.ok()) << ToString(created.error());
  auto split = b.SplitStreamShards("shards");
  ASSERT_TRUE(split.ok()) << ToString(split.error());
  EXPECT_EQ((*split)["closed"].size(), 2u);
  EXPECT_EQ((*split)["created"].size(), 4u);
  auto missing = b.SplitStreamShards("nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().type, ErrorType::kResourceNotFound);
}

// Writes 1 KB items into a table of 1 WCU at one instant until one fails
// (at most `limit` writes); the number written.
int WritesUntilThrottled(Backend& b, int limit, Error* failure) {
  nlohmann::json create = {
      {"TableName", "provisioned"},
      {"AttributeDefinitions",
       {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
      {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
      {"ProvisionedThroughput",
       {{"ReadCapacityUnits", 1}, {"WriteCapacityUnits", 1}}}};
  EXPECT_TRUE(b.Call("CreateTable", create).ok());
  for (int i = 0; i < limit; ++i) {
    nlohmann::json put = {{"TableName", "provisioned"},
                          {"Item", {{"pk", {{"S", "k" + std::to_string(i)}}}}}};
    auto out = b.Call("PutItem", put);
    if (!out.ok()) {
      *failure = out.error();
      return i;
    }
  }
  return limit;
}

TEST(BackendTest, EmulatorCapacityOptionEnforcesThroughput) {
  auto enforced = OpenBackend("emulator?clock=manual&capacity=enforce");
  ASSERT_TRUE(enforced.ok()) << ToString(enforced.error());
  Error failure;
  int written = WritesUntilThrottled(**enforced, 1000, &failure);
  // 1 WCU: a new table's burst allowance (300 s of it, full at creation)
  // and no more, with the clock standing still.
  EXPECT_EQ(written, 300);
  EXPECT_EQ(failure.Name(), "ProvisionedThroughputExceededException");
  EXPECT_EQ(failure.message,
            "The level of configured provisioned throughput for the table was "
            "exceeded. Consider increasing your provisioning level with the "
            "UpdateTable API.");
  auto off = OpenBackend("emulator?clock=manual&capacity=off");
  ASSERT_TRUE(off.ok()) << ToString(off.error());
  EXPECT_EQ(WritesUntilThrottled(**off, 1000, &failure), 1000);
}

TEST(BackendTest, SystemClockEmulatorHasNoClockControl) {
  auto backend = OpenBackend("emulator");
  ASSERT_TRUE(backend.ok());
  EXPECT_FALSE((*backend)->Has(Capability::kClock));
  Status s = (*backend)->AdvanceClock(seconds(1));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().type, ErrorType::kUnknownOperation);
  EXPECT_EQ(s.error().message, "backend emulator has no clock control");
}

TEST(BackendTest, AwsHasNoControlAtAll) {
  BackendOptions options;
  options.environment = AwsEnvironment::FromMap({});
  options.credentials = AwsCredentials{"AKID", "secret", "", ""};
  // Opening does not connect: nothing is sent until the first call.
  auto backend = OpenBackend("aws:eu-west-1", options);
  ASSERT_TRUE(backend.ok()) << ToString(backend.error());
  Backend& b = **backend;
  EXPECT_EQ(b.name(), "aws:eu-west-1");
  for (Capability c :
       {Capability::kClock, Capability::kFaultPlan, Capability::kStreamShards,
        Capability::kTtlSweep, Capability::kReset, Capability::kConsistency,
        Capability::kFaultDraws}) {
    EXPECT_FALSE(b.Has(c));
  }
  EXPECT_EQ(b.AdvanceClock(seconds(1)).error().message,
            "backend aws:eu-west-1 has no clock control");
  EXPECT_EQ(b.SetFaultPlan({}).error().message,
            "backend aws:eu-west-1 has no fault plan control");
  EXPECT_EQ(b.SplitStreamShards("shards").error().message,
            "backend aws:eu-west-1 has no stream shard control");
  EXPECT_EQ(b.SweepTtl().error().message,
            "backend aws:eu-west-1 has no TTL sweep control");
  EXPECT_EQ(b.Reset(ResetSpec{}).error().message,
            "backend aws:eu-west-1 has no reset control");
  EXPECT_EQ(b.SetConsistency({}).error().message,
            "backend aws:eu-west-1 has no consistency control");
  EXPECT_EQ(b.SettleConsistency().error().message,
            "backend aws:eu-west-1 has no consistency control");
  EXPECT_EQ(b.SetFaultDrawHook(nullptr).error().message,
            "backend aws:eu-west-1 has no fault draw control");
}

// index_lag / read_lag open the emulator with those lags; SetConsistency
// changes them (a bad member changes nothing); SettleConsistency makes the
// pending GSI changes visible and counts them.
TEST(BackendTest, EmulatorConsistencyControl) {
  EXPECT_EQ(OpenBackend("emulator?read_lag=2s..1s").error().message,
            "emulator option read_lag: invalid lag '2s..1s': the lower end "
            "is above the upper end");
  auto backend = OpenBackend("emulator?clock=manual&index_lag=2s");
  ASSERT_TRUE(backend.ok()) << ToString(backend.error());
  Backend& b = **backend;
  EXPECT_TRUE(b.Has(Capability::kConsistency));
  ASSERT_TRUE(b.Call("CreateTable", nlohmann::json::parse(R"({
    "TableName": "lagged", "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "g", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [{"IndexName": "byG",
      "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "KEYS_ONLY"}}]})"))
                  .ok());
  const nlohmann::json query = nlohmann::json::parse(R"({"TableName": "lagged",
    "IndexName": "byG", "KeyConditionExpression": "g = :g",
    "ExpressionAttributeValues": {":g": {"S": "x"}}, "Select": "COUNT"})");
  auto put = [&](const char* pk) {
    return b.Call("PutItem",
                  {{"TableName", "lagged"},
                   {"Item", {{"pk", {{"S", pk}}}, {"g", {{"S", "x"}}}}}});
  };
  ASSERT_TRUE(put("a").ok());
  EXPECT_EQ((*b.Call("Query", query))["Count"], 0);
  auto settled = b.SettleConsistency();
  ASSERT_TRUE(settled.ok()) << ToString(settled.error());
  EXPECT_EQ(*settled, 1);
  EXPECT_EQ((*b.Call("Query", query))["Count"], 1);

  Status bad = b.SetConsistency({{"index_lag", "0"}, {"read_lag", "2s..1s"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().type, ErrorType::kValidation);
  EXPECT_EQ(bad.error().message,
            "read_lag: invalid lag '2s..1s': the lower end is above the upper "
            "end");
  ASSERT_TRUE(put("b").ok());  // still 2 s behind: the bad settings did nothing
  EXPECT_EQ((*b.Call("Query", query))["Count"], 1);
  ASSERT_TRUE(b.SetConsistency({{"index_lag", "0"}}).ok());
  // An index shows its changes in write order: c waits behind b.
  ASSERT_TRUE(put("c").ok());
  EXPECT_EQ((*b.Call("Query", query))["Count"], 1);
  ASSERT_TRUE(b.AdvanceClock(seconds(2)).ok());
  EXPECT_EQ((*b.Call("Query", query))["Count"], 3);
  ASSERT_TRUE(put("d").ok());  // nothing pending: visible at once
  EXPECT_EQ((*b.Call("Query", query))["Count"], 4);
}

// Reset empties the emulator and sets the clock (backwards too) and seed.
TEST(BackendTest, EmulatorResetLeavesNoTableAndMovesTheClock) {
  auto backend = OpenBackend("emulator?clock=manual=1800000000");
  ASSERT_TRUE(backend.ok()) << ToString(backend.error());
  Backend& b = **backend;
  EXPECT_TRUE(b.Has(Capability::kReset));
  ASSERT_TRUE(b.Call("CreateTable", nlohmann::json::parse(R"({
    "TableName": "gone", "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]
  })"))
                  .ok());
  ResetSpec spec;
  spec.clock = FromEpochSeconds(1700000000);
  spec.seed = 3;
  ASSERT_TRUE(b.Reset(spec).ok());
  EXPECT_EQ(ToEpochSeconds(b.clock().Now()), 1700000000);
  auto tables = b.Call("ListTables", nlohmann::json::object());
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ((*tables)["TableNames"], nlohmann::json::array());

  auto system = OpenBackend("emulator");
  ASSERT_TRUE(system.ok());
  EXPECT_EQ((*system)->Reset(spec).error().message,
            "backend emulator has no clock control");
  EXPECT_TRUE((*system)->Reset(ResetSpec{}).ok());
}

TEST(BackendTest, AwsNeedsRegionAndCredentials) {
  BackendOptions options;
  options.environment = AwsEnvironment::FromMap({{"HOME", "/nonexistent"}});
  auto no_region = OpenBackend("aws", options);
  ASSERT_FALSE(no_region.ok());
  EXPECT_EQ(no_region.error().message,
            "backend aws: no region (set AWS_REGION or AWS_DEFAULT_REGION, "
            "`region` in ~/.aws/config, or name it: aws:REGION)");
  auto no_credentials = OpenBackend("aws:us-east-1", options);
  ASSERT_FALSE(no_credentials.ok());
  EXPECT_TRUE(
      no_credentials.error().message.starts_with("no AWS credentials found"));
  options.environment =
      AwsEnvironment::FromMap({{"AWS_REGION", "ap-northeast-1"},
                               {"AWS_ACCESS_KEY_ID", "K"},
                               {"AWS_SECRET_ACCESS_KEY", "S"}});
  auto from_env = OpenBackend("aws", options);
  ASSERT_TRUE(from_env.ok()) << ToString(from_env.error());
  EXPECT_EQ((*from_env)->name(), "aws:ap-northeast-1");
}

TEST(BackendTest, BadSpecsAreErrors) {
  auto unknown = OpenBackend("dynamo");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "unknown backend 'dynamo': expected emulator[?options], "
            "http[s]://HOST:PORT, aws or aws:REGION");
  auto option = OpenBackend("emulator?colour=blue");
  ASSERT_FALSE(option.ok());
  EXPECT_EQ(option.error().message,
            "unknown emulator option colour (clock, seed, ttl_delay, "
            "stream_shards, shard_rollover, capacity, index_lag, read_lag, "
            "region, db)");
  auto capacity = OpenBackend("emulator?capacity=always");
  ASSERT_FALSE(capacity.ok());
  EXPECT_EQ(capacity.error().message,
            "emulator option capacity: expected off or enforce, got always");
  auto clock = OpenBackend("emulator?clock=sundial");
  ASSERT_FALSE(clock.ok());
  EXPECT_EQ(clock.error().message,
            "emulator option clock: expected system, manual or "
            "manual=EPOCH_SECONDS, got sundial");
  auto shards = OpenBackend("emulator?stream_shards=x");
  ASSERT_FALSE(shards.ok());
  EXPECT_EQ(shards.error().message,
            "emulator option stream_shards: not a non-negative integer: x");
  // Durations take the one grammar (emulator/api/duration.h).
  EXPECT_TRUE(OpenBackend("emulator?shard_rollover=1.5h").ok());
  auto rollover = OpenBackend("emulator?shard_rollover=4hrs");
  ASSERT_FALSE(rollover.ok());
  EXPECT_EQ(rollover.error().message,
            "emulator option shard_rollover: invalid duration '4hrs': unknown "
            "unit 'hrs' (expected a number with an optional unit us, ms, s, m, "
            "h or d, e.g. 90s, 1.5m, 250ms)");
  auto path = OpenBackend("http://127.0.0.1:1/path");
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.error().message,
            "endpoint must be scheme://host[:port] with no path: "
            "http://127.0.0.1:1/path");
}

}  // namespace
}  // namespace ddblab::harness
