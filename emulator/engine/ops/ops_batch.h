// emulator/engine/ops/ops_batch.h: the typed BatchGetItem (ops_batch_get.cc)
// and BatchWriteItem (ops_batch_write.cc): Parse (no lock) -> XRequest,
// Execute (engine lock: tables, keys, the items a fault leaves unprocessed,
// reads / one write batch) -> XResult, Render (no lock: Responses /
// UnprocessedKeys / UnprocessedItems, capacity, metrics). The pattern is
// described in operations.h.
//
// Thread-safety: requests and results are plain values owned by one caller;
// Execute takes the engine lock itself.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"
#include "emulator/storage/item_store.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

class EmulatorImpl;
struct CallContext;

// ---------------------------------------------------------------------------
// BatchGetItem

// One table of RequestItems.
struct TableGet {
  std::string name;  // as given (name or ARN)
  std::vector<value::Item> keys;
  bool consistent = false;
  std::optional<bool> consistent_given;
  // ProjectionExpression / ExpressionAttributeNames / AttributesToGet as
  // given, repeated in UnprocessedKeys.
  Json params = Json::object();
  ExpressionParams expr;
};

struct BatchGetRequest {
  std::vector<TableGet> tables;
  CapacityMode capacity = CapacityMode::kNone;
};

// What the locked part hands to rendering, per table.
struct TableRead {
  std::vector<bool> unprocessed;  // per key: left out by the fault hook
  std::vector<std::optional<storage::StoredItem>> items;  // per key
};

struct BatchGetResult {
  std::vector<TableRead> reads;  // per request table
};

Result<BatchGetRequest> ParseBatchGet(const Json& request,
                                      ExpressionCache* cache = nullptr);
Result<BatchGetResult> ExecuteBatchGet(EmulatorImpl& impl, CallContext& call,
                                       const BatchGetRequest& r);
Result<Json> RenderBatchGet(const BatchGetRequest& r, BatchGetResult& result);

// ---------------------------------------------------------------------------
// BatchWriteItem

struct WriteOp {
  bool put = false;
  value::Item item;  // put: the item; delete: the key
};

struct TableWrite {
  std::string name;  // as given (name or ARN)
  std::vector<WriteOp> ops;
};

struct BatchWriteRequest {
  std::vector<TableWrite> tables;
  CapacityMode capacity = CapacityMode::kNone;
  bool collection_metrics = false;
};

// One request once its table and key are known.
struct PlannedWrite {
  const WriteOp* op = nullptr;
  PrimaryKey key;
  bool unprocessed = false;
};

struct BatchWriteResult {
  std::vector<std::shared_ptr<const Table>> tables;  // per request table
  std::vector<std::vector<PlannedWrite>> planned;    // per table, per op
  std::vector<Consumed> consumed;                    // per table
};

Result<BatchWriteRequest> ParseBatchWrite(const Json& request);
Result<BatchWriteResult> ExecuteBatchWrite(EmulatorImpl& impl,
                                           CallContext& call,
                                           const BatchWriteRequest& r);
Result<Json> RenderBatchWrite(const BatchWriteRequest& r,
                              BatchWriteResult& result);

}  // namespace ddblab::engine
