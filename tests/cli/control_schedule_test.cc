// tests/cli/control_schedule_test.cc: /_ddblab/schedule (cli/
// control_schedule.h) through a Protocol without a socket, over a
// ScheduleGate in front of a FakeHandler: POST's state and the 400s naming
// the field, 409 when active, GET, the actor done route (and its 400, 404,
// 405), the NDJSON trace, DELETE; the --schedule flag and a bad file.
#include "cli/control_schedule.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "emulator/server/schedule_gate.h"
#include "tests/cli/control_call.h"
#include "tests/emulator/server/fake_handler.h"

namespace ddblab::cli {
namespace {

using Json = nlohmann::json;
using control_test::ControlAnswer;
using control_test::SendControl;

class ControlScheduleTest : public ::testing::Test {
 protected:
  ControlScheduleTest() {
    EXPECT_TRUE(AddScheduleRoutes(gate_, server_.protocol).ok());
  }

  ControlAnswer Send(std::string method, std::string path,
                     std::string body = "") {
    return SendControl(server_.protocol, std::move(method), std::move(path),
                       std::move(body));
  }
  // A 400's message (the status checked).
  std::string Refusal(const std::string& body) {
    ControlAnswer answer = Send("POST", "/_ddblab/schedule", body);
    EXPECT_EQ(answer.status, 400) << answer.body;
    EXPECT_EQ(answer.body["type"], "ValidationException");
    return answer.body.value("message", "");
  }

  server::FakeHandler fake_;
  ManualClock clock_{FromEpochSeconds(1704067200)};
  ManualClock idle_{FromEpochSeconds(1704067200)};
  server::ScheduleGate gate_{fake_, clock_, &clock_, idle_};
  control_test::ProtocolOver server_{gate_};
};

TEST_F(ControlScheduleTest, PostStartsAndAnswersTheState) {
  EXPECT_EQ(Send("GET", "/_ddblab/schedule").body, Json({{"state", "off"}}));
  ControlAnswer started =
      Send("POST", "/_ddblab/schedule",
           R"({"actors": ["a", "b"], "seed": 7, "tick": "1s", "idle": "30s",
               "strategy": "pct:2", "steps": 20})");
  EXPECT_EQ(started.status, 200);
  EXPECT_EQ(started.body, Json::parse(R"({"state": "active", "seed": 7,
      "strategy": "pct:2", "tick": "1s", "idle": "30s", "step": 0,
      "actors": [{"name": "a", "state": "running", "steps": 0},
                 {"name": "b", "state": "running", "steps": 0}]})"));
  EXPECT_EQ(Send("GET", "/_ddblab/schedule").body, started.body);
  ControlAnswer again =
      Send("POST", "/_ddblab/schedule", R"({"actors": ["c"]})");
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.body,
            Json({{"type", "ResourceInUseException"},
                  {"message",
                   "a schedule is already active: DELETE /_ddblab/schedule "
                   "first"}}));
  ControlAnswer deleted = Send("DELETE", "/_ddblab/schedule");
  EXPECT_EQ(deleted.status, 200);
  EXPECT_EQ(deleted.body, Json({{"state", "off"}}));
  // Defaults: seed 0, random, no tick, 10 s idle.
  ControlAnswer defaults =
      Send("POST", "/_ddblab/schedule", R"({"actors": ["c"]})");
  EXPECT_EQ(defaults.status, 200);
  EXPECT_EQ(defaults.body["seed"], 0);
  EXPECT_EQ(defaults.body["strategy"], "random");
  EXPECT_EQ(defaults.body["tick"], "0s");
  EXPECT_EQ(defaults.body["idle"], "10s");
  // A replay: the strategy says so.
  Send("DELETE", "/_ddblab/schedule");
  ControlAnswer replay =
      Send("POST", "/_ddblab/schedule",
           R"({"actors": ["a", "b"], "replay": ["b", "a"]})");
  EXPECT_EQ(replay.status, 200);
  EXPECT_EQ(replay.body["strategy"], "replay");
}

TEST_F(ControlScheduleTest, BadBodiesAreRefusedNamingTheField) {
  EXPECT_EQ(Refusal("{"), "the schedule is not valid JSON");
  EXPECT_EQ(Refusal("[]"), "the schedule must be a JSON object");
  EXPECT_EQ(Refusal("{}"),
            "actors: missing (a list of the access keys the actors sign "
            "with)");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "sed": 7})"),
            "unknown field \"sed\": expected actors, seed, tick, idle, "
            "strategy, steps or replay");
  EXPECT_EQ(Refusal(R"({"actors": "a"})"), "actors: expected a list of names");
  EXPECT_EQ(Refusal(R"({"actors": ["a", 2]})"),
            "actors[1]: expected a string (an access key)");
  EXPECT_EQ(Refusal(R"({"actors": ["a", "a"]})"),
            "actors[1]: \"a\" is listed twice");
  EXPECT_EQ(Refusal(R"({"actors": []})"),
            "actors: give 1 to 64 actor names (the access keys they sign "
            "with)");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "seed": -1})"),
            "seed: expected an integer from 0");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "tick": "1 s"})"),
            "tick: invalid duration '1 s': unknown unit ' s' (expected a "
            "number with an optional unit us, ms, s, m, h or d, e.g. 90s, "
            "1.5m, 250ms)");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "idle": "0"})"),
            "idle: must be more than 0");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "strategy": "exhaustive"})"),
            "strategy exhaustive needs ddblab run");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "strategy": "dfs"})"),
            "strategy: expected random, pct, pct:D with D from 1 to 10 or "
            "exhaustive, got dfs");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "steps": 0})"),
            "steps: expected an integer from 1 to 1000000");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "replay": "a"})"),
            "replay: expected a list of actor names (the actor of each step)");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "replay": ["a", 1]})"),
            "replay[1]: expected a string (an actor's name)");
  EXPECT_EQ(Refusal(R"({"actors": ["a", "b"], "replay": ["a", "b", "c"]})"),
            "replay[2]: \"c\" is not one of the actors");
  EXPECT_EQ(Refusal(R"({"actors": ["a"], "replay": ["a"], "strategy": "pct"})"),
            "replay: a replay follows the recorded actors; give no strategy "
            "or steps with it");
  EXPECT_EQ(Send("GET", "/_ddblab/schedule").body, Json({{"state", "off"}}));
}

TEST_F(ControlScheduleTest, ATickOnASystemClockIsRefused) {
  SystemClock system;
  server::ScheduleGate gate(fake_, system, nullptr, idle_);
  control_test::ProtocolOver server(gate);
  ASSERT_TRUE(AddScheduleRoutes(gate, server.protocol).ok());
  ControlAnswer answer =
      SendControl(server.protocol, "POST", "/_ddblab/schedule",
                  R"({"actors": ["a"], "tick": "1s"})");
  EXPECT_EQ(answer.status, 400);
  EXPECT_EQ(answer.body["message"], "tick needs --clock manual");
}

TEST_F(ControlScheduleTest, DoneEndsAnActorAndTheTraceIsNdjson) {
  ASSERT_EQ(Send("POST", "/_ddblab/schedule/actors/a/done").body["message"],
            "no schedule is active: POST /_ddblab/schedule first");
  ASSERT_EQ(
      Send("POST", "/_ddblab/schedule", R"({"actors": ["a", "b"]})").status,
      200);
  std::thread a([this] {
    EXPECT_TRUE(
        gate_.CallAs({"a", "us-east-1"}, "GetItem", Json{{"TableName", "t"}})
            .result.ok());
  });
  gate_.AwaitHeld("a");
  EXPECT_EQ(Send("GET", "/_ddblab/schedule").body["actors"][0]["state"],
            "held");
  ControlAnswer unknown = Send("POST", "/_ddblab/schedule/actors/zz/done");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(unknown.body["message"],
            "unknown actor \"zz\": the schedule's actors are a, b");
  EXPECT_EQ(Send("GET", "/_ddblab/schedule/actors/b/done").status, 405);
  EXPECT_EQ(Send("POST", "/_ddblab/schedule/actors/b").status, 404);
  ControlAnswer done = Send("POST", "/_ddblab/schedule/actors/%62/done");
  EXPECT_EQ(done.status, 200);
  a.join();
  EXPECT_EQ(done.body["actors"][1], Json::parse(R"({"name": "b",
      "state": "done", "steps": 0})"));

  server::WireRequest request;
  request.method = "GET";
  request.path = "/_ddblab/schedule/trace";
  server::WireResponse trace = server_.protocol.Handle(request);
  EXPECT_EQ(trace.status, 200);
  EXPECT_EQ(trace.content_type, "application/x-ndjson");
  EXPECT_EQ(trace.body,
            "{\"event\":\"start\",\"seed\":0,\"strategy\":\"random\","
            "\"tick\":\"0s\",\"idle\":\"10s\",\"actors\":[\"a\",\"b\"],"
            "\"clock\":1704067200000}\n"
            "{\"event\":\"done\",\"actor\":\"b\",\"steps\":0,"
            "\"clock\":1704067200000}\n"
            "{\"step\":1,\"actor\":\"a\",\"call\":\"GetItem\",\"request\":"
            "{\"TableName\":\"t\"},\"response\":{\"Operation\":\"GetItem\","
            "\"Request\":{\"TableName\":\"t\"}},\"clock\":1704067200000}\n");
  EXPECT_EQ(Send("DELETE", "/_ddblab/schedule").status, 200);
  // The trace stays readable after DELETE, with its end.
  EXPECT_NE(server_.protocol.Handle(request).body.find(
                "{\"event\":\"end\",\"steps\":1}\n"),
            std::string::npos);
}

TEST(ScheduleFlagTest, ABadFileStopsTheServerNamingFileAndField) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(::testing::TempDir()) / "control_schedule_test";
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  auto add = [](ServeConfig config) {
    server::ServeHooks hooks;
    Status status = AddScheduleControl(config, hooks);
    EXPECT_EQ(status.ok(), static_cast<bool>(hooks.schedule));
    return status.ok() ? std::string("ok") : status.error().message;
  };
  ServeConfig config;
  EXPECT_EQ(add(config), "ok");  // no flag: routes only
  config.schedule_file = write("dup.json", R"({"actors": ["a", "a"]})");
  EXPECT_EQ(add(config), "--schedule " + config.schedule_file +
                             ": actors[1]: \"a\" is listed twice");
  config.schedule_file = write("tick.json", R"({"actors": ["a"], "tick": 1})");
  EXPECT_EQ(add(config), "--schedule " + config.schedule_file +
                             ": tick needs --clock manual");
  config.clock = "manual=1704067200";
  EXPECT_EQ(add(config), "ok");
  config.schedule_file = (dir / "missing.json").string();
  EXPECT_EQ(add(config), "--schedule: cannot read " + config.schedule_file);

  auto parsed = ParseCommandLine({"serve", "--schedule", "s.json"});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->serve.schedule_file, "s.json");
  EXPECT_NE(HelpText().find("--schedule FILE"), std::string::npos);
}

}  // namespace
}  // namespace ddblab::cli
