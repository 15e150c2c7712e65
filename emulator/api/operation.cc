// The operation list (operation.h).
#include "emulator/api/operation.h"

#include <algorithm>
#include <array>

namespace ddblab {
namespace {

using enum Operation;
constexpr OperationApi kDynamo = OperationApi::kDynamoDb;
constexpr OperationApi kStreams = OperationApi::kStreams;

// One row per operation, in the enum's order (checked below).
//   {op, name, api, write, data_plane, batch, transact_items, factor}
constexpr std::array<OperationInfo, kOperationCount> kOperations = {{
    {kBatchExecuteStatement, "BatchExecuteStatement", kDynamo, false, true,
     false, false, 1},
    {kBatchGetItem, "BatchGetItem", kDynamo, false, true, true, false, 1},
    {kBatchWriteItem, "BatchWriteItem", kDynamo, true, true, true, false, 1},
    {kCreateBackup, "CreateBackup", kDynamo},
    {kCreateTable, "CreateTable", kDynamo},
    {kDeleteBackup, "DeleteBackup", kDynamo},
    {kDeleteItem, "DeleteItem", kDynamo, true, true, false, false, 1},
    {kDeleteResourcePolicy, "DeleteResourcePolicy", kDynamo},
    {kDeleteTable, "DeleteTable", kDynamo},
    {kDescribeBackup, "DescribeBackup", kDynamo},
    {kDescribeContinuousBackups, "DescribeContinuousBackups", kDynamo},
    {kDescribeEndpoints, "DescribeEndpoints", kDynamo},
    {kDescribeLimits, "DescribeLimits", kDynamo},
    {kDescribeTable, "DescribeTable", kDynamo},
    {kDescribeTimeToLive, "DescribeTimeToLive", kDynamo},
    {kExecuteStatement, "ExecuteStatement", kDynamo, true, true, false, false,
     1},
    {kExecuteTransaction, "ExecuteTransaction", kDynamo, true, true, false,
     false, 2},
    {kGetItem, "GetItem", kDynamo, false, true, false, false, 1},
    {kGetResourcePolicy, "GetResourcePolicy", kDynamo},
    {kListBackups, "ListBackups", kDynamo},
    {kListTables, "ListTables", kDynamo},
    {kListTagsOfResource, "ListTagsOfResource", kDynamo},
    {kPutItem, "PutItem", kDynamo, true, true, false, false, 1},
    {kPutResourcePolicy, "PutResourcePolicy", kDynamo},
    {kQuery, "Query", kDynamo, false, true, false, false, 1},
    {kRestoreTableFromBackup, "RestoreTableFromBackup", kDynamo},
    {kScan, "Scan", kDynamo, false, true, false, false, 1},
    {kSearchVectors, "SearchVectors", kDynamo, false, true, false, false, 1},
    {kTagResource, "TagResource", kDynamo},
    {kTransactGetItems, "TransactGetItems", kDynamo, false, true, false, true,
     2},
    {kTransactWriteItems, "TransactWriteItems", kDynamo, true, true, false,
     true, 2},
    {kUntagResource, "UntagResource", kDynamo},
    {kUpdateContinuousBackups, "UpdateContinuousBackups", kDynamo},
    {kUpdateItem, "UpdateItem", kDynamo, true, true, false, false, 1},
    {kUpdateTable, "UpdateTable", kDynamo},
    {kUpdateTimeToLive, "UpdateTimeToLive", kDynamo},
    {kDescribeTableReplicaAutoScaling, "DescribeTableReplicaAutoScaling",
     kDynamo},
    {kUpdateTableReplicaAutoScaling, "UpdateTableReplicaAutoScaling", kDynamo},
    {kListStreams, "ListStreams", kStreams},
    {kDescribeStream, "DescribeStream", kStreams},
    {kGetShardIterator, "GetShardIterator", kStreams},
    {kGetRecords, "GetRecords", kStreams},
}};

constexpr bool InEnumOrder() {
  for (size_t i = 0; i < kOperations.size(); ++i) {
    if (static_cast<size_t>(kOperations[i].operation) != i) return false;
  }
  return true;
}
static_assert(InEnumOrder(), "kOperations rows must follow the enum");

// Lookup by name: the operations grouped by name length, so that a name is
// compared only with the few of its length (every call passes here).
constexpr size_t kMaxName = 40;

struct ByLength {
  std::array<uint8_t, kMaxName + 2> start{};  // group of length n: [n, n+1)
  std::array<uint8_t, kOperationCount> ops{};
};

constexpr ByLength MakeByLength() {
  ByLength out;
  size_t next = 0;
  for (size_t length = 0; length <= kMaxName; ++length) {
    out.start[length] = static_cast<uint8_t>(next);
    for (size_t i = 0; i < kOperations.size(); ++i) {
      if (kOperations[i].name.size() == length) {
        out.ops[next++] = static_cast<uint8_t>(i);
      }
    }
  }
  out.start[kMaxName + 1] = static_cast<uint8_t>(next);
  return out;
}

constexpr ByLength kByLength = MakeByLength();
static_assert(kByLength.start[kMaxName + 1] == kOperationCount,
              "an operation name is longer than kMaxName");

// DynamoDB's API model (botocore dynamodb-2012-08-10) less the rows above;
// docs/operations.md says why each is refused.
constexpr std::array<std::string_view, 20> kUnlisted = {
    "CreateGlobalTable",
    "DescribeContributorInsights",
    "DescribeExport",
    "DescribeGlobalTable",
    "DescribeGlobalTableSettings",
    "DescribeImport",
    "DescribeKinesisStreamingDestination",
    "DisableKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
    "ExportTableToPointInTime",
    "ImportTable",
    "ListContributorInsights",
    "ListExports",
    "ListGlobalTables",
    "ListImports",
    "RestoreTableToPointInTime",
    "UpdateContributorInsights",
    "UpdateGlobalTable",
    "UpdateGlobalTableSettings",
    "UpdateKinesisStreamingDestination",
};
static_assert(std::is_sorted(kUnlisted.begin(), kUnlisted.end()),
              "kUnlisted must be sorted");

}  // namespace

std::span<const OperationInfo> AllOperations() { return kOperations; }

std::span<const std::string_view> UnlistedDynamoDbOperations() {
  return kUnlisted;
}

bool InApiModel(OperationApi api, std::string_view name) {
  if (std::optional<Operation> op = OperationByName(name)) {
    return InfoOf(*op).api == api;
  }
  return api == OperationApi::kDynamoDb &&
         std::binary_search(kUnlisted.begin(), kUnlisted.end(), name);
}

const OperationInfo& InfoOf(Operation operation) {
  return kOperations[static_cast<size_t>(operation)];
}

std::optional<Operation> OperationByName(std::string_view name) {
  if (name.size() > kMaxName) return std::nullopt;
  for (size_t i = kByLength.start[name.size()];
       i < kByLength.start[name.size() + 1]; ++i) {
    const OperationInfo& info = kOperations[kByLength.ops[i]];
    if (info.name == name) return info.operation;
  }
  return std::nullopt;
}

}  // namespace ddblab
