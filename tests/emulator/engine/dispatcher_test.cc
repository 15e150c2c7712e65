// The operation table (op_table.cc) and its per-API dispatchers
// (dispatcher.h): every row is an operation of the one list, served by its
// own API only; a name is looked up once, at the call.
#include "emulator/engine/dispatcher.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

TEST(OperationTable, EveryRowIsAnOperationOfItsApi) {
  const Dispatcher dynamo(Api::kDynamoDb);
  const Dispatcher streams(Api::kStreams);
  std::set<Operation> seen;
  for (const OpEntry& entry : OperationTable()) {
    const OperationInfo& info = InfoOf(entry.operation);
    EXPECT_NE(entry.handler, nullptr) << info.name;
    EXPECT_TRUE(seen.insert(entry.operation).second) << "twice: " << info.name;
    const Dispatcher& own = info.api == Api::kStreams ? streams : dynamo;
    const Dispatcher& other = info.api == Api::kStreams ? dynamo : streams;
    EXPECT_EQ(own.Find(entry.operation), entry.handler) << info.name;
    EXPECT_EQ(other.Find(entry.operation), nullptr) << info.name;
  }
  // Every item operation is served; the operations only a fault plan may
  // name are not.
  for (const OperationInfo& info : AllOperations()) {
    if (info.data_plane) {
      EXPECT_NE(dynamo.Find(info.operation), nullptr) << info.name;
    }
  }
  EXPECT_EQ(dynamo.Find(Operation::kDescribeTableReplicaAutoScaling), nullptr);
  EXPECT_EQ(streams.Operations(),
            (std::vector<std::string>{"DescribeStream", "GetRecords",
                                      "GetShardIterator", "ListStreams"}));
  EXPECT_EQ(dynamo.Operations().size() + streams.Operations().size(),
            OperationTable().size());
}

using DispatchTest = EngineTest;

TEST_F(DispatchTest, NamesOutsideTheApiAreUnknown) {
  for (const char* name :
       {"GetRecords", "UpdateTableReplicaAutoScaling", "getItem", "Nope"}) {
    Result<Json> r = emu_->Call(name, Json::object());
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.error().Name(), "UnknownOperationException") << name;
    EXPECT_EQ(r.error().message, "") << name;
  }
  Result<Json> r = emu_->CallStreams("GetItem", Json::object());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().Name(), "UnknownOperationException");
  EXPECT_TRUE(emu_->CallStreams("ListStreams", Json::object()).ok());
}

// The operations of DynamoDB's API that ddblab does not serve
// (docs/operations.md) answer what DynamoDB answers for an operation it does
// not know: UnknownOperationException without a message.
TEST_F(DispatchTest, RefusedOperationsAreUnknown) {
  for (const char* name : {"RestoreTableToPointInTime",
                           "ExportTableToPointInTime",
                           "DescribeExport",
                           "ListExports",
                           "ImportTable",
                           "DescribeImport",
                           "ListImports",
                           "EnableKinesisStreamingDestination",
                           "DisableKinesisStreamingDestination",
                           "DescribeKinesisStreamingDestination",
                           "UpdateKinesisStreamingDestination",
                           "CreateGlobalTable",
                           "UpdateGlobalTable",
                           "DescribeGlobalTable",
                           "ListGlobalTables",
                           "DescribeGlobalTableSettings",
                           "UpdateGlobalTableSettings",
                           "DescribeTableReplicaAutoScaling",
                           "UpdateTableReplicaAutoScaling",
                           "DescribeContributorInsights",
                           "UpdateContributorInsights",
                           "ListContributorInsights"}) {
    Result<Json> r = emu_->Call(name, {{"TableName", "t"}});
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.error(), Error::Of(ErrorType::kUnknownOperation, "")) << name;
  }
  // 58 operations in DynamoDB's API: 22 refused, 36 served.
  EXPECT_EQ(impl().dispatcher().Operations().size(), 36u);
}

}  // namespace
}  // namespace ddblab::engine::testing
