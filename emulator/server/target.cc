#include "emulator/server/target.h"

#include <algorithm>
#include <array>

namespace ddblab::server {
namespace {

// botocore dynamodb/2012-08-10/service-2.json operations (DynamoDB's wire
// protocol).
constexpr std::array<std::string_view, 58> kDynamoDbOperations = {
    "BatchExecuteStatement",
    "BatchGetItem",
    "BatchWriteItem",
    "CreateBackup",
    "CreateGlobalTable",
    "CreateTable",
    "DeleteBackup",
    "DeleteItem",
    "DeleteResourcePolicy",
    "DeleteTable",
    "DescribeBackup",
    "DescribeContinuousBackups",
    "DescribeContributorInsights",
    "DescribeEndpoints",
    "DescribeExport",
    "DescribeGlobalTable",
    "DescribeGlobalTableSettings",
    "DescribeImport",
    "DescribeKinesisStreamingDestination",
    "DescribeLimits",
    "DescribeTable",
    "DescribeTableReplicaAutoScaling",
    "DescribeTimeToLive",
    "DisableKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
    "ExecuteStatement",
    "ExecuteTransaction",
    "ExportTableToPointInTime",
    "GetItem",
    "GetResourcePolicy",
    "ImportTable",
    "ListBackups",
    "ListContributorInsights",
    "ListExports",
    "ListGlobalTables",
    "ListImports",
    "ListTables",
    "ListTagsOfResource",
    "PutItem",
    "PutResourcePolicy",
    "Query",
    "RestoreTableFromBackup",
    "RestoreTableToPointInTime",
    "Scan",
    "SearchVectors",
    "TagResource",
    "TransactGetItems",
    "TransactWriteItems",
    "UntagResource",
    "UpdateContinuousBackups",
    "UpdateContributorInsights",
    "UpdateGlobalTable",
    "UpdateGlobalTableSettings",
    "UpdateItem",
    "UpdateKinesisStreamingDestination",
    "UpdateTable",
    "UpdateTableReplicaAutoScaling",
    "UpdateTimeToLive",
};

constexpr std::array<std::string_view, 4> kStreamsOperations = {
    "DescribeStream", "GetRecords", "GetShardIterator", "ListStreams"};

template <size_t N>
bool Contains(const std::array<std::string_view, N>& sorted,
              std::string_view op) {
  return std::binary_search(sorted.begin(), sorted.end(), op);
}

}  // namespace

bool IsKnownOperation(Service service, std::string_view op) {
  return service == Service::kDynamoDB ? Contains(kDynamoDbOperations, op)
                                       : Contains(kStreamsOperations, op);
}

std::optional<Target> ParseTarget(std::string_view header) {
  size_t dot = header.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view prefix = header.substr(0, dot);
  std::string_view op = header.substr(dot + 1);
  Service service;
  if (prefix == kDynamoDbPrefix) {
    service = Service::kDynamoDB;
  } else if (prefix == kStreamsPrefix) {
    service = Service::kStreams;
  } else {
    return std::nullopt;
  }
  if (!IsKnownOperation(service, op)) return std::nullopt;
  return Target{service, op};
}

}  // namespace ddblab::server
