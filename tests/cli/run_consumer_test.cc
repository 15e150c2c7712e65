// tests/cli/run_consumer_test.cc: consumer actors of command runs end to
// end (harness/scenario/command_consumer.h) through RunScenarioCommand and
// the server `ddblab run` starts: the user's handler (a boto3 program or a
// shell one) invoked on a table's stream, its polling calls and its
// handler's writes scheduled as the consumer's steps, the same trace for the
// same seed, faults.consumer delivering a batch again, a replay identical,
// and a consumer that cannot catch up ending with a violation. Skipped
// without python3's boto3 (the writers sign their requests with it).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_server.h"
#include "harness/scenario/run_command.h"
#include "tests/cli/run_fixture.h"

namespace ddblab::cli {
namespace {

using testing::HasBoto3;
using testing::ReadFile;

// The lines of `trace` that contain `part`.
std::vector<std::string> Lines(const std::string& trace,
                               const std::string& part) {
  std::vector<std::string> out;
  std::istringstream in(trace);
  for (std::string line; std::getline(in, line);) {
    if (line.find(part) != std::string::npos) out.push_back(line);
  }
  return out;
}

// Two puts (ids a and b) into src.
constexpr const char* kWriter =
    "import os, boto3\n"
    "ddb = boto3.client('dynamodb', "
    "endpoint_url=os.environ['DDBLAB_ENDPOINT'])\n"
    "for k in ('a', 'b'):\n"
    "    ddb.put_item(TableName='src', Item={'id': {'S': k}})\n";

// The handler: ADD 1 to totals/all per record (no dedupe).
constexpr const char* kHandler =
    "import json, os, sys, boto3\n"
    "event = json.load(sys.stdin)\n"
    "ddb = boto3.client('dynamodb', "
    "endpoint_url=os.environ['DDBLAB_ENDPOINT'])\n"
    "for r in event['Records']:\n"
    "    ddb.update_item(TableName='totals', Key={'id': {'S': 'all'}},\n"
    "                    UpdateExpression='ADD n :one',\n"
    "                    ExpressionAttributeValues={':one': {'N': '1'}})\n";

constexpr const char* kTables = R"("tables": [
    {"TableName": "src", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
     "BillingMode": "PAY_PER_REQUEST",
     "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}},
    {"TableName": "totals", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
     "BillingMode": "PAY_PER_REQUEST"}],)";

class RunConsumerTest : public testing::RunFixture {
 protected:
  RunConsumerTest() : RunFixture("run-consumer-test") {}
  void SetUp() override {
    RunFixture::SetUp();
    Write("writer.py", kWriter);
    Write("handler.py", kHandler);
  }

  // A file: the writer, the consumer `function` (`mapping` fields added),
  // `faults`, and a sum check of totals.
  std::string Scenario(const std::string& function, const std::string& faults,
                       int64_t total, const std::string& mapping = "") {
    return Write(
        "c.json",
        std::string(R"({"name": "c", "backend": {"tick": "1s"}, )") + kTables +
            faults +
            R"( "actors": [{"name": "w", "command": ["python3", "writer.py"]},
        {"name": "rollup", "consumer": {"TableName": "src", )" +
            mapping + R"("Function": )" + function + R"(}}],
      "invariants": [{"check": "sum", "table": "totals", "attribute": "n",
                      "equals": )" +
            std::to_string(total) + R"(}], "expect": "holds"})");
  }
};

// The handler's UpdateItems and the mapping's Streams calls are steps of
// actor rollup, interleaved with the writer's; the same seed gives the same
// trace three times, and a replay of it is identical.
TEST_F(RunConsumerTest, TheHandlersCallsAreTheConsumersStepsSameSeedSameTrace) {
  if (!HasBoto3()) GTEST_SKIP() << "python3 with boto3 is not installed";
  const std::string file =
      Scenario(R"({"Command": ["python3", "handler.py"]})", "", 2);
  std::vector<std::string> traces;
  for (int i = 0; i < 3; ++i) {
    const std::string trace = dir_ + "/t" + std::to_string(i) + ".jsonl";
    ASSERT_EQ(Run({file, "--seed", "5", "--trace", trace}), 0)
        << out_.str() << err_.str();
    traces.push_back(ReadFile(trace));
  }
  EXPECT_EQ(traces[0], traces[1]);
  EXPECT_EQ(traces[1], traces[2]);
  const std::string& t = traces[0];
  EXPECT_EQ(Lines(t, R"("actor":"rollup","call":"UpdateItem")").size(), 2u)
      << t;
  EXPECT_FALSE(
      Lines(t, R"("actor":"rollup","call":"GetRecords","service":"streams")")
          .empty())
      << t;
  EXPECT_EQ(Lines(t, R"("actor":"w","call":"PutItem")").size(), 2u) << t;
  // Every delivery succeeded, then the consumer caught up and ended.
  const auto deliveries = Lines(t, R"("consumer":"rollup","delivery")");
  ASSERT_FALSE(deliveries.empty()) << t;
  for (const std::string& d : deliveries) {
    EXPECT_NE(d.find(R"("result":"ok")"), std::string::npos) << d;
  }
  EXPECT_EQ(Lines(t, R"({"event":"done","actor":"rollup")").size(), 1u) << t;
  EXPECT_EQ(
      Lines(t, R"({"event":"consumer","actor":"rollup","rounds":)").size(), 1u)
      << t;
  EXPECT_EQ(Lines(t, R"("verdict":"holds")").size(), 1u) << t;
  ASSERT_EQ(Run({file, "--replay", dir_ + "/t0.jsonl"}), 0) << out_.str();
  EXPECT_NE(out_.str().find("every request and answer identical"),
            std::string::npos)
      << out_.str();
}

// faults.consumer: the shell handler fails on record b after handling a;
// the batch comes again, a is counted twice. The fault line comes before
// the failed delivery, the retry's after it.
TEST_F(RunConsumerTest, ConsumerFaultsDeliverTheBatchAgain) {
  if (!HasBoto3()) GTEST_SKIP() << "python3 with boto3 is not installed";
  const std::string file = Scenario(
      R"({"Command": ["sh", "-c", "cat >> seen.jsonl; echo >> seen.jsonl"]})",
      R"( "faults": {"consumer": [{"id": "poison", "effect": "error",
                                   "key": "b", "times": 1}]},)",
      0);
  const std::string trace = dir_ + "/f.jsonl";
  ASSERT_EQ(Run({file, "--seed", "1", "--trace", trace}), 0)
      << out_.str() << err_.str();
  const std::string t = ReadFile(trace);
  const auto fault = Lines(t, R"("consumer":"rollup","fault":"poison")");
  ASSERT_EQ(fault.size(), 1u) << t;
  EXPECT_NE(fault[0].find(R"("effect":"error","key":"b")"), std::string::npos);
  const auto failed =
      Lines(t, R"("result":"error Error: ddblab consumer fault)");
  ASSERT_EQ(failed.size(), 1u) << t;
  EXPECT_LT(t.find(fault[0]), t.find(failed[0]));
  // Every record was handed over once more after the failure: a and b each
  // appear in a successful delivery.
  const std::string seen = ReadFile(dir_ + "/seen.jsonl");
  EXPECT_GE(Lines(seen, R"("Keys": {"id": {"S": "b"}})").size() +
                Lines(seen, R"("Keys":{"id":{"S":"b"}})").size(),
            1u)
      << seen;
  EXPECT_NE(t.find(R"("FunctionErrors":1)"), std::string::npos) << t;
}

// A handler that always fails keeps the mapping retrying: past the
// programs' end the consumer gives up after kMaxDrainRounds rounds with a
// violation naming it.
TEST_F(RunConsumerTest, AConsumerThatCannotCatchUpIsAViolation) {
  if (!HasBoto3()) GTEST_SKIP() << "python3 with boto3 is not installed";
  const std::string file = Scenario(R"({"Command": ["sh", "-c", "exit 1"]})",
                                    "", 0, R"("MaximumRetryAttempts": -1, )");
  EXPECT_EQ(Run({file, "--seed", "1"}), 1) << err_.str();
  EXPECT_EQ(out_.str(),
            file +
                ": seed 1, 207 steps: actors[1] (consumer): actor rollup: its "
                "event source mapping had not caught up after 100 polling "
                "rounds past the programs' end (each round still invoked the "
                "function, failed or left records pending)\n" +
                file + ": expect holds: FAILED\n");
}

TEST_F(RunConsumerTest, ABadConsumerIsExit2NamingTheField) {
  const std::string file =
      Write("bad.json", std::string(R"({"name": "bad", )") + kTables +
                            R"( "actors": [{"name": "w", "command": ["true"]},
          {"name": "rollup", "consumer": {"TableName": "totals",
           "Function": {"Command": ["true"]}}}],
          "invariants": [{"check": "count", "table": "src", "equals": 0}],
          "expect": "holds"})");
  EXPECT_EQ(Run({file}), 2);
  EXPECT_EQ(err_.str(),
            file +
                ": actors[1].consumer.TableName: table totals (tables[1]) has "
                "no stream: give it \"StreamSpecification\": "
                "{\"StreamEnabled\": true, \"StreamViewType\": "
                "\"NEW_AND_OLD_IMAGES\"}\n");
}

}  // namespace
}  // namespace ddblab::cli
