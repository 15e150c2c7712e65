// The fault rules no call of a run matched (unmatched_rules.h): listed at
// the end of `ddblab run`, one line each, saying why.
#include "harness/scenario/unmatched_rules.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::Command;
using testing::TempDirFor;
using testing::WriteFile;

TEST(UnmatchedRules, TablesOfARequest) {
  EXPECT_EQ(TablesOfRequest({{"TableName", "a"}}),
            std::vector<std::string>{"a"});
  EXPECT_EQ(TablesOfRequest({{"RequestItems",
                              {{"b", json::array()}, {"c", json::array()}}}}),
            (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(TablesOfRequest({{"TransactItems",
                              {{{"Put", {{"TableName", "d"}}}},
                               {{"Delete", {{"TableName", "e"}}}}}}}),
            (std::vector<std::string>{"d", "e"}));
  EXPECT_EQ(
      TablesOfRequest(
          {{"StreamArn", "arn:aws:dynamodb:us-east-1:1:table/f/stream/x"}}),
      std::vector<std::string>{"f"});
  EXPECT_EQ(TablesOfRequest({{"ShardIterator", "it"}}),
            std::vector<std::string>());
}

// A table typo and an operation nobody calls never fire: the run says so.
// A rule that matched calls (whatever its probability) is not listed.
TEST(UnmatchedRules, ARunListsTheRulesThatMatchedNoCall) {
  auto dir = TempDirFor("unmatched_rules");
  const std::string file = WriteFile(dir / "typo.json", R"({"name": "typo",
    "tables": [{"TableName": "xtb", "BillingMode": "PAY_PER_REQUEST",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}],
    "actors": [{"name": "s", "pattern": "script", "ops": [
      {"call": "PutItem", "request": {"TableName": "xtb",
        "Item": {"pk": {"S": "a"}}}}]}],
    "faults": {"rules": [
      {"id": "typo", "operation": "PutItem", "table": "xtbb",
       "effect": "throttle"},
      {"operation": "UpdateItem", "effect": "throttle"},
      {"id": "never_drawn", "operation": "PutItem", "probability": 0,
       "effect": "throttle"}]},
    "invariants": [{"check": "count", "table": "xtb", "equals": 1}],
    "expect": "holds"})");
  testing::Ran ran = Command({file});
  EXPECT_EQ(ran.code, 0) << ran.err;
  const std::string lines =
      file +
      ": fault rule typo (faults.rules[0]) matched no call: the run made no "
      "PutItem call on table \"xtbb\" (only on \"xtb\")\n" +
      file +
      ": fault rule 1 (faults.rules[1]) matched no call: the run made no "
      "UpdateItem call\n" +
      file + ": expect holds: met\n";
  EXPECT_TRUE(ran.out.ends_with(lines)) << ran.out;
  // --explore lists the rules no seed's run matched.
  ran = Command({file, "--explore", "2"});
  EXPECT_EQ(
      testing::WithoutRate(ran.out),
      file + ": explored 2 seeds (1-2): 0 broke an invariant, 2 held\n" + file +
          ": 1 distinct schedule; no failure in 2 runs; N seeds/s\n" + lines);
}

}  // namespace
}  // namespace ddblab::harness::scenario
