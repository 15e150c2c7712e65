#include "emulator/server/target.h"

#include <gtest/gtest.h>

namespace ddblab::server {
namespace {

TEST(TargetTest, DynamoDbOperations) {
  auto t = ParseTarget("DynamoDB_20120810.PutItem");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->service, Service::kDynamoDB);
  EXPECT_EQ(t->operation, "PutItem");
  EXPECT_TRUE(ParseTarget("DynamoDB_20120810.UpdateTimeToLive").has_value());
  EXPECT_TRUE(ParseTarget("DynamoDB_20120810.BatchExecuteStatement"));
  // Operations of the model ddblab refuses: the engine's business.
  EXPECT_TRUE(ParseTarget("DynamoDB_20120810.CreateGlobalTable"));
  EXPECT_TRUE(
      ParseTarget("DynamoDB_20120810.UpdateKinesisStreamingDestination"));
  EXPECT_TRUE(ParseTarget("DynamoDB_20120810.DescribeTableReplicaAutoScaling"));
}

TEST(TargetTest, StreamsOperations) {
  auto t = ParseTarget("DynamoDBStreams_20120810.GetRecords");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->service, Service::kStreams);
  EXPECT_EQ(t->operation, "GetRecords");
}

TEST(TargetTest, Rejected) {
  EXPECT_FALSE(ParseTarget(""));
  EXPECT_FALSE(ParseTarget("PutItem"));
  EXPECT_FALSE(ParseTarget("DynamoDB_20120810."));
  EXPECT_FALSE(ParseTarget("DynamoDB_20120810.putItem"));
  EXPECT_FALSE(ParseTarget("DynamoDB_20120810.NoSuchOp"));
  EXPECT_FALSE(ParseTarget("DynamoDB_20111205.PutItem"));
  EXPECT_FALSE(ParseTarget("DynamoDB_20120810.GetRecords"));
  EXPECT_FALSE(ParseTarget("DynamoDBStreams_20120810.PutItem"));
  EXPECT_FALSE(ParseTarget("DynamoDB_20120810.PutItem.x"));
}

}  // namespace
}  // namespace ddblab::server
