// PutItem, GetItem, DeleteItem (the DynamoDB API reference) with condition
// and projection expressions and their legacy forms (Expected,
// AttributesToGet). UpdateItem is in ops_update_item.cc, transactions in
// ops_transact.cc.
//
// Each operation is Parse (no lock: JSON types, constraints, style mixing,
// AttributeValue contents, ReturnValues, item size, expression parsing —
// expression_params.h) then Execute (engine lock: table lookup, key
// validation, key-path checks, read, condition, write).
#include "emulator/engine/ops/ops_item.h"

#include <utility>

#include "emulator/engine/call_context.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_mutation.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/return_values.h"
#include "emulator/expr/projection.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_json.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

// `member` is "Item" (PutItem) or "Key" (DeleteItem).
Result<WriteRequest> ParseWrite(const Json& request, const char* member,
                                const ExpressionSpec& spec,
                                ExpressionCache* cache) {
  const bool put = std::string_view(member) == "Item";
  RequestParser p(request);
  WriteRequest r;
  std::optional<std::string> name = p.TableNameOrArn(request);
  std::optional<Error> deferred;
  std::optional<value::Item> item =
      ReadAttributeMap(p, request, member, &deferred);
  p.NotNull(item.has_value() || deferred.has_value(), put ? "item" : "key");
  const std::string return_values = ReadReturnValues(p, request);
  ReadCapacityMode(p, request, &r.capacity);
  r.collection_metrics = ReadItemCollectionMetrics(p, request);
  r.old_on_condition_failure =
      ReadReturnValuesOnConditionCheckFailure(p, request);
  ExpressionInput in = ReadExpressionInput(p, request, spec);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(in));
  if (deferred) return *std::move(deferred);
  DDBLAB_RETURN_IF_ERROR(CheckPutDeleteReturnValues(return_values));
  if (put && value::ItemSize(*item) > value::kMaxItemSize) {
    return Error::Validation("Item size has exceeded the maximum allowed size");
  }
  DDBLAB_ASSIGN_OR_RETURN(r.expr, ParseExpressions(std::move(in), cache));
  r.table_name = std::move(*name);
  r.item = std::move(*item);
  r.return_old = return_values == "ALL_OLD";
  return r;
}

}  // namespace

Result<WriteRequest> ParsePutItem(const Json& request, ExpressionCache* cache) {
  return ParseWrite(request, "Item", kPutItemSpec, cache);
}

Result<WriteRequest> ParseDeleteItem(const Json& request,
                                     ExpressionCache* cache) {
  return ParseWrite(request, "Key", kDeleteItemSpec, cache);
}

// The response of PutItem / DeleteItem. `metrics_item` carries the key.
Result<Json> RenderWriteItem(const WriteRequest& r, WriteResult& result) {
  const Table& table = *result.table;
  ExistingItem& old = result.old;
  const Consumed& used = result.used;
  Json out = Json::object();
  if (r.return_old && old.exists()) {
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, old.Get());
    out["Attributes"] = value::EncodeItem(*old_item);
  }
  if (r.collection_metrics) {
    Json metrics = ItemCollectionMetricsJson(table, r.item);
    if (!metrics.is_null()) out["ItemCollectionMetrics"] = std::move(metrics);
  }
  AddConsumedCapacity(out, r.table_name, used, r.capacity);
  return out;
}

// ---------------------------------------------------------------------------
// PutItem

Result<WriteResult> ExecutePutItem(EmulatorImpl& impl, CallContext& call,
                                   WriteRequest& r) {
  WriteResult result;
  std::shared_ptr<const Table>& table = result.table;
  ExistingItem& old = result.old;
  Consumed& used = result.used;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    table = entry->table;
    DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key,
                            ValidateItemForWrite(*table, r.item));
    DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(r.expr, *table));
    // Deferred: read only if the condition or the write path needs it.
    old = ExistingItem::Deferred(impl.store(), *table, key);
    if (r.expr.condition) {
      DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, old.Get());
      DDBLAB_RETURN_IF_ERROR(call.capacity.ChargeFailedCondition(
          *table, key.pk, old.exists(), old.size(),
          static_cast<int64_t>(value::ItemSize(r.item)),
          CheckCondition(r.expr.condition, old_item,
                         r.old_on_condition_failure)));
    }
    DDBLAB_ASSIGN_OR_RETURN(used,
                            WriteItem(impl, call, *table, key, old, &r.item));
  }
  return result;
}

// ---------------------------------------------------------------------------
// DeleteItem

Result<WriteResult> ExecuteDeleteItem(EmulatorImpl& impl, CallContext& call,
                                      WriteRequest& r) {
  WriteResult result;
  std::shared_ptr<const Table>& table = result.table;
  ExistingItem& old = result.old;
  Consumed& used = result.used;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    table = entry->table;
    DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key, ExtractKeyParam(*table, r.item));
    DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(r.expr, *table));
    DDBLAB_ASSIGN_OR_RETURN(old, ExistingItem::Read(impl.store(), *table, key));
    if (r.expr.condition) {
      DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, old.Get());
      DDBLAB_RETURN_IF_ERROR(call.capacity.ChargeFailedCondition(
          *table, key.pk, old.exists(), old.size(), 0,
          CheckCondition(r.expr.condition, old_item,
                         r.old_on_condition_failure)));
    }
    DDBLAB_ASSIGN_OR_RETURN(used,
                            WriteItem(impl, call, *table, key, old, nullptr));
  }
  return result;
}

// ---------------------------------------------------------------------------
// GetItem

Result<GetItemRequest> ParseGetItem(const Json& request,
                                    ExpressionCache* cache) {
  RequestParser p(request);
  GetItemRequest r;
  std::optional<std::string> name = p.TableNameOrArn(request);
  std::optional<Error> deferred;
  std::optional<value::Item> key =
      ReadAttributeMap(p, request, "Key", &deferred);
  p.NotNull(key.has_value() || deferred.has_value(), "key");
  r.consistent = p.Bool(request, "ConsistentRead").value_or(false);
  ReadCapacityMode(p, request, &r.capacity);
  ExpressionInput in = ReadExpressionInput(p, request, kGetItemSpec);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(in));
  if (deferred) return *std::move(deferred);
  DDBLAB_ASSIGN_OR_RETURN(r.expr, ParseExpressions(std::move(in), cache));
  r.table_name = std::move(*name);
  r.key = std::move(*key);
  return r;
}

Result<GetItemResult> ExecuteGetItem(EmulatorImpl& impl, CallContext& call,
                                     const GetItemRequest& r) {
  GetItemResult result;
  std::optional<storage::StoredItem>& stored = result.item;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key,
                            ExtractKeyParam(*entry->table, r.key));
    // A projection is GetItem's only expression: without one there are no
    // paths to check.
    if (r.expr.projection) {
      DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(r.expr, *entry->table));
    }
    const ReadView view =
        impl.consistency().View(impl.store(), *entry->table, nullptr,
                                r.consistent, impl.Now(), call.faults);
    DDBLAB_ASSIGN_OR_RETURN(stored, view.Get(entry->table->id, key.pk, key.sk));
    if (call.capacity.enforced()) {
      DDBLAB_RETURN_IF_ERROR(call.capacity.Admit(
          *entry->table,
          {{0, false, key.pk,
            ReadUnits(stored ? stored->size : 0, r.consistent)}}));
    }
  }
  return result;
}

// Decoding and rendering happen outside the lock.
Result<Json> RenderGetItemItem(const GetItemRequest& r, GetItemResult& result) {
  std::optional<storage::StoredItem>& stored = result.item;
  if (stored && !r.expr.projection) {
    // The whole item: straight from its stored bytes.
    return value::StoredItemToJson(stored->bytes);
  } else if (stored) {
    ExistingItem item(std::move(*stored));
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* decoded, item.Get());
    return value::EncodeItem(expr::Project(*r.expr.projection, *decoded));
  }
  return Json();
}

Result<Json> RenderGetItem(const GetItemRequest& r, GetItemResult& result) {
  Json out(Json::value_t::object);
  Consumed used;
  used.table = ReadUnits(result.item ? result.item->size : 0, r.consistent);
  if (result.item) {
    DDBLAB_ASSIGN_OR_RETURN(out["Item"], RenderGetItemItem(r, result));
  }
  AddConsumedCapacity(out, r.table_name, used, r.capacity);
  return out;
}

}  // namespace ddblab::engine
