// A seeded model test of the whole stream: random PutItem / UpdateItem ADD /
// DeleteItem / BatchWriteItem / TransactWriteItems (some cancelled), writes
// rolled back by a failing sink, clock steps that roll shards over, and
// splits, on 3 initial shards. Reading every shard from TRIM_HORIZON in
// lineage order must give, per item, exactly the changes the model made, in
// order, and nothing for writes that changed nothing or did not commit.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "emulator/api/random.h"
#include "tests/emulator/engine/streams_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::minutes;

// Fails the write it sees while armed (registered after the stream's sink,
// so the stream record is written and then rolled back with the write).
class FailingSink : public ChangeSink {
 public:
  bool Wants(const Table&) const override { return true; }
  Status OnChange(const ChangeEvent&, storage::WriteTransaction&) override {
    if (!armed) return OkStatus();
    armed = false;
    return Error::Internal("sink failed");
  }
  bool armed = false;
};

class StreamsModelTest : public StreamsTest,
                         public ::testing::WithParamInterface<uint64_t> {
 protected:
  static constexpr int kItems = 12;

  void SetUp() override {
    Options o;
    o.stream_shards = 3;
    o.shard_rollover = minutes(30);
    Open(o);
    arn_ = CreateStreamTable("model", "NEW_AND_OLD_IMAGES");
    sink_ = std::make_shared<FailingSink>();
    {
      auto lock = impl().Lock();
      impl().AddChangeSink(sink_);
    }
  }

  static std::string Pk(uint64_t i) { return "item" + std::to_string(i); }
  Json ItemJson(const std::string& pk, int64_t v) const {
    return {{"pk", S(pk)}, {"v", N(std::to_string(v))}};
  }

  // The model's view of one committed change of `pk` to `after`.
  void Record(const std::string& pk, std::optional<int64_t> after) {
    std::optional<int64_t>& now = state_[pk];
    if (now == after) return;  // changes nothing: no record
    std::string event = !now ? "INSERT" : !after ? "REMOVE" : "MODIFY";
    expected_[pk].push_back(
        event + (after ? " " + std::to_string(*after) : std::string()));
    now = after;
  }

  void RandomPut(Rng& rng) {
    const std::string pk = Pk(rng.Uniform(kItems));
    const int64_t v = static_cast<int64_t>(rng.Uniform(3));
    Put("model", ItemJson(pk, v));
    Record(pk, v);
  }

  void RandomAdd(Rng& rng) {
    const std::string pk = Pk(rng.Uniform(kItems));
    const int64_t d = static_cast<int64_t>(rng.Uniform(3));  // 0: no change
    Ok("UpdateItem",
       {{"TableName", "model"},
        {"Key", {{"pk", S(pk)}}},
        {"UpdateExpression", "ADD v :d"},
        {"ExpressionAttributeValues", {{":d", N(std::to_string(d))}}}});
    Record(pk, state_[pk].value_or(0) + d);
  }

  void RandomDelete(Rng& rng) {
    const std::string pk = Pk(rng.Uniform(kItems));
    Delete("model", {{"pk", S(pk)}});
    Record(pk, std::nullopt);
  }

  void RandomBatch(Rng& rng) {
    std::set<std::string> keys;
    for (int i = 0; i < 5; ++i) keys.insert(Pk(rng.Uniform(kItems)));
    Json requests = Json::array();
    std::vector<std::pair<std::string, std::optional<int64_t>>> changes;
    for (const std::string& pk : keys) {
      if (rng.Bernoulli(0.3)) {
        requests.push_back({{"DeleteRequest", {{"Key", {{"pk", S(pk)}}}}}});
        changes.emplace_back(pk, std::nullopt);
      } else {
        const int64_t v = static_cast<int64_t>(rng.Uniform(3));
        requests.push_back({{"PutRequest", {{"Item", ItemJson(pk, v)}}}});
        changes.emplace_back(pk, v);
      }
    }
    Json out = Ok("BatchWriteItem", {{"RequestItems", {{"model", requests}}}});
    ASSERT_EQ(out["UnprocessedItems"], Json::object());
    for (const auto& [pk, after] : changes) Record(pk, after);
  }

  // Two puts guarded by a condition on a third item: cancelled (no records)
  // unless that item exists.
  void RandomTransaction(Rng& rng) {
    const std::string a = Pk(rng.Uniform(kItems));
    std::string b = Pk(rng.Uniform(kItems));
    std::string guard = Pk(rng.Uniform(kItems));
    if (b == a) b = a == Pk(0) ? Pk(1) : Pk(0);
    while (guard == a || guard == b) guard = Pk(rng.Uniform(kItems));
    const int64_t va = static_cast<int64_t>(rng.Uniform(3));
    const int64_t vb = static_cast<int64_t>(rng.Uniform(3));
    Json items = Json::array(
        {{{"Put", {{"TableName", "model"}, {"Item", ItemJson(a, va)}}}},
         {{"Put", {{"TableName", "model"}, {"Item", ItemJson(b, vb)}}}},
         {{"ConditionCheck",
           {{"TableName", "model"},
            {"Key", {{"pk", S(guard)}}},
            {"ConditionExpression", "attribute_exists(pk)"}}}}});
    Result<Json> r =
        emu_->Call("TransactWriteItems", {{"TransactItems", items}});
    if (state_[guard]) {
      ASSERT_TRUE(r.ok()) << ToString(r.error());
      Record(a, va);
      Record(b, vb);
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().type, ErrorType::kTransactionCanceled);
    }
  }

  void FailedWrite(Rng& rng) {
    const std::string pk = Pk(rng.Uniform(kItems));
    sink_->armed = true;
    EXPECT_EQ(FailText("PutItem",
                       {{"TableName", "model"}, {"Item", ItemJson(pk, 9)}}),
              "InternalServerError: sink failed");
    EXPECT_FALSE(sink_->armed);
  }

  std::string arn_;
  std::shared_ptr<FailingSink> sink_;
  std::map<std::string, std::optional<int64_t>> state_;
  std::map<std::string, std::vector<std::string>> expected_;
};

TEST_P(StreamsModelTest, EveryCommittedChangeOnceInItemOrder) {
  Rng rng(GetParam());
  int splits = 0;
  for (int step = 0; step < 300; ++step) {
    switch (rng.Uniform(10)) {
      case 0:
      case 1:
        RandomPut(rng);
        break;
      case 2:
        RandomAdd(rng);
        break;
      case 3:
        RandomDelete(rng);
        break;
      case 4:
        RandomBatch(rng);
        break;
      case 5:
        RandomTransaction(rng);
        break;
      case 6:
        FailedWrite(rng);
        break;
      case 7:
      case 8:  // 0-6 minutes: shards roll over every 30
        clock_->Advance(minutes(static_cast<int64_t>(rng.Uniform(7))));
        break;
      case 9:
        if (splits < 6 && rng.Bernoulli(0.3)) {
          ASSERT_TRUE(emu_->SplitStreamShards("model").ok());
          ++splits;
        }
        break;
    }
    if (HasFatalFailure()) return;
  }

  std::map<std::string, std::vector<std::string>> seen;
  std::set<std::string> event_ids;
  for (const Json& r : ReadAll(arn_)) {
    const Json& d = r["dynamodb"];
    std::string event = r["eventName"];
    if (d.contains("NewImage")) {
      event += " " + d["NewImage"]["v"]["N"].get<std::string>();
    }
    seen[d["Keys"]["pk"]["S"]].push_back(event);
    EXPECT_TRUE(event_ids.insert(r["eventID"]).second);
  }
  for (auto it = expected_.begin(); it != expected_.end();) {
    it = it->second.empty() ? expected_.erase(it) : std::next(it);
  }
  EXPECT_EQ(seen, expected_);
  EXPECT_GT(event_ids.size(), 150u);
  EXPECT_GT(Shards(arn_).size(), 3u);  // rollovers and splits happened
}

INSTANTIATE_TEST_SUITE_P(Seeds, StreamsModelTest,
                         ::testing::Values(1, 2, 3, 4, 5));

}  // namespace
}  // namespace ddblab::engine::testing
