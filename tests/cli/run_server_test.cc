// tests/cli/run_server_test.cc: the server `ddblab run` starts for command
// actors (cli/run_server.h), and command runs end to end through
// RunScenarioCommand with it: real programs (python3 with boto3, sh) under
// the server's schedule. Same seed, same trace; a program that hangs
// outside DynamoDB is named; a missing program is exit 2; --replay of a
// recorded run is identical and names the first step a program change
// altered.
#include "cli/run_server.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/backend/http_transport.h"
#include "harness/scenario/run_command.h"
#include "tests/cli/run_fixture.h"

namespace ddblab::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::HasBoto3;
using testing::ReadFile;

class RunServerTest : public testing::RunFixture {
 protected:
  RunServerTest() : RunFixture("run-server-test") {}
};

TEST_F(RunServerTest, StartsOnAFreePortWithAManualClockAndStops) {
  harness::scenario::RunServerSpec spec;
  spec.clock_start = 1704067200;
  spec.seed = 7;
  auto server = start_(spec);
  ASSERT_TRUE(server.ok()) << server.error().message;
  const std::string endpoint = (*server)->endpoint();
  EXPECT_TRUE(endpoint.starts_with("http://127.0.0.1:")) << endpoint;
  EXPECT_FALSE((*server)->control_token().empty());
  {
    harness::BackendOptions options;
    options.credentials = harness::AwsCredentials{"k", "s", "", ""};
    options.control_token = (*server)->control_token();
    options.retry = harness::RetryPolicy::Off();
    auto backend = harness::OpenBackend(endpoint, options);
    ASSERT_TRUE(backend.ok()) << backend.error().message;
    auto tables = (*backend)->Call("ListTables", json::object());
    ASSERT_TRUE(tables.ok()) << tables.error().message;
    EXPECT_EQ(tables->dump(), R"({"TableNames":[]})");
    EXPECT_TRUE((*backend)->Has(harness::Capability::kClock));
    ASSERT_TRUE((*backend)->AdvanceClock(std::chrono::seconds(5)).ok());
  }
  // The clock is the manual one, at the start given.
  auto transport = harness::BeastTransport::Open(endpoint, {});
  ASSERT_TRUE(transport.ok());
  harness::HttpRequest get;
  get.method = "GET";
  get.path = "/_ddblab/clock";
  get.headers = {{"X-Ddblab-Token", (*server)->control_token()}};
  auto clock = (*transport)->Send(get);
  ASSERT_TRUE(clock.ok());
  EXPECT_EQ(json::parse(clock->body)["now"], 1704067205);
  EXPECT_EQ(json::parse(clock->body)["mode"], "manual");
  server->reset();  // stops it
  auto after = (*transport)->Send(get);
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().type, ErrorType::kOutcomeUnknown);
}

TEST_F(RunServerTest, AMissingProgramIsExit2NamingThePath) {
  const std::string file =
      Write("bad.json",
            R"({"name": "bad", "actors": [{"name": "w", "command": ["pythn3"]}],
          "invariants": [{"check": "count", "table": "t", "equals": 0}],
          "expect": "holds"})");
  EXPECT_EQ(Run({file}), 2);
  EXPECT_EQ(err_.str(),
            file + ": actors[0].command[0]: program 'pythn3' not found\n");
}

// The example's program (two boto3 workers, two increments each, a sum
// check: no check program, to keep it short), three times with one seed:
// byte-identical traces (the programs are deterministic given their
// answers).
TEST_F(RunServerTest, TheSameSeedGivesTheSameTraceThreeTimes) {
  if (!HasBoto3()) GTEST_SKIP() << "python3 with boto3 is not installed";
  const std::string program =
      std::string(DDBLAB_SOURCE_DIR) + "/examples/own-code/counter.py";
  const std::string file = Write("same.json", R"({"name": "same",
      "backend": {"tick": "1s"},
      "tables": [{"TableName": "counters",
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST"}],
      "actors": [{"name": "worker", "count": 2,
                  "command": ["python3", ")" + program +
                                                  R"(", "naive", "2"]}],
      "invariants": [{"check": "sum", "table": "counters", "attribute": "n",
                      "equals": 4}],
      "expect": "holds"})");
  std::vector<std::string> traces;
  for (int i = 0; i < 3; ++i) {
    const std::string trace = dir_ + "/t" + std::to_string(i) + ".jsonl";
    const int code = Run({file, "--seed", "3", "--trace", trace});
    ASSERT_LE(code, 1) << err_.str();
    traces.push_back(ReadFile(trace));
    // The programs' output is kept next to the trace.
    EXPECT_TRUE(fs::exists(trace + ".logs/worker-1.stderr"));
  }
  EXPECT_EQ(traces[0], traces[1]);
  EXPECT_EQ(traces[1], traces[2]);
  EXPECT_NE(traces[0].find(R"({"event":"exit","actor":"worker#2","code":0})"),
            std::string::npos)
      << traces[0];
  EXPECT_NE(traces[0].find(R"({"step":8,"actor":"worker-)"), std::string::npos)
      << traces[0];
}

// A program that never sends a request stops the run after backend.idle
// (real time, kept at 1s) and is named; the other program is killed.
TEST_F(RunServerTest, AHangingActorIsNamed) {
  if (!HasBoto3()) GTEST_SKIP() << "python3 with boto3 is not installed";
  Write("ask.py",
        "import os, boto3\n"
        "boto3.client('dynamodb', endpoint_url=os.environ['DDBLAB_ENDPOINT'])"
        ".list_tables()\n");
  const std::string file = Write("hang.json",
                                 R"({"name": "hang", "backend": {"idle": "1s"},
          "actors": [{"name": "asker", "command": ["python3", "ask.py"]},
                     {"name": "sleeper", "command": ["sleep", "60"]}],
          "invariants": [{"check": "command", "run": ["true"]}],
          "expect": "holds"})");
  EXPECT_EQ(Run({file}), 1) << err_.str();
  EXPECT_EQ(out_.str(),
            file +
                ": seed 1, 0 steps: schedule (idle): actor sleeper made no "
                "request for 1s and did not end: does it wait on something "
                "outside DynamoDB?\n" +
                file + ": expect holds: FAILED\n");
}

// A boto3 program of two requests: a read, then a write of `value`; with
// `extra`, a second read after it.
std::string Writer(const std::string& value, bool extra = false) {
  std::string text =
      "import os, boto3\n"
      "ddb = boto3.client('dynamodb', "
      "endpoint_url=os.environ['DDBLAB_ENDPOINT'])\n"
      "key = {'id': {'S': 'x'}}\n"
      "ddb.get_item(TableName='items', Key=key, ConsistentRead=True)\n"
      "ddb.put_item(TableName='items', Item={**key, 'v': {'S': "
      "os.environ['DDBLAB_ACTOR'] + '" +
      value + "'}})\n";
  if (extra) text += "ddb.get_item(TableName='items', Key=key)\n";
  return text;
}

// --shrink of command actors: seed 4 of two naive read-modify-write
// counters (2 increments each) loses an increment after 5 context switches;
// the shrink keeps the loss with 2, writes the run as a trace, and the
// trace replays identically.
TEST_F(RunServerTest, AShrinkCutsContextSwitchesAndItsTraceReplays) {
  if (!HasBoto3()) GTEST_SKIP() << "python3 with boto3 is not installed";
  const std::string own = std::string(DDBLAB_SOURCE_DIR) + "/examples/own-code";
  const std::string file =
      Write("lost.json", R"({"name": "lost",
      "backend": {"tick": "1s"},
      "tables": [{"TableName": "counters",
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST"}],
      "actors": [{"name": "worker", "count": 2, "command": ["python3", ")" +
                             own +
                             R"(/counter.py", "naive", "2"]}],
      "invariants": [{"check": "command",
                      "run": ["python3", ")" +
                             own +
                             R"(/check.py", "4"]}],
      "expect": "violated"})");
  const std::string out = dir_ + "/lost.shrunk.jsonl";
  ASSERT_EQ(Run({file, "--shrink", "--seed", "4", "--shrink-out", out}), 0)
      << err_.str() << out_.str();
  EXPECT_EQ(out_.str(),
            file +
                ": seed 4 broke invariants[0] (command): counter hits is 3, "
                "expected 4: 1 increment(s) lost\n" +
                file +
                ": shrunk in 4 runs from 5 context switches to 2 context "
                "switches (8 steps); still invariants[0] (command): counter "
                "hits is 2, expected 4: 2 increment(s) lost\n" +
                file + ": wrote " + out +
                " (schedule: worker-2 worker-2 worker-2 worker-1 worker-1 "
                "worker-1 worker-1 worker-2); replay it: ddblab run " +
                file + " --replay " + out + "\n");
  ASSERT_EQ(Run({file, "--replay", out}), 0) << err_.str() << out_.str();
  EXPECT_EQ(out_.str(), out +
                            ": replayed 8 steps of seed 4; every request and "
                            "answer identical\n");
}

// Record a run of two copies, replay it (identical), then replay it after
// the program changed: the value written (the first PutItem step differs),
// a request more (the recording runs out), and against another scenario
// (exit 2).
TEST_F(RunServerTest, AReplayIsIdenticalAndNamesTheFirstChangedStep) {
  if (!HasBoto3()) GTEST_SKIP() << "python3 with boto3 is not installed";
  const std::string scenario = R"(
      "backend": {"tick": "1s"},
      "tables": [{"TableName": "items",
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST"}],
      "actors": [{"name": "w", "count": 2, "command": ["python3", "writer.py"]}],
      "invariants": [{"check": "count", "table": "items", "equals": 1}],
      "expect": "holds"})";
  const std::string file = Write("rep.json", R"({"name": "rep",)" + scenario);
  Write("writer.py", Writer("-1"));
  const std::string trace = dir_ + "/rep.jsonl";
  ASSERT_EQ(Run({file, "--seed", "5", "--trace", trace}), 0) << err_.str();
  const std::string recorded = ReadFile(trace);

  ASSERT_EQ(Run({file, "--replay", trace}), 0) << err_.str() << out_.str();
  EXPECT_EQ(out_.str(), trace +
                            ": replayed 4 steps of seed 5; every request and "
                            "answer identical\n");

  // The first PutItem step (by the seed: one copy's or the other's).
  std::string put_line;
  std::istringstream lines(recorded);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("{\"step\":") &&
        line.find("\"call\":\"PutItem\"") != std::string::npos) {
      put_line = line;
      break;
    }
  }
  ASSERT_FALSE(put_line.empty()) << recorded;
  const json put = json::parse(put_line);
  std::string changed = put_line;
  const std::string old_value =
      put["actor"].get<std::string>() == "w-1" ? "\"w#1-1\"" : "\"w#2-1\"";
  const size_t at = changed.find(old_value);
  ASSERT_NE(at, std::string::npos) << put_line;
  changed.replace(at, old_value.size(),
                  old_value.substr(0, old_value.size() - 2) + "2\"");
  Write("writer.py", Writer("-2"));
  EXPECT_EQ(Run({file, "--replay", trace}), 1) << err_.str();
  EXPECT_EQ(out_.str(), trace + ": step " + put["step"].dump() +
                            " differs\n  recorded: " + put_line +
                            "\n  replayed: " + changed + "\n");

  // A request more: the recording runs out at the 5th (both copies have
  // one held then; the lower is named).
  Write("writer.py", Writer("-1", /*extra=*/true));
  EXPECT_EQ(Run({file, "--replay", trace}), 1) << err_.str();
  EXPECT_EQ(out_.str(),
            trace +
                ": replayed 4 steps of seed 5, then:\n  stopped: replay: "
                "the recording has 4 steps; actor w-1 sent a 5th "
                "request\n");

  const std::string other =
      Write("other.json", R"({"name": "other",)" + scenario);
  EXPECT_EQ(Run({other, "--replay", trace}), 2);
  EXPECT_EQ(err_.str(), trace + ": the trace is of scenario \"rep\", not of " +
                            other + " (\"other\")\n");
}

}  // namespace
}  // namespace ddblab::cli
