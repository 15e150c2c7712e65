#include "emulator/engine/item_writer.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "emulator/value/codec.h"
#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

// Records events and writes a row per event in the same transaction (a TTL
// queue row of a table id no table has, due never: only the count matters).
class RecordingSink : public ChangeSink {
 public:
  static constexpr int64_t kSinkTable = -7;

  bool Wants(const Table& table) const override { return table.stream.enabled; }
  Status OnChange(const ChangeEvent& e,
                  storage::WriteTransaction& txn) override {
    Json rec{{"table", e.table.name},
             {"keys", value::EncodeItem(e.keys)},
             {"origin", e.origin == ChangeEvent::Origin::kTtl ? "ttl" : "user"},
             {"now", ToEpochSeconds(e.now)}};
    auto old_image = e.OldImage();
    if (!old_image.ok()) return old_image.error();
    if (*old_image != nullptr) rec["old"] = value::EncodeItem(**old_image);
    if (e.new_image) rec["new"] = value::EncodeItem(*e.new_image);
    events.push_back(rec);
    if (fail_next) {
      fail_next = false;
      return Error::Internal("sink failed");
    }
    return txn.ttl_queue().Put(kSinkTable, std::to_string(events.size()), "",
                               std::numeric_limits<int64_t>::max());
  }
  Status OnTableCreated(const Table& t, storage::WriteTransaction&) override {
    lifecycle.push_back("created " + t.name);
    return OkStatus();
  }
  Status OnTableUpdated(const Table& before, const Table& after,
                        storage::WriteTransaction&) override {
    lifecycle.push_back("updated " + after.name + " stream " +
                        (before.stream.enabled ? "on" : "off") + "->" +
                        (after.stream.enabled ? "on" : "off"));
    return OkStatus();
  }
  Status OnTableDeleted(const Table& t, storage::WriteTransaction&) override {
    lifecycle.push_back("deleted " + t.name);
    return OkStatus();
  }

  std::vector<Json> events;
  std::vector<std::string> lifecycle;
  bool fail_next = false;
};

class ItemWriterTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    sink_ = std::make_shared<RecordingSink>();
    {
      auto lock = impl().Lock();
      impl().AddChangeSink(sink_);
    }
  }
  int64_t SinkRows() {
    auto lock = impl().Lock();
    auto stats = impl().store().ttl_queue().Stats();
    EXPECT_TRUE(stats.ok());
    for (const storage::TtlQueueTableStats& s : *stats) {
      if (s.table_id == RecordingSink::kSinkTable) return s.waiting;
    }
    return 0;
  }
  std::shared_ptr<RecordingSink> sink_;
};

TEST_F(ItemWriterTest, SinksSeeEveryChangeOfWantedTables) {
  Ok("CreateTable", Json::parse(R"({"TableName": "streamed",
      "BillingMode": "PAY_PER_REQUEST",
      "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"},
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})"));
  CreateTable("quiet");
  Json a = {{"pk", {{"S", "a"}}}, {"v", {{"N", "1"}}}};
  Ok("PutItem", {{"TableName", "streamed"}, {"Item", a}});
  Ok("PutItem", {{"TableName", "streamed"}, {"Item", a}});  // identical
  Ok("PutItem", {{"TableName", "quiet"}, {"Item", a}});
  Ok("DeleteItem",
     {{"TableName", "streamed"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  Ok("DeleteItem",
     {{"TableName", "streamed"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  ASSERT_EQ(sink_->events.size(), 3u);
  Json keys = {{"pk", {{"S", "a"}}}};
  EXPECT_EQ(sink_->events[0], Json({{"table", "streamed"},
                                    {"keys", keys},
                                    {"origin", "user"},
                                    {"now", 1704067200},
                                    {"new", a}}));
  EXPECT_EQ(sink_->events[1]["old"], a);  // a no-op write is still reported
  EXPECT_EQ(sink_->events[1]["new"], a);
  EXPECT_EQ(sink_->events[2], Json({{"table", "streamed"},
                                    {"keys", keys},
                                    {"origin", "user"},
                                    {"now", 1704067200},
                                    {"old", a}}));
  EXPECT_EQ(SinkRows(), 3);
  EXPECT_EQ(sink_->lifecycle,
            std::vector<std::string>({"created streamed", "created quiet"}));
  Ok("UpdateTable", {{"TableName", "streamed"},
                     {"StreamSpecification", {{"StreamEnabled", false}}}});
  Ok("DeleteTable", {{"TableName", "quiet"}});
  EXPECT_EQ(sink_->lifecycle[2], "updated streamed stream on->off");
  EXPECT_EQ(sink_->lifecycle[3], "deleted quiet");
}

TEST_F(ItemWriterTest, SinkFailureRollsBackTheWholeWrite) {
  Ok("CreateTable", Json::parse(R"({"TableName": "streamed",
      "BillingMode": "PAY_PER_REQUEST",
      "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"},
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "g", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "GlobalSecondaryIndexes": [{"IndexName": "gsi",
        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}}]})"));
  sink_->fail_next = true;
  Error e =
      Fail("PutItem", {{"TableName", "streamed"},
                       {"Item", {{"pk", {{"S", "a"}}}, {"g", {{"S", "x"}}}}}});
  EXPECT_EQ(ToString(e), "InternalServerError: sink failed");
  EXPECT_EQ(Ok("GetItem",
               {{"TableName", "streamed"}, {"Key", {{"pk", {{"S", "a"}}}}}}),
            Json::object());
  Json d = Describe("streamed");
  EXPECT_EQ(d["ItemCount"], 0);
  EXPECT_EQ(d["TableSizeBytes"], 0);
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["ItemCount"], 0);
  auto lock = impl().Lock();
  const Table& t = *impl().catalog().Find("streamed")->table;
  EXPECT_EQ(impl().store().ComputeStats(t.id, t.indexes[0].id)->count, 0);
  EXPECT_EQ(impl().store().ComputeStats(t.id, storage::kBaseTable)->count, 0);
}

TEST_F(ItemWriterTest, BatchAppliesSeveralChangesAtomically) {
  CreateTable("batch");
  auto lock = impl().Lock();
  auto entry = impl().FindTable("batch", TableLookup::kData);
  ASSERT_TRUE(entry.ok());
  const Table& table = *(*entry)->table;
  std::vector<value::Item> items;
  for (std::string k : {"a", "b"}) {
    auto item = value::DecodeItem({{"pk", {{"S", k}}}});
    ASSERT_TRUE(item.ok());
    items.push_back(*item);
  }
  CapacityLedger unmetered;  // not enforced
  {
    WriteBatch batch(impl(), unmetered);
    ASSERT_TRUE(batch.Begin().ok());
    for (const value::Item& item : items) {
      auto key = ValidateItemForWrite(table, item);
      ASSERT_TRUE(key.ok());
      ExistingItem old;
      ASSERT_TRUE(batch.Apply(table, *key, old, &item).ok());
    }
    // Dropped without Commit: nothing happened.
  }
  EXPECT_EQ((*entry)->stats.item_count, 0);
  WriteBatch batch(impl(), unmetered);
  ASSERT_TRUE(batch.Begin().ok());
  for (const value::Item& item : items) {
    auto key = ValidateItemForWrite(table, item);
    auto old = ExistingItem::Read(impl().store(), table, *key);
    ASSERT_TRUE(old.ok());
    auto used = batch.Apply(table, *key, *old, &item);
    ASSERT_TRUE(used.ok());
    EXPECT_EQ(used->Total(), 1.0);
  }
  ASSERT_TRUE(batch.Commit().ok());
  EXPECT_EQ((*entry)->stats.item_count, 2);
  EXPECT_EQ(impl().store().ComputeStats(table.id, storage::kBaseTable)->count,
            2);
}

TEST_F(ItemWriterTest, DeferredOldItemIsResolvedByApply) {
  CreateTable("lazy");
  auto lock = impl().Lock();
  auto entry = impl().FindTable("lazy", TableLookup::kData);
  ASSERT_TRUE(entry.ok());
  const Table& table = *(*entry)->table;
  auto v1 = value::DecodeItem({{"pk", {{"S", "k"}}}, {"v", {{"S", "1"}}}});
  auto v2 = value::DecodeItem({{"pk", {{"S", "k"}}}, {"v", {{"S", "22"}}}});
  ASSERT_TRUE(v1.ok() && v2.ok());
  auto key = ValidateItemForWrite(table, *v1);
  ASSERT_TRUE(key.ok());

  CapacityLedger unmetered;  // not enforced
  // New item: inserted without reading; afterwards "old" is absent.
  ExistingItem old = ExistingItem::Deferred(impl().store(), table, *key);
  EXPECT_FALSE(old.resolved());
  auto used = WriteItem(impl(), unmetered, table, *key, old, &*v1);
  ASSERT_TRUE(used.ok());
  EXPECT_TRUE(old.resolved());
  EXPECT_FALSE(old.exists());
  EXPECT_EQ((*entry)->stats.item_count, 1);
  EXPECT_EQ((*entry)->stats.size_bytes, 5);

  // Existing item: read after the insert attempt, then replaced.
  ExistingItem again = ExistingItem::Deferred(impl().store(), table, *key);
  ASSERT_TRUE(WriteItem(impl(), unmetered, table, *key, again, &*v2).ok());
  ASSERT_TRUE(again.exists());
  EXPECT_EQ(again.size(), 5);
  auto old_item = again.Get();
  ASSERT_TRUE(old_item.ok());
  EXPECT_EQ(value::EncodeItem(**old_item), value::EncodeItem(*v1));
  EXPECT_EQ((*entry)->stats.item_count, 1);
  EXPECT_EQ((*entry)->stats.size_bytes, 6);
  auto stored = impl().store().Get(table.id, key->pk, key->sk);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ((*stored)->size, 6);

  // Get() resolves a deferred item by itself.
  ExistingItem peek = ExistingItem::Deferred(impl().store(), table, *key);
  auto peeked = peek.Get();
  ASSERT_TRUE(peeked.ok());
  ASSERT_NE(*peeked, nullptr);
  EXPECT_EQ(value::EncodeItem(**peeked), value::EncodeItem(*v2));
}

}  // namespace
}  // namespace ddblab::engine::testing
