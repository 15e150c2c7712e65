// tests/cli/control_consistency_test.cc: --index-lag / --read-lag reach the
// engine's Options (cli/control_consistency.h), and /_ddblab/consistency
// (GET, POST settings, POST settle) answers through a Protocol without a
// socket, on a manual clock: the status's shape, settings applied and
// refused (the exact 400), and settle's count.
#include "cli/control_consistency.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/emulator_handler.h"
#include "tests/cli/control_call.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;
using control_test::ControlAnswer;
using control_test::SendControl;

class ControlConsistencyTest : public ::testing::Test {
 protected:
  // Opens the engine through the hooks AddConsistencyControl wrapped, on a
  // manual clock, and registers the routes.
  void Start(ConsistencyOptions lags) {
    ServeConfig config;
    config.consistency = lags;
    server::ServeHooks hooks;
    hooks.open = [this](const Options& options) {
      seen_ = options;
      return EmulatorHandler::Open(options);
    };
    ASSERT_TRUE(AddConsistencyControl(config, hooks).ok());
    Options options;
    options.clock = std::make_shared<ManualClock>(FromEpochSeconds(1700000000));
    auto handler = hooks.open(options);
    ASSERT_TRUE(handler.ok()) << handler.error().message;
    handler_ = std::move(*handler);
    server_ = std::make_unique<control_test::ProtocolOver>(*handler_);
    ASSERT_TRUE(hooks.add_routes(*handler_, server_->protocol).ok());
  }

  ControlAnswer Send(std::string method, std::string path,
                     std::string body = "") {
    return SendControl(server_->protocol, std::move(method), std::move(path),
                       std::move(body));
  }

  Json Call(const std::string& op, const Json& request) {
    Result<Json> out = handler_->Call(op, request);
    EXPECT_TRUE(out.ok()) << op << ": " << ToString(out.error());
    return out.ok() ? *out : Json();
  }

  // "orders" (pk) with the GSI "byStatus" (status), and `n` items in it.
  void CreateOrders(int n) {
    Call("CreateTable", Json::parse(R"({"TableName": "orders",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "status",
                                "AttributeType": "S"}],
      "GlobalSecondaryIndexes": [{"IndexName": "byStatus",
        "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}}],
      "BillingMode": "PAY_PER_REQUEST"})"));
    for (int i = 0; i < n; ++i) {
      Call("PutItem", {{"TableName", "orders"},
                       {"Item",
                        {{"pk", {{"S", "o" + std::to_string(i)}}},
                         {"status", {{"S", "open"}}}}}});
    }
  }
  int64_t OpenInIndex() {
    return Call("Query", Json::parse(R"({"TableName": "orders",
      "IndexName": "byStatus", "KeyConditionExpression": "#s = :s",
      "ExpressionAttributeNames": {"#s": "status"},
      "ExpressionAttributeValues": {":s": {"S": "open"}},
      "Select": "COUNT"})"))["Count"]
        .get<int64_t>();
  }

  Options seen_;
  std::unique_ptr<server::RequestHandler> handler_;
  std::unique_ptr<control_test::ProtocolOver> server_;
};

TEST_F(ControlConsistencyTest, FlagsSetTheOptionsAndGetAnswersTheStatus) {
  const ConsistencyOptions lags{
      .index_lag = {std::chrono::seconds(2), std::chrono::seconds(2)},
      .read_lag = {Duration::zero(), std::chrono::seconds(1)}};
  Start(lags);
  EXPECT_EQ(seen_.consistency, lags);
  ControlAnswer status = Send("GET", "/_ddblab/consistency");
  EXPECT_EQ(status.status, 200);
  EXPECT_EQ(status.body, (Json{{"index_lag", "2s"},
                               {"read_lag", "0s..1s"},
                               {"tables", Json::object()},
                               {"pending", Json::object()}}));
}

TEST_F(ControlConsistencyTest, PostAppliesSettingsAndAnswersTheStatus) {
  Start({});
  ControlAnswer set = Send("POST", "/_ddblab/consistency",
                           R"({"read_lag": "1s",
               "tables": {"orders": {"indexes": {"byStatus": "5s"}}}})");
  const Json expected{
      {"index_lag", "0s"},
      {"read_lag", "1s"},
      {"tables", {{"orders", {{"indexes", {{"byStatus", "5s"}}}}}}},
      {"pending", Json::object()}};
  EXPECT_EQ(set.status, 200);
  EXPECT_EQ(set.body, expected);
  EXPECT_EQ(Send("GET", "/_ddblab/consistency").body, expected);
  // A table's null drops its overrides; members left out stay.
  set = Send("POST", "/_ddblab/consistency", R"({"tables": {"orders": null}})");
  EXPECT_EQ(set.status, 200);
  EXPECT_EQ(set.body, (Json{{"index_lag", "0s"},
                            {"read_lag", "1s"},
                            {"tables", Json::object()},
                            {"pending", Json::object()}}));
}

TEST_F(ControlConsistencyTest, BadSettingsAre400AndChangeNothing) {
  Start({});
  ControlAnswer bad = Send("POST", "/_ddblab/consistency",
                           R"({"index_lag": "3s", "read_lag": "2s..1s"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body, (Json{{"type", "ValidationException"},
                            {"message",
                             "read_lag: invalid lag '2s..1s': the lower end "
                             "is above the upper end"}}));
  bad = Send("POST", "/_ddblab/consistency", "{\"read_lag\": ");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body,
            (Json{{"type", "ValidationException"},
                  {"message", "the consistency settings are not valid JSON"}}));
  EXPECT_EQ(Send("GET", "/_ddblab/consistency").body,
            (Json{{"index_lag", "0s"},
                  {"read_lag", "0s"},
                  {"tables", Json::object()},
                  {"pending", Json::object()}}));
  // Another method is answered as any unknown control path.
  server::WireRequest del;
  del.method = "DELETE";
  del.path = "/_ddblab/consistency";
  EXPECT_EQ(server_->protocol.Handle(del).status, 404);
}

TEST_F(ControlConsistencyTest, SettleMakesPendingIndexChangesVisible) {
  ConsistencyOptions lags;
  lags.index_lag = {std::chrono::seconds(2), std::chrono::seconds(2)};
  Start(lags);
  CreateOrders(3);
  EXPECT_EQ(OpenInIndex(), 0);
  EXPECT_EQ(Send("GET", "/_ddblab/consistency").body["pending"],
            (Json{{"orders", {{"byStatus", 3}}}}));
  ControlAnswer settled = Send("POST", "/_ddblab/consistency/settle");
  EXPECT_EQ(settled.status, 200);
  EXPECT_EQ(settled.body, (Json{{"settled", 3}}));
  EXPECT_EQ(OpenInIndex(), 3);
  EXPECT_EQ(Send("GET", "/_ddblab/consistency").body["pending"],
            Json::object());
  EXPECT_EQ(Send("POST", "/_ddblab/consistency/settle").body,
            (Json{{"settled", 0}}));
}

}  // namespace
}  // namespace ddblab::cli
