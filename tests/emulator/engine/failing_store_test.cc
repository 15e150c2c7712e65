// tests/emulator/engine/failing_store_test.cc: the storage seam under
// failure. A decorator store (built on storage/forwarding_store.h) fails one
// chosen call; the engine must return that error and leave nothing
// half-written: no item, no index entry, no stream record, no TTL row.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/ttl/ttl_queue.h"
#include "emulator/engine/ttl/ttl_sweeper.h"
#include "emulator/storage/forwarding_store.h"

namespace ddblab::engine::testing {
namespace {

using Json = nlohmann::json;
using storage::ForwardingItemStore;
using storage::ForwardingStreamStore;
using storage::ForwardingTtlQueueStore;
using storage::ForwardingWriteTransaction;
using storage::WriteTransaction;

// Which call fails next (empty: none), and how often one did.
struct FaultPlan {
  std::string fail;
  int injected = 0;

  Status Check(std::string_view call) {
    if (fail != call) return OkStatus();
    fail.clear();
    ++injected;
    return Error::Internal("injected failure: " + std::string(call));
  }
};

class FailingStreams : public ForwardingStreamStore {
 public:
  FailingStreams(storage::StreamStore& base, FaultPlan& plan)
      : ForwardingStreamStore(base), plan_(plan) {}
  Status InsertRecord(int64_t stream_id, int64_t shard,
                      const storage::RecordRow& row) override {
    DDBLAB_RETURN_IF_ERROR(plan_.Check("InsertRecord"));
    return ForwardingStreamStore::InsertRecord(stream_id, shard, row);
  }

 private:
  FaultPlan& plan_;
};

class FailingTtlQueue : public ForwardingTtlQueueStore {
 public:
  FailingTtlQueue(storage::TtlQueueStore& base, FaultPlan& plan)
      : ForwardingTtlQueueStore(base), plan_(plan) {}
  Status Put(int64_t table_id, std::string_view pk, std::string_view sk,
             int64_t due) override {
    DDBLAB_RETURN_IF_ERROR(plan_.Check("TtlPut"));
    return ForwardingTtlQueueStore::Put(table_id, pk, sk, due);
  }

 private:
  FaultPlan& plan_;
};

class FailingTransaction : public ForwardingWriteTransaction {
 public:
  FailingTransaction(std::unique_ptr<WriteTransaction> txn, FaultPlan& plan)
      : ForwardingWriteTransaction(std::move(txn)),
        plan_(plan),
        streams_(base().streams(), plan),
        ttl_queue_(base().ttl_queue(), plan) {}

  Status PutIndexEntry(int64_t table_id, int64_t index_id, std::string_view ipk,
                       std::string_view isk, std::string_view pk,
                       std::string_view sk, std::string_view item,
                       int64_t size) override {
    DDBLAB_RETURN_IF_ERROR(plan_.Check("PutIndexEntry"));
    return ForwardingWriteTransaction::PutIndexEntry(table_id, index_id, ipk,
                                                     isk, pk, sk, item, size);
  }
  Status Commit() override {
    DDBLAB_RETURN_IF_ERROR(plan_.Check("Commit"));
    return ForwardingWriteTransaction::Commit();
  }
  storage::StreamStore& streams() override { return streams_; }
  storage::TtlQueueStore& ttl_queue() override { return ttl_queue_; }

 private:
  FaultPlan& plan_;
  FailingStreams streams_;
  FailingTtlQueue ttl_queue_;
};

class FailingStore : public ForwardingItemStore {
 public:
  FailingStore(std::unique_ptr<storage::ItemStore> base, FaultPlan& plan)
      : ForwardingItemStore(std::move(base)), plan_(plan) {}

 protected:
  std::unique_ptr<WriteTransaction> WrapTransaction(
      std::unique_ptr<WriteTransaction> txn) override {
    return std::make_unique<FailingTransaction>(std::move(txn), plan_);
  }

 private:
  FaultPlan& plan_;
};

class FailingStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.clock = clock_;
    options.seed = 7;
    auto impl = EmulatorImpl::Open(
        std::move(options), [this](std::unique_ptr<storage::ItemStore> base) {
          return std::make_unique<FailingStore>(std::move(base), plan_);
        });
    ASSERT_TRUE(impl.ok()) << ToString(impl.error());
    impl_ = std::move(impl).value();
    Ok("CreateTable", Json::parse(R"({"TableName": "tbl",
        "BillingMode": "PAY_PER_REQUEST",
        "StreamSpecification": {"StreamEnabled": true,
                                "StreamViewType": "NEW_AND_OLD_IMAGES"},
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "g", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{"IndexName": "by_g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}]})"));
    Ok("UpdateTimeToLive", {{"TableName", "tbl"},
                            {"TimeToLiveSpecification",
                             {{"Enabled", true}, {"AttributeName", "exp"}}}});
  }

  Json Ok(std::string_view op, const Json& request) {
    Result<Json> r = impl_->Call(op, request);
    EXPECT_TRUE(r.ok()) << op << " -> " << ToString(r.error());
    return r.ok() ? *r : Json();
  }
  Json OkStreams(std::string_view op, const Json& request) {
    Result<Json> r = impl_->CallStreams(op, request);
    EXPECT_TRUE(r.ok()) << op << " -> " << ToString(r.error());
    return r.ok() ? *r : Json();
  }

  static Json Item(const std::string& pk, const std::string& g, int exp) {
    return {{"pk", {{"S", pk}}},
            {"g", {{"S", g}}},
            {"exp", {{"N", std::to_string(exp)}}}};
  }

  // Everything a write may leave behind, as one JSON value.
  Json State() {
    Json state;
    state["items"] = Ok("Scan", {{"TableName", "tbl"}})["Items"];
    state["index"] =
        Ok("Scan", {{"TableName", "tbl"}, {"IndexName", "by_g"}})["Items"];
    Json events = Json::array();
    Json streams = OkStreams("ListStreams", Json::object())["Streams"];
    EXPECT_EQ(streams.size(), 1u);
    const std::string arn = streams[0]["StreamArn"];
    Json shards = OkStreams(
        "DescribeStream", {{"StreamArn", arn}})["StreamDescription"]["Shards"];
    for (const Json& shard : shards) {
      Json it = OkStreams("GetShardIterator",
                          {{"StreamArn", arn},
                           {"ShardId", shard["ShardId"]},
                           {"ShardIteratorType", "TRIM_HORIZON"}});
      Json records = OkStreams(
          "GetRecords", {{"ShardIterator", it["ShardIterator"]}})["Records"];
      for (const Json& r : records) {
        events.push_back({r["eventName"], r["dynamodb"]["Keys"]});
      }
    }
    state["stream"] = events;
    auto lock = impl_->Lock();
    auto stats = impl_->ttl().queue().Stats();
    EXPECT_TRUE(stats.ok());
    state["ttl_rows"] = stats->empty() ? 0 : (*stats)[0].waiting;
    return state;
  }

  // A write that the plan makes fail at `call`: the error is the injected
  // one, and the state is as before.
  void ExpectFailsCleanly(const std::string& call, std::string_view op,
                          const Json& request) {
    const Json before = State();
    plan_.fail = call;
    const int injected = plan_.injected;
    Result<Json> r = impl_->Call(op, request);
    ASSERT_FALSE(r.ok()) << call << ": " << r->dump();
    EXPECT_EQ(plan_.injected, injected + 1) << call;
    EXPECT_EQ(r.error().type, ErrorType::kInternalServerError);
    EXPECT_EQ(r.error().message, "injected failure: " + call);
    EXPECT_EQ(State(), before) << call;
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  FaultPlan plan_;
  std::unique_ptr<EmulatorImpl> impl_;
};

TEST_F(FailingStoreTest, AFailedSubStoreCallLeavesNothingHalfWritten) {
  const int exp = 2000000000;
  Ok("PutItem", {{"TableName", "tbl"}, {"Item", Item("a", "g1", exp)}});
  const Json start = State();
  ASSERT_EQ(start["items"].size(), 1u);
  ASSERT_EQ(start["index"].size(), 1u);
  ASSERT_EQ(start["stream"].size(), 1u);
  ASSERT_EQ(start["ttl_rows"], 1);

  // A new item: fails at the index entry, the stream record, the TTL row or
  // the commit; an overwrite and a transaction likewise.
  for (const std::string call :
       {"PutIndexEntry", "InsertRecord", "TtlPut", "Commit"}) {
    ExpectFailsCleanly(call, "PutItem",
                       {{"TableName", "tbl"}, {"Item", Item("b", "g2", exp)}});
    ExpectFailsCleanly(
        call, "PutItem",
        {{"TableName", "tbl"}, {"Item", Item("a", "g3", exp + 1)}});
    ExpectFailsCleanly(
        call, "TransactWriteItems",
        {{"TransactItems",
          Json::array(
              {{{"Put",
                 {{"TableName", "tbl"}, {"Item", Item("c", "g4", exp)}}}},
               {{"Put",
                 {{"TableName", "tbl"}, {"Item", Item("d", "g5", exp)}}}}})}});
  }
  EXPECT_EQ(State(), start);

  // With nothing failing, the same writes land everywhere (the stream's
  // open-shard cache saw the rollbacks and still appends correctly).
  Ok("PutItem", {{"TableName", "tbl"}, {"Item", Item("b", "g2", exp)}});
  Ok("PutItem", {{"TableName", "tbl"}, {"Item", Item("a", "g3", exp + 1)}});
  const Json end = State();
  EXPECT_EQ(end["items"].size(), 2u);
  EXPECT_EQ(end["index"].size(), 2u);
  EXPECT_EQ(end["stream"],
            Json::array({Json::array({"INSERT", {{"pk", {{"S", "a"}}}}}),
                         Json::array({"INSERT", {{"pk", {{"S", "b"}}}}}),
                         Json::array({"MODIFY", {{"pk", {{"S", "a"}}}}})}));
  EXPECT_EQ(end["ttl_rows"], 2);
}

}  // namespace
}  // namespace ddblab::engine::testing
