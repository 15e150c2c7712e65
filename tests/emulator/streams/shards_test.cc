#include "emulator/streams/shards.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>

#include "emulator/storage/schema.h"
#include "emulator/storage/sqlite.h"
#include "emulator/storage/sqlite_stream_store.h"
#include "emulator/streams/record_builder.h"
#include "emulator/streams/sequence_number.h"
#include "emulator/value/item_codec.h"

namespace ddblab::streams {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
constexpr int64_t kHour = 3600 * 1000;

class ShardsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = storage::Database::Open(":memory:");
    ASSERT_TRUE(db.ok());
    db_ = std::move(db).value();
    ASSERT_TRUE(storage::EnsureCoreSchema(*db_).ok());
    log_ = std::make_unique<storage::SqliteStreamStore>(*db_);
    ASSERT_TRUE(log_->EnsureSchema().ok());
    stream_.arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x";
    stream_.table_name = "t";
    stream_.label = "x";
    stream_.key_schema = "[]";
    auto id = log_->InsertStream(stream_);
    ASSERT_TRUE(id.ok());
    stream_.id = *id;
  }

  void AddRecord(const ShardRow& shard, int64_t created_ms) {
    value::Item keys = {{"k", value::AttributeValue::S("a")}};
    const std::string bytes = value::SerializeItem(keys);
    const StoredImage image{bytes, 5};
    RecordRow row = BuildRecord({&keys, nullptr, &image, false},
                                ViewType::kKeysOnly, created_ms);
    ShardRow fresh = shard;
    fresh.last_seq = -1;  // look it up
    auto seq = NextRecordSeq(*log_, fresh, created_ms);
    ASSERT_TRUE(seq.ok());
    row.seq = *seq;
    row.event_id = "e";
    ASSERT_TRUE(log_->InsertRecord(stream_.id, shard.ordinal, row).ok());
  }

  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::SqliteStreamStore> log_;
  StreamRow stream_;
  ShardPolicy policy_;
};

TEST_F(ShardsTest, InitialShardsPartitionTheHashRange) {
  policy_.initial_shards = 3;
  ASSERT_TRUE(CreateInitialShards(*log_, stream_, 1000, policy_).ok());
  auto open = log_->OpenShards(stream_.id);
  ASSERT_TRUE(open.ok());
  ASSERT_EQ(open->size(), 3u);
  EXPECT_EQ((*open)[0].hash_lo, 0u);
  EXPECT_EQ((*open)[1].hash_lo, (*open)[0].hash_hi + 1);
  EXPECT_EQ((*open)[2].hash_lo, (*open)[1].hash_hi + 1);
  EXPECT_EQ((*open)[2].hash_hi, kMax);
  // Sequence numbers start at the creation time.
  EXPECT_EQ((*open)[0].start_seq, 1000 * kSeqPerMs);
  EXPECT_EQ((*open)[2].start_seq, 1000 * kSeqPerMs);
  EXPECT_EQ(stream_.next_shard, 3);
  EXPECT_EQ((*open)[0].shard_id.substr(0, 30),
            "shardId-00000000000000001000-0");
  for (uint64_t h : {uint64_t{0}, kMax / 2, kMax}) {
    auto shard = ShardForAppend(*log_, stream_, h, 1000, policy_);
    ASSERT_TRUE(shard.ok());
    EXPECT_TRUE(shard->hash_lo <= h && h <= shard->hash_hi);
  }
}

TEST_F(ShardsTest, ShardIdsSortInCreationOrder) {
  std::string a = MakeShardId(5, 1, 0, "arn");
  std::string b = MakeShardId(5, 2, 0, "arn");
  std::string c = MakeShardId(6, 0, 0, "arn");
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_EQ(a.size(), 37u);
  EXPECT_EQ(a, MakeShardId(5, 1, 0, "arn"));
  EXPECT_NE(a.substr(33), MakeShardId(5, 1, 1, "arn").substr(33));
}

TEST_F(ShardsTest, SplitHalvesTheRangeAndClosesTheParent) {
  ASSERT_TRUE(CreateInitialShards(*log_, stream_, 0, policy_).ok());
  ShardRow parent = (*log_->OpenShards(stream_.id))[0];
  AddRecord(parent, 0);
  AddRecord(parent, 0);
  auto children = ReplaceShard(*log_, stream_, parent, 2, 10, policy_);
  ASSERT_TRUE(children.ok());
  ASSERT_EQ(children->size(), 2u);
  EXPECT_EQ((*children)[0].hash_lo, 0u);
  EXPECT_EQ((*children)[0].hash_hi, kMax / 2);
  EXPECT_EQ((*children)[1].hash_lo, kMax / 2 + 1);
  EXPECT_EQ((*children)[1].hash_hi, kMax);
  EXPECT_EQ((*children)[0].parent_shard_id, parent.shard_id);
  auto closed = log_->ShardByOrdinal(stream_.id, parent.ordinal);
  ASSERT_TRUE(closed.ok() && closed->has_value());
  EXPECT_EQ((*closed)->end_seq, 2);  // its last record (numbers 1 and 2)
  EXPECT_EQ((*closed)->closed_ms, 10);
  EXPECT_EQ((*children)[0].start_seq, 10 * kSeqPerMs);
  EXPECT_EQ((*children)[1].start_seq, 10 * kSeqPerMs);
  // A child starts above its parent's end even when the clock is behind.
  ShardRow child = (*children)[0];
  AddRecord(child, 10);
  AddRecord(child, 10);
  auto grandchildren = ReplaceShard(*log_, stream_, child, 1, 0, policy_);
  ASSERT_TRUE(grandchildren.ok());
  EXPECT_EQ((*grandchildren)[0].start_seq, 10 * kSeqPerMs + 3);
  EXPECT_EQ((*grandchildren)[0].created_ms, 10);  // never before its parent
}

TEST_F(ShardsTest, EmptyShardClosesAtItsStart) {
  ASSERT_TRUE(CreateInitialShards(*log_, stream_, 0, policy_).ok());
  ASSERT_TRUE(CloseAllShards(*log_, stream_, 5).ok());
  auto shards = log_->Shards(stream_.id);
  ASSERT_EQ(shards->size(), 1u);
  EXPECT_EQ((*shards)[0].end_seq, (*shards)[0].start_seq);
  EXPECT_TRUE(log_->OpenShards(stream_.id)->empty());
}

TEST_F(ShardsTest, RolloverOnAppendWhenDue) {
  policy_.rollover = std::chrono::hours(1);
  ASSERT_TRUE(CreateInitialShards(*log_, stream_, 0, policy_).ok());
  auto a = ShardForAppend(*log_, stream_, 7, kHour - 1, policy_);
  ASSERT_TRUE(a.ok());
  auto b = ShardForAppend(*log_, stream_, 7, kHour, policy_);
  ASSERT_TRUE(b.ok());
  EXPECT_NE(a->shard_id, b->shard_id);
  EXPECT_EQ(b->parent_shard_id, a->shard_id);
  EXPECT_EQ(b->created_ms, kHour);
  EXPECT_EQ(b->hash_lo, 0u);
  EXPECT_EQ(b->hash_hi, kMax);
}

TEST_F(ShardsTest, TrimAndExpiry) {
  policy_.rollover = Duration::zero();
  ASSERT_TRUE(CreateInitialShards(*log_, stream_, 0, policy_).ok());
  ShardRow shard = (*log_->OpenShards(stream_.id))[0];
  AddRecord(shard, 0);
  AddRecord(shard, 10);
  AddRecord(shard, 20);
  // At 24 h + 10 ms the first two are exactly 24 h old or more.
  ASSERT_TRUE(
      MaintainShard(*log_, stream_, shard, 24 * kHour + 10, policy_).ok());
  EXPECT_EQ(shard.trim_seq, 10 * kSeqPerMs);
  int left = 0;
  ASSERT_TRUE(log_->ReadRecords(stream_.id, shard.ordinal, 0,
                                [&](RecordRow&& r) {
                                  EXPECT_EQ(r.seq, 20 * kSeqPerMs);
                                  ++left;
                                  return true;
                                })
                  .ok());
  EXPECT_EQ(left, 1);
  // Disabled: the stream goes 24 h later.
  stream_.disabled_ms = 100 * kHour;
  EXPECT_FALSE(StreamExpired(stream_, 124 * kHour - 1, policy_));
  EXPECT_TRUE(StreamExpired(stream_, 124 * kHour, policy_));
  auto alive = MaintainStream(*log_, stream_, 124 * kHour, policy_);
  ASSERT_TRUE(alive.ok());
  EXPECT_FALSE(*alive);
  EXPECT_FALSE(log_->FindStream(stream_.arn)->has_value());
  EXPECT_TRUE(log_->Shards(stream_.id)->empty());
}

TEST_F(ShardsTest, PartitionHashIsStable) {
  EXPECT_EQ(PartitionHash("abc"), PartitionHash("abc"));
  EXPECT_NE(PartitionHash("abc"), PartitionHash("abd"));
}

}  // namespace
}  // namespace ddblab::streams
