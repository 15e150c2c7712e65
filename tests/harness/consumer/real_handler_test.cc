// tests/harness/consumer/real_handler_test.cc: a real Node handler built on
// @aws-lambda-powertools/batch (tests/clients/consumer), run as a command by
// the event source mapping. Skipped when node or the handler's node_modules
// (scripts/setup.sh installs them) are missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/harness/consumer/esm_fixture.h"

namespace ddblab::harness::consumer {
namespace {

namespace fs = std::filesystem;

const fs::path kHandlers =
    fs::path(DDBLAB_SOURCE_DIR) / "tests/clients/consumer";

bool HaveNode() { return std::system("node --version >/dev/null 2>&1") == 0; }

TEST_F(EsmTest, PowertoolsBatchHandlerRedeliversFailedRecordAndLaterOnes) {
  if (!HaveNode() ||
      !fs::exists(kHandlers / "node_modules/@aws-lambda-powertools/batch")) {
    GTEST_SKIP() << "node or tests/clients/consumer/node_modules missing "
                    "(run scripts/setup.sh)";
  }
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("ddblab_consumer_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path marker = dir / "failed", log = dir / "log.jsonl";
  auto config =
      ParseEsmConfig({{"TableName", "tbl"},
                      {"FunctionName", "powertools"},
                      {"StartingPosition", "TRIM_HORIZON"},
                      {"FunctionResponseTypes", {"ReportBatchItemFailures"}}});
  ASSERT_TRUE(config.ok());
  EventSourceMapping esm(
      backend(), *config,
      std::make_unique<CommandFunction>(
          std::vector<std::string>{"node",
                                   (kHandlers / "run_handler.mjs").string(),
                                   (kHandlers / "batch_handler.mjs").string(),
                                   "c", marker.string(), log.string()},
          std::chrono::seconds(30)));
  for (const char* k : {"a", "b", "c", "d", "e"}) Put(k);
  auto n = esm.RunUntilIdle();
  ASSERT_TRUE(n.ok()) << ToString(n.error());
  EXPECT_EQ(*n, 2);
  EXPECT_EQ(esm.metrics().function_errors, 0);
  std::ifstream in(log);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["pks"], json({"a", "b", "c", "d", "e"}));
  ASSERT_EQ(lines[0]["response"]["batchItemFailures"].size(), 1u);
  std::string c_seq =
      lines[0]["response"]["batchItemFailures"][0]["itemIdentifier"];
  // Only c and the records after it come again.
  EXPECT_EQ(lines[1]["pks"], json({"c", "d", "e"}));
  EXPECT_EQ(lines[1]["response"], json({{"batchItemFailures", json::array()}}));
  std::string shard = esm.Shards()[0];
  EXPECT_EQ(esm.metrics().partial_failures, 1);
  EXPECT_NE(esm.Checkpoint(shard), std::nullopt);
  EXPECT_NE(*esm.Checkpoint(shard), c_seq);
  fs::remove_all(dir);
}

TEST_F(EsmTest, NodeHandlerThatThrowsIsAFunctionError) {
  if (!HaveNode()) GTEST_SKIP() << "node missing";
  fs::path dir = fs::path(::testing::TempDir()) /
                 ("ddblab_consumer_throw_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path module = dir / "throws.mjs";
  std::ofstream(module) << "export const handler = async () => { throw new "
                           "TypeError('no'); };\n";
  CommandFunction f(
      {"node", (kHandlers / "run_handler.mjs").string(), module.string()},
      std::chrono::seconds(30));
  Invocation out = f.Invoke({{"Records", json::array()}});
  EXPECT_EQ(out.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(out.error_message,
            "the function exited with status 1: "
            "{\"errorType\":\"TypeError\",\"errorMessage\":\"no\"}");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ddblab::harness::consumer
