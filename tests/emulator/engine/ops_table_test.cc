#include <gtest/gtest.h>

#include <chrono>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

using std::chrono::seconds;
using TableOpsTest = EngineTest;

TEST_F(TableOpsTest, DescribeTableByNameOrArnAndMissing) {
  CreateTable("desc");
  const std::string arn = "arn:aws:dynamodb:us-east-1:000000000000:table/desc";
  EXPECT_EQ(Describe("desc"),
            Ok("DescribeTable", {{"TableName", arn}})["Table"]);
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "nope"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "nope not found");
  EXPECT_EQ(FailText("DescribeTable",
                     {{"TableName",
                       "arn:aws:dynamodb:eu-west-1:000000000000:table/desc"}}),
            "ValidationException: 1 validation error detected: Invalid AWS "
            "region in 'arn:aws:dynamodb:eu-west-1:000000000000:table/desc'");
  EXPECT_EQ(FailText("DescribeTable", Json::object()),
            "ValidationException: 1 validation error detected: Value null at "
            "'tableName' failed to satisfy constraint: Member must not be "
            "null");
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "a!"}}),
            "ValidationException: 2 validation errors detected: Value 'a!' at "
            "'tableName' failed to satisfy constraint: Member must satisfy "
            "regular expression pattern: [a-zA-Z0-9_.-]+; Value 'a!' at "
            "'tableName' failed to satisfy constraint: Member must have "
            "length greater than or equal to 3");
}

TEST_F(TableOpsTest, DescribeReportsLiveCounts) {
  CreateTable("counts");
  for (int i = 0; i < 3; ++i) {
    Ok("PutItem",
       {{"TableName", "counts"},
        {"Item",
         {{"pk", {{"S", "k" + std::to_string(i)}}}, {"v", {{"S", "abc"}}}}}});
  }
  Json d = Describe("counts");
  EXPECT_EQ(d["ItemCount"], 3);
  // "pk"(2) + "k0"(2) + "v"(1) + "abc"(3) = 8 bytes per item.
  EXPECT_EQ(d["TableSizeBytes"], 24);
  Ok("DeleteItem", {{"TableName", "counts"}, {"Key", {{"pk", {{"S", "k0"}}}}}});
  Ok("PutItem", {{"TableName", "counts"},
                 {"Item", {{"pk", {{"S", "k1"}}}, {"v", {{"S", "a"}}}}}});
  d = Describe("counts");
  EXPECT_EQ(d["ItemCount"], 2);
  EXPECT_EQ(d["TableSizeBytes"], 14);
}

TEST_F(TableOpsTest, RequestShapeMessagesAsDynamoDbWritesThem) {
  // PutItem without a TableName, and with an empty one (one error).
  const Json item = {{"pk", {{"S", "a"}}}};
  EXPECT_EQ(FailText("PutItem", {{"Item", item}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'tableName' failed to satisfy constraint: Member must not be "
            "null");
  EXPECT_EQ(FailText("PutItem", {{"TableName", ""}, {"Item", item}}),
            "ValidationException: 1 validation error detected: Value '' at "
            "'tableName' failed to satisfy constraint: Member must have length "
            "greater than or equal to 1");
  // A table KeySchema of three elements, printed as DynamoDB prints it.
  Json create = {{"TableName", "three"},
                 {"BillingMode", "PAY_PER_REQUEST"},
                 {"AttributeDefinitions",
                  {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
                   {{"AttributeName", "sk"}, {"AttributeType", "S"}},
                   {{"AttributeName", "extra"}, {"AttributeType", "S"}}}},
                 {"KeySchema",
                  {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
                   {{"AttributeName", "sk"}, {"KeyType", "RANGE"}},
                   {{"AttributeName", "extra"}, {"KeyType", "RANGE"}}}}};
  EXPECT_EQ(FailText("CreateTable", create),
            "ValidationException: 1 validation error detected: Value "
            "'[KeySchemaElement(attributeName=pk, keyType=HASH), "
            "KeySchemaElement(attributeName=sk, keyType=RANGE), "
            "KeySchemaElement(attributeName=extra, keyType=RANGE)]' at "
            "'keySchema' failed to satisfy constraint: Member must have length "
            "less than or equal to 2");
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "three"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "three not found");
}

TEST_F(TableOpsTest, DeleteTable) {
  CreateTable("gone");
  Ok("PutItem", {{"TableName", "gone"}, {"Item", {{"pk", {{"S", "x"}}}}}});
  Json out = Ok("DeleteTable", {{"TableName", "gone"}})["TableDescription"];
  EXPECT_EQ(out["TableStatus"], "DELETING");
  EXPECT_EQ(out["TableName"], "gone");
  EXPECT_EQ(out["ItemCount"], 1);
  // DynamoDB's DeleteTable answer has no creation time or key schema.
  for (const char* absent :
       {"CreationDateTime", "KeySchema", "AttributeDefinitions"}) {
    EXPECT_FALSE(out.contains(absent)) << absent;
  }
  EXPECT_TRUE(out.contains("TableArn"));
  EXPECT_TRUE(out.contains("TableId"));
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "gone"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "gone not found");
  EXPECT_EQ(FailText("DeleteTable", {{"TableName", "gone"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "gone not found");
  EXPECT_EQ(FailText("GetItem",
                     {{"TableName", "gone"}, {"Key", {{"pk", {{"S", "x"}}}}}}),
            "ResourceNotFoundException: Requested resource not found");
  // The name can be reused and the new table starts empty.
  CreateTable("gone");
  EXPECT_EQ(Describe("gone")["ItemCount"], 0);
  EXPECT_EQ(
      Ok("GetItem", {{"TableName", "gone"}, {"Key", {{"pk", {{"S", "x"}}}}}}),
      Json::object());
}

// Nor the index lists: a table with a GSI and an LSI is described without
// either (DescribeTable lists both until then).
TEST_F(TableOpsTest, DeleteTableLeavesOutTheIndexLists) {
  Json schema = {{"AttributeName", "pk"}, {"KeyType", "HASH"}};
  Json sort = {{"AttributeName", "sk"}, {"KeyType", "RANGE"}};
  Json all = {{"ProjectionType", "ALL"}};
  Ok("CreateTable",
     {{"TableName", "indexed"},
      {"BillingMode", "PAY_PER_REQUEST"},
      {"AttributeDefinitions",
       {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
        {{"AttributeName", "sk"}, {"AttributeType", "S"}},
        {{"AttributeName", "g"}, {"AttributeType", "S"}}}},
      {"KeySchema", {schema, sort}},
      {"GlobalSecondaryIndexes",
       {{{"IndexName", "gsi"},
         {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
         {"Projection", all}}}},
      {"LocalSecondaryIndexes",
       {{{"IndexName", "lsi"},
         {"KeySchema",
          {schema, {{"AttributeName", "g"}, {"KeyType", "RANGE"}}}},
         {"Projection", all}}}}});
  Json described = Describe("indexed");
  EXPECT_EQ(described["GlobalSecondaryIndexes"].size(), 1u);
  EXPECT_EQ(described["LocalSecondaryIndexes"].size(), 1u);
  Json out = Ok("DeleteTable", {{"TableName", "indexed"}})["TableDescription"];
  EXPECT_EQ(out["TableStatus"], "DELETING");
  EXPECT_FALSE(out.contains("GlobalSecondaryIndexes"));
  EXPECT_FALSE(out.contains("LocalSecondaryIndexes"));
}

TEST_F(TableOpsTest, DeletionProtection) {
  Ok("CreateTable",
     {{"TableName", "safe"},
      {"BillingMode", "PAY_PER_REQUEST"},
      {"DeletionProtectionEnabled", true},
      {"AttributeDefinitions",
       {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
      {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}});
  EXPECT_EQ(FailText("DeleteTable", {{"TableName", "safe"}}),
            "ValidationException: Resource cannot be deleted as it is "
            "currently protected against deletion. Disable deletion "
            "protection first.");
  Ok("UpdateTable",
     {{"TableName", "safe"}, {"DeletionProtectionEnabled", false}});
  Ok("DeleteTable", {{"TableName", "safe"}});
}

TEST_F(TableOpsTest, ListTablesPaging) {
  for (std::string n : {"ccc", "aaa", "bbb", "ddd"}) CreateTable(n);
  EXPECT_EQ(Ok("ListTables", Json()),
            Json::parse(R"({"TableNames": ["aaa", "bbb", "ccc", "ddd"]})"));
  EXPECT_EQ(Ok("ListTables", {{"Limit", 2}}),
            Json::parse(R"({"TableNames": ["aaa", "bbb"],
                            "LastEvaluatedTableName": "bbb"})"));
  EXPECT_EQ(
      Ok("ListTables", {{"Limit", 2}, {"ExclusiveStartTableName", "bbb"}}),
      Json::parse(R"({"TableNames": ["ccc", "ddd"]})"));
  EXPECT_EQ(Ok("ListTables", {{"ExclusiveStartTableName", "bba"}}),
            Json::parse(R"({"TableNames": ["bbb", "ccc", "ddd"]})"));
  EXPECT_EQ(FailText("ListTables", {{"Limit", 101}}),
            "ValidationException: 1 validation error detected: Value '101' at "
            "'limit' failed to satisfy constraint: Member must have value less "
            "than or equal to 100");
  EXPECT_EQ(FailText("ListTables", {{"Limit", 0}}),
            "ValidationException: 1 validation error detected: Value '0' at "
            "'limit' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1");
  EXPECT_EQ(
      FailText("ListTables", {{"Limit", "5"}}),
      "SerializationException: STRING_VALUE cannot be converted to Integer");
  EXPECT_EQ(FailText("ListTables", {{"ExclusiveStartTableName", "a"}}),
            "ValidationException: 1 validation error detected: Value 'a' at "
            "'exclusiveStartTableName' failed to satisfy constraint: Member "
            "must have length greater than or equal to 3");
}

TEST_F(TableOpsTest, DescribeLimitsAndEndpoints) {
  EXPECT_EQ(Ok("DescribeLimits", Json::object()), Json::parse(R"({
    "AccountMaxReadCapacityUnits": 80000, "AccountMaxWriteCapacityUnits": 80000,
    "TableMaxReadCapacityUnits": 40000, "TableMaxWriteCapacityUnits": 40000})"));
  EXPECT_EQ(Ok("DescribeEndpoints", Json()), Json::parse(R"({"Endpoints": [
    {"Address": "dynamodb.us-east-1.amazonaws.com", "CachePeriodInMinutes": 1440}]})"));
  Options options;
  options.endpoint_address = "127.0.0.1:8000";
  options.region = "eu-west-2";
  Open(options);
  EXPECT_EQ(Ok("DescribeEndpoints", Json::object())["Endpoints"][0]["Address"],
            "127.0.0.1:8000");
}

TEST_F(TableOpsTest, UnknownOperation) {
  Error e = Fail("FrobnicateTable", Json::object());
  EXPECT_EQ(e.type, ErrorType::kUnknownOperation);
  EXPECT_EQ(e.message, "");
  Result<Json> streams = emu_->CallStreams("FrobnicateStream", Json::object());
  ASSERT_FALSE(streams.ok());
  EXPECT_EQ(streams.error().type, ErrorType::kUnknownOperation);
}

TEST_F(TableOpsTest, StatusDelayRunsOnTheClock) {
  Options options;
  options.table_status_delay = seconds(5);
  Open(options);
  EXPECT_EQ(CreateTable("slow")["TableDescription"]["TableStatus"], "CREATING");
  EXPECT_EQ(Describe("slow")["TableStatus"], "CREATING");
  // Data plane: a CREATING table does not exist yet.
  EXPECT_EQ(FailText("PutItem",
                     {{"TableName", "slow"}, {"Item", {{"pk", {{"S", "x"}}}}}}),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(FailText("DeleteTable", {{"TableName", "slow"}}),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Table is being created: slow");
  EXPECT_EQ(FailText("DescribeTimeToLive", {{"TableName", "slow"}}),
            "ValidationException: Cannot describe time to live while table is "
            "in CREATING state: Current table state is CREATING");
  EXPECT_EQ(
      FailText("TagResource",
               {{"ResourceArn",
                 "arn:aws:dynamodb:us-east-1:000000000000:table/slow"},
                {"Tags", {{{"Key", "k"}, {"Value", "v"}}}}}),
      "ResourceInUseException: Attempt to change a resource which is still in "
      "use: Table is being created: slow");
  clock_->Advance(seconds(4));
  EXPECT_EQ(Describe("slow")["TableStatus"], "CREATING");
  clock_->Advance(seconds(1));
  EXPECT_EQ(Describe("slow")["TableStatus"], "ACTIVE");
  Ok("PutItem", {{"TableName", "slow"}, {"Item", {{"pk", {{"S", "x"}}}}}});

  // UPDATING: usable, but no second update.
  Json upd = Ok("UpdateTable",
                {{"TableName", "slow"},
                 {"BillingMode", "PROVISIONED"},
                 {"ProvisionedThroughput",
                  {{"ReadCapacityUnits", 2}, {"WriteCapacityUnits", 3}}}});
  EXPECT_EQ(upd["TableDescription"]["TableStatus"], "UPDATING");
  EXPECT_EQ(Describe("slow")["TableStatus"], "UPDATING");
  Ok("GetItem", {{"TableName", "slow"}, {"Key", {{"pk", {{"S", "x"}}}}}});
  EXPECT_EQ(FailText("UpdateTable", {{"TableName", "slow"},
                                     {"DeletionProtectionEnabled", true}}),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Table: slow is in the process of being updated.");
  EXPECT_EQ(FailText("DeleteTable", {{"TableName", "slow"}}),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Table is being updated: slow");
  clock_->Advance(seconds(5));
  EXPECT_EQ(Describe("slow")["TableStatus"], "ACTIVE");

  // DELETING: listed and describable until the time is up; data gone.
  EXPECT_EQ(Ok("DeleteTable",
               {{"TableName", "slow"}})["TableDescription"]["TableStatus"],
            "DELETING");
  EXPECT_EQ(Describe("slow")["TableStatus"], "DELETING");
  EXPECT_EQ(Ok("DeleteTable",
               {{"TableName", "slow"}})["TableDescription"]["TableStatus"],
            "DELETING");
  EXPECT_EQ(FailText("GetItem",
                     {{"TableName", "slow"}, {"Key", {{"pk", {{"S", "x"}}}}}}),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(Ok("ListTables", Json())["TableNames"], Json::array({"slow"}));
  EXPECT_EQ(FailText("CreateTable",
                     {{"TableName", "slow"},
                      {"BillingMode", "PAY_PER_REQUEST"},
                      {"AttributeDefinitions",
                       {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
                      {"KeySchema",
                       {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}}),
            "ResourceInUseException: Table already exists: slow");
  clock_->Advance(seconds(5));
  EXPECT_EQ(Ok("ListTables", Json())["TableNames"], Json::array());
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "slow"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "slow not found");
}

}  // namespace
}  // namespace ddblab::engine::testing
