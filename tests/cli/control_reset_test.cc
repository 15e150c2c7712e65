// tests/cli/control_reset_test.cc: POST /_ddblab/reset on `ddblab serve`,
// composed as cli/main.cc composes it (clock, faults, hosted mappings and
// reset on one engine), driven through the Protocol without a socket: what
// is left after a reset (no table, no mapping, no fault plan or log, the
// clock where asked), each field, and the 400s for bad bodies, which change
// nothing.
#include "cli/control_reset.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/control_esm.h"
#include "cli/control_faults.h"
#include "cli/control_streams.h"
#include "cli/control_ttl.h"
#include "cli/emulator_handler.h"
#include "emulator/server/protocol.h"
#include "tests/cli/control_call.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;

constexpr int64_t kStart = 1700000000;

class ServeResetTest : public ::testing::Test {
 protected:
  ServeResetTest()
      : logger_(server::LogLevel::kError, log_),
        auth_(server::AuthConfig{}, date_clock_) {}

  ~ServeResetTest() override {
    if (protocol_) protocol_->extensions().Stop();
    protocol_.reset();
    handler_.reset();
  }

  // What RunServe does between parsing and serving, minus the socket.
  void Start(const std::string& clock = "manual=" + std::to_string(kStart)) {
    ServeConfig config;
    config.clock = clock;
    config.seed = 5;
    config.allow_functions = true;
    server::ServeHooks hooks;
    hooks.open = &EmulatorHandler::Open;
    for (auto add : {&AddTtlControl, &AddStreamsControl, &AddFaultControl,
                     &AddEsmControl, &AddResetControl}) {
      ASSERT_TRUE(add(config, hooks).ok());
    }
    Options options;
    options.seed = config.seed;
    auto handler = hooks.open(options);
    ASSERT_TRUE(handler.ok()) << ToString(handler.error());
    handler_ = std::move(*handler);
    protocol_ = std::make_unique<server::Protocol>(
        *handler_, auth_, date_clock_, logger_, server::ProtocolConfig{});
    ASSERT_TRUE(hooks.add_routes(*handler_, *protocol_).ok());
  }

  using Answer = control_test::ControlAnswer;
  Answer Send(std::string method, std::string path, std::string body = "") {
    return control_test::SendControl(*protocol_, std::move(method),
                                     std::move(path), std::move(body));
  }
  Answer Reset(const Json& body) {
    return Send("POST", "/_ddblab/reset", body.dump());
  }

  Json Call(const std::string& op, const Json& request) {
    Result<Json> out = handler_->Call(op, request);
    EXPECT_TRUE(out.ok()) << op << ": " << ToString(out.error());
    return out.ok() ? *out : Json();
  }
  void CreateOrders() {
    Call("CreateTable", Json::parse(R"({"TableName": "orders",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST",
      "StreamSpecification": {"StreamEnabled": true,
                              "StreamViewType": "NEW_IMAGE"}})"));
  }
  Json Tables() { return Call("ListTables", Json::object())["TableNames"]; }

  ManualClock date_clock_;
  std::ostringstream log_;
  server::Logger logger_;
  server::Authenticator auth_;
  std::unique_ptr<server::RequestHandler> handler_;
  std::unique_ptr<server::Protocol> protocol_;
};

TEST_F(ServeResetTest, LeavesNoTableMappingFaultPlanOrLog) {
  Start();
  CreateOrders();
  Answer plan =
      Send("POST", "/_ddblab/faults",
           R"({"rules": [{"operation": "GetItem", "effect": "throttle"}]})");
  ASSERT_EQ(plan.status, 200) << plan.body;
  Result<Json> throttled = handler_->Call(
      "GetItem", {{"TableName", "orders"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  ASSERT_FALSE(throttled.ok());
  Answer mapping = Send("POST", "/_ddblab/event-source-mappings",
                        Json{{"TableName", "orders"},
                             {"FunctionName", "f"},
                             {"StartingPosition", "LATEST"},
                             {"Function", {{"Command", {"true"}}}}}
                            .dump());
  ASSERT_EQ(mapping.status, 202) << mapping.body;
  ASSERT_EQ(Send("POST", "/_ddblab/clock", R"({"advance": "1h"})").status, 200);

  Answer reset = Reset({{"clock", kStart - 86400}, {"seed", 9}});
  ASSERT_EQ(reset.status, 200) << reset.body;
  EXPECT_EQ(reset.body, Json({{"now", kStart - 86400},
                              {"mode", "manual"},
                              {"seed", 9},
                              {"ttl_delay", "0"},
                              {"stream_shards", 1},
                              {"shard_rollover", "4h"}}));
  EXPECT_EQ(Tables(), Json::array());
  EXPECT_EQ(Send("GET", "/_ddblab/event-source-mappings").body,
            Json({{"EventSourceMappings", Json::array()}}));
  EXPECT_EQ(Send("GET", "/_ddblab/faults").body,
            Json({{"rules", Json::array()}}));
  EXPECT_EQ(Send("GET", "/_ddblab/faults/log").body,
            Json({{"faults", Json::array()}}));
  EXPECT_EQ(Send("GET", "/_ddblab/clock").body,
            Json({{"now", kStart - 86400}, {"mode", "manual"}}));
  // The server goes on: the table again, and the clock moves from there.
  CreateOrders();
  EXPECT_EQ(Tables(), Json::array({"orders"}));
  EXPECT_EQ(Send("POST", "/_ddblab/clock", R"({"advance": "1s"})").body,
            Json({{"now", kStart - 86399}, {"deleted", 0}}));
}

TEST_F(ServeResetTest, SetsEachFieldAndKeepsWhatIsNotGiven) {
  Start();
  Answer reset = Reset({{"ttl_delay", "1m..2m"},
                        {"stream_shards", 4},
                        {"shard_rollover", "off"}});
  ASSERT_EQ(reset.status, 200) << reset.body;
  EXPECT_EQ(reset.body["ttl_delay"], "1m..2m");
  EXPECT_EQ(reset.body["stream_shards"], 4);
  EXPECT_EQ(reset.body["shard_rollover"], "off");
  EXPECT_EQ(reset.body["seed"], 5);      // --seed
  EXPECT_EQ(reset.body["now"], kStart);  // not moved
  EXPECT_EQ(Send("GET", "/_ddblab/ttl").body["delay"], "1m..2m");
  CreateOrders();
  const std::string arn = Call(
      "DescribeTable", {{"TableName", "orders"}})["Table"]["LatestStreamArn"];
  Result<Json> stream =
      handler_->CallStreams("DescribeStream", {{"StreamArn", arn}});
  ASSERT_TRUE(stream.ok());
  EXPECT_EQ((*stream)["StreamDescription"]["Shards"].size(), 4u);
  // An empty body resets and keeps every setting.
  Answer again = Send("POST", "/_ddblab/reset", "");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.body["stream_shards"], 4);
  EXPECT_EQ(again.body["shard_rollover"], "off");
  EXPECT_EQ(Tables(), Json::array());
  EXPECT_EQ(Reset({{"shard_rollover", "90m"}}).body["shard_rollover"], "90m");
  // The one duration grammar: decimals and seconds as a number.
  EXPECT_EQ(Reset({{"shard_rollover", "1.5h"}}).body["shard_rollover"], "90m");
  EXPECT_EQ(Reset({{"shard_rollover", 86400}}).body["shard_rollover"], "1d");
}

TEST_F(ServeResetTest, BadBodiesAre400AndChangeNothing) {
  Start();
  CreateOrders();
  struct Case {
    std::string body;
    std::string message;
  };
  for (const Case& c : {
           Case{"[1]", "the body must be a JSON object"},
           Case{"{", "the body is not valid JSON"},
           Case{R"({"seed": 1, "sede": 2})",
                "unknown field \"sede\": expected \"clock\", \"seed\", "
                "\"ttl_delay\", \"stream_shards\" or \"shard_rollover\""},
           Case{R"({"seed": -1})",
                "invalid value -1 for \"seed\": expected an unsigned integer"},
           Case{R"({"seed": "7"})",
                "invalid value \"7\" for \"seed\": "
                "expected an unsigned integer"},
           Case{R"({"stream_shards": 0})",
                "invalid value 0 for \"stream_shards\": expected a number of "
                "shards from 1 to 1024"},
           Case{R"({"stream_shards": 1025})",
                "invalid value 1025 for \"stream_shards\": expected a number "
                "of shards from 1 to 1024"},
           Case{R"({"ttl_delay": 5})",
                "invalid value 5 for \"ttl_delay\": "
                "expected 0, a duration, a range or "
                "aws"},
           Case{R"({"shard_rollover": true})",
                "invalid value true for \"shard_rollover\": expected a "
                "duration (4h, 90m) or off"},
           Case{R"({"clock": "noon"})",
                "invalid value \"noon\" for \"clock\": expected epoch seconds "
                "from 0 to 9000000000"},
           Case{R"({"clock": -5})",
                "invalid value -5 for \"clock\": expected epoch seconds from 0 "
                "to 9000000000"},
       }) {
    SCOPED_TRACE(c.body);
    Answer bad = Send("POST", "/_ddblab/reset", c.body);
    EXPECT_EQ(bad.status, 400);
    EXPECT_EQ(bad.body, Json({{"message", c.message}}));
  }
  // Messages of the parsers the serve flags use, after the field's name.
  Answer delay = Reset({{"ttl_delay", "soon"}});
  EXPECT_EQ(delay.status, 400);
  EXPECT_TRUE(
      delay.body["message"].get<std::string>().starts_with("\"ttl_delay\": "))
      << delay.body;
  Answer rollover = Reset({{"shard_rollover", "4 hours"}});
  EXPECT_EQ(rollover.status, 400);
  EXPECT_TRUE(rollover.body["message"].get<std::string>().starts_with(
      "\"shard_rollover\": "))
      << rollover.body;
  EXPECT_EQ(Tables(), Json::array({"orders"}));
}

TEST_F(ServeResetTest, AClockOnTheSystemClockIs400) {
  Start("system");
  CreateOrders();
  Answer bad = Reset({{"clock", kStart}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body,
            Json({{"message",
                   "the clock is the system clock; start ddblab serve with "
                   "--clock manual to control it"}}));
  EXPECT_EQ(Tables(), Json::array({"orders"}));
  Answer ok = Reset({{"seed", 3}});
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.body["mode"], "system");
  EXPECT_EQ(Tables(), Json::array());
}

}  // namespace
}  // namespace ddblab::cli
