// Fault plans through the engine (emulator/engine/fault_seam.h) on a
// ManualClock: every effect's exact answer and the state after it (applied
// or not), the Options / SetFaultPlan / FaultLog interface, determinism.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/emulator/engine/streams_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::seconds;

constexpr char kArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/Tbl";
constexpr char kProvisionedText[] =
    "The level of configured provisioned throughput for the table was "
    "exceeded. Consider increasing your provisioning level with the "
    "UpdateTable API.";

class FaultSeamTest : public StreamsTest {
 protected:
  void SetPlan(const char* plan) {
    Status s = emu_->SetFaultPlan(Json::parse(plan));
    ASSERT_TRUE(s.ok()) << ToString(s.error());
  }
  void CreateProvisioned(const std::string& name) {
    Ok("CreateTable",
       {{"TableName", name},
        {"AttributeDefinitions",
         Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}}})},
        {"KeySchema",
         Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})},
        {"ProvisionedThroughput",
         {{"ReadCapacityUnits", 5}, {"WriteCapacityUnits", 5}}}});
  }
  Json PutRequest(const std::string& pk) {
    return {{"TableName", "Tbl"}, {"Item", {{"pk", S(pk)}, {"v", N("1")}}}};
  }
  bool Exists(const std::string& pk) {
    return Ok("GetItem", {{"TableName", "Tbl"}, {"Key", {{"pk", S(pk)}}}})
        .contains("Item");
  }
  Json LogJson() {
    Json out = Json::array();
    for (const FaultLogEntry& e : emu_->FaultLog()) {
      out.push_back({{"seq", e.seq},
                     {"time", ToEpochSecondsDouble(e.time)},
                     {"operation", e.operation},
                     {"table", e.table},
                     {"keys", e.keys},
                     {"rule", e.rule_id},
                     {"effect", e.effect}});
    }
    return out;
  }
};

TEST_F(FaultSeamTest, ThrottleProvisionedPutIsNotApplied) {
  CreateProvisioned("Tbl");
  SetPlan(R"({"rules": [{"id": "t", "operation": "PutItem", "nth": [1, 2],
                         "effect": "throttle"}]})");
  for (int attempt = 0; attempt < 2; ++attempt) {
    Error e = Fail("PutItem", PutRequest("a"));
    EXPECT_EQ(e.Name(), "ProvisionedThroughputExceededException");
    EXPECT_EQ(e.message, kProvisionedText);
    EXPECT_EQ(e.extra,
              Json({{"ThrottlingReasons",
                     Json::array({{{"reason",
                                    "TableWriteProvisionedThroughputExceeded"},
                                   {"resource", kArn}}})}}));
    EXPECT_FALSE(Exists("a"));
  }
  Ok("PutItem", PutRequest("a"));  // the 3rd attempt
  EXPECT_TRUE(Exists("a"));
  std::vector<FaultLogEntry> log = emu_->FaultLog();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1].seq, 2);
  EXPECT_EQ(log[1].operation, "PutItem");
  EXPECT_EQ(log[1].table, "Tbl");
  EXPECT_EQ(log[1].keys, Json::parse(R"([{"pk": {"S": "a"}}])"));
  EXPECT_EQ(log[1].rule_id, "t");
  EXPECT_EQ(log[1].effect, "throttle");
  EXPECT_EQ(log[1].time, clock_->Now());
  const Json status = emu_->FaultStatus();
  EXPECT_EQ(status["rules"][0]["matched"], 3);
  EXPECT_EQ(status["rules"][0]["fired"], 2);
}

TEST_F(FaultSeamTest, ThrottleOnDemandRead) {
  CreateTable("Tbl");
  Ok("PutItem", PutRequest("a"));
  SetPlan(R"({"rules": [{"operation": "GetItem", "effect": "throttle"}]})");
  Error e = Fail("GetItem", {{"TableName", "Tbl"}, {"Key", {{"pk", S("a")}}}});
  EXPECT_EQ(e.Name(), "ThrottlingException");
  EXPECT_EQ(
      e.extra,
      Json({{"throttlingReasons",
             Json::array({{{"reason", "TableReadKeyRangeThroughputExceeded"},
                           {"resource", kArn}}})}}));
}

TEST_F(FaultSeamTest, TransientErrorsApplyNothing) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [
      {"key": {"pk": {"S": "a"}}, "effect": "internal_error"},
      {"key": {"pk": {"S": "b"}}, "effect": "unavailable"},
      {"key": {"pk": {"S": "c"}}, "effect": "request_limit"}]})");
  EXPECT_EQ(FailText("PutItem", PutRequest("a")),
            "InternalServerError: Internal server error");
  EXPECT_EQ(Fail("PutItem", PutRequest("b")).type,
            ErrorType::kServiceUnavailable);
  EXPECT_EQ(Fail("PutItem", PutRequest("c")).Name(), "RequestLimitExceeded");
  ASSERT_TRUE(emu_->SetFaultPlan(nullptr).ok());
  EXPECT_FALSE(Exists("a"));
  EXPECT_FALSE(Exists("b"));
  EXPECT_FALSE(Exists("c"));
  EXPECT_EQ(emu_->FaultLog().size(), 3u);  // the log outlives the plan
}

TEST_F(FaultSeamTest, UnprocessedBatchWriteLeavesExactlyTheMatchedItems) {
  CreateTable("Tbl");
  // 25 puts; the 7 whose "g" is "x" are matched.
  Json writes = Json::array();
  std::set<std::string> matched;
  for (int i = 0; i < 25; ++i) {
    const std::string pk = "k" + std::to_string(i);
    const bool hit = i % 3 == 1 && matched.size() < 7;
    if (hit) matched.insert(pk);
    writes.push_back(
        {{"PutRequest",
          {{"Item", {{"pk", S(pk)}, {"g", S(hit ? "x" : "y")}}}}}});
  }
  ASSERT_EQ(matched.size(), 7u);
  SetPlan(R"({"rules": [{"operation": "BatchWriteItem",
      "key": {"g": {"S": "x"}}, "effect": "unprocessed"}]})");
  Json out = Ok("BatchWriteItem", {{"RequestItems", {{"Tbl", writes}}}});
  Json expected = Json::array();
  for (const Json& w : writes) {
    if (w["PutRequest"]["Item"]["g"] == S("x")) expected.push_back(w);
  }
  EXPECT_EQ(out["UnprocessedItems"], Json({{"Tbl", expected}}));
  for (int i = 0; i < 25; ++i) {
    const std::string pk = "k" + std::to_string(i);
    EXPECT_EQ(Exists(pk), matched.count(pk) == 0) << pk;
  }
  ASSERT_EQ(emu_->FaultLog().size(), 1u);
  EXPECT_EQ(emu_->FaultLog()[0].keys.size(), 7u);
}

TEST_F(FaultSeamTest, UnprocessedCountAndBatchGet) {
  CreateTable("Tbl");
  for (const char* pk : {"a", "b", "c"}) Ok("PutItem", PutRequest(pk));
  SetPlan(R"({"rules": [{"operation": "BatchGetItem", "effect": "unprocessed",
                         "count": 2}]})");
  Json out = Ok("BatchGetItem", {{"RequestItems",
                                  {{"Tbl",
                                    {{"Keys", Json::array({{{"pk", S("a")}},
                                                           {{"pk", S("b")}},
                                                           {{"pk", S("c")}}})},
                                     {"ConsistentRead", true}}}}}});
  EXPECT_EQ(out["UnprocessedKeys"],
            Json::parse(R"({"Tbl": {"Keys": [{"pk": {"S": "a"}},
                {"pk": {"S": "b"}}], "ConsistentRead": true}})"));
  ASSERT_EQ(out["Responses"]["Tbl"].size(), 1u);
  EXPECT_EQ(out["Responses"]["Tbl"][0]["pk"], S("c"));
}

TEST_F(FaultSeamTest, UnprocessedEveryItemIsAThrottle) {
  CreateProvisioned("Tbl");
  SetPlan(R"({"rules": [{"operation": "BatchWriteItem",
                         "effect": "unprocessed"}]})");
  Error e = Fail(
      "BatchWriteItem",
      {{"RequestItems",
        {{"Tbl",
          Json::array({{{"PutRequest", {{"Item", {{"pk", S("a")}}}}}}})}}}});
  EXPECT_EQ(e.Name(), "ProvisionedThroughputExceededException");
  EXPECT_EQ(e.extra["ThrottlingReasons"][0]["reason"],
            "TableWriteProvisionedThroughputExceeded");
  EXPECT_FALSE(Exists("a"));
}

TEST_F(FaultSeamTest, ConflictCancelsTransactionAndSingleWrites) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [{"key": {"pk": {"S": "b"}}, "effect": "conflict"}]})");
  Error t = Fail(
      "TransactWriteItems",
      {{"TransactItems",
        Json::array(
            {{{"Put", {{"TableName", "Tbl"}, {"Item", {{"pk", S("a")}}}}}},
             {{"Put", {{"TableName", "Tbl"}, {"Item", {{"pk", S("b")}}}}}}})}});
  EXPECT_EQ(ToString(t),
            "TransactionCanceledException: Transaction cancelled, please refer "
            "cancellation reasons for specific reasons [None, "
            "TransactionConflict]");
  EXPECT_EQ(t.extra, Json::parse(R"({"CancellationReasons": [{"Code": "None"},
      {"Code": "TransactionConflict",
       "Message": "Transaction is ongoing for the item."}]})"));
  EXPECT_EQ(
      FailText("PutItem", PutRequest("b")),
      "TransactionConflictException: Transaction is ongoing for the item");
  Ok("PutItem", PutRequest("c"));  // not matched
  ASSERT_TRUE(emu_->SetFaultPlan(nullptr).ok());
  EXPECT_FALSE(Exists("a"));
  EXPECT_FALSE(Exists("b"));
  EXPECT_TRUE(Exists("c"));
}

TEST_F(FaultSeamTest, LostResponseAppliesTheWrite) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [{"id": "lost", "operation": "UpdateItem", "nth": [1],
                         "effect": "lost_response"}]})");
  const Json add = {{"TableName", "Tbl"},
                    {"Key", {{"pk", S("counter")}}},
                    {"UpdateExpression", "ADD n :one"},
                    {"ExpressionAttributeValues", {{":one", N("1")}}}};
  Error e = Fail("UpdateItem", add);
  EXPECT_EQ(e.type, ErrorType::kOutcomeUnknown);
  Ok("UpdateItem", add);  // the caller's retry
  Json item =
      Ok("GetItem", {{"TableName", "Tbl"}, {"Key", {{"pk", S("counter")}}}});
  EXPECT_EQ(item["Item"]["n"], N("2"));  // counted twice
}

TEST_F(FaultSeamTest, LatencyOnAManualClockMovesItToTheDueTime) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [{"operation": "PutItem", "effect": "latency",
                         "duration": "2s"}]})");
  const TimePoint start = clock_->Now();
  // On this thread: nobody else could move the clock.
  Result<Json> answer = emu_->Call("PutItem", PutRequest("a"));
  ASSERT_TRUE(answer.ok()) << ToString(answer.error());
  EXPECT_EQ(*answer, Json::object());
  EXPECT_EQ(clock_->Now(), start + seconds(2));
  EXPECT_TRUE(Exists("a"));
  EXPECT_EQ(clock_->Now(), start + seconds(2));  // GetItem has no latency
}

TEST_F(FaultSeamTest, LatencyCombinesWithAnError) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [{"operation": "PutItem", "effect": "latency",
                         "duration": "1s"},
                        {"operation": "PutItem", "effect": "internal_error"}]})");
  const TimePoint start = clock_->Now();
  Result<Json> answer = emu_->Call("PutItem", PutRequest("a"));
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().Name(), "InternalServerError");
  EXPECT_EQ(emu_->FaultLog().size(), 2u);
  EXPECT_EQ(clock_->Now(), start + seconds(1));
  EXPECT_FALSE(Exists("a"));
}

TEST_F(FaultSeamTest, CallDeferredOnAManualClockIsDueWhereItMovedTheClock) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [{"operation": "PutItem", "effect": "latency",
                         "duration": "30s"}]})");
  const TimePoint start = clock_->Now();
  DeferredAnswer answer = emu_->CallDeferred("PutItem", PutRequest("a"));
  ASSERT_TRUE(answer.result.ok()) << ToString(answer.result.error());
  EXPECT_EQ(*answer.result, Json::object());
  ASSERT_TRUE(answer.due.has_value());
  EXPECT_EQ(answer.due->at, start + seconds(30));
  EXPECT_EQ(answer.due->clock.get(), &emu_->clock());
  EXPECT_TRUE(answer.due->Reached());
  EXPECT_EQ(clock_->Now(), start + seconds(30));
  EXPECT_TRUE(Exists("a"));

  // No latency rule for GetItem: due at once.
  DeferredAnswer get = emu_->CallDeferred(
      "GetItem", {{"TableName", "Tbl"}, {"Key", {{"pk", S("a")}}}});
  ASSERT_TRUE(get.result.ok());
  EXPECT_FALSE(get.due.has_value());
}

TEST_F(FaultSeamTest, TheEngineLeavesTheWaitToItsCaller) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [{"operation": "PutItem", "effect": "latency",
                         "duration": "30s"}]})");
  const TimePoint start = clock_->Now();
  // Under the facade: the due time, the clock untouched.
  DeferredAnswer answer = impl().CallDeferred("PutItem", PutRequest("a"));
  ASSERT_TRUE(answer.result.ok()) << ToString(answer.result.error());
  ASSERT_TRUE(answer.due.has_value());
  EXPECT_EQ(answer.due->at, start + seconds(30));
  EXPECT_FALSE(answer.due->Reached());
  EXPECT_EQ(clock_->Now(), start);
}

TEST_F(FaultSeamTest, CallStreamsDeferredCarriesTheDueTime) {
  const std::string arn = CreateStreamTable("Tbl", "KEYS_ONLY");
  const std::string shard = Shards(arn)[0]["ShardId"];
  const std::string it = Iterator(arn, shard);
  SetPlan(R"({"rules": [{"operation": "GetRecords", "effect": "latency",
                         "duration": "250ms"}]})");
  const TimePoint start = clock_->Now();
  DeferredAnswer answer =
      emu_->CallStreamsDeferred("GetRecords", {{"ShardIterator", it}});
  ASSERT_TRUE(answer.result.ok()) << ToString(answer.result.error());
  EXPECT_EQ((*answer.result)["Records"], Json::array());
  ASSERT_TRUE(answer.due.has_value());
  EXPECT_EQ(answer.due->at, start + std::chrono::milliseconds(250));
  EXPECT_EQ(clock_->Now(), start + std::chrono::milliseconds(250));
}

// On the system clock a latency answer waits in real time; StopWaiting (a
// server's shutdown) ends every wait. No test waits for real time to pass:
// each call below returns only because it is told to stop waiting.
class LatencyOnTheSystemClock : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.clock = std::make_shared<SystemClock>();
    options.seed = 7;
    auto emu = Emulator::Open(std::move(options));
    ASSERT_TRUE(emu.ok()) << ToString(emu.error());
    emu_ = std::move(emu).value();
    Result<Json> created = emu_->Call(
        "CreateTable",
        {{"TableName", "Tbl"},
         {"AttributeDefinitions",
          Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}}})},
         {"KeySchema",
          Json::array({{{"AttributeName", "pk"}, {"KeyType", "HASH"}}})},
         {"BillingMode", "PAY_PER_REQUEST"}});
    ASSERT_TRUE(created.ok()) << ToString(created.error());
    Status s = emu_->SetFaultPlan(Json::parse(
        R"({"rules": [{"operation": "PutItem", "effect": "latency",
                       "duration": "60s"}]})"));
    ASSERT_TRUE(s.ok()) << ToString(s.error());
  }
  Json Put() {
    return {{"TableName", "Tbl"}, {"Item", {{"pk", {{"S", "a"}}}}}};
  }
  std::unique_ptr<Emulator> emu_;
};

TEST_F(LatencyOnTheSystemClock, StopWaitingMakesCallAnswerAtOnce) {
  emu_->StopWaiting();
  Result<Json> answer = emu_->Call("PutItem", Put());
  ASSERT_TRUE(answer.ok()) << ToString(answer.error());
  EXPECT_EQ(*answer, Json::object());
}

TEST_F(LatencyOnTheSystemClock, StopWaitingWakesAWaitingCall) {
  std::future<Result<Json>> call = std::async(
      std::launch::async, [&] { return emu_->Call("PutItem", Put()); });
  for (int spin = 0; spin < 100000000 && emu_->FaultLog().empty(); ++spin) {
    std::this_thread::yield();
  }
  emu_->StopWaiting();  // before any assertion: the call must not stay
  ASSERT_EQ(emu_->FaultLog().size(), 1u);
  Result<Json> answer = call.get();  // 60 s had not passed
  ASSERT_TRUE(answer.ok()) << ToString(answer.error());
  EXPECT_EQ(*answer, Json::object());
}

TEST_F(FaultSeamTest, LatencyOverTheCapIsRefused) {
  Status s = emu_->SetFaultPlan(Json::parse(
      R"({"rules": [{"operation": "GetItem", "effect": "latency",
                     "duration": "61s"}]})"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().Name(), "ValidationException");
  EXPECT_EQ(s.error().message,
            "rules[0].duration: a latency of at most 60s (the SDKs' read "
            "timeout: botocore gives up after 60s with a ReadTimeoutError), "
            "got \"61s\"");
  EXPECT_EQ(emu_->FaultStatus()["rules"], Json::array());  // old plan stays
}

TEST_F(FaultSeamTest, StreamsErrors) {
  const std::string arn = CreateStreamTable("Tbl", "KEYS_ONLY");
  const std::string shard = Shards(arn)[0]["ShardId"];
  const std::string it = Iterator(arn, shard);
  SetPlan(R"({"rules": [
      {"operation": "GetRecords", "nth": [1], "effect": "throttle"},
      {"operation": "GetRecords", "nth": [2], "effect": "expired_iterator"},
      {"operation": "GetRecords", "nth": [3], "effect": "trimmed"},
      {"operation": "GetShardIterator", "effect": "throttle"}]})");
  const Json get = {{"ShardIterator", it}};
  EXPECT_EQ(StreamsFail("GetRecords", get),
            "LimitExceededException: Rate exceeded");
  EXPECT_EQ(StreamsFail("GetRecords", get),
            "ExpiredIteratorException: The provided iterator exceeds the "
            "maximum age allowed.");
  EXPECT_EQ(StreamsFail("GetRecords", get),
            "TrimmedDataAccessException: The data you are trying to access "
            "has been trimmed.");
  EXPECT_EQ(
      StreamsFail("GetShardIterator", {{"StreamArn", arn},
                                       {"ShardId", shard},
                                       {"ShardIteratorType", "TRIM_HORIZON"}}),
      "LimitExceededException: Rate exceeded");
  StreamsOk("GetRecords", get);  // the iterator is still good
}

TEST_F(FaultSeamTest, EmptyGetRecordsKeepsTheRecordsForLater) {
  const std::string arn = CreateStreamTable("Tbl", "KEYS_ONLY");
  const std::string shard = Shards(arn)[0]["ShardId"];
  const std::string it = Iterator(arn, shard);
  Put("Tbl", {{"pk", S("a")}});
  SetPlan(R"({"rules": [{"operation": "GetRecords", "nth": [1],
                         "effect": "empty"}]})");
  Json first = Records(it);
  EXPECT_EQ(first["Records"], Json::array());
  ASSERT_TRUE(first.contains("NextShardIterator"));
  Json second = Records(first["NextShardIterator"]);
  ASSERT_EQ(second["Records"].size(), 1u);
  EXPECT_EQ(second["Records"][0]["dynamodb"]["Keys"]["pk"], S("a"));
}

TEST_F(FaultSeamTest, VisibilityDelayHidesRecentRecords) {
  const std::string arn = CreateStreamTable("Tbl", "KEYS_ONLY");
  const std::string shard = Shards(arn)[0]["ShardId"];
  const std::string it = Iterator(arn, shard);
  Put("Tbl", {{"pk", S("a")}});
  clock_->Advance(seconds(1));
  Put("Tbl", {{"pk", S("b")}});
  SetPlan(R"({"rules": [{"operation": "GetRecords",
                         "effect": "visibility_delay", "duration": "2s"}]})");
  Json r = Records(it);
  EXPECT_EQ(r["Records"], Json::array());  // a is 1 s old, b 0 s
  clock_->Advance(seconds(1));
  r = Records(r["NextShardIterator"]);
  ASSERT_EQ(r["Records"].size(), 1u);  // a is 2 s old now
  EXPECT_EQ(r["Records"][0]["dynamodb"]["Keys"]["pk"], S("a"));
  r = Records(r["NextShardIterator"]);
  EXPECT_EQ(r["Records"], Json::array());
  clock_->Advance(seconds(1));
  r = Records(r["NextShardIterator"]);
  ASSERT_EQ(r["Records"].size(), 1u);
  EXPECT_EQ(r["Records"][0]["dynamodb"]["Keys"]["pk"], S("b"));
}

TEST_F(FaultSeamTest, BadPlanKeepsTheOldOne) {
  CreateTable("Tbl");
  SetPlan(R"({"rules": [{"operation": "PutItem", "effect": "throttle"}]})");
  Status bad = emu_->SetFaultPlan(Json::parse(
      R"({"rules": [{"effect": "throttle"}, {"effect": "throttle"},
                    {"effect": "thorttle"}]})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(
      ToString(bad.error()),
      "ValidationException: rules[2].effect: unknown effect \"thorttle\"");
  EXPECT_EQ(Fail("PutItem", PutRequest("a")).Name(), "ThrottlingException");
}

TEST_F(FaultSeamTest, OptionsFaultPlan) {
  Options options;
  options.fault_plan = Json::parse(
      R"({"rules": [{"operation": "CreateTable", "effect": "throttle"}]})");
  Open(options);
  EXPECT_EQ(FailText("CreateTable", {{"TableName", "Tbl"}}),
            "ThrottlingException: Rate exceeded");
  Options bad;
  bad.clock = clock_;
  bad.fault_plan = Json::parse(R"({"rules": [{"effect": 1}]})");
  auto opened = Emulator::Open(bad);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(ToString(opened.error()),
            "ValidationException: rules[0].effect: must be a string");
}

TEST_F(FaultSeamTest, SameSeedSameLog) {
  const char* plan = R"({"rules": [
      {"id": "p", "operation": "PutItem", "probability": 0.4,
       "effect": "throttle"},
      {"id": "g", "operation": "GetItem", "probability": 0.2,
       "effect": "internal_error"}]})";
  auto run = [&] {
    clock_.reset();
    Options options;
    options.seed = 99;
    options.fault_plan = Json::parse(plan);
    Open(options);
    CreateTable("Tbl");
    for (int i = 0; i < 50; ++i) {
      (void)emu_->Call("PutItem", PutRequest("k" + std::to_string(i)));
      (void)emu_->Call("GetItem",
                       {{"TableName", "Tbl"},
                        {"Key", {{"pk", S("k" + std::to_string(i))}}}});
      clock_->Advance(std::chrono::milliseconds(10));
    }
    return LogJson();
  };
  const Json first = run();
  EXPECT_GT(first.size(), 10u);
  EXPECT_EQ(run().dump(), first.dump());
}

}  // namespace
}  // namespace ddblab::engine::testing
