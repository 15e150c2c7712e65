// The operation table: every operation of the DynamoDB API and of the
// DynamoDB Streams API, in one place. Adding an operation is one row here
// (plus its declaration in operations.h). Typed operations are composed
// from their Parse / Execute / Render (operations.h).
//
// Thread-safety: a constant built once (function-local static).
#include <vector>

#include "emulator/engine/dispatcher.h"
#include "emulator/engine/operations.h"

namespace ddblab::engine {

const std::vector<OpEntry>& OperationTable() {
  static const std::vector<OpEntry>* const kTable = new std::vector<OpEntry>{
      // ---- DynamoDB: items (typed).
      {"GetItem", Api::kDynamoDb,
       RunTyped<ParseGetItem, ExecuteGetItem, RenderGetItem>},
      {"PutItem", Api::kDynamoDb,
       RunTyped<ParsePutItem, ExecutePutItem, RenderWriteItem>},
      {"DeleteItem", Api::kDynamoDb,
       RunTyped<ParseDeleteItem, ExecuteDeleteItem, RenderWriteItem>},
      {"UpdateItem", Api::kDynamoDb,
       RunTyped<ParseUpdateItem, ExecuteUpdateItem, RenderUpdateItem>},
      {"Query", Api::kDynamoDb,
       RunTyped<ParseQuery, ExecuteQuery, RenderQuery>},
      {"Scan", Api::kDynamoDb, RunTyped<ParseScan, ExecuteScan, RenderScan>},
      {"BatchGetItem", Api::kDynamoDb,
       RunTyped<ParseBatchGet, ExecuteBatchGet, RenderBatchGet>},
      {"BatchWriteItem", Api::kDynamoDb,
       RunTyped<ParseBatchWrite, ExecuteBatchWrite, RenderBatchWrite>},
      {"TransactGetItems", Api::kDynamoDb,
       RunTyped<ParseTransactGet, ExecuteTransactGet, RenderTransactGet>},
      {"TransactWriteItems", Api::kDynamoDb,
       RunTyped<ParseTransactWrite, ExecuteTransactWrite, RenderTransactWrite>},
      {"SearchVectors", Api::kDynamoDb, HandleSearchVectors},
      // ---- DynamoDB: PartiQL (over the typed operations).
      {"ExecuteStatement", Api::kDynamoDb, HandleExecuteStatement},
      {"BatchExecuteStatement", Api::kDynamoDb, HandleBatchExecuteStatement},
      {"ExecuteTransaction", Api::kDynamoDb, HandleExecuteTransaction},
      // ---- DynamoDB: tables, TTL, tags, service.
      {"CreateTable", Api::kDynamoDb, HandleCreateTable},
      {"DescribeTable", Api::kDynamoDb, HandleDescribeTable},
      {"UpdateTable", Api::kDynamoDb, HandleUpdateTable},
      {"DeleteTable", Api::kDynamoDb, HandleDeleteTable},
      {"ListTables", Api::kDynamoDb, HandleListTables},
      {"UpdateTimeToLive", Api::kDynamoDb, HandleUpdateTimeToLive},
      {"DescribeTimeToLive", Api::kDynamoDb, HandleDescribeTimeToLive},
      {"TagResource", Api::kDynamoDb, HandleTagResource},
      {"UntagResource", Api::kDynamoDb, HandleUntagResource},
      {"ListTagsOfResource", Api::kDynamoDb, HandleListTagsOfResource},
      {"DescribeContinuousBackups", Api::kDynamoDb,
       HandleDescribeContinuousBackups},
      {"UpdateContinuousBackups", Api::kDynamoDb,
       HandleUpdateContinuousBackups},
      {"DescribeLimits", Api::kDynamoDb, HandleDescribeLimits},
      {"DescribeEndpoints", Api::kDynamoDb, HandleDescribeEndpoints},
      // ---- DynamoDB Streams.
      {"ListStreams", Api::kStreams, HandleListStreams},
      {"DescribeStream", Api::kStreams, HandleDescribeStream},
      {"GetShardIterator", Api::kStreams, HandleGetShardIterator},
      {"GetRecords", Api::kStreams, HandleGetRecords},
  };
  return *kTable;
}

}  // namespace ddblab::engine
