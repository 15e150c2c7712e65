// emulator/api/operation.h: the one list of operations, with their traits.
//
// Every operation of the DynamoDB API and of the DynamoDB Streams API that
// ddblab knows — the ones the engine serves (engine/op_table.cc pairs each
// with its handler) and the few more a fault plan may name (the replica
// auto scaling ones) — is one row of the table in operation.cc: its name, its
// API and the traits that code outside the handlers needs:
//   write           ThrottlingReasons say "Write" (else "Read")
//   data_plane      an item operation: its throttles are capacity throttles
//   batch           BatchGetItem / BatchWriteItem: may answer partly, with
//                   UnprocessedKeys / UnprocessedItems
//   transact_items  TransactGetItems / TransactWriteItems: the request's
//                   items are the actions of a transaction, whose
//                   cancellation has one reason per action
//   capacity_factor what the capacity model multiplies units by: 2 in
//                   transactions (ExecuteTransaction too), else 1
//
// A name is looked up once per call (OperationByName: the engine's entry
// points, the fault plan parser); everything after works with the enum and
// its traits. No other code compares operation names.
//
// Thread-safety: constant data; every function is safe from many threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace ddblab {

enum class OperationApi : uint8_t { kDynamoDb, kStreams };

enum class Operation : uint8_t {
  // ---- DynamoDB.
  kBatchExecuteStatement,
  kBatchGetItem,
  kBatchWriteItem,
  kCreateBackup,
  kCreateTable,
  kDeleteBackup,
  kDeleteItem,
  kDeleteResourcePolicy,
  kDeleteTable,
  kDescribeBackup,
  kDescribeContinuousBackups,
  kDescribeEndpoints,
  kDescribeLimits,
  kDescribeTable,
  kDescribeTimeToLive,
  kExecuteStatement,
  kExecuteTransaction,
  kGetItem,
  kGetResourcePolicy,
  kListBackups,
  kListTables,
  kListTagsOfResource,
  kPutItem,
  kPutResourcePolicy,
  kQuery,
  kRestoreTableFromBackup,
  kScan,
  kSearchVectors,
  kTagResource,
  kTransactGetItems,
  kTransactWriteItems,
  kUntagResource,
  kUpdateContinuousBackups,
  kUpdateItem,
  kUpdateTable,
  kUpdateTimeToLive,
  kDescribeTableReplicaAutoScaling,
  kUpdateTableReplicaAutoScaling,
  // ---- DynamoDB Streams.
  kListStreams,
  kDescribeStream,
  kGetShardIterator,
  kGetRecords,
};

// How many operations there are (the enum's values are 0 .. kCount - 1).
inline constexpr size_t kOperationCount =
    static_cast<size_t>(Operation::kGetRecords) + 1;

struct OperationInfo {
  Operation operation;
  std::string_view name;  // as on the wire: "GetItem"
  OperationApi api;
  bool write = false;
  bool data_plane = false;
  bool batch = false;
  bool transact_items = false;
  int capacity_factor = 1;
};

// Every operation, in the enum's order (row i describes Operation(i)).
std::span<const OperationInfo> AllOperations();

// The row of `operation`.
const OperationInfo& InfoOf(Operation operation);

inline std::string_view NameOf(Operation operation) {
  return InfoOf(operation).name;
}

// The operation named `name` (exact, case-sensitive), of either API;
// nullopt for a name not in the list.
std::optional<Operation> OperationByName(std::string_view name);

// The operations of DynamoDB's API model (botocore dynamodb-2012-08-10)
// with no row above: neither served nor named by a fault plan (with the two
// replica auto scaling rows they are docs/operations.md's refused ones).
// Sorted. The rows of the DynamoDB API and these make the whole model.
std::span<const std::string_view> UnlistedDynamoDbOperations();

// Whether `name` is an operation of `api`'s model: a row of that API, or
// for DynamoDB one of UnlistedDynamoDbOperations() (the server accepts
// exactly these in X-Amz-Target; serving them is the engine's business).
bool InApiModel(OperationApi api, std::string_view name);

}  // namespace ddblab
