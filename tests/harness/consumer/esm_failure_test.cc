// tests/harness/consumer/esm_failure_test.cc: function errors, bisection,
// partial batch responses, retry limits, record age and on-failure records
// (Lambda's error handling for stream sources).
#include <gtest/gtest.h>

#include "harness/consumer/esm.h"
#include "tests/harness/consumer/esm_fixture.h"

namespace ddblab::harness::consumer {
namespace {

bool Contains(const json& event, const std::string& pk) {
  for (const json& r : event["Records"]) {
    if (r["dynamodb"]["Keys"]["pk"]["S"] == pk) return true;
  }
  return false;
}

TEST_F(EsmTest, PoisonRecordIsBisectedOutOfABatchOfTen) {
  auto esm =
      Make({{"BatchSize", 10},
            {"BisectBatchOnFunctionError", true},
            {"MaximumRetryAttempts", 0},
            {"DestinationConfig",
             {{"OnFailure",
               {{"Destination", "arn:aws:sqs:us-east-1:000000000000:dlq"}}}}}});
  for (int i = 0; i < 10; ++i) Put("r" + std::to_string(i));
  handler_ = [](const json& e) -> Result<json> {
    if (Contains(e, "r4")) return Throw("poison");
    return json(nullptr);
  };
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(
      Calls(),
      (CallList{{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"},
                {"r0", "r1", "r2", "r3", "r4"},
                {"r0", "r1"},
                {"r2", "r3", "r4"},
                {"r2"},
                {"r3", "r4"},
                {"r3"},
                {"r4"},
                {"r5", "r6", "r7", "r8", "r9"}}));
  EXPECT_EQ(esm->metrics().bisections, 4);
  EXPECT_EQ(esm->metrics().function_errors, 5);
  EXPECT_EQ(esm->metrics().records_discarded, 1);
  ASSERT_EQ(esm->failures().size(), 1u);
  const json& f = esm->failures()[0];
  std::string poison_seq = Seq(events_[7]["Records"][0]);
  EXPECT_EQ(f["DDBStreamBatchInfo"]["startSequenceNumber"], poison_seq);
  EXPECT_EQ(f["DDBStreamBatchInfo"]["endSequenceNumber"], poison_seq);
  EXPECT_EQ(f["DDBStreamBatchInfo"]["batchSize"], 1);
  EXPECT_EQ(f["requestContext"]["condition"], "RetryAttemptsExhausted");
  EXPECT_EQ(f["requestContext"]["approximateInvokeCount"], 1);
  EXPECT_EQ(esm->Checkpoint(esm->Shards()[0]), Seq(events_[8]["Records"][4]));
}

TEST_F(EsmTest, PartialBatchFailureCheckpointsAtLowestReportedRecord) {
  auto esm = Make({{"FunctionResponseTypes", {"ReportBatchItemFailures"}}});
  for (const char* k : {"a", "b", "c", "d", "e"}) Put(k);
  int calls = 0;
  handler_ = [&](const json& e) -> Result<json> {
    if (++calls > 1) return json{{"batchItemFailures", json::array()}};
    // Report e and c (out of order): c is the lowest.
    return json{{"batchItemFailures",
                 {{{"itemIdentifier", Seq(e["Records"][4])}},
                  {{"itemIdentifier", Seq(e["Records"][2])}}}}};
  };
  std::string shard;
  EXPECT_EQ(*esm->RunOnce(), 1);
  shard = esm->Shards()[0];
  EXPECT_EQ(esm->Checkpoint(shard), Seq(events_[0]["Records"][1]));
  EXPECT_EQ(*esm->RunOnce(), 1);
  // c, the later success d, and e are re-delivered.
  EXPECT_EQ(Calls(), (CallList{{"a", "b", "c", "d", "e"}, {"c", "d", "e"}}));
  EXPECT_EQ(esm->Checkpoint(shard), Seq(events_[0]["Records"][4]));
  EXPECT_EQ(esm->metrics().partial_failures, 1);
  EXPECT_EQ(esm->metrics().retries, 1);
  EXPECT_EQ(*esm->RunUntilIdle(), 0);
}

TEST_F(EsmTest, BatchItemFailuresIgnoredWithoutReportBatchItemFailures) {
  auto esm = Make();
  Put("a");
  Put("b");
  handler_ = [](const json& e) -> Result<json> {
    return json{
        {"batchItemFailures", {{{"itemIdentifier", Seq(e["Records"][0])}}}}};
  };
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(Calls(), (CallList{{"a", "b"}}));
}

TEST_F(EsmTest, ResponsesThatMeanCompleteSuccess) {
  for (const json& response : {json(nullptr), json::object(),
                               json::parse(R"({"batchItemFailures":[]})"),
                               json::parse(R"({"batchItemFailures":null})")}) {
    SetUp();
    events_.clear();
    auto esm = Make({{"FunctionResponseTypes", {"ReportBatchItemFailures"}}});
    Put("a");
    handler_ = [&](const json&) -> Result<json> { return response; };
    ASSERT_TRUE(esm->RunUntilIdle().ok());
    EXPECT_EQ(Calls(), (CallList{{"a"}})) << response.dump();
  }
}

TEST_F(EsmTest, ResponsesThatMeanCompleteFailure) {
  for (const char* failure :
       {R"([{"itemIdentifier": ""}])", R"([{"itemIdentifier": null}])",
        R"([{"ItemIdentifier": "SEQ"}])", R"([{"itemIdentifier": "999"}])",
        R"("SEQ")"}) {
    SetUp();
    events_.clear();
    auto esm = Make({{"FunctionResponseTypes", {"ReportBatchItemFailures"}}});
    Put("a");
    Put("b");
    int calls = 0;
    handler_ = [&](const json& e) -> Result<json> {
      if (++calls > 1) return json(nullptr);
      std::string text = failure;
      size_t at = text.find("SEQ");
      if (at != std::string::npos) {
        text.replace(at, 3, Seq(e["Records"][1]));
      }
      return json{{"batchItemFailures", json::parse(text)}};
    };
    ASSERT_TRUE(esm->RunUntilIdle().ok());
    // The whole batch is retried.
    EXPECT_EQ(Calls(), (CallList{{"a", "b"}, {"a", "b"}})) << failure;
  }
}

TEST_F(EsmTest, PartialResponseWithBisectRetriesOnlyTheRest) {
  auto esm = Make({{"FunctionResponseTypes", {"ReportBatchItemFailures"}},
                   {"BisectBatchOnFunctionError", true}});
  for (const char* k : {"a", "b", "c", "d"}) Put(k);
  int calls = 0;
  handler_ = [&](const json& e) -> Result<json> {
    if (++calls > 1) return json(nullptr);
    return json{
        {"batchItemFailures", {{{"itemIdentifier", Seq(e["Records"][2])}}}}};
  };
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(Calls(), (CallList{{"a", "b", "c", "d"}, {"c", "d"}}));
  EXPECT_EQ(esm->metrics().bisections, 0);
}

TEST_F(EsmTest, RetriesExhaustedGiveAnOnFailureRecord) {
  auto esm =
      Make({{"MaximumRetryAttempts", 2},
            {"DestinationConfig",
             {{"OnFailure",
               {{"Destination", "arn:aws:sqs:us-east-1:000000000000:dlq"}}}}}});
  Put("a");
  Put("b");
  Advance(5);
  handler_ = [](const json& e) -> Result<json> {
    if (Contains(e, "a")) return Throw();
    return json(nullptr);
  };
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  Put("c");
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  // 1 invocation + 2 retries, then delivery goes on.
  EXPECT_EQ(Calls(), (CallList{{"a", "b"}, {"a", "b"}, {"a", "b"}, {"c"}}));
  ASSERT_EQ(esm->failures().size(), 1u);
  json f = esm->failures()[0];
  std::string id = f["requestContext"]["requestId"];
  EXPECT_EQ(id.size(), 36u);
  f["requestContext"].erase("requestId");
  json expected = {
      {"requestContext",
       {{"functionArn", "arn:aws:lambda:us-east-1:000000000000:function:f"},
        {"condition", "RetryAttemptsExhausted"},
        {"approximateInvokeCount", 3}}},
      {"responseContext",
       {{"statusCode", 200},
        {"executedVersion", "$LATEST"},
        {"functionError", "Unhandled"}}},
      {"version", "1.0"},
      {"timestamp", "2024-01-01T00:00:05.000Z"},
      {"DDBStreamBatchInfo",
       {{"shardId", esm->Shards()[0]},
        {"startSequenceNumber", Seq(events_[0]["Records"][0])},
        {"endSequenceNumber", Seq(events_[0]["Records"][1])},
        {"approximateArrivalOfFirstRecord", "2024-01-01T00:00:00Z"},
        {"approximateArrivalOfLastRecord", "2024-01-01T00:00:00Z"},
        {"batchSize", 2},
        {"streamArn", stream_arn_}}}};
  EXPECT_EQ(f, expected);
  EXPECT_EQ(esm->metrics().retries, 2);
  EXPECT_EQ(esm->metrics().records_discarded, 2);
  EXPECT_EQ(esm->LastProcessingResult(), "OK");
}

TEST_F(EsmTest, RecordsOlderThanMaximumRecordAgeAreDiscarded) {
  auto esm = Make({{"MaximumRecordAgeInSeconds", 60}});
  handler_ = [](const json& e) -> Result<json> {
    if (Contains(e, "old")) return Throw();
    return json(nullptr);
  };
  Put("old");
  EXPECT_EQ(*esm->RunOnce(), 1);
  Advance(60);
  EXPECT_EQ(*esm->RunOnce(), 1);  // 60 s old: not yet too old
  EXPECT_EQ(esm->LastProcessingResult(), "PROBLEM: Function call failed");
  Advance(1);
  Put("new");
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(Calls(), (CallList{{"old"}, {"old"}, {"new"}}));
  ASSERT_EQ(esm->failures().size(), 1u);
  const json& f = esm->failures()[0];
  EXPECT_EQ(f["requestContext"]["condition"], "RecordAgeExceeded");
  EXPECT_EQ(f["requestContext"]["approximateInvokeCount"], 2);
  EXPECT_EQ(f["DDBStreamBatchInfo"]["batchSize"], 1);
  EXPECT_EQ(esm->metrics().records_discarded, 1);
}

TEST_F(EsmTest, InfiniteRetriesStopAtTheStreamRetention) {
  auto esm = Make();
  handler_ = [](const json&) -> Result<json> { return Throw(); };
  Put("a");
  EXPECT_EQ(*esm->RunOnce(), 1);
  EXPECT_EQ(*esm->RunOnce(), 1);
  Advance(24 * 3600 + 1);
  EXPECT_EQ(*esm->RunOnce(), 0);
  ASSERT_EQ(esm->failures().size(), 1u);
  EXPECT_EQ(esm->failures()[0]["requestContext"]["approximateInvokeCount"], 2);
}

TEST_F(EsmTest, UnreachableFunctionIsNotARetryAttempt) {
  auto config = ParseEsmConfig({{"TableName", "tbl"},
                                {"FunctionName", "f"},
                                {"StartingPosition", "TRIM_HORIZON"},
                                {"MaximumRetryAttempts", 0}});
  ASSERT_TRUE(config.ok());
  EventSourceMapping esm(backend(), *config,
                         std::make_unique<UrlFunction>("http://127.0.0.1:1/"));
  Put("a");
  EXPECT_EQ(*esm.RunOnce(), 0);
  EXPECT_EQ(*esm.RunOnce(), 0);
  EXPECT_EQ(esm.metrics().not_delivered, 2);
  EXPECT_EQ(esm.metrics().invocations, 0);
  EXPECT_TRUE(esm.failures().empty());
  EXPECT_EQ(esm.LastProcessingResult(), "PROBLEM: Function call failed");
}

TEST_F(EsmTest, CommandFunctionErrorsAreRetried) {
  auto config = ParseEsmConfig({{"TableName", "tbl"},
                                {"FunctionName", "f"},
                                {"StartingPosition", "TRIM_HORIZON"},
                                {"MaximumRetryAttempts", 1}});
  ASSERT_TRUE(config.ok());
  EventSourceMapping esm(
      backend(), *config,
      std::make_unique<CommandFunction>(std::vector<std::string>{
          "sh", "-c", "cat >/dev/null; echo bad >&2; exit 3"}));
  Put("a");
  ASSERT_TRUE(esm.RunUntilIdle().ok());
  EXPECT_EQ(esm.metrics().invocations, 2);
  EXPECT_EQ(esm.metrics().function_errors, 2);
  ASSERT_EQ(esm.failures().size(), 1u);
}

}  // namespace
}  // namespace ddblab::harness::consumer
