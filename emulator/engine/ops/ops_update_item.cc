// UpdateItem (the DynamoDB API reference): upsert with UpdateExpression or
// legacy AttributeUpdates, ConditionExpression or legacy Expected, all five
// ReturnValues, ReturnValuesOnConditionCheckFailure, capacity and item
// collection metrics.
//
// Parse (no lock): JSON types and constraints, style mixing, Key values,
// expression parsing (expression_params.h). Execute (engine lock): table,
// key, key-path checks, read, condition, update (item_mutation.h), write.
#include <utility>

#include "emulator/engine/call_context.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_mutation.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/ops_item.h"
#include "emulator/engine/ops/return_values.h"
#include "emulator/value/codec.h"

namespace ddblab::engine {

Result<UpdateItemRequest> ParseUpdateItem(const Json& request,
                                          ExpressionCache* cache) {
  RequestParser p(request);
  UpdateItemRequest r;
  std::optional<std::string> name = p.TableNameOrArn(request);
  std::optional<Error> deferred;
  std::optional<value::Item> key =
      ReadAttributeMap(p, request, "Key", &deferred);
  p.NotNull(key.has_value() || deferred.has_value(), "key");
  r.return_values = ParseReturnValues(ReadReturnValues(p, request));
  ReadCapacityMode(p, request, &r.capacity);
  r.collection_metrics = ReadItemCollectionMetrics(p, request);
  r.old_on_condition_failure =
      ReadReturnValuesOnConditionCheckFailure(p, request);
  ExpressionInput in = ReadExpressionInput(p, request, kUpdateItemSpec);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(in));
  if (deferred) return *std::move(deferred);
  DDBLAB_ASSIGN_OR_RETURN(r.expr, ParseExpressions(std::move(in), cache));
  r.table_name = std::move(*name);
  r.key = std::move(*key);
  return r;
}

Result<UpdateItemResult> ExecuteUpdateItem(EmulatorImpl& impl,
                                           CallContext& call,
                                           const UpdateItemRequest& r) {
  UpdateItemResult result;
  std::shared_ptr<const Table>& table = result.table;
  ExistingItem& old = result.old;
  UpdateOutcome& outcome = result.outcome;
  Consumed& used = result.used;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    table = entry->table;
    DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key, ExtractKeyParam(*table, r.key));
    DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(r.expr, *table));
    DDBLAB_ASSIGN_OR_RETURN(old, ExistingItem::Read(impl.store(), *table, key));
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, old.Get());
    DDBLAB_RETURN_IF_ERROR(call.capacity.ChargeFailedCondition(
        *table, key.pk, old.exists(), old.size(), 0,
        CheckCondition(r.expr.condition, old_item,
                       r.old_on_condition_failure)));
    DDBLAB_ASSIGN_OR_RETURN(outcome,
                            ComputeUpdate(*table, r.key, old_item, r.expr));
    if (outcome.new_item) {
      DDBLAB_ASSIGN_OR_RETURN(
          used, WriteItem(impl, call, *table, key, old, &*outcome.new_item));
    } else {
      used.table = WriteUnits(0);  // nothing written still costs a unit
    }
  }
  return result;
}

Result<Json> RenderUpdateItem(const UpdateItemRequest& r,
                              UpdateItemResult& result) {
  const std::shared_ptr<const Table>& table = result.table;
  const UpdateOutcome& outcome = result.outcome;
  const Consumed& used = result.used;
  DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, result.old.Get());
  const value::Item* new_item = outcome.new_item ? &*outcome.new_item : nullptr;
  Json out = Json::object();
  if (std::optional<value::Item> attributes = UpdateReturnAttributes(
          r.return_values, old_item, new_item, outcome.targets)) {
    out["Attributes"] = value::EncodeItem(*attributes);
  }
  if (r.collection_metrics) {
    Json metrics = ItemCollectionMetricsJson(*table, r.key);
    if (!metrics.is_null()) out["ItemCollectionMetrics"] = std::move(metrics);
  }
  AddConsumedCapacity(out, r.table_name, used, r.capacity);
  return out;
}

}  // namespace ddblab::engine
