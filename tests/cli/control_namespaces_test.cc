// tests/cli/control_namespaces_test.cc: the control API of `ddblab serve
// --namespace access-key`, composed as cli/main.cc composes it and driven
// through the Protocol without a socket: ?namespace= picks the namespace
// (fault plans stay in theirs), its absence is a 400 naming the parameter,
// the clock is global, and GET /_ddblab/namespaces lists what was opened.
#include "cli/control_namespaces.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/control_esm.h"
#include "cli/control_faults.h"
#include "cli/control_reset.h"
#include "cli/control_ttl.h"
#include "cli/emulator_handler.h"
#include "cli/namespace_router.h"
#include "emulator/server/protocol.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

constexpr int64_t kStart = 1700000000;
const Json kPlan = Json::parse(
    R"({"rules": [{"operation": "GetItem", "effect": "internal_error"}]})");

class ControlNamespacesTest : public ::testing::Test {
 protected:
  ControlNamespacesTest()
      : logger_(server::LogLevel::kError, log_),
        auth_(server::AuthConfig{}, date_clock_) {}
  ~ControlNamespacesTest() override {
    if (protocol_) protocol_->extensions().Stop();
    protocol_.reset();
    handler_.reset();
  }

  void Start() {
    ServeConfig config;
    config.clock = "manual=" + std::to_string(kStart);
    config.namespaces = NamespaceMode::kAccessKey;
    server::ServeHooks hooks;
    hooks.open = &EmulatorHandler::Open;
    for (auto add : {&AddTtlControl, &AddFaultControl, &AddEsmControl,
                     &AddResetControl, &AddNamespaceControl}) {
      ASSERT_TRUE(add(config, hooks).ok());
    }
    Options options;  // as RunServe fills them: the hooks' clock
    options.clock = hooks.clock;
    auto handler = hooks.open(options);
    ASSERT_TRUE(handler.ok()) << ToString(handler.error());
    handler_ = std::move(*handler);
    protocol_ = std::make_unique<server::Protocol>(
        *handler_, auth_, date_clock_, logger_, server::ProtocolConfig{});
    ASSERT_TRUE(hooks.add_routes(*handler_, *protocol_).ok());
  }

  struct Answer {
    int status;
    Json body;
  };
  Answer Send(std::string method, std::string path, std::string query,
              std::string body = "") {
    server::WireRequest r;
    r.method = std::move(method);
    r.path = std::move(path);
    r.query = std::move(query);
    r.headers = {{"Content-Type", "application/json"}};
    r.body = body;
    server::WireResponse response = protocol_->Handle(r);
    return {response.status, Json::parse(response.body, nullptr, false)};
  }
  Result<Json> GetItemAs(const std::string& key) {
    return handler_
        ->CallAs({key, "us-east-1"}, "GetItem",
                 {{"TableName", "orders"}, {"Key", {{"pk", {{"S", "a"}}}}}})
        .result;
  }

  ManualClock date_clock_;
  std::ostringstream log_;
  server::Logger logger_;
  server::Authenticator auth_;
  std::unique_ptr<server::RequestHandler> handler_;
  std::unique_ptr<server::Protocol> protocol_;
};

TEST_F(ControlNamespacesTest, AFaultPlanStaysInItsNamespace) {
  Start();
  Answer posted = Send("POST", "/_ddblab/faults", "namespace=A", kPlan.dump());
  ASSERT_EQ(posted.status, 200) << posted.body;
  EXPECT_EQ(posted.body["rules"].size(), 1u);
  Answer other = Send("GET", "/_ddblab/faults", "namespace=B");
  EXPECT_EQ(other.status, 200);
  EXPECT_EQ(other.body, Json::parse(R"({"rules": []})"));

  Result<Json> a = GetItemAs("A");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().type, ErrorType::kInternalServerError);
  Result<Json> b = GetItemAs("B");  // no table there, but no fault either
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().type, ErrorType::kResourceNotFound);
  EXPECT_EQ(
      Send("GET", "/_ddblab/faults/log", "namespace=A").body["faults"].size(),
      1u);
  EXPECT_EQ(Send("GET", "/_ddblab/faults/log", "namespace=B").body,
            Json::parse(R"({"faults": []})"));

  Answer mappings =
      Send("GET", "/_ddblab/event-source-mappings", "namespace=A");
  EXPECT_EQ(mappings.status, 200);
  EXPECT_EQ(mappings.body, Json::parse(R"({"EventSourceMappings": []})"));

  Answer listed = Send("GET", "/_ddblab/namespaces", "");
  EXPECT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body, Json::parse(R"({"mode": "access-key", "namespaces": [
      {"name": "A", "access_key": "A"}, {"name": "B", "access_key": "B"}]})"));
}

TEST_F(ControlNamespacesTest, WithoutNamespaceIsA400NamingTheParameter) {
  Start();
  Answer missing = Send("POST", "/_ddblab/faults", "", kPlan.dump());
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body,
            (Json{{"type", "ValidationException"},
                  {"message",
                   "this server keeps a namespace per access key "
                   "(--namespace access-key): add ?namespace=ACCESS_KEY to "
                   "/_ddblab/faults"}}));
  Answer wrong = Send("GET", "/_ddblab/ttl", "namespace=A%3Aus-east-1");
  EXPECT_EQ(wrong.status, 400);
  EXPECT_EQ(wrong.body["message"],
            "invalid ?namespace=A:us-east-1: this server keeps a namespace "
            "per access key (--namespace access-key): give the access key "
            "alone, e.g. ?namespace=AKID");
  // A prefix route (hosted mappings) needs it too.
  EXPECT_EQ(Send("GET", "/_ddblab/event-source-mappings", "").status, 400);
  // Nothing was opened by the refusals.
  EXPECT_EQ(Send("GET", "/_ddblab/namespaces", "").body["namespaces"],
            Json::array());
}

TEST_F(ControlNamespacesTest, TheClockIsGlobal) {
  Start();
  ASSERT_EQ(Send("GET", "/_ddblab/ttl", "namespace=A").status, 200);
  Answer moved = Send("POST", "/_ddblab/clock", "", R"({"advance": "90s"})");
  ASSERT_EQ(moved.status, 200) << moved.body;
  EXPECT_EQ(moved.body, (Json{{"now", kStart + 90}, {"deleted", 0}}));
  EXPECT_EQ(Send("GET", "/_ddblab/clock", "").body,
            (Json{{"now", kStart + 90}, {"mode", "manual"}}));
  EXPECT_EQ(Send("GET", "/_ddblab/ttl", "namespace=B").body["now"],
            kStart + 90);
  Answer reset =
      Send("POST", "/_ddblab/reset", "namespace=A", R"({"clock": 1600000000})");
  EXPECT_EQ(reset.status, 400);
  EXPECT_EQ(reset.body["message"],
            "\"clock\": the clock is shared by every namespace; move it with "
            "POST /_ddblab/clock");
  EXPECT_EQ(Send("POST", "/_ddblab/reset", "namespace=A", "{}").status, 200);
}

}  // namespace
}  // namespace ddblab::cli
