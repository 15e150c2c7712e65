// Stream record content: exact records per view type (SizeBytes from the
// AWS examples), which writes produce records, TTL deletions, transactions.
#include <gtest/gtest.h>

#include <regex>

#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/value/codec.h"
#include "tests/emulator/engine/streams_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr int64_t kStart = ManualClock::kDefaultStartEpochSeconds;

// The record without its eventID (checked to be 32 hex digits).
Json WithoutEventId(Json record) {
  EXPECT_TRUE(
      std::regex_match(record.value("eventID", ""), std::regex("[0-9a-f]{32}")))
      << record.dump();
  record.erase("eventID");
  return record;
}

Json Expected(const std::string& event, Json dynamodb) {
  return Json{{"eventName", event},
              {"eventVersion", "1.1"},
              {"eventSource", "aws:dynamodb"},
              {"awsRegion", "us-east-1"},
              {"dynamodb", std::move(dynamodb)}};
}

class StreamsRecordsTest : public StreamsTest {};

TEST_F(StreamsRecordsTest, KeysOnlyRecordMatchesTheAwsExample) {
  std::string arn =
      CreateStreamTable("Thread", "KEYS_ONLY", "ForumName", "S", "Subject");
  Put("Thread", {{"ForumName", S("DynamoDB")},
                 {"Subject", S("DynamoDB Thread 3")},
                 {"Views", N("0")}});
  std::vector<Json> records = ReadAll(arn);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(WithoutEventId(records[0]),
            Expected("INSERT", {{"ApproximateCreationDateTime", kStart},
                                {"Keys",
                                 {{"ForumName", S("DynamoDB")},
                                  {"Subject", S("DynamoDB Thread 3")}}},
                                {"SequenceNumber", "101704067200000000001"},
                                {"SizeBytes", 41},
                                {"StreamViewType", "KEYS_ONLY"}}));
}

TEST_F(StreamsRecordsTest, NewAndOldImagesMatchTheLambdaExample) {
  std::string arn =
      CreateStreamTable("Lambda", "NEW_AND_OLD_IMAGES", "Id", "N");
  Put("Lambda", {{"Id", N("101")}, {"Message", S("New item!")}});
  clock_->Advance(std::chrono::milliseconds(1500));
  Put("Lambda", {{"Id", N("101")}, {"Message", S("This item has changed")}});
  Delete("Lambda", {{"Id", N("101")}});
  std::vector<Json> r = ReadAll(arn);
  ASSERT_EQ(r.size(), 3u);
  Json keys = {{"Id", N("101")}};
  EXPECT_EQ(
      WithoutEventId(r[0]),
      Expected("INSERT",
               {{"ApproximateCreationDateTime", kStart},
                {"Keys", keys},
                {"NewImage", {{"Id", N("101")}, {"Message", S("New item!")}}},
                {"SequenceNumber", "101704067200000000001"},
                {"SizeBytes", 26},
                {"StreamViewType", "NEW_AND_OLD_IMAGES"}}));
  EXPECT_EQ(
      WithoutEventId(r[1]),
      Expected("MODIFY",
               {{"ApproximateCreationDateTime", kStart + 1},  // floor of +1.5 s
                {"Keys", keys},
                {"NewImage",
                 {{"Id", N("101")}, {"Message", S("This item has changed")}}},
                {"OldImage", {{"Id", N("101")}, {"Message", S("New item!")}}},
                {"SequenceNumber", "101704067201500000000"},
                {"SizeBytes", 59},
                {"StreamViewType", "NEW_AND_OLD_IMAGES"}}));
  EXPECT_EQ(
      WithoutEventId(r[2]),
      Expected("REMOVE",
               {{"ApproximateCreationDateTime", kStart + 1},
                {"Keys", keys},
                {"OldImage",
                 {{"Id", N("101")}, {"Message", S("This item has changed")}}},
                {"SequenceNumber", "101704067201500000001"},
                {"SizeBytes", 38},
                {"StreamViewType", "NEW_AND_OLD_IMAGES"}}));
}

// The walkthrough's Id N 1 example: 24, 56, 36 bytes.
TEST_F(StreamsRecordsTest, SizeBytesOfTheWalkthroughExample) {
  std::string arn = CreateStreamTable("Walk", "NEW_AND_OLD_IMAGES", "Id", "N");
  Put("Walk", {{"Id", N("1")}, {"Message", S("New item!")}});
  Put("Walk", {{"Id", N("1")}, {"Message", S("This item has changed")}});
  Delete("Walk", {{"Id", N("1")}});
  std::vector<Json> r = ReadAll(arn);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0]["dynamodb"]["SizeBytes"], 24);
  EXPECT_EQ(r[1]["dynamodb"]["SizeBytes"], 56);
  EXPECT_EQ(r[2]["dynamodb"]["SizeBytes"], 36);
}

// Which image each view type carries, and SizeBytes counting only those.
TEST_F(StreamsRecordsTest, ImagesPerViewType) {
  struct Case {
    std::string view;
    // has NewImage / OldImage for INSERT, MODIFY, REMOVE; sizes
    std::vector<std::pair<bool, bool>> images;
    std::vector<int> sizes;
  };
  // keys {Id:1} = 4; v1 {Id:1, Message:"New item!"} = 20;
  // v2 {Id:1, Message:"This item has changed"} = 32.
  std::vector<Case> cases = {
      {"KEYS_ONLY",
       {{false, false}, {false, false}, {false, false}},
       {4, 4, 4}},
      {"NEW_IMAGE",
       {{true, false}, {true, false}, {false, false}},
       {24, 36, 4}},
      {"OLD_IMAGE",
       {{false, false}, {false, true}, {false, true}},
       {4, 24, 36}},
      {"NEW_AND_OLD_IMAGES",
       {{true, false}, {true, true}, {false, true}},
       {24, 56, 36}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.view);
    std::string table = "t_" + c.view;
    std::string arn = CreateStreamTable(table, c.view, "Id", "N");
    Put(table, {{"Id", N("1")}, {"Message", S("New item!")}});
    Put(table, {{"Id", N("1")}, {"Message", S("This item has changed")}});
    Delete(table, {{"Id", N("1")}});
    std::vector<Json> r = ReadAll(arn);
    ASSERT_EQ(r.size(), 3u);
    const char* names[] = {"INSERT", "MODIFY", "REMOVE"};
    for (size_t i = 0; i < 3; ++i) {
      const Json& d = r[i]["dynamodb"];
      EXPECT_EQ(r[i]["eventName"], names[i]);
      EXPECT_EQ(d["Keys"], Json({{"Id", N("1")}}));
      EXPECT_EQ(d.contains("NewImage"), c.images[i].first) << i;
      EXPECT_EQ(d.contains("OldImage"), c.images[i].second) << i;
      EXPECT_EQ(d["SizeBytes"], c.sizes[i]) << i;
      EXPECT_EQ(d["StreamViewType"], c.view);
      EXPECT_FALSE(r[i].contains("userIdentity"));
    }
  }
}

TEST_F(StreamsRecordsTest, WritesThatChangeNothingProduceNoRecord) {
  std::string arn = CreateStreamTable("NoOp", "NEW_AND_OLD_IMAGES");
  Json item = {{"pk", S("a")},
               {"tags", {{"SS", {"x", "y"}}}},
               {"m", {{"M", {{"p", N("1")}, {"q", N("2")}}}}}};
  Put("NoOp", item);  // INSERT
  Put("NoOp", item);  // identical: nothing
  // Equal but not identical: set order, map order, number spelling.
  Put("NoOp", {{"pk", S("a")},
               {"m", {{"M", {{"q", N("2.0")}, {"p", N("1")}}}}},
               {"tags", {{"SS", {"y", "x"}}}}});
  Delete("NoOp", {{"pk", S("missing")}});  // nothing to delete: nothing
  Put("NoOp", {{"pk", S("k")}});           // key only, new: INSERT
  Put("NoOp", {{"pk", S("k")}});           // again: nothing
  Delete("NoOp", {{"pk", S("a")}});        // REMOVE
  std::vector<Json> r = ReadAll(arn);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0]["eventName"], "INSERT");
  EXPECT_EQ(r[1]["eventName"], "INSERT");
  EXPECT_EQ(r[1]["dynamodb"]["NewImage"], Json({{"pk", S("k")}}));
  EXPECT_EQ(r[2]["eventName"], "REMOVE");
}

TEST_F(StreamsRecordsTest, TtlDeletionCarriesServiceUserIdentity) {
  std::string arn = CreateStreamTable("Ttl", "OLD_IMAGE");
  Put("Ttl", {{"pk", S("a")}, {"exp", N("1")}});
  Put("Ttl", {{"pk", S("b")}});
  {
    auto lock = impl().Lock();
    auto entry = impl().FindTable("Ttl", TableLookup::kData);
    ASSERT_TRUE(entry.ok());
    const Table& table = *(*entry)->table;
    auto key = ExtractKeyParam(table, {{"pk", value::AttributeValue::S("a")}});
    ASSERT_TRUE(key.ok());
    auto old = ExistingItem::Read(impl().store(), table, *key);
    ASSERT_TRUE(old.ok());
    CapacityLedger unmetered;  // not enforced
    auto used = WriteItem(impl(), unmetered, table, *key, *old, nullptr,
                          ChangeEvent::Origin::kTtl);
    ASSERT_TRUE(used.ok()) << ToString(used.error());
  }
  Delete("Ttl", {{"pk", S("b")}});  // a user delete: no userIdentity
  std::vector<Json> r = ReadAll(arn);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[2]["eventName"], "REMOVE");
  EXPECT_EQ(
      r[2]["userIdentity"],
      Json({{"PrincipalId", "dynamodb.amazonaws.com"}, {"Type", "Service"}}));
  EXPECT_EQ(r[2]["dynamodb"]["OldImage"],
            Json({{"pk", S("a")}, {"exp", N("1")}}));
  EXPECT_EQ(r[3]["eventName"], "REMOVE");
  EXPECT_FALSE(r[3].contains("userIdentity"));
  EXPECT_FALSE(r[0].contains("userIdentity"));
}

// Several items in one WriteBatch (how transactions and batch writes apply):
// one record each, committed or rolled back together with the items.
TEST_F(StreamsRecordsTest, OneRecordPerItemCommittedWithTheBatch) {
  std::string arn = CreateStreamTable("Batch", "NEW_IMAGE");
  auto apply_three = [&](bool commit) {
    auto lock = impl().Lock();
    auto entry = impl().FindTable("Batch", TableLookup::kData);
    ASSERT_TRUE(entry.ok());
    const Table& table = *(*entry)->table;
    CapacityLedger unmetered;
    WriteBatch batch(impl(), unmetered);
    ASSERT_TRUE(batch.Begin().ok());
    for (const char* k : {"x", "y", "z"}) {
      value::Item item = {{"pk", value::AttributeValue::S(k)},
                          {"n", value::AttributeValue::S(commit ? "c" : "r")}};
      auto key = ExtractItemKey(table, item);
      ASSERT_TRUE(key.ok());
      auto old = ExistingItem::Read(impl().store(), table, *key);
      ASSERT_TRUE(old.ok());
      ASSERT_TRUE(batch.Apply(table, *key, *old, &item).ok());
    }
    if (commit) {
      ASSERT_TRUE(batch.Commit().ok());
    } else {
      batch.Rollback();
    }
  };
  apply_three(false);
  EXPECT_TRUE(ReadAll(arn).empty());
  apply_three(true);
  std::vector<Json> r = ReadAll(arn);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0]["dynamodb"]["Keys"], Json({{"pk", S("x")}}));
  EXPECT_EQ(r[1]["dynamodb"]["Keys"], Json({{"pk", S("y")}}));
  EXPECT_EQ(r[2]["dynamodb"]["Keys"], Json({{"pk", S("z")}}));
  EXPECT_EQ(r[2]["dynamodb"]["NewImage"],
            Json({{"pk", S("z")}, {"n", S("c")}}));
}

TEST_F(StreamsRecordsTest, EventIdsAreUniqueAndDeterministic) {
  auto run = [&]() {
    clock_.reset();
    Open(Options{});
    std::string arn = CreateStreamTable("Ids", "KEYS_ONLY");
    for (int i = 0; i < 5; ++i) Put("Ids", {{"pk", S(std::to_string(i))}});
    std::vector<std::string> ids;
    for (const Json& r : ReadAll(arn)) ids.push_back(r["eventID"]);
    return ids;
  };
  std::vector<std::string> a = run();
  std::vector<std::string> b = run();
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::set<std::string>(a.begin(), a.end()).size(), 5u);
}

TEST_F(StreamsRecordsTest, TablesWithoutStreamsWriteNoRecords) {
  CreateTable("Plain");
  Put("Plain", {{"pk", S("a")}});
  EXPECT_EQ(StreamsOk("ListStreams", Json::object())["Streams"], Json::array());
}

}  // namespace
}  // namespace ddblab::engine::testing
