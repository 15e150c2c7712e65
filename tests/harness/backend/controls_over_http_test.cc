// The control calls of the HTTP backend on `ddblab serve`
// (contract.ddblab_controls): a manual clock and TTL sweeps, consistency
// settings, fault plans, a namespaced server, and signing with the server's
// manual clock.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "harness/backend/backend.h"
#include "harness/backend/http_backend.h"
#include "tests/harness/backend/test_servers.h"

namespace ddblab::harness {
namespace {

using nlohmann::json;

// A backend over `ddblab serve --clock manual` (started once for the
// binary), with the test credentials; nullopt (and *skip) without a server.
std::optional<Result<std::unique_ptr<Backend>>> OpenManualClockServer(
    std::string* skip) {
  auto endpoint = testing::DdblabManualClockEndpoint(1800000000, skip);
  if (!endpoint) return std::nullopt;
  BackendOptions options;
  options.environment = AwsEnvironment::FromMap({});
  options.credentials =
      AwsCredentials{testing::kAccessKeyId, testing::kSecretAccessKey, "", ""};
  return OpenBackend(*endpoint, options);
}

// A backend of key `access_key` over `endpoint` (no retries).
Result<std::unique_ptr<Backend>> OpenAs(const std::string& endpoint,
                                        const std::string& access_key) {
  BackendOptions options;
  options.environment = AwsEnvironment::FromMap({});
  options.credentials = AwsCredentials{access_key, "secret", "", ""};
  options.retry = RetryPolicy::Off();
  return OpenBackend(endpoint, options);
}

json ListedTables(Backend& b) {
  auto listed = b.Call("ListTables", json::object());
  return listed.ok() ? (*listed)["TableNames"] : json(ToString(listed.error()));
}

// `ddblab serve --namespace access-key`: each HttpBackend's control calls
// name its own namespace (?namespace=KEY), so a fault plan and a reset act
// on its key's tables only; its startup line names the mode.
TEST(DdblabControlsOverHttpTest, NamespacedServerControlsOwnNamespace) {
  std::string skip;
  const testing::ChildServer* server =
      testing::DdblabNamespacedServer(1800000000, &skip);
  ASSERT_NE(server, nullptr) << skip;
  EXPECT_NE(server->first_line().find("auth accept, namespace access-key)"),
            std::string::npos)
      << server->first_line();
  auto alice = OpenAs(server->endpoint(), "alice");
  auto bob = OpenAs(server->endpoint(), "bob");
  ASSERT_TRUE(alice.ok()) << ToString(alice.error());
  ASSERT_TRUE(bob.ok()) << ToString(bob.error());
  json create = {
      {"TableName", "orders"},
      {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
      {"AttributeDefinitions",
       {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
      {"BillingMode", "PAY_PER_REQUEST"}};
  for (auto* b : {&**alice, &**bob}) {
    auto created = b->Call("CreateTable", create);
    ASSERT_TRUE(created.ok()) << ToString(created.error());
  }
  ASSERT_TRUE((*alice)
                  ->SetFaultPlan(json::parse(R"({"rules": [
      {"operation": "PutItem", "nth": [1], "effect": "throttle"}]})"))
                  .ok());
  json put = {{"TableName", "orders"}, {"Item", {{"pk", {{"S", "a"}}}}}};
  auto throttled = (*alice)->Call("PutItem", put);
  ASSERT_FALSE(throttled.ok());
  EXPECT_EQ(throttled.error().type, ErrorType::kThrottling);
  auto bobs = (*bob)->Call("PutItem", put);
  EXPECT_TRUE(bobs.ok()) << ToString(bobs.error());

  // Reset empties alice's namespace only; its clock moves the one clock
  // (POST /_ddblab/clock) before the namespace's reset.
  ResetSpec spec;
  spec.clock = FromEpochSeconds(1800000100);
  Status reset = (*alice)->Reset(spec);
  ASSERT_TRUE(reset.ok()) << ToString(reset.error());
  EXPECT_EQ(ListedTables(**alice), json::array());
  EXPECT_EQ(ListedTables(**bob), json::array({"orders"}));
  ASSERT_TRUE((*bob)->SetClock(FromEpochSeconds(1800000100)).ok());
  Status back = (*alice)->SetClock(FromEpochSeconds(1800000000));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.error().message,
            "cannot move the clock backwards: now is 1800000100, asked for "
            "1800000000");
  spec.clock = FromEpochSeconds(1800000000);
  Status reset_back = (*alice)->Reset(spec);
  ASSERT_FALSE(reset_back.ok());
  EXPECT_EQ(reset_back.error().type, ErrorType::kValidation);
  EXPECT_EQ(reset_back.error().message,
            "the server keeps a namespace per access key, and its one clock "
            "moves forward only: cannot move the clock backwards: now is "
            "1800000100, asked for 1800000000");
}

// --auth verify with a manual clock months from the real time (no
// --auth-skew): HttpBackend signs with the server's clock, follows the
// moves it makes (days) and, when another caller moved the clock, the
// answer's Date (one re-signed attempt).
TEST(DdblabControlsOverHttpTest, SignsWithTheServersManualClock) {
  // A server of its own: the test moves its clock by days.
  testing::ChildServer server;
  ASSERT_EQ(server.Start(
                testing::DdblabServeArgv({"--clock", "manual=1900000000"}), 0),
            "");
  auto open = [&] {
    BackendOptions options;
    options.environment = AwsEnvironment::FromMap({});
    options.credentials = AwsCredentials{testing::kAccessKeyId,
                                         testing::kSecretAccessKey, "", ""};
    return OpenBackend(server.endpoint(), options);
  };
  auto opened = open();
  ASSERT_TRUE(opened.ok()) << ToString(opened.error());
  Backend& b = **opened;
  auto listed = b.Call("ListTables", json::object());
  ASSERT_TRUE(listed.ok()) << ToString(listed.error());
  ASSERT_TRUE(b.AdvanceClock(std::chrono::days(3)).ok());
  listed = b.Call("ListTables", json::object());
  ASSERT_TRUE(listed.ok()) << ToString(listed.error());

  auto other = open();
  ASSERT_TRUE(other.ok()) << ToString(other.error());
  ASSERT_TRUE((*other)->AdvanceClock(std::chrono::days(2)).ok());
  listed = b.Call("ListTables", json::object());
  ASSERT_TRUE(listed.ok()) << ToString(listed.error());
  EXPECT_EQ(dynamic_cast<HttpBackend&>(b).last_attempts(), 1);
  ASSERT_TRUE(b.SweepTtl().ok());
}

// The optional controls over HTTP: `ddblab serve --clock manual` answers
// the health probe as ddblab, so HttpBackend drives its clock and TTL
// sweeps, and sets its fault plans.
TEST(DdblabControlsOverHttpTest, ManualClockAndTtlSweep) {
  std::string skip;
  auto opened = OpenManualClockServer(&skip);
  if (!opened) GTEST_FAIL() << skip;
  ASSERT_TRUE(opened->ok()) << ToString(opened->error());
  Backend& b = ***opened;
  EXPECT_TRUE(b.Has(Capability::kClock));
  EXPECT_TRUE(b.Has(Capability::kTtlSweep));
  EXPECT_TRUE(b.Has(Capability::kStreamShards));
  EXPECT_TRUE(b.Has(Capability::kFaultPlan));
  Status bad = b.SetFaultPlan(
      json::parse(R"({"rules": [{"operation": "PutItem", "effect": "x"}]})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "rules[0].effect: unknown effect \"x\"");

  auto created =
      b.Call("CreateTable",
             {{"TableName", "ttl_over_http"},
              {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
              {"AttributeDefinitions",
               {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
              {"BillingMode", "PAY_PER_REQUEST"}});
  ASSERT_TRUE(created.ok()) << ToString(created.error());
  auto ttl = b.Call("UpdateTimeToLive",
                    {{"TableName", "ttl_over_http"},
                     {"TimeToLiveSpecification",
                      {{"Enabled", true}, {"AttributeName", "exp"}}}});
  ASSERT_TRUE(ttl.ok()) << ToString(ttl.error());
  json item = {{"pk", {{"S", "a"}}}, {"exp", {{"N", "1800000050"}}}};
  ASSERT_TRUE(
      b.Call("PutItem", {{"TableName", "ttl_over_http"}, {"Item", item}}).ok());
  auto swept = b.SweepTtl();
  ASSERT_TRUE(swept.ok()) << ToString(swept.error());
  EXPECT_EQ(*swept, 0);
  // Moving the server's clock past the expiry runs the deletion (the
  // server sweeps what is due when its manual clock moves).
  ASSERT_TRUE(b.AdvanceClock(std::chrono::seconds(60)).ok());
  json key = {{"pk", {{"S", "a"}}}};
  auto got = b.Call("GetItem", {{"TableName", "ttl_over_http"}, {"Key", key}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, json::object());
  // An item written already expired waits for the next sweep.
  json late = {{"pk", {{"S", "b"}}}, {"exp", {{"N", "1800000001"}}}};
  ASSERT_TRUE(
      b.Call("PutItem", {{"TableName", "ttl_over_http"}, {"Item", late}}).ok());
  swept = b.SweepTtl();
  ASSERT_TRUE(swept.ok()) << ToString(swept.error());
  EXPECT_EQ(*swept, 1);
  got = b.Call("GetItem", {{"TableName", "ttl_over_http"},
                           {"Key", {{"pk", {{"S", "b"}}}}}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, json::object());
  Status back = b.SetClock(FromEpochSeconds(1));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.error().type, ErrorType::kValidation);
}

// The TTL rule over HTTP (`ddblab serve --clock manual`, `--ttl-delay 0`):
// an item written already expired reads back while the clock stands, however
// many calls come, and is gone once POST /_ddblab/clock moves it; POST
// /_ddblab/ttl/sweep deletes what is due without a move.
TEST(DdblabControlsOverHttpTest, ExpiredItemReadableUntilTheClockMoves) {
  std::string skip;
  auto opened = OpenManualClockServer(&skip);
  if (!opened) GTEST_FAIL() << skip;
  ASSERT_TRUE(opened->ok()) << ToString(opened->error());
  Backend& b = ***opened;
  const std::string table = "ttl_rule_over_http";
  auto created =
      b.Call("CreateTable",
             {{"TableName", table},
              {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
              {"AttributeDefinitions",
               {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
              {"BillingMode", "PAY_PER_REQUEST"}});
  ASSERT_TRUE(created.ok()) << ToString(created.error());
  ASSERT_TRUE(b.Call("UpdateTimeToLive",
                     {{"TableName", table},
                      {"TimeToLiveSpecification",
                       {{"Enabled", true}, {"AttributeName", "exp"}}}})
                  .ok());
  // The server's clock starts at 1800000000 and only moves forward.
  auto put = [&](const std::string& pk) {
    json item = {{"pk", {{"S", pk}}}, {"exp", {{"N", "1799999990"}}}};
    auto out = b.Call("PutItem", {{"TableName", table}, {"Item", item}});
    ASSERT_TRUE(out.ok()) << ToString(out.error());
  };
  auto present = [&](const std::string& pk) {
    auto got = b.Call("GetItem", {{"TableName", table},
                                  {"Key", {{"pk", {{"S", pk}}}}},
                                  {"ConsistentRead", true}});
    EXPECT_TRUE(got.ok()) << ToString(got.error());
    return got.ok() && got->contains("Item");
  };
  put("a");
  EXPECT_TRUE(present("a"));
  put("b");  // another write: no move, nothing deleted
  EXPECT_TRUE(present("a"));
  auto scanned = b.Call("Scan", {{"TableName", table}});
  ASSERT_TRUE(scanned.ok()) << ToString(scanned.error());
  EXPECT_EQ((*scanned)["Count"], 2);
  ASSERT_TRUE(b.AdvanceClock(std::chrono::seconds(1)).ok());
  EXPECT_FALSE(present("a"));
  EXPECT_FALSE(present("b"));
  // Written after the move: kept until the explicit sweep.
  put("c");
  EXPECT_TRUE(present("c"));
  auto swept = b.SweepTtl();
  ASSERT_TRUE(swept.ok()) << ToString(swept.error());
  EXPECT_EQ(*swept, 1);
  EXPECT_FALSE(present("c"));
}

// The consistency model over HTTP: settings through POST
// /_ddblab/consistency (a refused one keeps its type and message), and
// settle's count.
TEST(DdblabControlsOverHttpTest, ConsistencySettingsAndSettle) {
  std::string skip;
  auto opened = OpenManualClockServer(&skip);
  if (!opened) GTEST_FAIL() << skip;
  ASSERT_TRUE(opened->ok()) << ToString(opened->error());
  Backend& b = ***opened;
  EXPECT_TRUE(b.Has(Capability::kConsistency));
  Status bad = b.SetConsistency({{"read_lag", "2s..1s"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().type, ErrorType::kValidation);
  EXPECT_EQ(bad.error().message,
            "read_lag: invalid lag '2s..1s': the lower end is above the upper "
            "end");
  ASSERT_TRUE(b.SetConsistency({{"index_lag", "5s"}}).ok());
  ASSERT_TRUE(b.Call("CreateTable", json::parse(R"({"TableName": "lagging",
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
               "AttributeDefinitions": [
                 {"AttributeName": "pk", "AttributeType": "S"},
                 {"AttributeName": "g", "AttributeType": "S"}],
               "GlobalSecondaryIndexes": [{"IndexName": "byG",
                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                 "Projection": {"ProjectionType": "ALL"}}],
               "BillingMode": "PAY_PER_REQUEST"})"))
                  .ok());
  for (const char* pk : {"a", "b"}) {
    ASSERT_TRUE(b.Call("PutItem",
                       {{"TableName", "lagging"},
                        {"Item", {{"pk", {{"S", pk}}}, {"g", {{"S", "x"}}}}}})
                    .ok());
  }
  auto settled = b.SettleConsistency();
  ASSERT_TRUE(settled.ok()) << ToString(settled.error());
  EXPECT_EQ(*settled, 2);
  ASSERT_TRUE(b.SetConsistency({{"index_lag", "0"}}).ok());
}

// Retries against real faults: `ddblab serve` throttles the first two
// PutItem calls (a fault plan set through the backend), the standard retry
// policy succeeds on its third attempt, waiting on the backend's ManualClock
// (advanced, never slept); a lost response is "outcome unknown" with retries
// off, and the write it lost was applied.
TEST(DdblabControlsOverHttpTest, FaultPlanThrottlesAndLostResponses) {
  std::string skip;
  auto endpoint = testing::DdblabManualClockEndpoint(1800000000, &skip);
  ASSERT_TRUE(endpoint) << skip;
  auto open = [&](RetryPolicy retry) {
    BackendOptions options;
    options.environment = AwsEnvironment::FromMap({});
    options.credentials = AwsCredentials{testing::kAccessKeyId,
                                         testing::kSecretAccessKey, "", ""};
    options.retry = retry;
    options.clock = std::make_shared<ManualClock>(FromEpochSeconds(1000));
    return OpenBackend(*endpoint, options);
  };
  auto opened = open(RetryPolicy::Standard(7));
  ASSERT_TRUE(opened.ok()) << ToString(opened.error());
  Backend& b = **opened;
  ASSERT_TRUE(
      b.Call("CreateTable",
             {{"TableName", "faulted"},
              {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
              {"AttributeDefinitions",
               {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
              {"BillingMode", "PAY_PER_REQUEST"}})
          .ok());
  ASSERT_TRUE(b.SetFaultPlan(json::parse(R"({"rules": [
      {"operation": "PutItem", "nth": [1, 2], "effect": "throttle"},
      {"operation": "UpdateItem", "nth": [1], "effect": "lost_response"}]})"))
                  .ok());
  const TimePoint before = b.clock().Now();
  auto put = b.Call(
      "PutItem", {{"TableName", "faulted"}, {"Item", {{"pk", {{"S", "a"}}}}}});
  ASSERT_TRUE(put.ok()) << ToString(put.error());
  EXPECT_EQ(dynamic_cast<HttpBackend&>(b).last_attempts(), 3);
  EXPECT_GT(b.clock().Now(), before);  // two backoff waits on the clock

  auto no_retry = open(RetryPolicy::Off());
  ASSERT_TRUE(no_retry.ok());
  auto lost = (*no_retry)->Call(
      "UpdateItem", {{"TableName", "faulted"},
                     {"Key", {{"pk", {{"S", "a"}}}}},
                     {"UpdateExpression", "ADD n :one"},
                     {"ExpressionAttributeValues", {{":one", {{"N", "1"}}}}}});
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.error().type, ErrorType::kOutcomeUnknown);
  auto got = b.Call(
      "GetItem", {{"TableName", "faulted"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)["Item"]["n"], json({{"N", "1"}}));
  Status cleared = b.SetFaultPlan(json());
  ASSERT_TRUE(cleared.ok()) << ToString(cleared.error());
}

}  // namespace
}  // namespace ddblab::harness
