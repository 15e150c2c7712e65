// tests/cli/namespace_router_test.cc: one engine per namespace, picked by
// the caller: two access keys never see each other's tables, the region
// counts only in mode access-key+region, and in mode shared there is no
// router at all (one engine).
#include "cli/namespace_router.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/control_namespaces.h"
#include "cli/emulator_handler.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

const Json kCreateOrders = Json::parse(R"({"TableName": "orders",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "BillingMode": "PAY_PER_REQUEST"})");

class NamespaceRouterTest : public ::testing::Test {
 protected:
  void Open(NamespaceMode mode) {
    Options options;
    options.clock = std::make_shared<ManualClock>(FromEpochSeconds(1000));
    router_ = std::make_unique<NamespaceRouter>(mode, options,
                                                &EmulatorHandler::Open, log_);
  }
  Json Call(const server::Caller& caller, std::string_view op,
            const Json& body) {
    DeferredAnswer answer = router_->CallAs(caller, op, body);
    EXPECT_TRUE(answer.result.ok()) << ToString(answer.result.error());
    return answer.result.ok() ? *answer.result : Json();
  }
  Json Tables(const server::Caller& caller) {
    return Call(caller, "ListTables", Json::object())["TableNames"];
  }

  std::ostringstream log_;
  std::unique_ptr<NamespaceRouter> router_;
};

TEST_F(NamespaceRouterTest, TwoAccessKeysGetTwoEngines) {
  Open(NamespaceMode::kAccessKey);
  const server::Caller a{"A", "us-east-1"}, b{"B", "us-east-1"};
  Call(a, "CreateTable", kCreateOrders);
  EXPECT_EQ(Tables(a), Json::array({"orders"}));
  EXPECT_EQ(Tables(b), Json::array());
  Call(b, "CreateTable", kCreateOrders);
  Call(a, "PutItem",
       {{"TableName", "orders"}, {"Item", {{"pk", {{"S", "from-a"}}}}}});
  EXPECT_EQ(Call(b, "Scan", {{"TableName", "orders"}})["Count"], 0);
  EXPECT_EQ(Call(a, "Scan", {{"TableName", "orders"}})["Count"], 1);
  // The same key from another region is the same namespace.
  EXPECT_EQ(Tables({"A", "eu-west-1"}), Json::array({"orders"}));
  auto list = router_->List();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]->key, (NamespaceKey{"A", ""}));
  EXPECT_EQ(list[1]->key, (NamespaceKey{"B", ""}));
  EXPECT_NE(list[0]->handler.get(), list[1]->handler.get());
}

TEST_F(NamespaceRouterTest, KeyAndRegionModeSeparatesRegions) {
  Open(NamespaceMode::kAccessKeyRegion);
  Call({"A", "us-east-1"}, "CreateTable", kCreateOrders);
  EXPECT_EQ(Tables({"A", "eu-west-1"}), Json::array());
  EXPECT_EQ(Tables({"A", "us-east-1"}), Json::array({"orders"}));
  EXPECT_EQ(router_->List().size(), 2u);
}

TEST_F(NamespaceRouterTest, NoCallerIsAnInternalError) {
  Open(NamespaceMode::kAccessKey);
  Result<Json> out = router_->Call("ListTables", Json::object());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().type, ErrorType::kInternalServerError);
  EXPECT_TRUE(router_->List().empty());
}

TEST(NamespaceSharedTest, SharedModeKeepsOneEngineAndNoRouter) {
  ServeConfig config;  // --namespace shared, the default
  server::ServeHooks hooks;
  hooks.open = &EmulatorHandler::Open;
  ASSERT_TRUE(AddNamespaceControl(config, hooks).ok());
  auto handler = hooks.open(Options{});
  ASSERT_TRUE(handler.ok());
  EXPECT_NE(dynamic_cast<EmulatorHandler*>(handler->get()), nullptr);
  EXPECT_EQ(dynamic_cast<NamespaceRouter*>(handler->get()), nullptr);
}

}  // namespace
}  // namespace ddblab::cli
