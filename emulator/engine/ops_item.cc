// PutItem, GetItem, DeleteItem (operations.md §7, §8, §10) — the basic
// forms, without condition or projection expressions yet.
//
// Each operation is Parse (no lock: types, constraints, content checks that
// need no table) then Execute (engine lock: table lookup, key validation,
// read, condition, write). The expression layer plugs in at the two marked
// points: parsing ConditionExpression / ProjectionExpression (+ names and
// values) in Parse*, and evaluating the condition against `old` in Execute*
// before the write.
#include <set>
#include <utility>

#include "emulator/engine/capacity.h"
#include "emulator/engine/dispatcher.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_request.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

// Parameters the expression layer will take over. For now a condition or
// projection is refused, and names/values without an expression get
// DynamoDB's errors.
struct ExpressionParams {
  bool has_names = false;
  bool has_values = false;
  std::optional<std::string> condition;   // ConditionExpression
  std::optional<std::string> projection;  // ProjectionExpression
  bool has_expected = false;              // legacy Expected
};

ExpressionParams ReadExpressionParams(RequestParser& p, const Json& request) {
  ExpressionParams e;
  e.has_names = p.Map(request, "ExpressionAttributeNames", "String") != nullptr;
  e.has_values =
      p.Map(request, "ExpressionAttributeValues", "AttributeValue") != nullptr;
  e.condition = p.String(request, "ConditionExpression");
  e.projection = p.String(request, "ProjectionExpression");
  e.has_expected = p.Map(request, "Expected", "ExpectedAttributeValue") != nullptr;
  (void)p.String(request, "ConditionalOperator");
  return e;
}

// Until the expression layer lands: refuse what we cannot evaluate yet.
Status CheckConditionParams(const ExpressionParams& e) {
  if (e.condition) {
    return Error::Validation("ConditionExpression is not supported yet");
  }
  if (e.has_expected) return Error::Validation("Expected is not supported yet");
  if (e.has_names) {
    return Error::Validation(
        "ExpressionAttributeNames can only be specified when using "
        "expressions");
  }
  if (e.has_values) {
    return Error::Validation(
        "ExpressionAttributeValues can only be specified when using "
        "expressions: ConditionExpression is null");
  }
  return OkStatus();
}

Json WithCapacity(Json out, std::string_view table_name, const Consumed& used,
                  CapacityMode mode) {
  if (mode != CapacityMode::kNone) {
    out["ConsumedCapacity"] = ConsumedCapacityJson(table_name, used, mode);
  }
  return out;
}

// ---------------------------------------------------------------------------
// PutItem

struct PutItemRequest {
  std::string table_name;  // as given (name or ARN)
  value::Item item;
  std::string return_values = "NONE";
  CapacityMode capacity = CapacityMode::kNone;
  bool collection_metrics = false;
  bool old_on_condition_failure = false;
  ExpressionParams expr;
};

Result<PutItemRequest> ParsePutItem(const Json& request) {
  RequestParser p(request);
  PutItemRequest r;
  std::optional<std::string> name = p.String(request, "TableName");
  p.CheckTableNameOrArn(name, "tableName");
  std::optional<Error> deferred;
  std::optional<value::Item> item =
      ReadAttributeMap(p, request, "Item", &deferred);
  p.NotNull(item.has_value() || deferred.has_value(), "item");
  r.return_values = ReadReturnValues(p, request);
  ReadCapacityMode(p, request, &r.capacity);
  r.collection_metrics = ReadItemCollectionMetrics(p, request);
  r.old_on_condition_failure = ReadReturnValuesOnConditionCheckFailure(p, request);
  r.expr = ReadExpressionParams(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (deferred) return *deferred;
  DDBLAB_RETURN_IF_ERROR(CheckPutDeleteReturnValues(r.return_values));
  DDBLAB_RETURN_IF_ERROR(CheckConditionParams(r.expr));
  if (value::ItemSize(*item) > value::kMaxItemSize) {
    return Error::Validation("Item size has exceeded the maximum allowed size");
  }
  r.table_name = std::move(*name);
  r.item = std::move(*item);
  return r;
}

Result<Json> ExecutePutItem(EmulatorImpl& impl, const PutItemRequest& r) {
  std::shared_ptr<const Table> table;
  ExistingItem old;
  Consumed used;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    table = entry->table;
    DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key, ValidateItemForWrite(*table, r.item));
    DDBLAB_ASSIGN_OR_RETURN(old, ExistingItem::Read(impl.store(), *table, key));
    // Condition evaluation against old.Get() goes here.
    DDBLAB_ASSIGN_OR_RETURN(used, WriteItem(impl, *table, key, old, &r.item));
  }
  Json out = Json::object();
  if (r.return_values == "ALL_OLD" && old.exists()) {
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, old.Get());
    out["Attributes"] = value::EncodeItem(*old_item);
  }
  if (r.collection_metrics) {
    Json metrics = ItemCollectionMetricsJson(*table, r.item);
    if (!metrics.is_null()) out["ItemCollectionMetrics"] = std::move(metrics);
  }
  return WithCapacity(std::move(out), r.table_name, used, r.capacity);
}

Result<Json> PutItem(EmulatorImpl& impl, const Json& request) {
  DDBLAB_ASSIGN_OR_RETURN(PutItemRequest r, ParsePutItem(request));
  return ExecutePutItem(impl, r);
}

// ---------------------------------------------------------------------------
// GetItem

struct GetItemRequest {
  std::string table_name;
  value::Item key;
  bool consistent = false;
  CapacityMode capacity = CapacityMode::kNone;
  std::optional<std::vector<std::string>> attributes_to_get;
  ExpressionParams expr;
};

Result<GetItemRequest> ParseGetItem(const Json& request) {
  RequestParser p(request);
  GetItemRequest r;
  std::optional<std::string> name = p.String(request, "TableName");
  p.CheckTableNameOrArn(name, "tableName");
  std::optional<Error> deferred;
  std::optional<value::Item> key = ReadAttributeMap(p, request, "Key", &deferred);
  p.NotNull(key.has_value() || deferred.has_value(), "key");
  r.consistent = p.Bool(request, "ConsistentRead").value_or(false);
  ReadCapacityMode(p, request, &r.capacity);
  if (const Json* list = p.List(request, "AttributesToGet")) {
    p.ListLength(*list, "attributesToGet", 1, 1 << 30);
    std::vector<std::string> names;
    for (const Json& v : *list) {
      if (std::optional<std::string> s = p.StringValue(v)) names.push_back(*s);
    }
    r.attributes_to_get = std::move(names);
  }
  r.expr = ReadExpressionParams(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (r.attributes_to_get && r.expr.projection) {
    return Error::Validation(
        "Can not use both expression and non-expression parameters in the "
        "same request: Non-expression parameters: {AttributesToGet} "
        "Expression parameters: {ProjectionExpression}");
  }
  if (deferred) return *deferred;
  if (r.attributes_to_get) {
    std::set<std::string> seen;
    for (const std::string& n : *r.attributes_to_get) {
      if (!seen.insert(n).second) {
        return Error::Validation(std::string(kInvalidParams) +
                                 "Duplicate value in attribute name: " + n);
      }
    }
  }
  // ProjectionExpression evaluation goes here (expression layer).
  if (r.expr.projection) {
    return Error::Validation("ProjectionExpression is not supported yet");
  }
  if (r.expr.has_names) {
    return Error::Validation(
        "ExpressionAttributeNames can only be specified when using "
        "expressions");
  }
  if (r.expr.has_values) {
    return Error::Validation(
        "ExpressionAttributeValues can only be specified when using "
        "expressions: ProjectionExpression is null");
  }
  r.table_name = std::move(*name);
  r.key = std::move(*key);
  return r;
}

Result<Json> GetItem(EmulatorImpl& impl, const Json& request) {
  DDBLAB_ASSIGN_OR_RETURN(GetItemRequest r, ParseGetItem(request));
  std::optional<storage::StoredItem> stored;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key,
                            ExtractKeyParam(*entry->table, r.key));
    DDBLAB_ASSIGN_OR_RETURN(stored,
                            impl.store().Get(entry->table->id, key.pk, key.sk));
  }
  // Decoding and rendering happen outside the lock.
  Json out = Json::object();
  Consumed used;
  used.table = ReadUnits(stored ? stored->size : 0, r.consistent);
  if (stored) {
    ExistingItem item(std::move(*stored));
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* decoded, item.Get());
    out["Item"] = r.attributes_to_get
                      ? value::EncodeItem(SelectAttributes(*decoded,
                                                           *r.attributes_to_get))
                      : value::EncodeItem(*decoded);
  }
  return WithCapacity(std::move(out), r.table_name, used, r.capacity);
}

// ---------------------------------------------------------------------------
// DeleteItem

struct DeleteItemRequest {
  std::string table_name;
  value::Item key;
  std::string return_values = "NONE";
  CapacityMode capacity = CapacityMode::kNone;
  bool collection_metrics = false;
  bool old_on_condition_failure = false;
  ExpressionParams expr;
};

Result<DeleteItemRequest> ParseDeleteItem(const Json& request) {
  RequestParser p(request);
  DeleteItemRequest r;
  std::optional<std::string> name = p.String(request, "TableName");
  p.CheckTableNameOrArn(name, "tableName");
  std::optional<Error> deferred;
  std::optional<value::Item> key = ReadAttributeMap(p, request, "Key", &deferred);
  p.NotNull(key.has_value() || deferred.has_value(), "key");
  r.return_values = ReadReturnValues(p, request);
  ReadCapacityMode(p, request, &r.capacity);
  r.collection_metrics = ReadItemCollectionMetrics(p, request);
  r.old_on_condition_failure = ReadReturnValuesOnConditionCheckFailure(p, request);
  r.expr = ReadExpressionParams(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (deferred) return *deferred;
  DDBLAB_RETURN_IF_ERROR(CheckPutDeleteReturnValues(r.return_values));
  DDBLAB_RETURN_IF_ERROR(CheckConditionParams(r.expr));
  r.table_name = std::move(*name);
  r.key = std::move(*key);
  return r;
}

Result<Json> DeleteItem(EmulatorImpl& impl, const Json& request) {
  DDBLAB_ASSIGN_OR_RETURN(DeleteItemRequest r, ParseDeleteItem(request));
  std::shared_ptr<const Table> table;
  ExistingItem old;
  Consumed used;
  {
    auto lock = impl.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(r.table_name, TableLookup::kData));
    table = entry->table;
    DDBLAB_ASSIGN_OR_RETURN(PrimaryKey key, ExtractKeyParam(*table, r.key));
    DDBLAB_ASSIGN_OR_RETURN(old, ExistingItem::Read(impl.store(), *table, key));
    // Condition evaluation against old.Get() goes here.
    DDBLAB_ASSIGN_OR_RETURN(used, WriteItem(impl, *table, key, old, nullptr));
  }
  Json out = Json::object();
  if (r.return_values == "ALL_OLD" && old.exists()) {
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, old.Get());
    out["Attributes"] = value::EncodeItem(*old_item);
  }
  if (r.collection_metrics) {
    Json metrics = ItemCollectionMetricsJson(*table, r.key);
    if (!metrics.is_null()) out["ItemCollectionMetrics"] = std::move(metrics);
  }
  return WithCapacity(std::move(out), r.table_name, used, r.capacity);
}

}  // namespace

void RegisterItemOps(Dispatcher& d) {
  d.Register("PutItem", PutItem);
  d.Register("GetItem", GetItem);
  d.Register("DeleteItem", DeleteItem);
}

}  // namespace ddblab::engine
