// Every scenario file shipped in scenarios/ run with --explore 200 on the
// in-process backend: a file expecting `violated` must break its invariant
// for at least one seed, a file expecting `holds` must hold for all 200.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::Command;

std::vector<std::string> ScenarioFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(DDBLAB_SOURCE_DIR) + "/scenarios")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name != "scenario.schema.json") {
      files.push_back(name);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

class ScenarioFileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioFileTest, MeetsItsExpectationOver200Seeds) {
  const std::string file = testing::Shipped(GetParam());
  testing::Ran ran = Command({file, "--explore", "200"});
  EXPECT_EQ(ran.code, 0) << ran.out << ran.err;
  EXPECT_EQ(ran.err, "");
  const bool expects_violation =
      testing::ReadFile(file).find("\"expect\": \"violated\"") !=
      std::string::npos;
  const std::string met = file + ": expect " +
                          (expects_violation ? "violated" : "holds") +
                          ": met\n";
  EXPECT_TRUE(ran.out.ends_with(met)) << ran.out;
  if (!expects_violation) {
    EXPECT_NE(ran.out.find(": explored 200 seeds (1-200): 0 broke an "
                           "invariant, 200 held\n"),
              std::string::npos)
        << ran.out;
  }
}

std::string TestName(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param.substr(0, param.param.size() - 5);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioFileTest,
                         ::testing::ValuesIn(ScenarioFiles()), TestName);

TEST(ScenarioFiles, EveryPatternRaceHasANaiveAndACorrectFile) {
  const std::vector<std::string> files = ScenarioFiles();
  for (const char* race :
       {"ordered_writes_sdk_retry", "ordered_writes_late_write",
        "idempotent_counter_lost_response", "idempotent_counter_history_400kb",
        "ttl_sweeper_window_not_multiple", "ttl_sweeper_unprocessed",
        "ttl_sweeper_window_over_1mb", "ttl_listener_order_race",
        "ttl_listener_aws_delay", "rollup_aggregator_redelivery",
        "rollup_aggregator_partial_batch", "rollup_aggregator_shard_split",
        "rollup_aggregator_two_shards", "approval_retry_revert",
        "approval_third_writer", "approval_slow_review"}) {
    for (const char* kind : {"_naive.json", "_correct.json"}) {
      const std::string name = std::string(race) + kind;
      EXPECT_NE(std::find(files.begin(), files.end(), name), files.end())
          << name;
    }
  }
}

}  // namespace
}  // namespace ddblab::harness::scenario
