#include <gtest/gtest.h>

#include <chrono>

#include "emulator/storage/item_store.h"
#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::seconds;

class UpdateTableTest : public EngineTest {
 protected:
  void Put(const std::string& table, const Json& item) {
    Ok("PutItem", {{"TableName", table}, {"Item", item}});
  }
  // Index entries stored for an index, read straight from the store.
  int64_t IndexRows(const std::string& table, const std::string& index) {
    auto lock = impl().Lock();
    Catalog::Entry* e = impl().catalog().Find(table);
    const IndexDef* idx = e->table->FindIndex(index);
    if (idx == nullptr) return -1;
    auto stats = impl().store().ComputeStats(e->table->id, idx->id);
    return stats.ok() ? stats->count : -1;
  }
  Json GsiCreate(const std::string& name, const std::string& hash,
                 const std::string& projection = "ALL") {
    return {{"Create",
             {{"IndexName", name},
              {"KeySchema",
               Json::array({{{"AttributeName", hash}, {"KeyType", "HASH"}}})},
              {"Projection", {{"ProjectionType", projection}}}}}};
  }
};

TEST_F(UpdateTableTest, CreateGsiBackfillsExistingItems) {
  CreateTable("items");
  Put("items",
      {{"pk", {{"S", "1"}}}, {"color", {{"S", "red"}}}, {"w", {{"N", "5"}}}});
  Put("items", {{"pk", {{"S", "2"}}}, {"color", {{"S", "blue"}}}});
  Put("items", {{"pk", {{"S", "3"}}}});                           // sparse
  Put("items", {{"pk", {{"S", "4"}}}, {"color", {{"N", "7"}}}});  // other type
  Json out =
      Ok("UpdateTable",
         {{"TableName", "items"},
          {"AttributeDefinitions",
           Json::array({{{"AttributeName", "color"}, {"AttributeType", "S"}}})},
          {"GlobalSecondaryIndexUpdates",
           Json::array({GsiCreate("by_color", "color", "KEYS_ONLY")})}});
  Json desc = out["TableDescription"];
  EXPECT_EQ(desc["TableStatus"], "UPDATING");
  ASSERT_EQ(desc["GlobalSecondaryIndexes"].size(), 1u);
  EXPECT_EQ(desc["GlobalSecondaryIndexes"][0]["IndexStatus"], "CREATING");
  EXPECT_EQ(desc["AttributeDefinitions"],
            Json::parse(R"([{"AttributeName": "pk", "AttributeType": "S"},
                            {"AttributeName": "color", "AttributeType": "S"}])"));
  Json now = Describe("items");
  EXPECT_EQ(now["TableStatus"], "ACTIVE");
  Json gsi = now["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(gsi["IndexStatus"], "ACTIVE");
  EXPECT_EQ(gsi["ItemCount"], 2);
  // KEYS_ONLY: pk + color. "pk1" (2+1) + "colorred" (5+3) = 11; blue: 12.
  EXPECT_EQ(gsi["IndexSizeBytes"], 23);
  EXPECT_EQ(
      gsi["IndexArn"],
      "arn:aws:dynamodb:us-east-1:000000000000:table/items/index/by_color");
  EXPECT_EQ(IndexRows("items", "by_color"), 2);
  // New writes maintain the index.
  Put("items", {{"pk", {{"S", "3"}}}, {"color", {{"S", "green"}}}});
  Ok("DeleteItem", {{"TableName", "items"}, {"Key", {{"pk", {{"S", "1"}}}}}});
  EXPECT_EQ(Describe("items")["GlobalSecondaryIndexes"][0]["ItemCount"], 2);
  EXPECT_EQ(IndexRows("items", "by_color"), 2);
}

TEST_F(UpdateTableTest, CreateGsiWithDelayShowsBackfilling) {
  Options options;
  options.table_status_delay = seconds(10);
  Open(options);
  CreateTable("slow");
  clock_->Advance(seconds(10));
  Put("slow", {{"pk", {{"S", "1"}}}, {"g", {{"S", "x"}}}});
  Ok("UpdateTable",
     {{"TableName", "slow"},
      {"AttributeDefinitions",
       Json::array({{{"AttributeName", "g"}, {"AttributeType", "S"}}})},
      {"GlobalSecondaryIndexUpdates", Json::array({GsiCreate("gix", "g")})}});
  Json gsi = Describe("slow")["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(gsi["IndexStatus"], "CREATING");
  EXPECT_EQ(gsi["Backfilling"], true);
  EXPECT_EQ(gsi["ItemCount"], 1);
  clock_->Advance(seconds(10));
  gsi = Describe("slow")["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(gsi["IndexStatus"], "ACTIVE");
  EXPECT_FALSE(gsi.contains("Backfilling"));
  // Deleting with a delay: DELETING, then gone with its entries.
  Ok("UpdateTable", {{"TableName", "slow"},
                     {"GlobalSecondaryIndexUpdates",
                      Json::array({{{"Delete", {{"IndexName", "gix"}}}}})}});
  EXPECT_EQ(Describe("slow")["GlobalSecondaryIndexes"][0]["IndexStatus"],
            "DELETING");
  EXPECT_EQ(FailText("DeleteTable", {{"TableName", "slow"}}),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Cannot delete table while indexes are being "
            "created, updated, or deleted.");
  clock_->Advance(seconds(10));
  Json d = Describe("slow");
  EXPECT_FALSE(d.contains("GlobalSecondaryIndexes"));
  EXPECT_EQ(d["AttributeDefinitions"].size(), 1u);
  auto lock = impl().Lock();
  Catalog::Entry* e = impl().catalog().Find("slow");
  EXPECT_EQ(impl().store().ComputeStats(e->table->id, 1)->count, 0);
}

TEST_F(UpdateTableTest, DeleteGsiDropsEntries) {
  CreateTable("drop");
  Put("drop", {{"pk", {{"S", "1"}}}, {"g", {{"S", "x"}}}});
  Ok("UpdateTable",
     {{"TableName", "drop"},
      {"AttributeDefinitions",
       Json::array({{{"AttributeName", "g"}, {"AttributeType", "S"}}})},
      {"GlobalSecondaryIndexUpdates", Json::array({GsiCreate("gix", "g")})}});
  EXPECT_EQ(IndexRows("drop", "gix"), 1);
  Ok("UpdateTable", {{"TableName", "drop"},
                     {"GlobalSecondaryIndexUpdates",
                      Json::array({{{"Delete", {{"IndexName", "gix"}}}}})}});
  Json d = Describe("drop");
  EXPECT_FALSE(d.contains("GlobalSecondaryIndexes"));
  EXPECT_EQ(d["AttributeDefinitions"].size(), 1u);
  auto lock = impl().Lock();
  Catalog::Entry* e = impl().catalog().Find("drop");
  EXPECT_EQ(impl().store().ComputeStats(e->table->id, 1)->count, 0);
}

TEST_F(UpdateTableTest, Errors) {
  CreateTable("upd", "pk", "sk");
  EXPECT_EQ(FailText("UpdateTable", {{"TableName", "upd"}}),
            "ValidationException: At least one of ProvisionedThroughput, "
            "BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, "
            "SSESpecification, ReplicaUpdates, MultiRegionConsistency, "
            "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or "
            "TableClass is required");
  EXPECT_EQ(FailText("UpdateTable",
                     {{"TableName", "nope"}, {"TableClass", "STANDARD"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "nope not found");
  Json two = Json::array({GsiCreate("gs1", "pk"), GsiCreate("gs2", "sk")});
  EXPECT_EQ(FailText("UpdateTable", {{"TableName", "upd"},
                                     {"GlobalSecondaryIndexUpdates", two}}),
            "LimitExceededException: Subscriber limit exceeded: Only 1 online "
            "index can be created or deleted simultaneously per table");
  EXPECT_EQ(
      FailText("UpdateTable",
               {{"TableName", "upd"},
                {"GlobalSecondaryIndexUpdates",
                 Json::array({GsiCreate("gs1", "sk")})},
                {"StreamSpecification",
                 {{"StreamEnabled", true}, {"StreamViewType", "KEYS_ONLY"}}}}),
      "ValidationException: One or more parameter values were invalid: "
      "You cannot create or delete index while changing stream status");
  EXPECT_EQ(FailText("UpdateTable", {{"TableName", "upd"},
                                     {"AttributeDefinitions",
                                      Json::array({{{"AttributeName", "sk"},
                                                    {"AttributeType", "N"}}})},
                                     {"GlobalSecondaryIndexUpdates",
                                      Json::array({GsiCreate("gs1", "sk")})}}),
            "ValidationException: One or more parameter values were invalid: "
            "Attributes cannot be redefined. Please check that your attribute "
            "has the same type as previously defined.");
  // A Create needs AttributeDefinitions naming its key attributes.
  EXPECT_EQ(FailText("UpdateTable", {{"TableName", "upd"},
                                     {"GlobalSecondaryIndexUpdates",
                                      Json::array({GsiCreate("gs1", "sk")})}}),
            "ValidationException: One or more parameter values were invalid: "
            "AttributeDefinitions is not specified for index: gs1");
  const Json sk_def =
      Json::array({{{"AttributeName", "sk"}, {"AttributeType", "S"}}});
  EXPECT_EQ(FailText("UpdateTable", {{"TableName", "upd"},
                                     {"AttributeDefinitions", sk_def},
                                     {"GlobalSecondaryIndexUpdates",
                                      Json::array({GsiCreate("gs1", "zz")})}}),
            "ValidationException: One or more parameter values were invalid: "
            "Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [zz], AttributeDefinitions: [pk, sk]");
  Ok("UpdateTable",
     {{"TableName", "upd"},
      {"AttributeDefinitions", sk_def},
      {"GlobalSecondaryIndexUpdates", Json::array({GsiCreate("gs1", "sk")})}});
  EXPECT_EQ(FailText("UpdateTable", {{"TableName", "upd"},
                                     {"AttributeDefinitions", sk_def},
                                     {"GlobalSecondaryIndexUpdates",
                                      Json::array({GsiCreate("gs1", "sk")})}}),
            "ValidationException: Attempting to create an index which already "
            "exists");
  EXPECT_EQ(FailText("UpdateTable",
                     {{"TableName", "upd"},
                      {"GlobalSecondaryIndexUpdates",
                       Json::array({{{"Delete", {{"IndexName", "nox"}}}}})}}),
            "ResourceNotFoundException: Requested resource not found: Index "
            "nox for table upd");
  EXPECT_EQ(FailText("UpdateTable",
                     {{"TableName", "upd"},
                      {"ProvisionedThroughput",
                       {{"ReadCapacityUnits", 1}, {"WriteCapacityUnits", 1}}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
            "when BillingMode is PAY_PER_REQUEST");
  EXPECT_EQ(FailText("UpdateTable",
                     {{"TableName", "upd"}, {"BillingMode", "PROVISIONED"}}),
            "ValidationException: One or more parameter values were invalid: "
            "ReadCapacityUnits and WriteCapacityUnits must both be specified "
            "when BillingMode is PROVISIONED");
}

TEST_F(UpdateTableTest, ThroughputAndBilling) {
  CreateTable("bill");
  Json desc =
      Ok("UpdateTable", {{"TableName", "bill"},
                         {"BillingMode", "PROVISIONED"},
                         {"ProvisionedThroughput",
                          {{"ReadCapacityUnits", 5},
                           {"WriteCapacityUnits", 5}}}})["TableDescription"];
  EXPECT_EQ(desc["BillingModeSummary"]["BillingMode"], "PROVISIONED");
  EXPECT_EQ(desc["ProvisionedThroughput"]["ReadCapacityUnits"], 5);
  EXPECT_EQ(FailText("UpdateTable",
                     {{"TableName", "bill"},
                      {"ProvisionedThroughput",
                       {{"ReadCapacityUnits", 5}, {"WriteCapacityUnits", 5}}}}),
            "ValidationException: The provisioned throughput for the table "
            "will not change. The requested value equals the current value. "
            "Current ReadCapacityUnits provisioned for the table: 5. Requested "
            "ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for "
            "the table: 5. Requested WriteCapacityUnits: 5. Refer to the "
            "Amazon DynamoDB Developer Guide for current limits and how to "
            "request higher limits.");
  clock_->Advance(seconds(60));
  Json pt =
      Ok("UpdateTable", {{"TableName", "bill"},
                         {"ProvisionedThroughput",
                          {{"ReadCapacityUnits", 3},
                           {"WriteCapacityUnits",
                            5}}}})["TableDescription"]["ProvisionedThroughput"];
  EXPECT_EQ(pt, Json::parse(R"({"ReadCapacityUnits": 3, "WriteCapacityUnits": 5,
      "NumberOfDecreasesToday": 1, "LastDecreaseDateTime": 1704067260.0})"));
  Json back = Ok("UpdateTable",
                 {{"TableName", "bill"},
                  {"BillingMode", "PAY_PER_REQUEST"}})["TableDescription"];
  EXPECT_EQ(back["BillingModeSummary"],
            Json::parse(R"({"BillingMode": "PAY_PER_REQUEST",
                            "LastUpdateToPayPerRequestDateTime": 1704067260.0})"));
  EXPECT_EQ(back["ProvisionedThroughput"]["ReadCapacityUnits"], 0);
}

TEST_F(UpdateTableTest, StreamsEnableDisable) {
  CreateTable("str");
  EXPECT_EQ(
      FailText("UpdateTable",
               {{"TableName", "str"},
                {"StreamSpecification", {{"StreamEnabled", false}}}}),
      "ValidationException: Table has no stream to disable: TableName: str");
  EXPECT_EQ(FailText("UpdateTable",
                     {{"TableName", "str"},
                      {"StreamSpecification", {{"StreamEnabled", true}}}}),
            "ValidationException: One or more parameter values were invalid: "
            "If stream is being enabled then UpdateViewType is required");
  EXPECT_EQ(
      FailText("UpdateTable",
               {{"TableName", "str"},
                {"StreamSpecification",
                 {{"StreamEnabled", false}, {"StreamViewType", "KEYS_ONLY"}}}}),
      "ValidationException: One or more parameter values were invalid: "
      "If stream is being disabled, then UpdateViewType must not be "
      "specified");
  clock_->Advance(std::chrono::milliseconds(1234));
  Json desc = Ok("UpdateTable",
                 {{"TableName", "str"},
                  {"StreamSpecification",
                   {{"StreamEnabled", true},
                    {"StreamViewType", "NEW_IMAGE"}}}})["TableDescription"];
  EXPECT_EQ(
      desc["StreamSpecification"],
      Json::parse(R"({"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"})"));
  EXPECT_EQ(desc["LatestStreamLabel"], "2024-01-01T00:00:01.234");
  EXPECT_EQ(desc["LatestStreamArn"],
            "arn:aws:dynamodb:us-east-1:000000000000:table/str/stream/"
            "2024-01-01T00:00:01.234");
  EXPECT_EQ(
      FailText("UpdateTable",
               {{"TableName", "str"},
                {"StreamSpecification",
                 {{"StreamEnabled", true}, {"StreamViewType", "KEYS_ONLY"}}}}),
      "ValidationException: Table already has an enabled stream: "
      "TableName: str");
  // Tags do not change the stream ARN.
  Ok("TagResource",
     {{"ResourceArn", "arn:aws:dynamodb:us-east-1:000000000000:table/str"},
      {"Tags", Json::array({{{"Key", "a"}, {"Value", "b"}}})}});
  EXPECT_EQ(Describe("str")["LatestStreamArn"], desc["LatestStreamArn"]);
  Json off =
      Ok("UpdateTable", {{"TableName", "str"},
                         {"StreamSpecification",
                          {{"StreamEnabled", false}}}})["TableDescription"];
  EXPECT_FALSE(off.contains("StreamSpecification"));
  EXPECT_EQ(off["LatestStreamArn"], desc["LatestStreamArn"]);
  clock_->Advance(seconds(1));
  Json again = Ok("UpdateTable",
                  {{"TableName", "str"},
                   {"StreamSpecification",
                    {{"StreamEnabled", true},
                     {"StreamViewType", "KEYS_ONLY"}}}})["TableDescription"];
  EXPECT_EQ(again["LatestStreamLabel"], "2024-01-01T00:00:02.234");
}

TEST_F(UpdateTableTest, GsiThroughputUpdate) {
  Ok("CreateTable", Json::parse(R"({"TableName": "prov",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "g", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
      "GlobalSecondaryIndexes": [{"IndexName": "gsi",
        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"},
        "ProvisionedThroughput": {"ReadCapacityUnits": 2,
                                  "WriteCapacityUnits": 3}}]})"));
  EXPECT_EQ(
      Describe("prov")["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"],
      Json::parse(R"({"ReadCapacityUnits": 2, "WriteCapacityUnits": 3,
                            "NumberOfDecreasesToday": 0})"));
  Ok("UpdateTable",
     {{"TableName", "prov"},
      {"GlobalSecondaryIndexUpdates",
       Json::array(
           {{{"Update",
              {{"IndexName", "gsi"},
               {"ProvisionedThroughput",
                {{"ReadCapacityUnits", 7}, {"WriteCapacityUnits", 8}}}}}}})}});
  EXPECT_EQ(Describe("prov")["GlobalSecondaryIndexes"][0]
                            ["ProvisionedThroughput"]["ReadCapacityUnits"],
            7);
}

TEST_F(UpdateTableTest, TableClassAndSse) {
  CreateTable("misc");
  Json d = Ok("UpdateTable",
              {{"TableName", "misc"},
               {"TableClass", "STANDARD_INFREQUENT_ACCESS"},
               {"SSESpecification",
                {{"Enabled", true},
                 {"SSEType", "KMS"},
                 {"KMSMasterKeyId", "alias/k"}}}})["TableDescription"];
  EXPECT_EQ(d["TableClassSummary"]["TableClass"], "STANDARD_INFREQUENT_ACCESS");
  EXPECT_EQ(d["SSEDescription"],
            Json::parse(R"({"Status": "ENABLED", "SSEType": "KMS",
                            "KMSMasterKeyArn": "alias/k"})"));
}

}  // namespace
}  // namespace ddblab::engine::testing
