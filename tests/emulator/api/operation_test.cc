// The operation list (emulator/api/operation.h): names round-trip, the enum
// and the rows agree, and the traits fault and capacity code reads.
#include "emulator/api/operation.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace ddblab {
namespace {

TEST(Operation, NamesRoundTrip) {
  std::set<std::string_view> names;
  for (size_t i = 0; i < AllOperations().size(); ++i) {
    const OperationInfo& info = AllOperations()[i];
    EXPECT_EQ(static_cast<size_t>(info.operation), i);
    EXPECT_EQ(&InfoOf(info.operation), &info);
    EXPECT_EQ(OperationByName(info.name), info.operation) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << "twice: " << info.name;
  }
  EXPECT_EQ(AllOperations().size(), kOperationCount);
  EXPECT_EQ(NameOf(Operation::kTransactWriteItems), "TransactWriteItems");
  EXPECT_EQ(NameOf(Operation::kGetRecords), "GetRecords");
}

TEST(Operation, UnknownNames) {
  EXPECT_EQ(OperationByName(""), std::nullopt);
  EXPECT_EQ(OperationByName("getItem"), std::nullopt);  // case matters
  EXPECT_EQ(OperationByName("GetItems"), std::nullopt);
  EXPECT_EQ(OperationByName("CreateGlobalTable"), std::nullopt);
  EXPECT_EQ(OperationByName(std::string(200, 'x')), std::nullopt);
}

// The rows of the DynamoDB API and the unlisted names are DynamoDB's whole
// model (botocore dynamodb-2012-08-10: 58 operations), each name once.
TEST(Operation, ApiModel) {
  std::set<std::string_view> dynamo;
  for (const OperationInfo& info : AllOperations()) {
    if (info.api == OperationApi::kDynamoDb) dynamo.insert(info.name);
  }
  for (std::string_view name : UnlistedDynamoDbOperations()) {
    EXPECT_EQ(OperationByName(name), std::nullopt) << name;
    EXPECT_TRUE(dynamo.insert(name).second) << "twice: " << name;
    EXPECT_TRUE(InApiModel(OperationApi::kDynamoDb, name)) << name;
    EXPECT_FALSE(InApiModel(OperationApi::kStreams, name)) << name;
  }
  EXPECT_EQ(dynamo.size(), 58u);
  EXPECT_TRUE(InApiModel(OperationApi::kDynamoDb, "PutItem"));
  EXPECT_TRUE(
      InApiModel(OperationApi::kDynamoDb, "UpdateTableReplicaAutoScaling"));
  EXPECT_TRUE(InApiModel(OperationApi::kStreams, "GetRecords"));
  EXPECT_FALSE(InApiModel(OperationApi::kDynamoDb, "GetRecords"));
  EXPECT_FALSE(InApiModel(OperationApi::kStreams, "PutItem"));
  EXPECT_FALSE(InApiModel(OperationApi::kDynamoDb, "putItem"));
  EXPECT_FALSE(InApiModel(OperationApi::kDynamoDb, "Nope"));
}

TEST(Operation, Traits) {
  const OperationInfo& put = InfoOf(Operation::kPutItem);
  EXPECT_EQ(put.api, OperationApi::kDynamoDb);
  EXPECT_TRUE(put.write);
  EXPECT_TRUE(put.data_plane);
  EXPECT_FALSE(put.batch);
  EXPECT_FALSE(put.transact_items);
  EXPECT_EQ(put.capacity_factor, 1);

  const OperationInfo& get = InfoOf(Operation::kTransactGetItems);
  EXPECT_FALSE(get.write);
  EXPECT_TRUE(get.transact_items);
  EXPECT_EQ(get.capacity_factor, 2);

  // PartiQL's transaction costs double, but its items are statements.
  const OperationInfo& partiql = InfoOf(Operation::kExecuteTransaction);
  EXPECT_TRUE(partiql.write);
  EXPECT_FALSE(partiql.transact_items);
  EXPECT_EQ(partiql.capacity_factor, 2);

  EXPECT_TRUE(InfoOf(Operation::kBatchGetItem).batch);
  EXPECT_FALSE(InfoOf(Operation::kBatchGetItem).write);
  EXPECT_TRUE(InfoOf(Operation::kBatchWriteItem).batch);
  EXPECT_FALSE(InfoOf(Operation::kDescribeTable).data_plane);
  EXPECT_FALSE(InfoOf(Operation::kCreateTable).write);
  EXPECT_EQ(InfoOf(Operation::kGetRecords).api, OperationApi::kStreams);
  EXPECT_FALSE(InfoOf(Operation::kGetRecords).data_plane);

  // Exactly these write; exactly these cost double.
  std::set<std::string_view> writes;
  std::set<std::string_view> doubled;
  for (const OperationInfo& info : AllOperations()) {
    if (info.write) writes.insert(info.name);
    if (info.capacity_factor == 2) doubled.insert(info.name);
  }
  EXPECT_EQ(writes, (std::set<std::string_view>{
                        "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem",
                        "TransactWriteItems", "ExecuteStatement",
                        "ExecuteTransaction"}));
  EXPECT_EQ(doubled, (std::set<std::string_view>{"TransactGetItems",
                                                 "TransactWriteItems",
                                                 "ExecuteTransaction"}));
}

}  // namespace
}  // namespace ddblab
