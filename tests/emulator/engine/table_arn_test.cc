// A table ARN wherever DynamoDB takes a TableName (table_arn.h): resolved to
// the table, echoed in the output, refused with DynamoDB's errors when it is
// malformed or of another partition, account or Region.
#include "emulator/engine/table_arn.h"

#include <gtest/gtest.h>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

const std::string kArn = "arn:aws:dynamodb:us-east-1:000000000000:table/arns";

Json Key(const std::string& pk) { return {{"pk", {{"S", pk}}}}; }

class TableArnTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    CreateTable("arns");
  }
};

TEST_F(TableArnTest, ItemOperationsResolveAndEchoTheArn) {
  Json put = Ok("PutItem", {{"TableName", kArn},
                            {"Item", Key("a")},
                            {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(put["ConsumedCapacity"]["TableName"], kArn);
  EXPECT_EQ(Ok("GetItem", {{"TableName", "arns"}, {"Key", Key("a")}})["Item"],
            Key("a"));
  Json query =
      Ok("Query", {{"TableName", kArn},
                   {"KeyConditionExpression", "pk = :v"},
                   {"ExpressionAttributeValues", {{":v", {{"S", "a"}}}}},
                   {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(query["Count"], 1);
  EXPECT_EQ(query["ConsumedCapacity"]["TableName"], kArn);
  Json get =
      Ok("BatchGetItem", {{"RequestItems", {{kArn, {{"Keys", {Key("a")}}}}}},
                          {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(get["Responses"], Json({{kArn, {Key("a")}}}));
  EXPECT_EQ(get["ConsumedCapacity"][0]["TableName"], kArn);
  Json write = Ok(
      "BatchWriteItem",
      {{"RequestItems", {{kArn, {{{"PutRequest", {{"Item", Key("b")}}}}}}}}});
  EXPECT_EQ(write["UnprocessedItems"], Json::object());
  Json tget = Ok("TransactGetItems",
                 {{"TransactItems",
                   {{{"Get", {{"TableName", kArn}, {"Key", Key("b")}}}}}}});
  EXPECT_EQ(tget["Responses"][0]["Item"], Key("b"));
  EXPECT_EQ(Ok("Scan", {{"TableName", kArn}})["Count"], 2);
}

TEST_F(TableArnTest, OneItemByNameAndByArnIsOneItem) {
  Json req = {{"TransactItems",
               {{{"Put", {{"TableName", kArn}, {"Item", Key("x")}}}},
                {{"Delete", {{"TableName", "arns"}, {"Key", Key("x")}}}}}}};
  EXPECT_EQ(FailText("TransactWriteItems", req),
            "ValidationException: Transaction request cannot include multiple "
            "operations on one item");
}

TEST_F(TableArnTest, ControlPlaneOperationsTakeTheArn) {
  EXPECT_EQ(Describe(kArn)["TableName"], "arns");
  EXPECT_EQ(
      Ok("DescribeTimeToLive", {{"TableName", kArn}}),
      Json({{"TimeToLiveDescription", {{"TimeToLiveStatus", "DISABLED"}}}}));
  EXPECT_EQ(Ok("UpdateTable",
               {{"TableName", kArn},
                {"DeletionProtectionEnabled",
                 true}})["TableDescription"]["DeletionProtectionEnabled"],
            true);
  EXPECT_EQ(
      FailText("DescribeTable", {{"TableName",
                                  "arn:aws:dynamodb:us-east-1:000000000000:"
                                  "table/gone"}}),
      "ResourceNotFoundException: Requested resource not found: Table: "
      "gone not found");
}

TEST_F(TableArnTest, ArnOfAnotherRegionAccountOrPartition) {
  const std::string region =
      "arn:aws:dynamodb:eu-west-1:000000000000:table/arns";
  EXPECT_EQ(FailText("GetItem", {{"TableName", region}, {"Key", Key("a")}}),
            "ValidationException: 1 validation error detected: Invalid AWS "
            "region in '" +
                region + "'");
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", region}}),
            "ValidationException: 1 validation error detected: Invalid AWS "
            "region in '" +
                region + "'");
  const std::string account =
      "arn:aws:dynamodb:us-east-1:111122223333:table/arns";
  EXPECT_EQ(
      FailText("BatchGetItem",
               {{"RequestItems", {{account, {{"Keys", {Key("a")}}}}}}}),
      "AccessDeniedException: User: arn:aws:iam::000000000000:root is not "
      "authorized to perform: dynamodb:BatchGetItem on resource: " +
          account +
          " because no resource-based policy allows the dynamodb:BatchGetItem "
          "action");
  EXPECT_EQ(
      FailText("TransactWriteItems",
               {{"TransactItems",
                 {{{"Put", {{"TableName", account}, {"Item", Key("a")}}}}}}}),
      "AccessDeniedException: User: arn:aws:iam::000000000000:root is not "
      "authorized to perform: dynamodb:TransactWriteItems on resource: " +
          account +
          " because no resource-based policy allows the "
          "dynamodb:TransactWriteItems action");
  const std::string partition =
      "arn:aws-cn:dynamodb:us-east-1:000000000000:table/arns";
  EXPECT_EQ(FailText("Scan", {{"TableName", partition}}),
            "ValidationException: 1 validation error detected: Invalid AWS "
            "partition in '" +
                partition + "'");
}

TEST_F(TableArnTest, MalformedArns) {
  const std::string format =
      "failed to satisfy constraint: Valid ARN format is "
      "'arn:<awsPartition>:<vendor>:<region>:<subscriber>:resourceType/"
      "resourceName', where Resource name must have length less than or "
      "equal to 255, Resource name must have length greater than or equal to "
      "3, Resource name must satisfy regular expression pattern: "
      "[a-zA-Z0-9_.-]+";
  const std::string index = kArn + "/index/gsi";
  EXPECT_EQ(FailText("GetItem", {{"TableName", index}, {"Key", Key("a")}}),
            "ValidationException: 1 validation error detected: Value '" +
                index + "' at 'tableName' " + format);
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "arn:aws:dynamodb"}}),
            "ValidationException: 1 validation error detected: Value "
            "'arn:aws:dynamodb' at 'tableName' " +
                format);
  const std::string stream =
      "arn:aws:dynamodb:us-east-1:000000000000:stream/arns";
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", stream}}),
            "ValidationException: 1 validation error detected: Value '" +
                stream +
                "' at 'tableName' failed to satisfy constraint: Invalid "
                "resource type");
  const std::string shorty = "arn:aws:dynamodb:us-east-1:000000000000:table/ab";
  EXPECT_EQ(FailText("Scan", {{"TableName", shorty}}),
            "ValidationException: 1 validation error detected: Value '" +
                shorty +
                "' at 'tableName' failed to satisfy constraint: Table name of "
                "ARN must have length greater than or equal to 3");
}

TEST(TableArnParse, Parts) {
  std::optional<TableArnParts> parts =
      ParseTableArn("arn:aws:dynamodb:eu-west-1:123456789012:table/T.1");
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->region, "eu-west-1");
  EXPECT_EQ(parts->account, "123456789012");
  EXPECT_EQ(parts->name, "T.1");
  EXPECT_FALSE(ParseTableArn("T.1").has_value());
  EXPECT_FALSE(ParseTableArn(kArn + "/stream/2026-01-01T00:00:00.000"));
}

}  // namespace
}  // namespace ddblab::engine::testing
