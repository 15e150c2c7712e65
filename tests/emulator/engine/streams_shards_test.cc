// Shards: rollover, split, lineage, per-item order, several shards, and a
// file database keeping its stream across a restart.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>

#include "emulator/engine/streams_glue/stream_sink.h"
#include "tests/emulator/engine/streams_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;

class StreamsShardsTest : public StreamsTest {
 protected:
  // Per item key: the "v" values of its records, in stream order.
  static std::map<std::string, std::vector<std::string>> ByItem(
      const std::vector<Json>& records) {
    std::map<std::string, std::vector<std::string>> out;
    for (const Json& r : records) {
      const Json& d = r["dynamodb"];
      std::string v = d.contains("NewImage")
                          ? d["NewImage"]["v"]["S"].get<std::string>()
                          : std::string("-");
      out[d["Keys"]["pk"]["S"]].push_back(v);
    }
    return out;
  }

  // Through the public facade, as an in-process user splits.
  Result<StreamShardSplit> Split(const std::string& table,
                                 std::optional<std::string> shard = {}) {
    return emu_->SplitStreamShards(table, shard);
  }
};

TEST_F(StreamsShardsTest, RolloverClosesTheShardAndKeepsItemOrder) {
  Options o;
  o.shard_rollover = hours(1);
  Open(o);
  std::string arn = CreateStreamTable("roll", "NEW_IMAGE");
  Put("roll", {{"pk", S("a")}, {"v", S("1")}});
  clock_->Advance(minutes(59));
  Put("roll", {{"pk", S("a")}, {"v", S("2")}});
  EXPECT_EQ(Shards(arn).size(), 1u);
  clock_->Advance(minutes(1));
  Put("roll", {{"pk", S("a")}, {"v", S("3")}});
  std::vector<Json> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_FALSE(shards[0].contains("ParentShardId"));
  EXPECT_EQ(shards[1]["ParentShardId"], shards[0]["ShardId"]);
  const Json& parent = shards[0]["SequenceNumberRange"];
  const Json& child = shards[1]["SequenceNumberRange"];
  EXPECT_EQ(parent["StartingSequenceNumber"], "101704067200000000000");
  EXPECT_EQ(parent["EndingSequenceNumber"], "101704070740000000000");
  EXPECT_EQ(child["StartingSequenceNumber"], "101704070800000000000");
  EXPECT_FALSE(child.contains("EndingSequenceNumber"));
  EXPECT_EQ(ReadShard(arn, shards[0]["ShardId"]).size(), 2u);
  std::vector<Json> in_child = ReadShard(arn, shards[1]["ShardId"]);
  ASSERT_EQ(in_child.size(), 1u);
  EXPECT_EQ(in_child[0]["dynamodb"]["SequenceNumber"], "101704070800000000001");
  EXPECT_EQ(ByItem(ReadAll(arn))["a"],
            std::vector<std::string>({"1", "2", "3"}));
}

// A sink registered after the stream's that fails once: the write, its
// stream record and a rollover it caused all roll back.
class FailOnceSink : public ChangeSink {
 public:
  bool Wants(const Table&) const override { return true; }
  Status OnChange(const ChangeEvent&, storage::WriteTransaction&) override {
    if (!armed) return OkStatus();
    armed = false;
    return Error::Internal("sink failed");
  }
  bool armed = true;
};

TEST_F(StreamsShardsTest, RolledBackRolloverLeavesNoTrace) {
  Options o;
  o.shard_rollover = hours(1);
  Open(o);
  std::string arn = CreateStreamTable("undo", "NEW_IMAGE");
  Put("undo", {{"pk", S("a")}, {"v", S("1")}});
  clock_->Advance(hours(1));
  auto failing = std::make_shared<FailOnceSink>();
  {
    auto lock = impl().Lock();
    impl().AddChangeSink(failing);
  }
  // The stream rolls the shard over for this write, then the write fails.
  EXPECT_EQ(FailText("PutItem", {{"TableName", "undo"},
                                 {"Item", {{"pk", S("a")}, {"v", S("x")}}}}),
            "InternalServerError: sink failed");
  EXPECT_FALSE(failing->armed);
  clock_->Advance(minutes(1));
  Put("undo", {{"pk", S("a")}, {"v", S("2")}});
  std::vector<Json> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_EQ(shards[1]["ParentShardId"], shards[0]["ShardId"]);
  EXPECT_EQ(ReadShard(arn, shards[0]["ShardId"]).size(), 1u);
  EXPECT_EQ(ReadShard(arn, shards[1]["ShardId"]).size(), 1u);
  EXPECT_EQ(ByItem(ReadAll(arn))["a"], std::vector<std::string>({"1", "2"}));
}

TEST_F(StreamsShardsTest, RolloverHappensLazilyOnReads) {
  Options o;
  o.shard_rollover = hours(4);
  Open(o);
  std::string arn = CreateStreamTable("lazy", "KEYS_ONLY");
  Put("lazy", {{"pk", S("a")}});
  std::string shard = Shards(arn)[0]["ShardId"];
  clock_->Advance(hours(4));
  // Reading closes the due shard first: all its records, then its end.
  Json r = Records(Iterator(arn, shard));
  EXPECT_EQ(r["Records"].size(), 1u);
  EXPECT_FALSE(r.contains("NextShardIterator"));
  std::vector<Json> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_EQ(shards[1]["ParentShardId"], shard);
  // Hours later, one more child per period that was actually observed.
  clock_->Advance(hours(9));
  EXPECT_EQ(Shards(arn).size(), 3u);
}

TEST_F(StreamsShardsTest, ZeroRolloverNeverRollsOver) {
  Options o;
  o.shard_rollover = Duration::zero();
  Open(o);
  std::string arn = CreateStreamTable("never", "KEYS_ONLY");
  for (int i = 0; i < 5; ++i) {
    clock_->Advance(hours(5));
    Put("never", {{"pk", S("a")}, {"v", S(std::to_string(i))}});
  }
  EXPECT_EQ(Shards(arn).size(), 1u);
}

TEST_F(StreamsShardsTest, SplitCreatesTwoChildrenAndKeepsItemOrder) {
  std::string arn = CreateStreamTable("split", "NEW_IMAGE");
  for (int i = 0; i < 20; ++i) {
    Put("split", {{"pk", S("k" + std::to_string(i))}, {"v", S("1")}});
  }
  std::string parent = Shards(arn)[0]["ShardId"];
  Result<StreamShardSplit> split = Split("split");
  ASSERT_TRUE(split.ok()) << ToString(split.error());
  EXPECT_EQ(split->closed, std::vector<std::string>({parent}));
  ASSERT_EQ(split->created.size(), 2u);
  for (int i = 0; i < 20; ++i) {
    Put("split", {{"pk", S("k" + std::to_string(i))}, {"v", S("2")}});
  }
  Json children =
      StreamsOk("DescribeStream",
                {{"StreamArn", arn},
                 {"ShardFilter",
                  {{"Type", "CHILD_SHARDS"},
                   {"ShardId", parent}}}})["StreamDescription"]["Shards"];
  ASSERT_EQ(children.size(), 2u);
  EXPECT_EQ(children[0]["ShardId"], split->created[0]);
  EXPECT_EQ(children[1]["ShardId"], split->created[1]);
  EXPECT_EQ(children[0]["ParentShardId"], parent);
  // No children of a child yet.
  EXPECT_EQ(
      StreamsOk(
          "DescribeStream",
          {{"StreamArn", arn},
           {"ShardFilter",
            {{"Type", "CHILD_SHARDS"},
             {"ShardId", split->created[0]}}}})["StreamDescription"]["Shards"],
      Json::array());
  // Both children got items; each item's records are in one child.
  std::set<std::string> first = {}, second = {};
  for (const Json& r : ReadShard(arn, split->created[0])) {
    first.insert(r["dynamodb"]["Keys"]["pk"]["S"].get<std::string>());
  }
  for (const Json& r : ReadShard(arn, split->created[1])) {
    second.insert(r["dynamodb"]["Keys"]["pk"]["S"].get<std::string>());
  }
  EXPECT_FALSE(first.empty());
  EXPECT_FALSE(second.empty());
  EXPECT_EQ(first.size() + second.size(), 20u);
  for (const auto& [key, values] : ByItem(ReadAll(arn))) {
    EXPECT_EQ(values, std::vector<std::string>({"1", "2"})) << key;
  }
  // The closed parent reads to its end.
  Json r = Records(Iterator(arn, parent));
  EXPECT_EQ(r["Records"].size(), 20u);
  EXPECT_FALSE(r.contains("NextShardIterator"));
  // Child sequence numbers exceed the parent's.
  std::vector<Json> shards = Shards(arn);
  std::string parent_end =
      shards[0]["SequenceNumberRange"]["EndingSequenceNumber"];
  for (size_t i = 1; i < shards.size(); ++i) {
    EXPECT_GT(shards[i]["SequenceNumberRange"]["StartingSequenceNumber"]
                  .get<std::string>(),
              parent_end);
  }
}

TEST_F(StreamsShardsTest, SplitOneShardAndErrors) {
  Options o;
  o.stream_shards = 2;
  Open(o);
  std::string arn = CreateStreamTable("split2", "KEYS_ONLY");
  std::vector<Json> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 2u);
  std::string target = shards[1]["ShardId"];
  Result<StreamShardSplit> split = Split("split2", target);
  ASSERT_TRUE(split.ok()) << ToString(split.error());
  EXPECT_EQ(split->closed, std::vector<std::string>({target}));
  EXPECT_EQ(split->created.size(), 2u);
  EXPECT_EQ(Shards(arn).size(), 4u);

  auto text = [](const Result<StreamShardSplit>& r) {
    return r.ok() ? std::string("ok") : ToString(r.error());
  };
  EXPECT_EQ(text(Split("split2", target)),
            "ValidationException: Shard " + target +
                " is closed: only open shards can be split");
  EXPECT_EQ(text(Split("split2",
                       std::string("shardId-00000000000000000000-00000000"))),
            "ResourceNotFoundException: Requested resource not found: Shard "
            "does not exist");
  EXPECT_EQ(text(Split("nope")),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "nope not found");
  CreateTable("plain");
  EXPECT_EQ(
      text(Split("plain")),
      "ValidationException: Table has no enabled stream: TableName: plain");
}

TEST_F(StreamsShardsTest, SeveralShardsSpreadItemsByPartitionKey) {
  Options o;
  o.stream_shards = 4;
  Open(o);
  std::string arn = CreateStreamTable("multi", "NEW_IMAGE", "pk", "S", "sk");
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 40; ++i) {
      Put("multi", {{"pk", S("p" + std::to_string(i % 10))},
                    {"sk", S(std::to_string(i))},
                    {"v", S(std::to_string(round))}});
    }
  }
  std::vector<Json> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 4u);
  std::map<std::string, std::string> shard_of_partition;
  size_t used = 0, total = 0;
  for (const Json& s : shards) {
    std::vector<Json> records = ReadShard(arn, s["ShardId"]);
    used += records.empty() ? 0 : 1;
    total += records.size();
    std::string last_seq;
    for (const Json& r : records) {
      std::string pk = r["dynamodb"]["Keys"]["pk"]["S"];
      auto [it, inserted] = shard_of_partition.emplace(pk, s["ShardId"]);
      EXPECT_EQ(it->second, s["ShardId"].get<std::string>())
          << pk << " in two shards";
      std::string seq = r["dynamodb"]["SequenceNumber"];
      EXPECT_GT(seq, last_seq);
      last_seq = seq;
    }
  }
  EXPECT_EQ(total, 120u);
  EXPECT_GE(used, 2u);
}

TEST_F(StreamsShardsTest, FileDatabaseKeepsTheStreamAcrossARestart) {
  std::string dir = "/tmp/ddblab-streams-test-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  Options o;
  o.db_path = dir + "/db.sqlite";
  Open(o);
  std::string arn = CreateStreamTable("durable", "NEW_IMAGE");
  Put("durable", {{"pk", S("a")}, {"v", S("1")}});
  std::string shard = Shards(arn)[0]["ShardId"];
  Json first = Records(Iterator(arn, shard));
  ASSERT_EQ(first["Records"].size(), 1u);
  std::string next = first["NextShardIterator"];

  Open(o);  // closes and reopens the same file
  EXPECT_EQ(Describe("durable")["LatestStreamArn"], arn);
  EXPECT_EQ(StreamsOk("ListStreams", Json::object())["Streams"].size(), 1u);
  Put("durable", {{"pk", S("a")}, {"v", S("2")}});
  // The iterator issued before the restart goes on where it was.
  Json r = Records(next);
  ASSERT_EQ(r["Records"].size(), 1u);
  EXPECT_EQ(r["Records"][0]["dynamodb"]["NewImage"]["v"]["S"], "2");
  EXPECT_EQ(r["Records"][0]["dynamodb"]["SequenceNumber"],
            "101704067200000000002");
  std::vector<Json> all = ReadAll(arn);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]["eventID"], first["Records"][0]["eventID"]);
  emu_.reset();
  std::filesystem::remove_all(dir);
}

TEST_F(StreamsShardsTest, ShardsOfExpiredClosedShardsDisappear) {
  Options o;
  o.shard_rollover = hours(4);
  Open(o);
  std::string arn = CreateStreamTable("old", "KEYS_ONLY");
  Put("old", {{"pk", S("a")}});
  clock_->Advance(hours(4));
  Put("old", {{"pk", S("a")}, {"v", S("x")}});
  ASSERT_EQ(Shards(arn).size(), 2u);
  std::string child = Shards(arn)[1]["ShardId"];
  clock_->Advance(hours(24));
  // The first shard closed 24 h ago: gone. Its child (rolled over in turn
  // since) still names it as parent.
  std::vector<Json> shards = Shards(arn);
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_EQ(shards[0]["ShardId"], child);
  EXPECT_TRUE(shards[0].contains("ParentShardId"));
  EXPECT_TRUE(ReadAll(arn).empty());
}

}  // namespace
}  // namespace ddblab::engine::testing
