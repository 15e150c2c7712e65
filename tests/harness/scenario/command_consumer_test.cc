// tests/harness/scenario/command_consumer_test.cc: consumer actors of
// command runs (the user's stream handler): the "consumer" entry parsed and
// written back, refused with the path when its table, Function or other
// fields are bad; the handler process (ProcessFunction: the event on stdin,
// the answer on stdout, the actor's environment and folder, Lambda's
// errors); and the board that decides when consumers may end. Runs against
// a server are in tests/cli/run_consumer_test.cc.
#include "harness/scenario/command_consumer.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/scenario/command_actors.h"
#include "harness/scenario/process.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {
namespace {

namespace fs = std::filesystem;
using consumer::Invocation;

constexpr const char* kTables = R"("tables": [
    {"TableName": "src", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
     "BillingMode": "PAY_PER_REQUEST",
     "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}},
    {"TableName": "plain", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
     "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
     "BillingMode": "PAY_PER_REQUEST"}],)";

// A file with a writer program and `consumer` as its second actor.
std::string File(const std::string& consumer, const std::string& more = "") {
  return std::string(R"({"name": "c", )") + kTables + more +
         R"( "actors": [{"name": "w", "command": ["sh", "-c", "true"]}, )" +
         consumer +
         R"(], "invariants": [{"check": "count", "table": "src", "equals": 0}],
         "expect": "holds"})";
}

std::string Refusal(const std::string& text) {
  Result<Scenario> s = ParseScenario(text, "x.json");
  return s.ok() ? "(accepted)" : s.error().message;
}

TEST(CommandConsumerTest, AConsumerEntryIsParsedAndWrittenBack) {
  Result<Scenario> s = ParseScenario(
      File(R"({"name": "rollup", "env": {"MODE": "naive"},
               "consumer": {"TableName": "src", "BatchSize": 5,
                            "Function": {"Command": ["sh", "-c", "cat"]}}})",
           R"( "faults": {"consumer": [{"actor": "rollup", "effect": "error",
                                        "times": 1}]},)"),
      "dir/x.json");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->actors.size(), 2u);
  const ActorSpec& c = s->actors[1];
  EXPECT_EQ(c.pattern, kConsumer);
  EXPECT_EQ(c.name, "rollup");
  EXPECT_EQ(c.path, "actors[1]");
  EXPECT_EQ(c.command, (std::vector<std::string>{"sh", "-c", "cat"}));
  EXPECT_EQ(c.env.at("MODE"), "naive");
  EXPECT_TRUE(HasCommandActors(*s));
  EXPECT_EQ(s->consumer_faults.size(), 1u);
  // The defaults a run fills in.
  EXPECT_EQ(ConsumerMappingOf(c).dump(),
            R"({"BatchSize":5,"FunctionName":"rollup",)"
            R"("StartingPosition":"TRIM_HORIZON","TableName":"src"})");
  EXPECT_EQ(ConsumerFunctionOf(c).dump(),
            R"({"Command":["sh","-c","cat"],"TimeoutSeconds":60})");
  EXPECT_EQ(ScenarioToJson(*s)["actors"][1].dump(),
            R"({"name":"rollup","consumer":{"BatchSize":5,"Function":)"
            R"({"Command":["sh","-c","cat"]},"TableName":"src"},)"
            R"("env":{"MODE":"naive"}})");
}

TEST(CommandConsumerTest, BadEntriesNameTheirPath) {
  const auto consumer = [](const std::string& body) {
    return File(R"({"name": "rollup", "consumer": )" + body + "}");
  };
  EXPECT_EQ(Refusal(File(R"({"name": "r", "command": ["sh"],
                            "consumer": {"TableName": "src"}})")),
            "actors[1]: an actor has a consumer or a command, not both");
  EXPECT_EQ(Refusal(consumer("5")),
            "actors[1].consumer: expected a mapping: "
            "CreateEventSourceMapping's fields with \"TableName\" and "
            "\"Function\", got 5");
  EXPECT_EQ(Refusal(consumer(R"({"Function": {"Command": ["sh"]}})")),
            "actors[1].consumer.TableName: missing: the table whose stream "
            "the consumer reads");
  EXPECT_EQ(
      Refusal(consumer(
          R"({"TableName": "nope", "Function": {"Command": ["sh"]}})")),
      "actors[1].consumer.TableName: no table \"nope\" in tables (the run "
      "creates the tables a consumer reads before the actors start)");
  EXPECT_EQ(
      Refusal(consumer(
          R"({"TableName": "plain", "Function": {"Command": ["sh"]}})")),
      "actors[1].consumer.TableName: table plain (tables[1]) has no stream: "
      "give it \"StreamSpecification\": {\"StreamEnabled\": true, "
      "\"StreamViewType\": \"NEW_AND_OLD_IMAGES\"}");
  EXPECT_EQ(Refusal(consumer(R"({"TableName": "src"})")),
            "actors[1].consumer.Function: missing: {\"Command\": [program, "
            "args...]} or {\"Url\": \"http://...\"}, the handler the mapping "
            "invokes");
  EXPECT_EQ(Refusal(consumer(R"({"TableName": "src", "Function": {}})")),
            "actors[1].consumer.Function: expected {\"Command\": [program, "
            "args...]} or {\"Url\": \"http://...\"}, got {}");
  EXPECT_EQ(
      Refusal(consumer(
          R"({"TableName": "src", "Function": {"Command": ["pythn3"]}})")),
      "actors[1].consumer.Function.Command[0]: program 'pythn3' not "
      "found");
  EXPECT_EQ(Refusal(consumer(
                R"({"TableName": "src", "Function": {"Url": "ftp://x"}})")),
            "actors[1].consumer.Function.Url: must be an http:// URL");
  EXPECT_EQ(Refusal(consumer(R"({"TableName": "src", "Function":
                                {"Command": ["sh"], "TimeoutSeconds": 0}})")),
            "actors[1].consumer.Function.TimeoutSeconds: must be 1..900");
  EXPECT_EQ(Refusal(consumer(R"({"TableName": "src", "Function":
                                {"Command": ["sh"], "Memory": 1}})")),
            "actors[1].consumer.Function.Memory: unknown field (expected "
            "Command, TimeoutSeconds, Url)");
  EXPECT_EQ(Refusal(consumer(R"({"TableName": "src", "BatchSise": 5,
                                "Function": {"Command": ["sh"]}})")),
            "actors[1].consumer.BatchSise: unknown field (expected "
            "BatchSize, BisectBatchOnFunctionError, DestinationConfig, "
            "Enabled, FilterCriteria, Function, FunctionName, "
            "FunctionResponseTypes, MaximumBatchingWindowInSeconds, "
            "MaximumRecordAgeInSeconds, MaximumRetryAttempts, "
            "ParallelizationFactor, StartingPosition, TableName, "
            "TumblingWindowInSeconds)");
  EXPECT_EQ(Refusal(consumer(R"({"EventSourceArn": "arn:x",
                                "Function": {"Command": ["sh"]}})")),
            "actors[1].consumer.EventSourceArn: name the table with "
            "TableName (the run creates it: its stream ARN is not known "
            "before)");
  EXPECT_EQ(Refusal(consumer(R"({"TableName": "src", "Enabled": false,
                                "Function": {"Command": ["sh"]}})")),
            "actors[1].consumer.Enabled: a consumer actor's mapping is "
            "enabled (leave the actor out to run without it), got false");
  // Lambda's own rules, with its message.
  EXPECT_EQ(Refusal(consumer(R"({"TableName": "src", "BatchSize": 0,
                                "Function": {"Command": ["sh"]}})"))
                .substr(0, 64),
            "actors[1].consumer: ValidationException: 1 validation error dete");
  EXPECT_EQ(Refusal(File(R"({"name": "rollup", "count": 2, "consumer":
                            {"TableName": "src", "Function": {"Command": ["sh"]}}})")),
            "actors[1].count: a consumer actor has no count (one mapping per "
            "actor: write another actor for another function)");
  // Consumers alone read nothing anyone writes.
  EXPECT_EQ(
      Refusal(std::string(R"({"name": "c", )") + kTables +
              R"( "actors": [{"name": "rollup", "consumer": {"TableName": "src",
                  "Function": {"Command": ["sh"]}}}],
                  "invariants": [{"check": "count", "table": "src", "equals": 0}],
                  "expect": "holds"})"),
      "actors: consumer actors read what programs write: add a command actor "
      "(a consumer ends once every program has ended and it caught up)");
}

class ProcessFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (fs::temp_directory_path() / "process-function-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `script` run by sh in dir_ with AWS_ACCESS_KEY_ID=rollup.
  Invocation Run(const std::string& script,
                 std::chrono::milliseconds timeout = std::chrono::seconds(20),
                 const std::atomic<bool>* stop = nullptr) {
    ProcessFunction f({"sh", "-c", script}, "/bin/sh", dir_,
                      EnvironmentWith({{"AWS_ACCESS_KEY_ID", "rollup"}}),
                      dir_ + "/rollup", timeout, stop);
    return f.Invoke(nlohmann::json{{"Records", {{{"eventID", "e1"}}}}});
  }
  std::string Read(const std::string& name) {
    std::ifstream in(dir_ + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string dir_;
};

TEST_F(ProcessFunctionTest, TheEventGoesInAndTheAnswerComesOut) {
  Invocation out = Run(
      R"(cat > got.json; echo "note" >&2;
         printf '{"batchItemFailures": [], "key": "%s"}' "$AWS_ACCESS_KEY_ID")");
  ASSERT_EQ(out.kind, Invocation::Kind::kOk) << out.error_message;
  EXPECT_EQ(out.response.dump(), R"({"batchItemFailures":[],"key":"rollup"})");
  // In the folder given, the event on stdin.
  EXPECT_EQ(Read("got.json"), R"({"Records":[{"eventID":"e1"}]})");
  // Output kept across invocations.
  Run("echo second >&2");
  EXPECT_EQ(Read("rollup.stderr"), "note\nsecond\n");
  EXPECT_EQ(Read("rollup.stdout"),
            R"({"batchItemFailures": [], "key": "rollup"})");
  // Nothing on stdout is a null answer.
  Invocation empty = Run("cat > /dev/null");
  ASSERT_EQ(empty.kind, Invocation::Kind::kOk);
  EXPECT_TRUE(empty.response.is_null());
}

TEST_F(ProcessFunctionTest, FailuresAreLambdasFunctionErrors) {
  Invocation crashed =
      Run("echo 'Traceback:' >&2; echo 'ValueError: boom' >&2; "
          "echo '  at line 3' >&2; exit 3");
  EXPECT_EQ(crashed.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(crashed.error_type, "Runtime.ExitError");
  EXPECT_EQ(crashed.error_message,
            "the function exited with status 3: ValueError: boom");
  Invocation killed = Run("kill -9 $$");
  EXPECT_EQ(killed.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(killed.error_message, "the function was killed by signal 9");
  Invocation garbage = Run("echo 'not json'");
  EXPECT_EQ(garbage.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(garbage.error_type, "Runtime.InvalidResponse");
  EXPECT_EQ(garbage.error_message,
            "the function's response is not JSON: not json\n");
  Invocation late = Run("exec sleep 30", std::chrono::milliseconds(50));
  EXPECT_EQ(late.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(late.error_type, "Timeout");
  EXPECT_EQ(late.error_message, "Task timed out after 0.05 seconds");
  std::atomic<bool> stop{true};
  Invocation stopped = Run("exec sleep 30", std::chrono::seconds(20), &stop);
  EXPECT_EQ(stopped.kind, Invocation::Kind::kFunctionError);
  EXPECT_EQ(stopped.error_message, "the function was stopped with the run");
}

TEST_F(ProcessFunctionTest, AProgramThatCannotStartIsNotDelivered) {
  ProcessFunction f({"nope"}, dir_ + "/nope", dir_, {}, dir_ + "/rollup",
                    std::chrono::seconds(1));
  Invocation out = f.Invoke(nlohmann::json::object());
  EXPECT_EQ(out.kind, Invocation::Kind::kNotDelivered);
  EXPECT_EQ(out.error_message,
            "nope: cannot start " + dir_ + "/nope: No such file or directory");
  EXPECT_EQ(f.Describe(), "command nope");
}

TEST(ConsumerBoardTest, ProgramsEndAndQuietMeansNoInvocationSince) {
  ConsumerBoard board(2);
  EXPECT_FALSE(board.ProgramsEnded());
  board.ProgramEnded();
  EXPECT_FALSE(board.ProgramsEnded());
  board.ProgramEnded();
  EXPECT_TRUE(board.ProgramsEnded());
  const int64_t before = board.Generation();
  EXPECT_TRUE(board.QuietSince(before));
  board.InvocationStarts();
  const int64_t during = board.Generation();
  // A function runs: not quiet, whenever the round began.
  EXPECT_FALSE(board.QuietSince(during));
  board.InvocationEnds();
  EXPECT_FALSE(board.QuietSince(before));
  EXPECT_TRUE(board.QuietSince(board.Generation()));
}

}  // namespace
}  // namespace ddblab::harness::scenario
