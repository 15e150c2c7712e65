// The operation table: every operation the engine serves, of the DynamoDB
// API and of the DynamoDB Streams API, each paired with its handler. The
// operations themselves, their names and traits are the one list of
// emulator/api/operation.h; adding an operation is a row there, a row here
// and its declaration in operations.h. Typed operations are composed from
// their Parse / Execute / Render (operations.h).
//
// Thread-safety: a constant built once (function-local static).
#include <vector>

#include "emulator/engine/dispatcher.h"
#include "emulator/engine/operations.h"

namespace ddblab::engine {

const std::vector<OpEntry>& OperationTable() {
  static const std::vector<OpEntry>* const kTable = new std::vector<OpEntry>{
      // ---- DynamoDB: items (typed).
      {Operation::kGetItem,
       RunTyped<ParseGetItem, ExecuteGetItem, RenderGetItem>},
      {Operation::kPutItem,
       RunTyped<ParsePutItem, ExecutePutItem, RenderWriteItem>},
      {Operation::kDeleteItem,
       RunTyped<ParseDeleteItem, ExecuteDeleteItem, RenderWriteItem>},
      {Operation::kUpdateItem,
       RunTyped<ParseUpdateItem, ExecuteUpdateItem, RenderUpdateItem>},
      {Operation::kQuery, RunTyped<ParseQuery, ExecuteQuery, RenderQuery>},
      {Operation::kScan, RunTyped<ParseScan, ExecuteScan, RenderScan>},
      {Operation::kBatchGetItem,
       RunTyped<ParseBatchGet, ExecuteBatchGet, RenderBatchGet>},
      {Operation::kBatchWriteItem,
       RunTyped<ParseBatchWrite, ExecuteBatchWrite, RenderBatchWrite>},
      {Operation::kTransactGetItems,
       RunTyped<ParseTransactGet, ExecuteTransactGet, RenderTransactGet>},
      {Operation::kTransactWriteItems,
       RunTyped<ParseTransactWrite, ExecuteTransactWrite, RenderTransactWrite>},
      {Operation::kSearchVectors, HandleSearchVectors},
      // ---- DynamoDB: PartiQL (over the typed operations).
      {Operation::kExecuteStatement, HandleExecuteStatement},
      {Operation::kBatchExecuteStatement, HandleBatchExecuteStatement},
      {Operation::kExecuteTransaction, HandleExecuteTransaction},
      // ---- DynamoDB: tables, TTL, tags, service.
      {Operation::kCreateTable, HandleCreateTable},
      {Operation::kDescribeTable, HandleDescribeTable},
      {Operation::kUpdateTable, HandleUpdateTable},
      {Operation::kDeleteTable, HandleDeleteTable},
      {Operation::kListTables, HandleListTables},
      {Operation::kUpdateTimeToLive, HandleUpdateTimeToLive},
      {Operation::kDescribeTimeToLive, HandleDescribeTimeToLive},
      {Operation::kTagResource, HandleTagResource},
      {Operation::kUntagResource, HandleUntagResource},
      {Operation::kListTagsOfResource, HandleListTagsOfResource},
      {Operation::kPutResourcePolicy, HandlePutResourcePolicy},
      {Operation::kGetResourcePolicy, HandleGetResourcePolicy},
      {Operation::kDeleteResourcePolicy, HandleDeleteResourcePolicy},
      {Operation::kDescribeContinuousBackups, HandleDescribeContinuousBackups},
      {Operation::kUpdateContinuousBackups, HandleUpdateContinuousBackups},
      // ---- DynamoDB: on-demand backups.
      {Operation::kCreateBackup, HandleCreateBackup},
      {Operation::kDescribeBackup, HandleDescribeBackup},
      {Operation::kListBackups, HandleListBackups},
      {Operation::kDeleteBackup, HandleDeleteBackup},
      {Operation::kRestoreTableFromBackup, HandleRestoreTableFromBackup},
      {Operation::kDescribeLimits, HandleDescribeLimits},
      {Operation::kDescribeEndpoints, HandleDescribeEndpoints},
      // ---- DynamoDB Streams.
      {Operation::kListStreams, HandleListStreams},
      {Operation::kDescribeStream, HandleDescribeStream},
      {Operation::kGetShardIterator, HandleGetShardIterator},
      {Operation::kGetRecords, HandleGetRecords},
  };
  return *kTable;
}

}  // namespace ddblab::engine
