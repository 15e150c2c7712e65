// Index key values: which writes are refused (types, empty values, size
// limits) and with which texts, which items an index holds, backfill by
// UpdateTable leaving out items whose index key is unusable, and index
// maintenance by updates, deletes, streams-enabled tables and TTL.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/emulator/engine/query_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json Attr(const std::string& name, const std::string& type) {
  return {{"AttributeName", name}, {"AttributeType", type}};
}
Json Key(const std::string& name, const std::string& type) {
  return {{"AttributeName", name}, {"KeyType", type}};
}

class IndexKeysTest : public QueryTest {
 protected:
  // "ikt": pk S, sk S; LSI "lsi" on lk S; GSI "gix1" on gh S / gr S; GSI "mki"
  // on HASH m1 S, m2 N and RANGE m3 B, m4 S.
  void CreateIk() {
    Ok("CreateTable",
       {{"TableName", "ikt"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         {Attr("pk", "S"), Attr("sk", "S"), Attr("lk", "S"), Attr("gh", "S"),
          Attr("gr", "S"), Attr("m1", "S"), Attr("m2", "N"), Attr("m3", "B"),
          Attr("m4", "S")}},
        {"KeySchema", {Key("pk", "HASH"), Key("sk", "RANGE")}},
        {"LocalSecondaryIndexes",
         {{{"IndexName", "lsi"},
           {"KeySchema", {Key("pk", "HASH"), Key("lk", "RANGE")}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "gix1"},
           {"KeySchema", {Key("gh", "HASH"), Key("gr", "RANGE")}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}},
          {{"IndexName", "mki"},
           {"KeySchema",
            {Key("m1", "HASH"), Key("m2", "HASH"), Key("m3", "RANGE"),
             Key("m4", "RANGE")}},
           {"Projection", {{"ProjectionType", "ALL"}}}}}}});
  }
  int64_t IndexRows(const std::string& table, const std::string& index) {
    auto lock = impl().Lock();
    Catalog::Entry* e = impl().catalog().Find(table);
    const IndexDef* idx = e->table->FindIndex(index);
    if (idx == nullptr) return -1;
    auto stats = impl().store().ComputeStats(e->table->id, idx->id);
    return stats.ok() ? stats->count : -1;
  }
  Json Item(const std::string& pk) { return {{"pk", S(pk)}, {"sk", S("s")}}; }
  std::string PutError(const Json& item) {
    return FailText("PutItem", {{"TableName", "ikt"}, {"Item", item}});
  }
  bool Exists(const std::string& pk) {
    return Ok("GetItem", {{"TableName", "ikt"},
                          {"Key", Item(pk)},
                          {"ConsistentRead", true}})
        .contains("Item");
  }
  static Json B(const std::string& base64) { return {{"B", base64}}; }
};

constexpr char kHashTooBig[] =
    "ValidationException: One or more parameter values were invalid: Size of "
    "hashkey has exceeded the maximum size limit of2048 bytes";
constexpr char kRangeTooBig[] =
    "ValidationException: One or more parameter values were invalid: "
    "Aggregated size of all range keys has exceeded the size limit of 1024 "
    "bytes";

TEST_F(IndexKeysTest, SizeLimitsOnIndexKeys) {
  CreateIk();
  Json item = Item("a");
  item["gh"] = S(std::string(2048, 'h'));
  item["gr"] = S(std::string(1024, 'r'));
  item["lk"] = S(std::string(1024, 'l'));
  Put("ikt", item);  // at the limits
  EXPECT_EQ(IndexRows("ikt", "gix1"), 1);
  EXPECT_EQ(IndexRows("ikt", "lsi"), 1);

  item = Item("b");
  item["gh"] = S(std::string(2049, 'h'));
  EXPECT_EQ(PutError(item), kHashTooBig);
  item = Item("b");
  item["gh"] = S("h");
  item["gr"] = S(std::string(1025, 'r'));
  EXPECT_EQ(PutError(item), kRangeTooBig);
  item = Item("b");
  item["lk"] = S(std::string(1025, 'l'));
  EXPECT_EQ(PutError(item), kRangeTooBig);
  // Binary: the decoded bytes count (1025 bytes = 1368 base64 characters).
  item = Item("b");
  item["m3"] = B(std::string(1364, 'A') + "AAA=");
  EXPECT_EQ(PutError(item), kRangeTooBig);
  item = Item("bin");
  item["m3"] = B(std::string(1364, 'A') + "AA==");  // 1024 bytes
  Put("ikt", item);
  item = Item("b");
  item["m1"] = S(std::string(2049, 'x'));
  EXPECT_EQ(PutError(item), kHashTooBig);
  EXPECT_FALSE(Exists("b"));

  // UpdateItem and BatchWriteItem are refused the same way.
  EXPECT_EQ(FailText("UpdateItem", {{"TableName", "ikt"},
                                    {"Key", Item("a")},
                                    {"UpdateExpression", "SET gr = :v"},
                                    {"ExpressionAttributeValues",
                                     {{":v", S(std::string(1025, 'r'))}}}}),
            kRangeTooBig);
  EXPECT_EQ(FailText("BatchWriteItem",
                     {{"RequestItems",
                       {{"ikt",
                         {{{"PutRequest",
                            {{"Item",
                              {{"pk", S("c")},
                               {"sk", S("s")},
                               {"m4", S(std::string(1025, 'x'))}}}}}}}}}}}),
            kRangeTooBig);
  EXPECT_FALSE(Exists("c"));
  EXPECT_EQ(IndexRows("ikt", "gix1"), 1);
}

TEST_F(IndexKeysTest, EmptyAndMistypedIndexKeys) {
  CreateIk();
  Json item = Item("a");
  item["m2"] = S("5");
  EXPECT_EQ(PutError(item),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for Index Key m2 Expected: N Actual: S IndexName: "
            "mki");
  item = Item("a");
  item["m4"] = {{"NULL", true}};
  EXPECT_EQ(PutError(item),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for Index Key m4 Expected: S Actual: NULL "
            "IndexName: mki");
  item = Item("a");
  item["m4"] = S("");
  EXPECT_EQ(PutError(item),
            "ValidationException: One or more parameter values are not valid. "
            "A value specified for a secondary index key is not supported. The "
            "AttributeValue for a key attribute cannot contain an empty string "
            "value. IndexName: mki, IndexKey: m4");
  EXPECT_FALSE(Exists("a"));
}

TEST_F(IndexKeysTest, UpdatesSettingAnIndexKeyToAnotherType) {
  CreateIk();
  Put("ikt",
      {{"pk", S("a")}, {"sk", S("s")}, {"num", N("1")}, {"str", S("x")}});
  auto update = [&](const std::string& expression, const Json& values) {
    Json req = {{"TableName", "ikt"},
                {"Key", Item("a")},
                {"UpdateExpression", expression}};
    if (!values.empty()) req["ExpressionAttributeValues"] = values;
    return FailText("UpdateItem", req);
  };
  // A value whose type is known from the request.
  EXPECT_EQ(update("SET m4 = :n", {{":n", N("1")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for Index Key m4 Expected: S Actual: N IndexName: "
            "mki");
  EXPECT_EQ(update("ADD m1 :n", {{":n", N("1")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for Index Key m1 Expected: S Actual: N IndexName: "
            "mki");
  EXPECT_EQ(update("SET gh = num + :n", {{":n", N("1")}}),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for Index Key gh Expected: S Actual: N IndexName: "
            "gix1");
  // A value copied from the item: known only once the item is read.
  EXPECT_EQ(update("SET m2 = str", Json::object()),
            "ValidationException: The update expression attempted to update "
            "the secondary index key to unsupported type");
  EXPECT_EQ(update("SET lk = num", Json::object()),
            "ValidationException: The update expression attempted to update "
            "the secondary index key to unsupported type");
  // The right type is accepted and indexed.
  Ok("UpdateItem",
     {{"TableName", "ikt"},
      {"Key", Item("a")},
      {"UpdateExpression", "SET m1 = str, m2 = num, m3 = :b, m4 = str"},
      {"ExpressionAttributeValues", {{":b", B("AQI=")}}}});
  EXPECT_EQ(IndexRows("ikt", "mki"), 1);
}

TEST_F(IndexKeysTest, MultiKeyIndexHoldsOnlyCompleteKeys) {
  CreateIk();
  Json full = {{"pk", S("a")}, {"sk", S("s")},    {"m1", S("x")},
               {"m2", N("1")}, {"m3", B("AQ==")}, {"m4", S("y")}};
  Put("ikt", full);
  EXPECT_EQ(IndexRows("ikt", "mki"), 1);
  // Removing one key attribute takes the item out; putting it back in.
  Ok("UpdateItem", {{"TableName", "ikt"},
                    {"Key", Item("a")},
                    {"UpdateExpression", "REMOVE m3"}});
  EXPECT_EQ(IndexRows("ikt", "mki"), 0);
  Ok("UpdateItem", {{"TableName", "ikt"},
                    {"Key", Item("a")},
                    {"UpdateExpression", "SET m3 = :b"},
                    {"ExpressionAttributeValues", {{":b", B("Ag==")}}}});
  EXPECT_EQ(IndexRows("ikt", "mki"), 1);
  Json q = Query({{"TableName", "ikt"},
                  {"IndexName", "mki"},
                  {"KeyConditionExpression", "m1 = :a AND m2 = :b AND m3 = :c"},
                  {"ExpressionAttributeValues",
                   {{":a", S("x")}, {":b", N("1")}, {":c", B("Ag==")}}}});
  ASSERT_EQ(q["Count"], 1);
  EXPECT_EQ(q["Items"][0]["m3"], B("Ag=="));
  // Changing a HASH attribute moves the entry to another partition.
  Ok("UpdateItem", {{"TableName", "ikt"},
                    {"Key", Item("a")},
                    {"UpdateExpression", "SET m2 = :n"},
                    {"ExpressionAttributeValues", {{":n", N("2")}}}});
  EXPECT_EQ(IndexRows("ikt", "mki"), 1);
  q["ExpressionAttributeValues"] = {
      {":a", S("x")}, {":b", N("1")}, {":c", B("Ag==")}};
  EXPECT_EQ(Query({{"TableName", "ikt"},
                   {"IndexName", "mki"},
                   {"KeyConditionExpression", "m1 = :a AND m2 = :b"},
                   {"ExpressionAttributeValues",
                    {{":a", S("x")}, {":b", N("1")}}}})["Count"],
            0);
  EXPECT_EQ(Query({{"TableName", "ikt"},
                   {"IndexName", "mki"},
                   {"KeyConditionExpression", "m1 = :a AND m2 = :b"},
                   {"ExpressionAttributeValues",
                    {{":a", S("x")}, {":b", N("2")}}}})["Count"],
            1);
  Ok("DeleteItem", {{"TableName", "ikt"}, {"Key", Item("a")}});
  EXPECT_EQ(IndexRows("ikt", "mki"), 0);
  EXPECT_EQ(Describe("ikt")["GlobalSecondaryIndexes"][1]["ItemCount"], 0);
}

TEST_F(IndexKeysTest, BinaryRangeValuesWithZeroBytes) {
  CreateIk();
  // m3 (B) is the first of two RANGE attributes: its values are escaped in
  // the composite key, and must still sort as bytes and match by prefix.
  const std::vector<std::pair<std::string, std::string>> values = {
      {"z01", "AAE="}, {"one", "AQ=="}, {"z", "AA=="}, {"zz", "AAA="}};
  for (const auto& [pk, b64] : values) {
    Put("ikt", {{"pk", S(pk)},
                {"sk", S("s")},
                {"m1", S("x")},
                {"m2", N("1")},
                {"m3", B(b64)},
                {"m4", S("t")}});
  }
  auto pks = [&](const std::string& cond, const std::string& b64) {
    Json q =
        Query({{"TableName", "ikt"},
               {"IndexName", "mki"},
               {"KeyConditionExpression", "m1 = :a AND m2 = :n AND " + cond},
               {"ExpressionAttributeValues",
                {{":a", S("x")}, {":n", N("1")}, {":b", B(b64)}}}});
    return Column(q["Items"], "pk");
  };
  EXPECT_EQ(pks("begins_with(m3, :b)", "AA=="), (Strings{"z", "zz", "z01"}));
  EXPECT_EQ(pks("m3 < :b", "AAE="), (Strings{"z", "zz"}));
  EXPECT_EQ(pks("m3 > :b", "AA=="), (Strings{"zz", "z01", "one"}));
  EXPECT_EQ(pks("m3 <= :b", "AAA="), (Strings{"z", "zz"}));
  EXPECT_EQ(pks("m3 = :b", "AAA="), (Strings{"zz"}));
}

TEST_F(IndexKeysTest, BackfillSkipsUnusableIndexKeys) {
  CreateTable("bft");
  Put("bft", {{"pk", S("ok")}, {"h", S("x")}, {"r", N("1")}, {"r2", S("a")}});
  Put("bft", {{"pk", S("ok2")}, {"h", S("x")}, {"r", N("2")}, {"r2", S("b")}});
  Put("bft", {{"pk", S("empty")}, {"h", S("")}, {"r", N("1")}, {"r2", S("a")}});
  Put("bft", {{"pk", S("big")},
              {"h", S("x")},
              {"r", N("1")},
              {"r2", S(std::string(1025, 'z'))}});
  Put("bft", {{"pk", S("bighash")},
              {"h", S(std::string(2049, 'z'))},
              {"r", N("1")},
              {"r2", S("a")}});
  Put("bft", {{"pk", S("type")}, {"h", S("x")}, {"r", S("1")}, {"r2", S("a")}});
  Put("bft", {{"pk", S("partial")}, {"h", S("x")}, {"r", N("1")}});
  Ok("UpdateTable",
     {{"TableName", "bft"},
      {"AttributeDefinitions",
       {Attr("h", "S"), Attr("r", "N"), Attr("r2", "S")}},
      {"GlobalSecondaryIndexUpdates",
       {{{"Create",
          {{"IndexName", "gbf"},
           {"KeySchema",
            {Key("h", "HASH"), Key("r", "RANGE"), Key("r2", "RANGE")}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}}}}});
  EXPECT_EQ(
      Describe("bft")["AttributeDefinitions"],
      Json({Attr("pk", "S"), Attr("h", "S"), Attr("r", "N"), Attr("r2", "S")}));
  Json gsi = Describe("bft")["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(gsi["KeySchema"],
            Json({Key("h", "HASH"), Key("r", "RANGE"), Key("r2", "RANGE")}));
  EXPECT_EQ(gsi["ItemCount"], 2);
  EXPECT_EQ(IndexRows("bft", "gbf"), 2);
  Json q =
      Query({{"TableName", "bft"},
             {"IndexName", "gbf"},
             {"KeyConditionExpression", "h = :h AND r = :r"},
             {"ExpressionAttributeValues", {{":h", S("x")}, {":r", N("1")}}}});
  EXPECT_EQ(Column(q["Items"], "pk"), (Strings{"ok"}));
  // Now that the index exists, writing such values is refused, and the
  // items that hold them can still be written with usable values.
  EXPECT_EQ(FailText("PutItem", {{"TableName", "bft"},
                                 {"Item", {{"pk", S("n")}, {"h", S("")}}}}),
            "ValidationException: One or more parameter values are not valid. "
            "A value specified for a secondary index key is not supported. The "
            "AttributeValue for a key attribute cannot contain an empty string "
            "value. IndexName: gbf, IndexKey: h");
  EXPECT_EQ(
      FailText("PutItem",
               {{"TableName", "bft"},
                {"Item", {{"pk", S("n")}, {"r2", S(std::string(1025, 'z'))}}}}),
      kRangeTooBig);
  Ok("UpdateItem", {{"TableName", "bft"},
                    {"Key", {{"pk", S("big")}}},
                    {"UpdateExpression", "SET r2 = :v"},
                    {"ExpressionAttributeValues", {{":v", S("c")}}}});
  EXPECT_EQ(IndexRows("bft", "gbf"), 3);
}

TEST_F(IndexKeysTest, StreamsAndTtlKeepTheIndexRight) {
  CreateIk();
  Ok("UpdateTable",
     {{"TableName", "ikt"},
      {"StreamSpecification",
       {{"StreamEnabled", true}, {"StreamViewType", "NEW_AND_OLD_IMAGES"}}}});
  Ok("UpdateTimeToLive", {{"TableName", "ikt"},
                          {"TimeToLiveSpecification",
                           {{"Enabled", true}, {"AttributeName", "exp"}}}});
  const int64_t now = ManualClock::kDefaultStartEpochSeconds;
  for (int i = 0; i < 4; ++i) {
    Put("ikt", {{"pk", S("p" + std::to_string(i))},
                {"sk", S("s")},
                {"m1", S("x")},
                {"m2", N(std::to_string(i % 2))},
                {"m3", B("AQ==")},
                {"m4", S("y")},
                {"exp", N(std::to_string(now + (i < 2 ? 10 : 1000)))}});
  }
  EXPECT_EQ(IndexRows("ikt", "mki"), 4);
  // Expired once now is past the ttl (ttl < now).
  clock_->Advance(std::chrono::seconds(11));
  Result<int64_t> swept = emu_->SweepTtl();
  ASSERT_TRUE(swept.ok());
  EXPECT_EQ(*swept, 2);
  EXPECT_EQ(IndexRows("ikt", "mki"), 2);
  Json q =
      Query({{"TableName", "ikt"},
             {"IndexName", "mki"},
             {"KeyConditionExpression", "m1 = :a AND m2 = :b"},
             {"ExpressionAttributeValues", {{":a", S("x")}, {":b", N("0")}}}});
  EXPECT_EQ(Column(q["Items"], "pk"), (Strings{"p2"}));
  Json table = Describe("ikt");
  EXPECT_EQ(table["GlobalSecondaryIndexes"][1]["ItemCount"], 2);
  // The stream saw the four puts and the two TTL deletions.
  std::string arn = table["LatestStreamArn"];
  auto streams = [&](std::string_view op, const Json& req) {
    Result<Json> r = emu_->CallStreams(op, req);
    EXPECT_TRUE(r.ok()) << op;
    return r.ok() ? *r : Json();
  };
  Json shards = streams("DescribeStream",
                        {{"StreamArn", arn}})["StreamDescription"]["Shards"];
  ASSERT_EQ(shards.size(), 1u);
  std::string it =
      streams("GetShardIterator",
              {{"StreamArn", arn},
               {"ShardId", shards[0]["ShardId"]},
               {"ShardIteratorType", "TRIM_HORIZON"}})["ShardIterator"];
  Json records = streams("GetRecords", {{"ShardIterator", it}})["Records"];
  ASSERT_EQ(records.size(), 6u);
  EXPECT_EQ(records[4]["eventName"], "REMOVE") << records[4].dump();
  EXPECT_EQ(records[4]["userIdentity"]["PrincipalId"],
            "dynamodb.amazonaws.com");
  EXPECT_EQ(records[4]["dynamodb"]["OldImage"]["m4"], S("y"));
}

}  // namespace
}  // namespace ddblab::engine::testing

namespace ddblab::engine::testing {
namespace {

// UpdateTable's GlobalSecondaryIndexUpdates checks (DynamoDB's texts).
class GsiUpdatesTest : public EngineTest {
 protected:
  std::string Update(const Json& updates, Json extra = Json::object()) {
    extra["TableName"] = "upd";
    extra["GlobalSecondaryIndexUpdates"] = updates;
    return FailText("UpdateTable", extra);
  }
  static Json Create(const std::string& name, const std::string& hash) {
    return {{"Create",
             {{"IndexName", name},
              {"KeySchema", {Key(hash, "HASH")}},
              {"Projection", {{"ProjectionType", "ALL"}}}}}};
  }
  static Json Delete(const std::string& name) {
    return {{"Delete", {{"IndexName", name}}}};
  }
};

TEST_F(GsiUpdatesTest, EmptyListsAndActions) {
  CreateTable("upd");
  // An empty list alone is no change at all; with another change it is
  // refused on its own.
  EXPECT_EQ(Update(Json::array()),
            "ValidationException: At least one of ProvisionedThroughput, "
            "BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, "
            "SSESpecification, ReplicaUpdates, MultiRegionConsistency, "
            "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or "
            "TableClass is required");
  EXPECT_EQ(Update(Json::array(), {{"DeletionProtectionEnabled", true}}),
            "ValidationException: One or more parameter values were invalid: "
            "List of GlobalSecondaryIndexUpdates is empty");
  EXPECT_EQ(Update(Json::array({Json::object()})),
            "ValidationException: One or more parameter values were invalid: "
            "One of GlobalSecondaryIndexUpdate.Update, "
            "GlobalSecondaryIndexUpdate.Create, "
            "GlobalSecondaryIndexUpdate.Delete must not be null");
  Json both = Create("gix", "pk");
  both["Delete"] = {{"IndexName", "gix"}};
  EXPECT_EQ(Update(Json::array({both})),
            "ValidationException: One or more parameter values were invalid: "
            "Only one global secondary index action is allowed per "
            "GlobalSecondaryIndexUpdate object");
  EXPECT_EQ(Update(Json::array({Delete("gix"), Create("gix", "pk")}),
                   {{"AttributeDefinitions", {Attr("pk", "S")}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Only one global secondary index update per index is allowed "
            "simultaneously. Index: gix");
  Json d = Describe("upd");
  EXPECT_FALSE(d.contains("GlobalSecondaryIndexes"));
  EXPECT_FALSE(d["DeletionProtectionEnabled"].get<bool>());
}

TEST_F(GsiUpdatesTest, MissingIndexesAndDefinitions) {
  CreateTable("upd");
  EXPECT_EQ(Update(Json::array({Delete("nox")})),
            "ResourceNotFoundException: Requested resource not found: Index "
            "nox for table upd");
  EXPECT_EQ(Update(Json::array({Create("gix", "g")})),
            "ValidationException: One or more parameter values were invalid: "
            "AttributeDefinitions is not specified for index: gix");
  EXPECT_EQ(Update(Json::array({Create("gix", "g")}),
                   {{"AttributeDefinitions", {Attr("other", "S")}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [g], AttributeDefinitions: [pk, "
            "other]");
  Ok("UpdateTable", {{"TableName", "upd"},
                     {"AttributeDefinitions", {Attr("g", "S")}},
                     {"GlobalSecondaryIndexUpdates", {Create("gix", "g")}}});
  Ok("UpdateTable",
     {{"TableName", "upd"}, {"GlobalSecondaryIndexUpdates", {Delete("gix")}}});
  // Deleted (at once here): deleting it again finds nothing.
  EXPECT_EQ(Update(Json::array({Delete("gix")})),
            "ResourceNotFoundException: Requested resource not found: Index "
            "gix for table upd");
}

TEST_F(GsiUpdatesTest, DeletingAnIndexAlreadyBeingDeleted) {
  Options options;
  options.table_status_delay = std::chrono::seconds(10);
  Open(options);
  CreateTable("upd");
  clock_->Advance(std::chrono::seconds(10));
  Ok("UpdateTable", {{"TableName", "upd"},
                     {"AttributeDefinitions", {Attr("g", "S")}},
                     {"GlobalSecondaryIndexUpdates", {Create("gix", "g")}}});
  clock_->Advance(std::chrono::seconds(10));
  Ok("UpdateTable",
     {{"TableName", "upd"}, {"GlobalSecondaryIndexUpdates", {Delete("gix")}}});
  EXPECT_EQ(Describe("upd")["GlobalSecondaryIndexes"][0]["IndexStatus"],
            "DELETING");
  // The table is UPDATING meanwhile, which comes first.
  EXPECT_EQ(Update(Json::array({Delete("gix")})),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Table: upd is in the process of being updated.");
  clock_->Advance(std::chrono::seconds(10));
  EXPECT_FALSE(Describe("upd").contains("GlobalSecondaryIndexes"));
  EXPECT_EQ(Update(Json::array({Delete("gix")})),
            "ResourceNotFoundException: Requested resource not found: Index "
            "gix for table upd");
}

}  // namespace
}  // namespace ddblab::engine::testing
