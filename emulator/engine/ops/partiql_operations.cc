// The engine's partiql::Operations: a plan's typed requests run through the
// typed operations (see partiql_operations.h).
#include "emulator/engine/ops/partiql_operations.h"

#include <memory>
#include <optional>
#include <utility>

#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/operations.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/read_common.h"
#include "emulator/engine/ops/return_values.h"
#include "emulator/engine/ops/transact_request.h"
#include "emulator/expr/placeholders.h"
#include "emulator/value/attribute_name.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

using partiql::OpRequest;
using partiql::TransactAction;

// ---------------------------------------------------------------------------
// Describe

partiql::KeySchema PartiqlKeys(const KeySchema& key) {
  partiql::KeySchema out;
  out.hash = key.hash.name;
  if (key.range) out.range = key.range->name;
  // A multi-attribute GSI key: the other HASH, then the other RANGE
  // attributes, in KeySchema order.
  for (const KeyElement& k : key.more_hash) out.more.push_back(k.name);
  for (const KeyElement& k : key.more_range) out.more.push_back(k.name);
  return out;
}

// What the translator needs of a table, from the catalog (as a
// DescribeTable would show it: any status; GSIs, then LSIs).
partiql::TableInfo TableInfoOf(const Table& table) {
  partiql::TableInfo info;
  info.name = table.name;
  info.keys = PartiqlKeys(table.key);
  for (const KeyElement& a : table.attribute_definitions) {
    info.attribute_types[a.name] =
        std::string(value::AttributeValue::TypeName(a.type));
  }
  for (bool global : {true, false}) {
    for (const IndexDef& index : table.indexes) {
      if (index.global != global) continue;
      partiql::IndexInfo out;
      out.name = index.name;
      out.global = index.global;
      out.keys = PartiqlKeys(index.key);
      out.projection_type = std::string(ProjectionTypeName(index.projection));
      if (index.projection == ProjectionType::kInclude) {
        out.non_key_attributes = index.non_key_attributes;
      }
      info.indexes.push_back(std::move(out));
    }
  }
  for (const VectorIndexDef& v : table.vector_indexes) {
    info.vector_indexes.push_back(v.name);
  }
  return info;
}

// ---------------------------------------------------------------------------
// The checks Parse makes on what a plan carries.

CapacityMode CapacityModeOf(const std::string& name) {
  if (name == "INDEXES") return CapacityMode::kIndexes;
  if (name == "TOTAL") return CapacityMode::kTotal;
  return CapacityMode::kNone;
}

Error NoItem() {
  return Error::Internal("PartiQL planned a request with no item");
}

// The item's top-level attribute names, as value::DecodeItem checks them
// (in name order: the first bad one).
Status CheckItemNames(const value::Item& item) {
  for (const auto& [name, v] : item) {
    DDBLAB_RETURN_IF_ERROR(value::CheckAttributeName(name));
  }
  return OkStatus();
}

// A put item's size, checked as PutItem and TransactWriteItems check it.
Result<size_t> CheckedItemSize(const value::Item& item) {
  const size_t size = value::ItemSize(item);
  if (size > value::kMaxItemSize) {
    return Error::Validation("Item size has exceeded the maximum allowed size");
  }
  return size;
}

// The request's placeholders and expressions, as ParseExpressions reads a
// request's (phase 3 of expression_params.h).
Result<ExpressionParams> Expressions(OpRequest& r, const ExpressionSpec& spec) {
  ExpressionInput in;
  in.spec = spec;
  Result<expr::Placeholders> placeholders =
      expr::Placeholders::FromDecoded(std::move(r.names), std::move(r.values));
  if (placeholders.ok()) {
    in.placeholders = std::move(placeholders).value();
  } else {
    in.placeholder_error = std::move(placeholders).error();
  }
  in.condition_text = std::move(r.condition_expression);
  in.update_text = std::move(r.update_expression);
  in.key_condition_text = std::move(r.key_condition_expression);
  in.filter_text = std::move(r.filter_expression);
  in.projection_text = std::move(r.projection_expression);
  return ParseExpressions(std::move(in));
}

// The key of a NextToken, decoded as a Query's or Scan's ExclusiveStartKey:
// a JSON-shape error as the request parser reports it, a value error as
// StartKeyValueError words it.
Result<std::optional<value::Item>> StartKey(Json& key) {
  if (key.is_null()) return std::optional<value::Item>();
  Json holder = Json::object();
  holder["ExclusiveStartKey"] = std::move(key);
  RequestParser p(holder);
  std::optional<Error> error;
  std::optional<value::Item> item =
      ReadAttributeMap(p, holder, "ExclusiveStartKey", &error);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  if (error) return StartKeyValueError(*std::move(error));
  return item;
}

// ---------------------------------------------------------------------------
// OpRequest -> typed request (ParseX's order).

Result<GetItemRequest> ToGetItem(OpRequest& r) {
  if (!r.key) return NoItem();
  GetItemRequest out;
  out.consistent = r.consistent_read;
  out.capacity = CapacityModeOf(r.return_consumed_capacity);
  DDBLAB_ASSIGN_OR_RETURN(out.expr, Expressions(r, kGetItemSpec));
  out.table_name = std::move(r.table_name);
  out.key = std::move(*r.key);
  return out;
}

Result<WriteRequest> ToWrite(OpRequest& r, bool put) {
  std::optional<value::Item>& item = put ? r.item : r.key;
  if (!item) return NoItem();
  WriteRequest out;
  out.capacity = CapacityModeOf(r.return_consumed_capacity);
  out.old_on_condition_failure =
      r.return_values_on_condition_check_failure == "ALL_OLD";
  if (put) DDBLAB_RETURN_IF_ERROR(CheckItemNames(*item));
  DDBLAB_RETURN_IF_ERROR(CheckPutDeleteReturnValues(
      r.return_values.empty() ? "NONE" : r.return_values));
  if (put) DDBLAB_RETURN_IF_ERROR(CheckedItemSize(*item));
  DDBLAB_ASSIGN_OR_RETURN(out.expr,
                          Expressions(r, put ? kPutItemSpec : kDeleteItemSpec));
  out.table_name = std::move(r.table_name);
  out.item = std::move(*item);
  out.return_old = r.return_values == "ALL_OLD";
  return out;
}

Result<UpdateItemRequest> ToUpdateItem(OpRequest& r) {
  if (!r.key) return NoItem();
  UpdateItemRequest out;
  out.return_values =
      ParseReturnValues(r.return_values.empty() ? "NONE" : r.return_values);
  out.capacity = CapacityModeOf(r.return_consumed_capacity);
  out.old_on_condition_failure =
      r.return_values_on_condition_check_failure == "ALL_OLD";
  DDBLAB_ASSIGN_OR_RETURN(out.expr, Expressions(r, kUpdateItemSpec));
  out.table_name = std::move(r.table_name);
  out.key = std::move(*r.key);
  return out;
}

Result<QueryRequest> ToQuery(OpRequest& r) {
  QueryRequest out;
  out.index_name = std::move(r.index_name);
  out.capacity = CapacityModeOf(r.return_consumed_capacity);
  out.limit = r.limit;
  out.consistent = r.consistent_read;
  out.forward = r.scan_index_forward;
  DDBLAB_ASSIGN_OR_RETURN(out.start_key, StartKey(r.exclusive_start_key));
  DDBLAB_ASSIGN_OR_RETURN(out.expr, Expressions(r, kQuerySpec));
  DDBLAB_RETURN_IF_ERROR(CollectKeyConditionTerms(out));
  out.table_name = std::move(r.table_name);
  return out;
}

Result<ScanRequest> ToScan(OpRequest& r) {
  ScanRequest out;
  out.index_name = std::move(r.index_name);
  out.capacity = CapacityModeOf(r.return_consumed_capacity);
  out.limit = r.limit;
  out.consistent = r.consistent_read;
  DDBLAB_ASSIGN_OR_RETURN(out.start_key, StartKey(r.exclusive_start_key));
  DDBLAB_ASSIGN_OR_RETURN(out.expr, Expressions(r, kScanSpec));
  out.table_name = std::move(r.table_name);
  return out;
}

Result<TransactWriteRequest> ToTransactWrite(partiql::TransactRequest& t) {
  TransactWriteRequest out;
  out.capacity = CapacityModeOf(t.return_consumed_capacity);
  if (!t.client_request_token.empty()) {
    out.token = t.client_request_token;
    out.items_json = partiql::TransactItemsJson(t);
  }
  size_t aggregate = 0;
  out.actions.reserve(t.items.size());
  for (partiql::TransactItem& item : t.items) {
    OpRequest& r = item.request;
    TransactWriteAction a;
    switch (item.action) {
      case TransactAction::kConditionCheck:
        a.kind = TransactWriteAction::Kind::kConditionCheck;
        break;
      case TransactAction::kPut:
        a.kind = TransactWriteAction::Kind::kPut;
        break;
      case TransactAction::kUpdate:
        a.kind = TransactWriteAction::Kind::kUpdate;
        break;
      case TransactAction::kDelete:
        a.kind = TransactWriteAction::Kind::kDelete;
        break;
      case TransactAction::kGet:
        return Error::Internal("PartiQL planned a Get in a write transaction");
    }
    const bool put = a.kind == TransactWriteAction::Kind::kPut;
    std::optional<value::Item>& member = put ? r.item : r.key;
    if (!member) return NoItem();
    if (put) {
      DDBLAB_RETURN_IF_ERROR(CheckItemNames(*member));
      DDBLAB_ASSIGN_OR_RETURN(size_t size, CheckedItemSize(*member));
      aggregate += size;
      a.item = std::move(*member);
    } else {
      a.key = std::move(*member);
    }
    DDBLAB_ASSIGN_OR_RETURN(
        a.expr, Expressions(r, a.kind == TransactWriteAction::Kind::kUpdate
                                   ? kTransactUpdateSpec
                                   : kTransactConditionSpec));
    a.table_name = std::move(r.table_name);
    a.old_on_condition_failure =
        r.return_values_on_condition_check_failure == "ALL_OLD";
    out.actions.push_back(std::move(a));
  }
  DDBLAB_RETURN_IF_ERROR(CheckTransactPayloadSize(aggregate));
  return out;
}

Result<TransactGetRequest> ToTransactGet(partiql::TransactRequest& t) {
  TransactGetRequest out;
  out.capacity = CapacityModeOf(t.return_consumed_capacity);
  out.actions.reserve(t.items.size());
  for (partiql::TransactItem& item : t.items) {
    OpRequest& r = item.request;
    if (!r.key) return NoItem();
    TransactGetAction a;
    DDBLAB_ASSIGN_OR_RETURN(a.expr, Expressions(r, kTransactGetSpec));
    a.table_name = std::move(r.table_name);
    a.key = std::move(*r.key);
    out.actions.push_back(std::move(a));
  }
  return out;
}

// Execute and Render of a typed request built above.
template <auto Execute, auto Render, class Request>
Result<Json> Finish(EmulatorImpl& impl, CallContext& call, Request& r) {
  DDBLAB_ASSIGN_OR_RETURN(auto result, Execute(impl, call, r));
  return Render(r, result);
}

}  // namespace

Result<partiql::TableInfo> PartiqlOperations::Describe(
    const std::string& name) {
  std::shared_ptr<const Table> table;
  {
    auto lock = impl_.Lock();
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl_.FindTable(name, TableLookup::kControl));
    table = entry->table;
  }
  return TableInfoOf(*table);
}

Result<Json> PartiqlOperations::Run(Operation op, OpRequest request) {
  switch (op) {
    case Operation::kGetItem: {
      DDBLAB_ASSIGN_OR_RETURN(GetItemRequest r, ToGetItem(request));
      return Finish<ExecuteGetItem, RenderGetItem>(impl_, call_, r);
    }
    case Operation::kPutItem: {
      DDBLAB_ASSIGN_OR_RETURN(WriteRequest r, ToWrite(request, true));
      return Finish<ExecutePutItem, RenderWriteItem>(impl_, call_, r);
    }
    case Operation::kDeleteItem: {
      DDBLAB_ASSIGN_OR_RETURN(WriteRequest r, ToWrite(request, false));
      return Finish<ExecuteDeleteItem, RenderWriteItem>(impl_, call_, r);
    }
    case Operation::kUpdateItem: {
      DDBLAB_ASSIGN_OR_RETURN(UpdateItemRequest r, ToUpdateItem(request));
      return Finish<ExecuteUpdateItem, RenderUpdateItem>(impl_, call_, r);
    }
    case Operation::kQuery: {
      DDBLAB_ASSIGN_OR_RETURN(QueryRequest r, ToQuery(request));
      return Finish<ExecuteQuery, RenderQuery>(impl_, call_, r);
    }
    case Operation::kScan: {
      DDBLAB_ASSIGN_OR_RETURN(ScanRequest r, ToScan(request));
      return Finish<ExecuteScan, RenderScan>(impl_, call_, r);
    }
    default:
      return Error::Internal("PartiQL planned an unexpected operation: " +
                             std::string(NameOf(op)));
  }
}

Result<Json> PartiqlOperations::RunTransaction(
    partiql::TransactRequest request) {
  if (request.write) {
    DDBLAB_ASSIGN_OR_RETURN(TransactWriteRequest r, ToTransactWrite(request));
    return Finish<ExecuteTransactWrite, RenderTransactWrite>(impl_, call_, r);
  }
  DDBLAB_ASSIGN_OR_RETURN(TransactGetRequest r, ToTransactGet(request));
  return Finish<ExecuteTransactGet, RenderTransactGet>(impl_, call_, r);
}

}  // namespace ddblab::engine
