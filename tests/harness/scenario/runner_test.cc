// RunOnce on small scenarios written here: the script actor, the generic
// checks (item_equals, count, sum, every_step), the timeline, timed actors
// and pinned schedules, each against the state the emulator really ends in.
#include "harness/scenario/runner.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {
namespace {

using json = nlohmann::json;

// "<op>: <result>" of every actor step of a trace, in order.
std::vector<std::string> ActorSteps(const std::vector<std::string>& trace) {
  std::vector<std::string> steps;
  for (const std::string& line : trace) {
    json event = json::parse(line);
    if (event.contains("actor")) {
      steps.push_back(event["op"].get<std::string>() + ": " +
                      event["result"].get<std::string>());
    }
  }
  return steps;
}

// The CreateTable request of table "xtb" (pk S), as a scenario member.
const std::string kTableX = R"("tables": [{"TableName": "xtb",
    "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}],)";

Scenario Parse(const std::string& text) {
  auto scenario = ParseScenario(text, "t.json");
  EXPECT_TRUE(scenario.ok()) << scenario.error().message;
  return scenario.ok() ? *scenario : Scenario();
}

// A table and a script putting two items, then adding to one of them.
const char* kScript = R"({
  "name": "script",
  "tables": [{"TableName": "tbl", "BillingMode": "PAY_PER_REQUEST",
              "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
              "AttributeDefinitions": [{"AttributeName": "pk",
                                        "AttributeType": "S"}]}],
  "actors": [{"name": "s", "pattern": "script", "ops": [
    {"call": "PutItem", "request": {"TableName": "tbl",
       "Item": {"pk": {"S": "a"}, "n": {"N": "2"}}}},
    {"call": "PutItem", "request": {"TableName": "tbl",
       "Item": {"pk": {"S": "b"}, "n": {"N": "5"}}}},
    {"call": "UpdateItem", "request": {"TableName": "tbl",
       "Key": {"pk": {"S": "a"}}, "UpdateExpression": "ADD n :one",
       "ExpressionAttributeValues": {":one": {"N": "1"}}}},
    {"call": "GetItem", "request": {"TableName": "nope",
       "Key": {"pk": {"S": "a"}}}}
  ]}],
  "invariants": [
    {"check": "item_equals", "table": "tbl", "key": {"pk": {"S": "a"}},
     "item": {"pk": {"S": "a"}, "n": {"N": "3"}}},
    {"check": "count", "table": "tbl", "equals": 2},
    {"check": "sum", "table": "tbl", "attribute": "n", "equals": 8},
    {"check": "item_equals", "table": "tbl", "key": {"pk": {"S": "c"}},
     "item": null}
  ],
  "expect": "holds"
})";

TEST(Runner, AScriptActorsCallsAndTheGenericChecksHold) {
  RunResult run = RunOnce(Parse(kScript), RunOptions());
  ASSERT_EQ(run.code, 0) << run.failure;
  EXPECT_FALSE(run.violation.has_value());
  ASSERT_EQ(run.steps.size(), 4u);
  EXPECT_EQ(run.trace[1],
            "{\"step\":1,\"t\":\"2024-01-01T00:00:00.000Z\",\"actor\":\"s\","
            "\"op\":\"call PutItem\",\"result\":\"ok\"}");
  EXPECT_EQ(run.trace[8],
            "{\"step\":4,\"call\":\"GetItem\",\"error\":"
            "\"ResourceNotFoundException: Requested resource not found\"}");
  EXPECT_EQ(run.trace.back(),
            "{\"event\":\"end\",\"steps\":4,\"verdict\":\"holds\"}");
}

// A script call of `ops` (one actor, "s", on table xtb) and a check that
// holds whatever the calls did.
std::string ScriptOf(const std::string& ops) {
  return R"({"name": "calls", )" + kTableX + R"(
    "actors": [{"name": "s", "pattern": "script", "ops": [)" +
         ops + R"(]}],
    "invariants": [{"check": "count", "table": "xtb", "equals": 0}],
    "expect": "holds"})";
}

// A call DynamoDB refuses as malformed stops the run (exit 2) naming the
// step, the op, the actor and the call, instead of passing as a trace line.
TEST(Runner, AMalformedScriptCallStopsTheRun) {
  RunResult typo =
      RunOnce(Parse(ScriptOf(R"({"call": "UpdateItems", "request": {}})")), {});
  EXPECT_EQ(typo.code, 2);
  EXPECT_EQ(typo.failure,
            "t.json: step 1: actors[0].ops[0] (actor s, UpdateItems): "
            "DynamoDB refused the call as malformed: "
            "UnknownOperationException:  (fix the request, or add "
            "\"expect_error\": \"UnknownOperationException\" to the op)");
  RunResult undefined = RunOnce(Parse(ScriptOf(R"(
      {"call": "GetItem", "request": {"TableName": "xtb",
         "Key": {"pk": {"S": "a"}}}},
      {"call": "UpdateItem", "request": {"TableName": "xtb",
         "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET v = :value"}})")),
                                {});
  EXPECT_EQ(undefined.code, 2);
  EXPECT_EQ(undefined.failure,
            "t.json: step 2: actors[0].ops[1] (actor s, UpdateItem): "
            "DynamoDB refused the call as malformed: ValidationException: "
            "Invalid UpdateExpression: An expression attribute value used in "
            "expression is not defined; attribute value: :value (fix the "
            "request, or add \"expect_error\": \"ValidationException\" to "
            "the op)");
}

// The refusal an op expects, and the answers about the data (a failed
// condition, a missing table), are step results: the run goes on.
TEST(Runner, ExpectedRefusalsAndAnswersDoNotStopTheRun) {
  RunResult run = RunOnce(Parse(ScriptOf(R"j(
      {"call": "UpdateItems", "request": {},
       "expect_error": "UnknownOperationException"},
      {"call": "PutItem", "request": {"TableName": "xtb",
         "Item": {"pk": {"S": "a"}}},
       "expect_error": "ValidationException"},
      {"call": "DeleteItem", "request": {"TableName": "xtb",
         "Key": {"pk": {"S": "a"}},
         "ConditionExpression": "attribute_not_exists(pk)"}},
      {"call": "DeleteItem", "request": {"TableName": "xtb",
         "Key": {"pk": {"S": "a"}}}},
      {"call": "GetItem", "request": {"TableName": "nope",
         "Key": {"pk": {"S": "a"}}}})j")),
                          {});
  ASSERT_EQ(run.code, 0) << run.failure;
  EXPECT_EQ(run.steps.size(), 5u);
  EXPECT_FALSE(run.violation.has_value());
  EXPECT_NE(run.trace[1].find("\"result\":\"error UnknownOperationException"),
            std::string::npos)
      << run.trace[1];
  auto bad = ParseScenario(ScriptOf(R"({"call": "DeleteItem", "request": {},
                   "expect_error": "ConditionalCheckFailedException"})"),
                           "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "actors[0].ops[0].expect_error: expected ValidationException, "
            "SerializationException or UnknownOperationException (other "
            "errors are answers and never stop the run), got "
            "\"ConditionalCheckFailedException\"");
}

// `add` with `issued_at` is a retry of an earlier increment: within the
// window its key is in the history (a duplicate); after the window, and once
// a later add trimmed the key, it counts again, as the window promises, and
// the idempotent_counter check expects it.
TEST(Runner, ACounterRetryAfterItsWindowCountsAgainAsDesigned) {
  RunResult run = RunOnce(Parse(R"({"name": "late-retry",
    "actors": [{"name": "c", "pattern": "idempotent_counter",
      "params": {"window": "5m"}, "every": "4m", "ops": [
        {"add": {"counter": "n", "key": "k1", "amount": 10}},
        {"add": {"counter": "n", "key": "k1", "amount": 10,
                 "issued_at": "0s"}},
        {"add": {"counter": "n", "key": "k2", "amount": 1}},
        {"add": {"counter": "n", "key": "k1", "amount": 10,
                 "issued_at": "0s"}}]}],
    "invariants": [{"check": "idempotent_counter"}],
    "expect": "holds"})"),
                          {});
  ASSERT_EQ(run.code, 0) << run.failure;
  EXPECT_FALSE(run.violation.has_value()) << run.violation->problems.front();
  std::vector<std::string> steps = ActorSteps(run.trace);
  EXPECT_EQ(steps,
            (std::vector<std::string>{
                "add n k1 +10: applied",
                "add n k1 +10 issued_at=2024-01-01T00:00:00Z: duplicate",
                "add n k2 +1: applied",
                "add n k1 +10 issued_at=2024-01-01T00:00:00Z: applied"}));
  auto bad = ParseScenario(R"({"name": "x", "actors": [{"name": "c",
      "pattern": "idempotent_counter", "ops": [{"add": {"counter": "n",
      "key": "k", "issued_at": "5 min"}}]}],
      "invariants": [{"check": "idempotent_counter"}], "expect": "holds"})",
                           "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "actors[0].ops[0].add.issued_at: invalid duration '5 min': "
            "unknown unit ' min' (expected a number with an optional unit us, "
            "ms, s, m, h or d, e.g. 90s, 1.5m, 250ms)");
}

// Unknown outcomes (Elle's rule): a write refused outright (a throttle the
// writer gave up on) is not expected in the table; one whose every answer
// was lost may or may not be there. Neither breaks a correct writer.
TEST(Runner, OrderedWritesExpectNeitherRefusedNorSurelyLostWrites) {
  const std::string file = R"({"name": "fates", "backend": {"tick": "1s"},
    "actors": [{"name": "w", "pattern": "ordered_writes",
      "params": {"max_attempts": 1}, "ops": [
        {"put": {"pk": "doc", "sk": "a"}},
        {"put": {"pk": "doc", "sk": "a"}},
        {"put": {"pk": "doc", "sk": "b"}}]}],
    "faults": {"rules": [
      {"operation": "PutItem", "nth": [2], "effect": "throttle"},
      {"operation": "PutItem", "nth": [3], "effect": "lost_response"}]},
    "invariants": [{"check": "ordered_writes"}], "expect": "holds"})";
  RunResult run = RunOnce(Parse(file), {});
  ASSERT_EQ(run.code, 0) << run.failure;
  EXPECT_FALSE(run.violation.has_value()) << run.violation->problems.front();
  EXPECT_EQ(ActorSteps(run.trace),
            (std::vector<std::string>{
                "put doc/a ts=1704067200000: applied",
                "put doc/a ts=1704067201000: error ThrottlingException: "
                "Throughput exceeds the current capacity of your table or "
                "index. DynamoDB is automatically scaling your table or index "
                "so please try again shortly. If exceptions persist, check if "
                "you have a hot key: https://docs.aws.amazon.com/amazondynamodb"
                "/latest/developerguide/bp-partition-key-design.html",
                "put doc/b ts=1704067202000: error OutcomeUnknown: the request "
                "may have been applied; its answer was lost"}));
}

// unique_claims actors ("{n}" in an op is the copy number) and their
// check: without index lag gsi_check sees the first claim and refuses the
// second; a raw put of the same email (the script) breaks the invariant.
TEST(Runner, UniqueClaimsActorsAndTheirCheck) {
  RunResult run = RunOnce(Parse(R"({"name": "claims",
    "actors": [
      {"name": "signup", "pattern": "unique_claims", "variant": "gsi_check",
       "count": 2, "ops": [{"claim": {"account": "acct-{n}", "email": "a@x"}}]},
      {"name": "rogue", "pattern": "script", "ops": [{"call": "PutItem",
       "request": {"TableName": "ddblab_unique_claims",
                   "Item": {"pk": {"S": "acct-3"}, "email": {"S": "a@x"}}}}]}],
    "invariants": [{"check": "unique_claims"}],
    "expect": "violated",
    "schedule": ["signup#1", "signup#2", "rogue"]})"),
                          {});
  ASSERT_EQ(run.code, 0) << run.failure;
  std::vector<std::string> steps = ActorSteps(run.trace);
  EXPECT_EQ(steps, (std::vector<std::string>{"claim acct-1 a@x: claimed",
                                             "claim acct-2 a@x: taken",
                                             "call PutItem: ok"}));
  ASSERT_TRUE(run.violation.has_value());
  EXPECT_EQ(run.violation->problems,
            std::vector<std::string>{
                "email a@x is held by 2 accounts: acct-1, acct-3"});
  auto bad = ParseScenario(R"({"name": "x", "actors": [{"name": "c",
      "pattern": "unique_claims", "ops": [{"claim": {"account": "a"}}]}],
      "invariants": [{"check": "unique_claims"}], "expect": "holds"})",
                           "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "actors[0].ops[0].claim.email: required");
}

TEST(Runner, BrokenGenericChecksSayWhatTheTableHolds) {
  std::string text = kScript;
  text.replace(text.find("\"equals\": 2"), 11, "\"equals\": 3");
  text.replace(text.find("\"equals\": 8"), 11, "\"equals\": 7");
  text.replace(text.find("{\"N\": \"3\"}}}"), 12, "{\"N\": \"4\"}}}");
  RunResult run = RunOnce(Parse(text), RunOptions());
  ASSERT_EQ(run.code, 0) << run.failure;
  ASSERT_TRUE(run.violation.has_value());
  EXPECT_EQ(run.violation->id, "invariants[0]");
  EXPECT_EQ(run.violation->problems,
            std::vector<std::string>{
                "item {\"pk\":{\"S\":\"a\"}} of tbl is "
                "{\"n\":{\"N\":\"3\"},\"pk\":{\"S\":\"a\"}}, expected "
                "{\"n\":{\"N\":\"4\"},\"pk\":{\"S\":\"a\"}}"});
  const size_t n = run.trace.size();
  EXPECT_EQ(run.trace[n - 4],
            "{\"event\":\"invariant\",\"id\":\"invariants[1]\",\"check\":"
            "\"count\",\"holds\":false,\"problems\":[\"tbl holds 2 items, "
            "expected 3\"]}");
  EXPECT_EQ(
      run.trace[n - 3],
      "{\"event\":\"invariant\",\"id\":\"invariants[2]\",\"check\":"
      "\"sum\",\"holds\":false,\"problems\":[\"the sum of n over tbl is 8, "
      "expected 7\"]}");
}

TEST(Runner, AnEveryStepCheckBreaksAtTheStepThatBreaksIt) {
  std::string text = kScript;
  // The count is 2 only after the second put.
  text.replace(text.find("\"equals\": 2}"), 12,
               "\"equals\": 0, \"every_step\": true}");
  RunResult run = RunOnce(Parse(text), RunOptions());
  ASSERT_TRUE(run.violation.has_value());
  EXPECT_EQ(run.violation->id, "invariants[1]");
  EXPECT_EQ(run.violation->step, 1);
  EXPECT_EQ(run.violation->problems,
            std::vector<std::string>{"tbl holds 1 item, expected 0"});
}

TEST(Runner, TimedActorsAndTheTimelineMoveTheClock) {
  RunResult run = RunOnce(Parse(R"({
    "name": "timed",
    "tables": [{"TableName": "tbl", "BillingMode": "PAY_PER_REQUEST",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "AttributeDefinitions": [{"AttributeName": "pk",
                                          "AttributeType": "S"}]}],
    "actors": [{"name": "s", "pattern": "script", "start": "1m",
                "every": "30s", "repeat": 2,
                "ops": [{"call": "ListTables", "request": {}}]}],
    "timeline": [{"at": "10s", "advance": "5s"},
                 {"at": "2m", "sweep_ttl": true}],
    "invariants": [{"check": "count", "table": "tbl", "equals": 0}],
    "expect": "holds"
  })"),
                          RunOptions());
  ASSERT_EQ(run.code, 0) << run.failure;
  std::vector<std::string> events;
  for (const std::string& line : run.trace) {
    json event = json::parse(line);
    if (event.contains("event") && event["event"] != "start" &&
        event["event"] != "invariant" && event["event"] != "end") {
      events.push_back(line);
    }
    if (event.contains("actor")) events.push_back(line);
  }
  EXPECT_EQ(events,
            (std::vector<std::string>{
                "{\"event\":\"clock\",\"t\":\"2024-01-01T00:00:10.000Z\","
                "\"advance\":\"10s\"}",
                "{\"event\":\"advance\",\"by\":\"5s\",\"t\":"
                "\"2024-01-01T00:00:15.000Z\"}",
                "{\"event\":\"clock\",\"t\":\"2024-01-01T00:01:00.000Z\","
                "\"advance\":\"45s\"}",
                "{\"step\":1,\"t\":\"2024-01-01T00:01:00.000Z\",\"actor\":"
                "\"s\",\"op\":\"call ListTables\",\"result\":\"ok\"}",
                "{\"event\":\"clock\",\"t\":\"2024-01-01T00:01:30.000Z\","
                "\"advance\":\"30s\"}",
                "{\"step\":2,\"t\":\"2024-01-01T00:01:30.000Z\",\"actor\":"
                "\"s\",\"op\":\"call ListTables\",\"result\":\"ok\"}",
                "{\"event\":\"clock\",\"t\":\"2024-01-01T00:02:00.000Z\","
                "\"advance\":\"30s\"}",
                "{\"event\":\"sweep_ttl\",\"deleted\":0,\"t\":"
                "\"2024-01-01T00:02:00.000Z\"}"}));
}

// A latency fault on the manual clock: the call moves the clock to the
// answer's due time (it used to wait for a clock only the runner moves, for
// ever), the call's trace line says how long, and the next step starts there.
TEST(Runner, ALatencyFaultMovesTheClockAndTheTraceShowsTheWait) {
  RunResult run = RunOnce(Parse(R"({"name": "slow", )" + kTableX + R"(
    "backend": {"tick": "1s"},
    "faults": {"rules": [{"operation": "PutItem", "effect": "latency",
                          "duration": "2s"}]},
    "actors": [{"name": "s", "pattern": "script", "ops": [
      {"call": "PutItem", "request": {"TableName": "xtb",
         "Item": {"pk": {"S": "a"}}}},
      {"call": "GetItem", "request": {"TableName": "xtb",
         "Key": {"pk": {"S": "a"}}}}]}],
    "invariants": [{"check": "count", "table": "xtb", "equals": 1}],
    "expect": "holds"})"),
                          RunOptions());
  ASSERT_EQ(run.code, 0) << run.failure;
  std::vector<std::string> steps;
  for (const std::string& line : run.trace) {
    if (json::parse(line).contains("step")) steps.push_back(line);
  }
  EXPECT_EQ(steps,
            (std::vector<std::string>{
                "{\"step\":1,\"t\":\"2024-01-01T00:00:00.000Z\",\"actor\":"
                "\"s\",\"op\":\"call PutItem\",\"result\":\"ok\"}",
                "{\"step\":1,\"call\":\"PutItem\",\"waited\":\"2s\","
                "\"response\":{}}",
                "{\"step\":2,\"t\":\"2024-01-01T00:00:03.000Z\",\"actor\":"
                "\"s\",\"op\":\"call GetItem\",\"result\":\"ok\"}",
                "{\"step\":2,\"call\":\"GetItem\",\"response\":{\"Item\":"
                "{\"pk\":{\"S\":\"a\"}}}}"}));
}

// backend.consistency is set at the start of the run (and shown on the
// start line): with a 2 s index lag, a GSI Query one tick after the write
// misses it and one two ticks after finds it. Settings the backend refuses
// stop the run with exit 2, named under backend.consistency.
TEST(Runner, BackendConsistencyLagsTheIndexes) {
  const std::string lagging = R"({"name": "lag",
    "tables": [{"TableName": "gtb", "BillingMode": "PAY_PER_REQUEST",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "g", "AttributeType": "S"}],
      "GlobalSecondaryIndexes": [{"IndexName": "byG",
        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"}}]}],
    "backend": {"tick": "1s", "consistency": CONSISTENCY},
    "actors": [{"name": "s", "pattern": "script", "ops": [
      {"call": "PutItem", "request": {"TableName": "gtb",
         "Item": {"pk": {"S": "a"}, "g": {"S": "x"}}}},
      {"call": "Query", "request": {"TableName": "gtb", "IndexName": "byG",
         "KeyConditionExpression": "g = :g", "Select": "COUNT",
         "ExpressionAttributeValues": {":g": {"S": "x"}}}},
      {"call": "Query", "request": {"TableName": "gtb", "IndexName": "byG",
         "KeyConditionExpression": "g = :g", "Select": "COUNT",
         "ExpressionAttributeValues": {":g": {"S": "x"}}}}]}],
    "invariants": [{"check": "count", "table": "gtb", "equals": 1}],
    "expect": "holds"})";
  auto with = [&](const std::string& consistency) {
    std::string text = lagging;
    text.replace(text.find("CONSISTENCY"), 11, consistency);
    return Parse(text);
  };
  RunResult run = RunOnce(with(R"({"index_lag": "2s"})"), RunOptions());
  ASSERT_EQ(run.code, 0) << run.failure;
  EXPECT_EQ(json::parse(run.trace[0])["consistency"],
            json({{"index_lag", "2s"}}));
  std::vector<std::string> queries;
  for (const std::string& line : run.trace) {
    if (json::parse(line).value("call", "") == "Query") queries.push_back(line);
  }
  EXPECT_EQ(queries,
            (std::vector<std::string>{
                "{\"step\":2,\"call\":\"Query\",\"response\":{\"Count\":0,"
                "\"ScannedCount\":0}}",
                "{\"step\":3,\"call\":\"Query\",\"response\":{\"Count\":1,"
                "\"ScannedCount\":1}}"}));

  RunResult bad = RunOnce(with(R"({"read_lag": "2s..1s"})"), RunOptions());
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.failure,
            "t.json: backend.consistency.read_lag: invalid lag '2s..1s': the "
            "lower end is above the upper end");
  EXPECT_EQ(ParseScenario(R"({"name": "x", "backend": {"consistency": "2s"},
    "actors": [{"name": "s", "pattern": "script", "ops": []}],
    "invariants": [{"check": "count", "table": "t", "equals": 0}],
    "expect": "holds"})",
                          "t.json")
                .error()
                .message,
            "backend.consistency: expected the consistency settings (an "
            "object such as {\"index_lag\": \"2s\"}), got \"2s\"");
}

TEST(Runner, APinnedScheduleIsFollowedAndEndsTheRun) {
  Scenario s = Parse(R"({
    "name": "pinned",)" +
                     kTableX + R"(
    "actors": [{"name": "a", "pattern": "script", "repeat": 3,
                "ops": [{"call": "ListTables", "request": {}}]},
               {"name": "b", "pattern": "script", "repeat": 3,
                "ops": [{"call": "ListTables", "request": {}}]}],
    "invariants": [{"check": "count", "table": "xtb", "equals": 0}],
    "schedule": ["b", "b", "a", "b", "b"],
    "expect": "holds"
  })");
  RunResult run = RunOnce(s, RunOptions());
  ASSERT_EQ(run.code, 0) << run.failure;
  // The fourth "b" is void: b has run its three ops.
  EXPECT_EQ(run.schedule, (std::vector<std::string>{"b", "b", "a", "b"}));
}

TEST(Runner, TheSeedPicksTheInterleaving) {
  Scenario s = Parse(R"({
    "name": "seeds",)" +
                     kTableX + R"(
    "actors": [{"name": "w", "pattern": "script", "count": 3, "repeat": 4,
                "ops": [{"call": "ListTables", "request": {}}]}],
    "invariants": [{"check": "count", "table": "xtb", "equals": 0}],
    "expect": "holds"
  })");
  RunOptions options;
  options.seed = 11;
  const std::vector<std::string> a = RunOnce(s, options).schedule;
  EXPECT_EQ(a, RunOnce(s, options).schedule);
  options.seed = 12;
  EXPECT_NE(a, RunOnce(s, options).schedule);
  EXPECT_EQ(a.size(), 12u);
}

// A control call the backend refuses stops the run with code 3, naming the
// event and the call and giving the backend's message; the run does not go
// on as if it had worked (here: a split of a table without a stream).
TEST(Runner, AFailedControlCallStopsTheRunWithThree) {
  RunResult run = RunOnce(Parse(R"({"name": "split", )" + kTableX + R"(
    "backend": {"tick": "1s"},
    "actors": [{"name": "s", "pattern": "script", "repeat": 3, "ops": [
      {"call": "PutItem", "request": {"TableName": "xtb",
         "Item": {"pk": {"S": "a"}}}}]}],
    "timeline": [{"at": "1s", "split_shards": "xtb"}],
    "invariants": [{"check": "count", "table": "xtb", "equals": 1}],
    "expect": "holds"})"),
                          RunOptions());
  EXPECT_EQ(run.code, 3);
  EXPECT_EQ(run.failure,
            "t.json: timeline[0].split_shards: shard split failed: "
            "ValidationException: Table has no enabled stream: TableName: "
            "xtb");
  EXPECT_FALSE(run.violation.has_value());
}

}  // namespace
}  // namespace ddblab::harness::scenario
