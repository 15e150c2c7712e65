// `ddblab run` against `ddblab serve` over HTTP: a scenario run on a server
// with a manual clock writes the same trace as in process (the start line
// names the backend, so it is left out; a rollup aggregator's event source
// mapping reads the stream through the same backend), and a server whose clock
// cannot be moved refuses a scenario that needs it with exit code 3.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "tests/harness/backend/test_servers.h"
#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using harness::testing::ChildServer;
using testing::Command;
using testing::Lines;
using testing::ReadFile;
using testing::Shipped;
using testing::TempDirFor;

class HttpScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("AWS_ACCESS_KEY_ID", harness::testing::kAccessKeyId, 1);
    setenv("AWS_SECRET_ACCESS_KEY", harness::testing::kSecretAccessKey, 1);
    setenv("AWS_REGION", "us-east-1", 1);
  }

  // A fresh `ddblab serve` (its own process), with `clock` as --clock and
  // the runs' seed 5 as --seed (a server's fault draws use its own seed).
  std::string Serve(const std::string& clock) {
    servers_.push_back(std::make_unique<ChildServer>());
    std::string error = servers_.back()->Start(
        {DDBLAB_BIN, "serve", "--port", "0", "--log-level", "warn", "--auth",
         "verify", "--access-key-id", harness::testing::kAccessKeyId,
         "--secret-access-key", harness::testing::kSecretAccessKey, "--clock",
         clock, "--seed", "5"},
        0);
    EXPECT_EQ(error, "");
    return servers_.back()->endpoint();
  }

  std::vector<std::unique_ptr<ChildServer>> servers_;
};

// Every line but the first (which names the backend).
std::vector<std::string> AfterStart(const std::string& trace) {
  std::vector<std::string> lines = Lines(trace);
  if (!lines.empty()) lines.erase(lines.begin());
  return lines;
}

TEST_F(HttpScenarioTest, TracesOverHttpMatchTheInProcessOnes) {
  auto dir = TempDirFor("http_identical");
  for (const char* name : {"ttl_sweeper_window_not_multiple_naive.json",
                           "idempotent_counter_history_400kb_correct.json",
                           "ordered_writes_sdk_retry_correct.json",
                           "rollup_aggregator_redelivery_naive.json",
                           "ttl_listener_order_race_correct.json"}) {
    SCOPED_TRACE(name);
    const std::string file = Shipped(name);
    const std::string local = (dir / (std::string(name) + ".local")).string();
    const std::string remote = (dir / (std::string(name) + ".http")).string();
    testing::Ran in_process = Command({file, "--seed", "5", "--trace", local});
    ASSERT_NE(in_process.code, 2) << in_process.err;
    const std::string endpoint = Serve("manual=1704067200");
    testing::Ran over_http = Command(
        {file, "--seed", "5", "--backend", endpoint, "--trace", remote});
    ASSERT_EQ(over_http.code, in_process.code) << over_http.err;
    EXPECT_EQ(over_http.err, "");
    const std::vector<std::string> expected = AfterStart(ReadFile(local));
    EXPECT_GT(expected.size(), 5u);
    EXPECT_EQ(AfterStart(ReadFile(remote)), expected);
    EXPECT_NE(ReadFile(remote).find("\"backend\":\"" + endpoint + "\""),
              std::string::npos);
  }
}

TEST_F(HttpScenarioTest, AServerWithoutClockControlIsRefusedWithThree) {
  const std::string endpoint = Serve("system");
  const std::string file =
      Shipped("ttl_sweeper_window_not_multiple_naive.json");
  testing::Ran ran = Command({file, "--backend", endpoint});
  EXPECT_EQ(ran.code, 3);
  EXPECT_EQ(ran.out, "");
  EXPECT_EQ(ran.err, file + ": backend.tick needs clock control; backend " +
                         endpoint + " has none\n");
}

// A scenario that needs no control runs on a server without clock
// control too (the patterns then read the real clock), twice in a row: the
// second run starts from deleted tables.
TEST_F(HttpScenarioTest, AScenarioThatNeedsNothingRunsWithoutClockControl) {
  const std::string endpoint = Serve("system");
  auto dir = TempDirFor("http_plain");
  const std::string file = testing::WriteFile(dir / "plain.json", R"({
    "name": "plain",
    "actors": [{"name": "client", "pattern": "idempotent_counter",
                "count": 2, "repeat": 3,
                "ops": [{"add": {"counter": "clicks", "key": "c{n}-{i}"}}]}],
    "invariants": [{"check": "idempotent_counter"}],
    "expect": "holds"
  })");
  for (int run = 0; run < 2; ++run) {
    testing::Ran ran = Command({file, "--backend", endpoint});
    EXPECT_EQ(ran.code, 0) << ran.out << ran.err;
    EXPECT_EQ(ran.out, file + ": seed 1, 6 steps: every invariant held\n" +
                           file + ": expect holds: met\n");
  }
}

}  // namespace
}  // namespace ddblab::harness::scenario
