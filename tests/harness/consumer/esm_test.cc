// tests/harness/consumer/esm_test.cc: delivery rules of an event source
// mapping (batching, ordering, lineage, lanes, windows, filters) on an
// in-process emulator with a manual clock. Failure handling is in
// esm_failure_test.cc.
#include "harness/consumer/esm.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/harness/consumer/esm_fixture.h"

namespace ddblab::harness::consumer {
namespace {

TEST_F(EsmTest, DeliversRecordsAsLambdaDoes) {
  auto esm = Make();
  Put("a", 1);
  EXPECT_EQ(esm->LastProcessingResult(), "No records processed");
  auto n = esm->RunUntilIdle();
  ASSERT_TRUE(n.ok()) << ToString(n.error());
  EXPECT_EQ(*n, 1);
  ASSERT_EQ(events_.size(), 1u);
  ASSERT_EQ(events_[0].size(), 1u);  // only "Records"
  const json& r = events_[0]["Records"][0];
  // The GetRecords record, plus eventSourceARN.
  auto shards = esm->Shards();
  ASSERT_EQ(shards.size(), 1u);
  auto it = backend().CallStreams("GetShardIterator",
                                  {{"StreamArn", stream_arn_},
                                   {"ShardId", shards[0]},
                                   {"ShardIteratorType", "TRIM_HORIZON"}});
  ASSERT_TRUE(it.ok());
  auto got = backend().CallStreams("GetRecords",
                                   {{"ShardIterator", (*it)["ShardIterator"]}});
  ASSERT_TRUE(got.ok());
  json expected = (*got)["Records"][0];
  expected["eventSourceARN"] = stream_arn_;
  EXPECT_EQ(r, expected);
  EXPECT_EQ(r["eventName"], "INSERT");
  EXPECT_EQ(r["eventSource"], "aws:dynamodb");
  EXPECT_EQ(r["dynamodb"]["ApproximateCreationDateTime"], 1704067200);
  EXPECT_EQ(r["dynamodb"]["NewImage"],
            json::parse(R"({"pk":{"S":"a"},"v":{"N":"1"}})"));
  EXPECT_EQ(r["dynamodb"]["StreamViewType"], "NEW_AND_OLD_IMAGES");
  EXPECT_FALSE(r.contains("userIdentity"));
  EXPECT_EQ(esm->LastProcessingResult(), "OK");
  EXPECT_EQ(esm->Checkpoint(shards[0]), Seq(r));
  json d = esm->Describe();
  EXPECT_EQ(d["State"], "Enabled");
  EXPECT_EQ(d["EventSourceArn"], stream_arn_);
  EXPECT_EQ(d["UUID"].get<std::string>().size(), 36u);
  EXPECT_EQ(d["BatchSize"], 100);
  EXPECT_EQ(d["MaximumRetryAttempts"], -1);
  EXPECT_EQ(d["LastProcessingResult"], "OK");
  EXPECT_EQ(d["Metrics"]["Invocations"], 1);
  EXPECT_EQ(d["FunctionArn"],
            "arn:aws:lambda:us-east-1:000000000000:function:f");
}

// StepRound makes RunOnce's round one Streams call or one invocation at a
// time; a write between two steps is read in the same round.
TEST_F(EsmTest, StepRoundMakesOneCallOrInvocationAStep) {
  auto esm = Make();
  Put("a", 1);
  std::vector<std::string> steps;
  int64_t invocations = 0;
  for (int i = 0; i < 20; ++i) {
    auto step = esm->StepRound();
    ASSERT_TRUE(step.ok()) << ToString(step.error());
    // Strip the shard id, which is the emulator's.
    std::string what = step->what;
    const std::string shard = esm->Shards().empty() ? "" : esm->Shards()[0];
    if (!shard.empty() && what.find(shard) != std::string::npos) {
      what.replace(what.find(shard), shard.size(), "S");
    }
    steps.push_back(what);
    invocations += step->invocations;
    if (what == "GetRecords S: 1 records") Put("b", 2);
    if (step->round_over) break;
  }
  EXPECT_EQ(steps, (std::vector<std::string>{
                       "DescribeTable", "DescribeStream", "GetShardIterator S",
                       "GetRecords S: 1 records", "GetRecords S: 1 records",
                       "GetRecords S: 0 records", "invoke S lane 0"}));
  EXPECT_EQ(invocations, 1);
  EXPECT_EQ(Calls(), (CallList{{"a", "b"}}));
  // The next round starts with the discovery again.
  auto next = esm->StepRound();
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->what, "DescribeStream");
  EXPECT_FALSE(next->round_over);
}

TEST_F(EsmTest, BatchSizeSplitsInSequenceOrder) {
  auto esm = Make({{"BatchSize", 2}});
  for (const char* k : {"r0", "r1", "r2", "r3", "r4"}) Put(k);
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(Calls(), (CallList{{"r0", "r1"}, {"r2", "r3"}, {"r4"}}));
  EXPECT_EQ(esm->metrics().records_delivered, 5);
}

TEST_F(EsmTest, BatchingWindowWaitsUnlessBatchIsFull) {
  auto esm = Make({{"MaximumBatchingWindowInSeconds", 10}, {"BatchSize", 3}});
  Put("a");
  Put("b");
  EXPECT_EQ(*esm->RunOnce(), 0);
  Advance(9);
  EXPECT_EQ(*esm->RunOnce(), 0);
  Advance(1);
  EXPECT_EQ(*esm->RunOnce(), 1);
  EXPECT_EQ(Calls(), (CallList{{"a", "b"}}));
  // A full batch (BatchSize records) goes out at once.
  Put("c");
  Put("d");
  Put("e");
  EXPECT_EQ(*esm->RunOnce(), 1);
  EXPECT_EQ(Calls().back(), (std::vector<std::string>{"c", "d", "e"}));
}

TEST_F(EsmTest, LatestSkipsWhatWasWrittenBefore) {
  Put("before");
  auto esm = Make({{"StartingPosition", "LATEST"}});
  EXPECT_EQ(*esm->RunOnce(), 0);
  Put("after");
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(Calls(), (CallList{{"after"}}));
}

TEST_F(EsmTest, DisabledPausesAndResumeContinuesFromCheckpoint) {
  auto esm = Make();
  Put("a");
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  ASSERT_TRUE(esm->Update({{"Enabled", false}}).ok());
  EXPECT_EQ(esm->State(), "Disabled");
  Put("b");
  EXPECT_EQ(*esm->RunUntilIdle(), 0);
  ASSERT_TRUE(esm->Update({{"Enabled", true}}).ok());
  EXPECT_EQ(esm->State(), "Enabled");
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(Calls(), (CallList{{"a"}, {"b"}}));
}

TEST_F(EsmTest, ShardSplitDrainsParentBeforeChildren) {
  auto esm = Make();
  Put("a1");
  Put("a2");
  // The first invocation fails: the parent stays blocked, and nothing of
  // its children may be delivered meanwhile.
  int calls = 0;
  handler_ = [&](const json&) -> Result<json> {
    if (++calls == 1) return Throw();
    return json(nullptr);
  };
  EXPECT_EQ(*esm->RunOnce(), 1);
  auto split = backend().SplitStreamShards("tbl");
  ASSERT_TRUE(split.ok()) << ToString(split.error());
  for (const char* k : {"b1", "b2", "b3", "b4", "b5", "b6"}) Put(k);
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  CallList c = Calls();
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(c[0], (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(c[1], (std::vector<std::string>{"a1", "a2"}));
  std::vector<std::string> children;
  for (size_t i = 2; i < c.size(); ++i) {
    for (const auto& k : c[i]) children.push_back(k);
  }
  std::sort(children.begin(), children.end());
  EXPECT_EQ(children,
            (std::vector<std::string>{"b1", "b2", "b3", "b4", "b5", "b6"}));
  auto shards = esm->Shards();
  ASSERT_EQ(shards.size(), 1 + (*split)["created"].size());
  EXPECT_EQ(shards[0], (*split)["closed"][0].get<std::string>());
  // Each child batch came from one shard: every record's sequence number
  // belongs to one child only, in increasing order.
  for (size_t i = 2; i < events_.size(); ++i) {
    const json& recs = events_[i]["Records"];
    for (size_t j = 1; j < recs.size(); ++j) {
      EXPECT_LT(Seq(recs[j - 1]), Seq(recs[j]));
    }
  }
}

TEST_F(EsmTest, ParallelizationFactorKeepsEveryKeyInOrder) {
  auto esm = Make({{"ParallelizationFactor", 4}, {"BatchSize", 3}});
  for (int round = 0; round < 5; ++round) {
    for (int k = 0; k < 8; ++k) Put("k" + std::to_string(k), round);
  }
  // The batch holding k3's third version fails once.
  bool failed = false;
  std::map<std::string, std::vector<int>> seen;  // successful deliveries
  std::vector<bool> outcome;
  handler_ = [&](const json& e) -> Result<json> {
    for (const json& r : e["Records"]) {
      if (!failed && r["dynamodb"]["Keys"]["pk"]["S"] == "k3" &&
          r["dynamodb"]["NewImage"]["v"]["N"] == "2") {
        failed = true;
        outcome.push_back(false);
        return Throw();
      }
    }
    for (const json& r : e["Records"]) {
      seen[r["dynamodb"]["Keys"]["pk"]["S"]].push_back(
          std::stoi(r["dynamodb"]["NewImage"]["v"]["N"].get<std::string>()));
    }
    outcome.push_back(true);
    return json(nullptr);
  };
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  ASSERT_TRUE(failed);
  ASSERT_EQ(seen.size(), 8u);
  for (const auto& [key, versions] : seen) {
    EXPECT_EQ(versions, (std::vector<int>{0, 1, 2, 3, 4})) << key;
  }
  // Lanes: no batch mixes keys of more than one lane, so records of one key
  // never travel in two batches at once; and with k3's lane blocked, other
  // lanes went on (the invocation after the failure is not its retry).
  size_t fail_at = 0;
  while (outcome[fail_at]) ++fail_at;
  CallList c = Calls();
  ASSERT_LT(fail_at + 1, c.size());
  EXPECT_NE(c[fail_at + 1], c[fail_at]);
  EXPECT_EQ(esm->metrics().function_errors, 1);
}

TEST_F(EsmTest, TumblingWindowCarriesStateAndEndsWithFinalInvoke) {
  auto esm = Make({{"TumblingWindowInSeconds", 60}});
  handler_ = [](const json& e) -> Result<json> {
    int64_t count = e["state"].value("count", 0);
    count += static_cast<int64_t>(e["Records"].size());
    return json{{"state", {{"count", count}}}};
  };
  Put("a");
  Put("b");
  EXPECT_EQ(*esm->RunOnce(), 1);
  Advance(10);
  Put("c");
  EXPECT_EQ(*esm->RunOnce(), 1);
  EXPECT_EQ(*esm->RunOnce(), 0);  // the window is still open
  Advance(50);
  EXPECT_EQ(*esm->RunOnce(), 1);
  Put("d");
  EXPECT_EQ(*esm->RunOnce(), 1);
  ASSERT_EQ(events_.size(), 4u);
  std::string shard = esm->Shards()[0];
  json window = {{"start", "2024-01-01T00:00:00Z"},
                 {"end", "2024-01-01T00:01:00Z"}};
  EXPECT_EQ(events_[0]["window"], window);
  EXPECT_EQ(events_[0]["state"], json::object());
  EXPECT_EQ(events_[0]["isFinalInvokeForWindow"], false);
  EXPECT_EQ(events_[0]["isWindowTerminatedEarly"], false);
  EXPECT_EQ(events_[0]["shardId"], shard);
  EXPECT_EQ(events_[0]["eventSourceARN"], stream_arn_);
  EXPECT_EQ(events_[0]["Records"].size(), 2u);
  EXPECT_EQ(events_[1]["state"], json({{"count", 2}}));
  EXPECT_EQ(events_[1]["Records"].size(), 1u);
  // The final invocation: no records, the aggregate state.
  EXPECT_EQ(events_[2]["Records"], json::array());
  EXPECT_EQ(events_[2]["state"], json({{"count", 3}}));
  EXPECT_EQ(events_[2]["isFinalInvokeForWindow"], true);
  EXPECT_EQ(events_[2]["window"], window);
  // The next window starts from an empty state.
  EXPECT_EQ(events_[3]["state"], json::object());
  EXPECT_EQ(events_[3]["window"]["start"], "2024-01-01T00:01:00Z");
  EXPECT_EQ(events_[3]["isFinalInvokeForWindow"], false);
}

TEST_F(EsmTest, TumblingWindowResponseWithoutStateFails) {
  auto esm = Make({{"TumblingWindowInSeconds", 60}});
  int calls = 0;
  handler_ = [&](const json&) -> Result<json> {
    if (++calls == 1) return json::object();
    return json{{"state", json::object()}};
  };
  Put("a");
  EXPECT_EQ(*esm->RunOnce(), 1);
  EXPECT_EQ(esm->LastProcessingResult(), "PROBLEM: Function call failed");
  EXPECT_EQ(*esm->RunOnce(), 1);
  EXPECT_EQ(Calls(), (CallList{{"a"}, {"a"}}));
  EXPECT_EQ(esm->LastProcessingResult(), "OK");
}

std::vector<std::string> StreamSequenceNumbers(Backend& b,
                                               const std::string& arn,
                                               const std::string& shard) {
  std::vector<std::string> out;
  auto it = b.CallStreams("GetShardIterator",
                          {{"StreamArn", arn},
                           {"ShardId", shard},
                           {"ShardIteratorType", "TRIM_HORIZON"}});
  auto got =
      b.CallStreams("GetRecords", {{"ShardIterator", (*it)["ShardIterator"]}});
  for (const json& r : (*got)["Records"]) {
    out.push_back(r["dynamodb"]["SequenceNumber"]);
  }
  return out;
}

TEST_F(EsmTest, FiltersDropRecordsAndStillMoveTheCheckpoint) {
  auto esm =
      Make({{"FilterCriteria",
             {{"Filters", {{{"Pattern", R"({"eventName": ["INSERT"]})"}}}}}}});
  Put("a");
  Put("a", 1);  // MODIFY
  Delete("a");  // REMOVE
  Put("b");
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  EXPECT_EQ(Calls(), (CallList{{"a", "b"}}));
  EXPECT_EQ(esm->metrics().records_filtered, 2);
  std::string shard = esm->Shards()[0];
  Put("b", 7);  // MODIFY: dropped
  EXPECT_EQ(*esm->RunUntilIdle(), 0);
  auto seqs = StreamSequenceNumbers(backend(), stream_arn_, shard);
  ASSERT_EQ(seqs.size(), 5u);
  EXPECT_EQ(esm->Checkpoint(shard), seqs.back());
  EXPECT_EQ(esm->metrics().records_filtered, 3);
}

TEST_F(EsmTest, TtlExpiryFilterDeliversTtlDeletionsOnly) {
  auto esm = Make({{"FilterCriteria",
                    {{"Filters",
                      {{{"Pattern",
                         R"({"userIdentity": {"type": ["Service"],
                                  "principalId": ["dynamodb.amazonaws.com"]},
                 "dynamodb": {"OldImage": {"productids":
                                           {"SS": [{"exists": true}]}}}})"}}}}}}});
  ASSERT_TRUE(backend()
                  .Call("UpdateTimeToLive",
                        {{"TableName", "tbl"},
                         {"TimeToLiveSpecification",
                          {{"Enabled", true}, {"AttributeName", "expires"}}}})
                  .ok());
  auto put = [&](const std::string& pk, int64_t expires) {
    ASSERT_TRUE(
        backend()
            .Call("PutItem", {{"TableName", "tbl"},
                              {"Item",
                               {{"pk", {{"S", pk}}},
                                {"expires", {{"N", std::to_string(expires)}}},
                                {"productids", {{"SS", {"p1", "p2"}}}}}}})
            .ok());
  };
  put("cart-expired", 1704067100);
  put("cart-deleted", 1704067100 + 3600);
  Delete("cart-deleted");  // a user's DeleteItem: not delivered
  auto swept = backend().SweepTtl();
  ASSERT_TRUE(swept.ok()) << ToString(swept.error());
  // With ttl_delay=0 the engine may already have swept it on an earlier
  // call; either way the item is gone now.
  auto got = backend().Call(
      "GetItem",
      {{"TableName", "tbl"}, {"Key", {{"pk", {{"S", "cart-expired"}}}}}});
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->contains("Item"));
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  ASSERT_EQ(Calls(), (CallList{{"cart-expired"}}));
  const json& r = events_[0]["Records"][0];
  EXPECT_EQ(r["eventName"], "REMOVE");
  EXPECT_EQ(r["userIdentity"], json::parse(R"({"type": "Service",
            "principalId": "dynamodb.amazonaws.com"})"));
  EXPECT_EQ(esm->metrics().records_filtered, 3);  // 2 INSERTs, 1 REMOVE
}

TEST_F(EsmTest, BatchesStayUnderSixMegabytes) {
  auto esm = Make({{"BatchSize", 100}});
  std::string big(380 * 1024, 'x');
  for (int i = 0; i < 20; ++i) {
    auto out =
        backend().Call("PutItem", {{"TableName", "tbl"},
                                   {"Item",
                                    {{"pk", {{"S", "big" + std::to_string(i)}}},
                                     {"blob", {{"S", big}}}}}});
    ASSERT_TRUE(out.ok()) << ToString(out.error());
  }
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  ASSERT_EQ(events_.size(), 2u);
  size_t first = events_[0]["Records"].size();
  EXPECT_EQ(first + events_[1]["Records"].size(), 20u);
  EXPECT_LE(events_[0].dump().size(), 6u * 1024 * 1024);
  // One more record would have passed 6 MB.
  json more = events_[0];
  more["Records"].push_back(events_[1]["Records"][0]);
  EXPECT_GT(more.dump().size(), 6u * 1024 * 1024);
}

TEST_F(EsmTest, TumblingWindowStateOverOneMegabyteEndsTheWindowEarly) {
  auto esm = Make({{"TumblingWindowInSeconds", 300}});
  handler_ = [](const json& e) -> Result<json> {
    if (e["isFinalInvokeForWindow"].get<bool>()) return json(nullptr);
    return json{{"state", {{"blob", std::string(1024 * 1024 + 1, 'x')}}}};
  };
  Put("a");
  EXPECT_EQ(*esm->RunOnce(), 1);
  EXPECT_EQ(*esm->RunOnce(), 1);  // the window ends now, not at 300 s
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1]["isFinalInvokeForWindow"], true);
  EXPECT_EQ(events_[1]["isWindowTerminatedEarly"], true);
  EXPECT_EQ(events_[1]["Records"], json::array());
}

TEST_F(EsmTest, ShardEndClosesTheTumblingWindowBeforeChildren) {
  auto esm = Make({{"TumblingWindowInSeconds", 300}});
  handler_ = [](const json& e) -> Result<json> {
    return json{{"state", {{"n", e["Records"].size()}}}};
  };
  Put("a");
  EXPECT_EQ(*esm->RunOnce(), 1);
  ASSERT_TRUE(backend().SplitStreamShards("tbl").ok());
  Put("b");
  ASSERT_TRUE(esm->RunUntilIdle().ok());
  ASSERT_EQ(events_.size(), 3u);
  // The parent's window closes at the shard's end, before b (in a child).
  EXPECT_EQ(events_[1]["isFinalInvokeForWindow"], true);
  EXPECT_EQ(events_[1]["shardId"], events_[0]["shardId"]);
  EXPECT_EQ(events_[1]["state"], json({{"n", 1}}));
  EXPECT_EQ(Calls()[2], (std::vector<std::string>{"b"}));
  EXPECT_NE(events_[2]["shardId"], events_[0]["shardId"]);
  EXPECT_EQ(events_[2]["state"], json::object());
}

}  // namespace
}  // namespace ddblab::harness::consumer
