// emulator/engine/ops/ops_item.h: the typed single-item operations — GetItem,
// PutItem, DeleteItem (ops_item.cc) and UpdateItem (ops_update_item.cc).
//
// Each operation is three steps (see operations.h for the pattern):
//   ParseX(json)            -> XRequest  no lock: every check that needs no
//                                        table, in DynamoDB's order
//   ExecuteX(impl, call, request) -> XResult   takes the engine lock: table
//                                        lookup, key checks, read, condition,
//                                        write
//   RenderX(request, result) -> json     no lock: the response body
// A caller that has its values already (PartiQL, an in-process harness) may
// fill an XRequest itself; it then owns the checks Parse would have made.
//
// Thread-safety: requests and results are plain values owned by one caller;
// Execute takes the engine lock itself (call it WITHOUT the lock).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "emulator/api/result.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/item_mutation.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/return_values.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"
#include "emulator/storage/item_store.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

class EmulatorImpl;
struct CallContext;

// ---------------------------------------------------------------------------
// GetItem

struct GetItemRequest {
  std::string table_name;  // as given (name or ARN)
  value::Item key;
  bool consistent = false;
  CapacityMode capacity = CapacityMode::kNone;
  ExpressionParams expr;  // projection (ProjectionExpression/AttributesToGet)
};

struct GetItemResult {
  std::optional<storage::StoredItem> item;  // as stored; nullopt if missing
};

Result<GetItemRequest> ParseGetItem(const Json& request,
                                    ExpressionCache* cache = nullptr);
Result<GetItemResult> ExecuteGetItem(EmulatorImpl& impl, CallContext& call,
                                     const GetItemRequest& r);
// The item as a JSON AttributeValue map (projected), or null if missing.
Result<Json> RenderGetItemItem(const GetItemRequest& r, GetItemResult& result);
Result<Json> RenderGetItem(const GetItemRequest& r, GetItemResult& result);

// ---------------------------------------------------------------------------
// PutItem and DeleteItem

// What PutItem and DeleteItem share.
struct WriteRequest {
  std::string table_name;   // as given (name or ARN)
  value::Item item;         // PutItem: the item; DeleteItem: the key
  bool return_old = false;  // ReturnValues ALL_OLD
  CapacityMode capacity = CapacityMode::kNone;
  bool collection_metrics = false;
  bool old_on_condition_failure = false;
  ExpressionParams expr;
};
using PutItemRequest = WriteRequest;
using DeleteItemRequest = WriteRequest;

struct WriteResult {
  std::shared_ptr<const Table> table;
  ExistingItem old;  // the item before the write
  Consumed used;
};

Result<WriteRequest> ParsePutItem(const Json& request,
                                  ExpressionCache* cache = nullptr);
Result<WriteRequest> ParseDeleteItem(const Json& request,
                                     ExpressionCache* cache = nullptr);
Result<WriteResult> ExecutePutItem(EmulatorImpl& impl, CallContext& call,
                                   WriteRequest& r);
Result<WriteResult> ExecuteDeleteItem(EmulatorImpl& impl, CallContext& call,
                                      WriteRequest& r);
Result<Json> RenderWriteItem(const WriteRequest& r, WriteResult& result);

// ---------------------------------------------------------------------------
// UpdateItem

struct UpdateItemRequest {
  std::string table_name;  // as given (name or ARN)
  value::Item key;
  ReturnValues return_values = ReturnValues::kNone;
  CapacityMode capacity = CapacityMode::kNone;
  bool collection_metrics = false;
  bool old_on_condition_failure = false;
  ExpressionParams expr;
};

struct UpdateItemResult {
  std::shared_ptr<const Table> table;
  ExistingItem old;
  UpdateOutcome outcome;
  Consumed used;
};

Result<UpdateItemRequest> ParseUpdateItem(const Json& request,
                                          ExpressionCache* cache = nullptr);
Result<UpdateItemResult> ExecuteUpdateItem(EmulatorImpl& impl,
                                           CallContext& call,
                                           const UpdateItemRequest& r);
Result<Json> RenderUpdateItem(const UpdateItemRequest& r,
                              UpdateItemResult& result);

}  // namespace ddblab::engine
