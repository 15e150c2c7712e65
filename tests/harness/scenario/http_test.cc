// `ddblab run` against `ddblab serve` over HTTP. ONE server started as the
// README says (`--clock manual`: today's date), with a seed, TTL delay and
// stream shards unlike any scenario's, serves every shipped scenario file
// with --explore 20: each run resets it (POST /_ddblab/reset) to the
// scenario's start time and the run's seed, so each file gets the output of
// the in-process run, the same seeds broken, and the same trace of its first
// (failing) seed, the start line aside (it names the backend). A control
// call that fails stops the run with exit 3 and the server's message; a
// server without clock control refuses a file that needs it with exit 3.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
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
  static void SetUpTestSuite() {
    setenv("AWS_ACCESS_KEY_ID", harness::testing::kAccessKeyId, 1);
    setenv("AWS_SECRET_ACCESS_KEY", harness::testing::kSecretAccessKey, 1);
    setenv("AWS_REGION", "us-east-1", 1);
    // The scenarios move the manual clock far from the real time:
    // HttpBackend signs with the server's clock (--auth verify's window
    // stays on).
    manual_ = Serve({"--clock", "manual", "--seed", "99", "--ttl-delay", "90s",
                     "--stream-shards", "3", "--shard-rollover", "1h"});
    system_ = Serve({"--clock", "system"});
  }
  static void TearDownTestSuite() { servers().clear(); }

  // A `ddblab serve` of its own process, with `flags`; its endpoint.
  static std::string Serve(std::vector<std::string> flags) {
    servers().push_back(std::make_unique<ChildServer>());
    std::string error =
        servers().back()->Start(harness::testing::DdblabServeArgv(flags), 0);
    EXPECT_EQ(error, "");
    return servers().back()->endpoint();
  }
  static std::vector<std::unique_ptr<ChildServer>>& servers() {
    static std::vector<std::unique_ptr<ChildServer>> all;
    return all;
  }

  static std::string manual_;  // --clock manual (today), seed 99, ...
  static std::string system_;  // --clock system
};

std::string HttpScenarioTest::manual_;
std::string HttpScenarioTest::system_;

// Every line but the first (which names the backend).
std::vector<std::string> AfterStart(const std::string& trace) {
  std::vector<std::string> lines = Lines(trace);
  if (!lines.empty()) lines.erase(lines.begin());
  return lines;
}

std::vector<std::string> ShippedFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(DDBLAB_SOURCE_DIR) + "/scenarios")) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".json") && name != "scenario.schema.json") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST_F(HttpScenarioTest, EveryShippedFileExploresAsInProcess) {
  const auto started = std::chrono::steady_clock::now();
  auto dir = TempDirFor("http_every_file");
  const std::vector<std::string> files = ShippedFiles();
  ASSERT_GE(files.size(), 26u);
  int some_broke = 0;  // files with a verdict that depends on the seed
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const std::string name = std::filesystem::path(file).filename().string();
    const std::string local = (dir / (name + ".local")).string();
    const std::string remote = (dir / (name + ".http")).string();
    testing::Ran in_process =
        Command({file, "--explore", "20", "--trace", local});
    ASSERT_TRUE(in_process.code == 0 || in_process.code == 1) << in_process.err;
    testing::Ran over_http = Command(
        {file, "--explore", "20", "--backend", manual_, "--trace", remote});
    EXPECT_EQ(over_http.code, in_process.code) << over_http.err;
    EXPECT_EQ(over_http.err, "");
    // The same seeds broke, with the same problems: a correct file holds
    // for every seed (state, clock and fault counters do not leak from one
    // seed's run into the next), and fault draws follow the run's seed.
    EXPECT_EQ(testing::WithoutRate(over_http.out),
              testing::WithoutRate(in_process.out));
    const std::vector<std::string> expected = AfterStart(ReadFile(local));
    EXPECT_GT(expected.size(), 5u);
    EXPECT_EQ(AfterStart(ReadFile(remote)), expected);
    EXPECT_NE(ReadFile(remote).find("\"backend\":\"" + manual_ + "\""),
              std::string::npos);
    if (in_process.out.find(" held (first: seed ") != std::string::npos) {
      ++some_broke;
    }
  }
  // Half of the BatchWriteItem calls leave deletes unprocessed (a seeded
  // draw): only some seeds break, and the same ones over HTTP (above).
  testing::Ran partial = Command({Shipped("ttl_sweeper_unprocessed_naive.json"),
                                  "--explore", "20", "--backend", manual_});
  EXPECT_NE(partial.out.find("broke an invariant, "), std::string::npos);
  EXPECT_EQ(partial.out.find(": 0 broke"), std::string::npos) << partial.out;
  EXPECT_EQ(partial.out.find(": 20 broke"), std::string::npos) << partial.out;
  EXPECT_GT(some_broke, 0);
  std::cout << "[ timing ] " << files.size()
            << " files x 2 backends x 21 runs: "
            << std::chrono::duration_cast<std::chrono::seconds>(
                   std::chrono::steady_clock::now() - started)
                   .count()
            << " s\n";
}

// The server refuses the reset (a wrong control token): the run stops at
// once with exit 3, naming the call and giving the server's message.
TEST_F(HttpScenarioTest, AFailedControlCallStopsTheRunWithThree) {
  const std::string file =
      Shipped("ttl_sweeper_window_not_multiple_naive.json");
  setenv("DDBLAB_CONTROL_TOKEN", "not-the-token", 1);
  testing::Ran ran = Command({file, "--explore", "5", "--backend", manual_});
  unsetenv("DDBLAB_CONTROL_TOKEN");
  EXPECT_EQ(ran.code, 3);
  EXPECT_EQ(ran.out, "");
  EXPECT_EQ(ran.err, file +
                         ": reset before the run failed: "
                         "AccessDeniedException: wrong control token in the "
                         "X-Ddblab-Token header\n");
}

TEST_F(HttpScenarioTest, AServerWithoutClockControlIsRefusedWithThree) {
  const std::string file =
      Shipped("ttl_sweeper_window_not_multiple_naive.json");
  testing::Ran ran = Command({file, "--backend", system_});
  EXPECT_EQ(ran.code, 3);
  EXPECT_EQ(ran.out, "");
  EXPECT_EQ(ran.err, file + ": backend.tick needs clock control; backend " +
                         system_ + " has none\n");
}

// A scenario that needs no control runs on a server without clock
// control too (the patterns then read the real clock), twice in a row: the
// second run starts from a reset server.
TEST_F(HttpScenarioTest, AScenarioThatNeedsNothingRunsWithoutClockControl) {
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
    testing::Ran ran = Command({file, "--backend", system_});
    EXPECT_EQ(ran.code, 0) << ran.out << ran.err;
    EXPECT_EQ(ran.out, file + ": seed 1, 6 steps: every invariant held\n" +
                           file + ": expect holds: met\n");
  }
}

}  // namespace
}  // namespace ddblab::harness::scenario
