// Shrink (harness/scenario/shrink.h) through `ddblab run --shrink`: a cut
// is kept only while the file still depends on the schedule or the faults
// (it holds on the serial, fault-free schedule), and a failure that breaks
// the serial, fault-free run too is reported as such, with every actor kept.
#include "harness/scenario/shrink.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::Command;
using testing::ReadFile;
using testing::TempDirFor;
using testing::WriteFile;

// A setter's PutItem (v = 100) racing an adder's ADD v 50: in file order the
// sum is 150; the adder first, the put wipes its 50 out.
std::string SumRace(int equals) {
  return R"({"name": "sum-race",
    "tables": [{"TableName": "sums",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST"}],
    "actors": [
      {"name": "setter", "pattern": "script",
       "ops": [{"call": "PutItem", "request": {"TableName": "sums",
         "Item": {"pk": {"S": "x"}, "v": {"N": "100"}}}}]},
      {"name": "adder", "pattern": "script",
       "ops": [{"call": "UpdateItem", "request": {"TableName": "sums",
         "Key": {"pk": {"S": "x"}}, "UpdateExpression": "ADD v :d",
         "ExpressionAttributeValues": {":d": {"N": "50"}}}}]}],
    "invariants": [{"check": "sum", "table": "sums", "attribute": "v",
                    "equals": )" +
         std::to_string(equals) + R"(}],
    "expect": "violated"})";
}

// Dropping either actor still breaks `sum equals 150` (100 or 50), but with
// no race left: the serial run of the cut file breaks too, so both stay.
TEST(Shrink, KeepsTheRacingActorsOfAFixedValueInvariant) {
  auto dir = TempDirFor("shrink_keeps_race");
  const std::string file = WriteFile(dir / "race.json", SumRace(150));
  const std::string out = (dir / "min.json").string();
  testing::Ran ran = Command({file, "--shrink", "--shrink-out", out});
  ASSERT_EQ(ran.code, 0) << ran.out << ran.err;
  EXPECT_NE(ran.out.find("from 2 steps, 0 faults, 2 actors to 2 steps, 0 "
                         "faults, 2 actors; still invariants[0] (sum): the "
                         "sum of v over sums is 100, expected 150\n"),
            std::string::npos)
      << ran.out;
  const nlohmann::json small = nlohmann::json::parse(ReadFile(out));
  EXPECT_EQ(small["actors"].size(), 2u) << small.dump(2);
  EXPECT_EQ(small["schedule"], nlohmann::json::parse(R"(["adder", "setter"])"));
  // The shrunk file holds on the serial, fault-free schedule.
  auto pinned = LoadScenario(out);
  ASSERT_TRUE(pinned.ok()) << pinned.error().message;
  RunResult serial = RunOnce(SerialFaultFree(*pinned), RunOptions());
  EXPECT_EQ(serial.code, 0) << serial.failure;
  EXPECT_FALSE(serial.violation.has_value());
  EXPECT_EQ(serial.schedule, (std::vector<std::string>{"setter", "adder"}));
}

TEST(Shrink, SaysWhenTheFailureDoesNotDependOnTheSchedule) {
  auto dir = TempDirFor("shrink_no_race");
  const std::string file = WriteFile(dir / "always.json", SumRace(999));
  const std::string out = (dir / "min.json").string();
  testing::Ran ran =
      Command({file, "--seed", "1", "--shrink", "--shrink-out", out});
  ASSERT_EQ(ran.code, 0) << ran.out << ran.err;
  const nlohmann::json small = nlohmann::json::parse(ReadFile(out));
  ASSERT_EQ(small["schedule"].size(), 2u) << small.dump(2);
  const bool adder_first = small["schedule"][0] == "adder";
  EXPECT_EQ(ran.out,
            file +
                ": seed 1 broke invariants[0] (sum): the sum of v over sums "
                "is " +
                (adder_first ? "100" : "150") + ", expected 999\n" + file +
                ": this failure does not depend on the schedule: the serial, "
                "fault-free run (actors one after another in file order) "
                "broke invariants[0] (sum): the sum of v over sums is 150, "
                "expected 999; kept all 2 actors\n" +
                file + ": wrote " + out + " (schedule: " +
                (adder_first ? "adder setter" : "setter adder") + ")\n");
  EXPECT_EQ(small["actors"].size(), 2u);
}

}  // namespace
}  // namespace ddblab::harness::scenario
