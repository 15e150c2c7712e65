// TransactWriteItems and TransactGetItems (the DynamoDB API reference).
//
// TransactWriteItems: the request is parsed and validated without the lock
// (transact_request.h). Under the engine lock: the ClientRequestToken is
// looked up (replay / IdempotentParameterMismatchException); every action's
// table, key and key paths are checked (a plain error fails the call, but a
// key that does not fit the table's schema cancels the transaction with a
// ValidationError reason for the first such action and None for the
// others, as DynamoDB does);
// "Transaction request cannot include multiple operations on one item";
// then every item is read and every action evaluated — condition
// (ConditionalCheckFailed, with the old Item for ALL_OLD), update
// (ValidationError with the update's runtime message, which stops the
// evaluation: later actions get None). Any failure cancels
// the whole transaction: TransactionCanceledException with one reason per
// action in request order ({"Code": "None"} for the others) and the codes
// listed in the message. Otherwise all writes go into ONE WriteBatch (one
// SQLite transaction, streams and TTL rows included). Capacity is twice the
// single-item figure; a ConditionCheck costs like a write of its item.
//
// TransactGetItems: keys validated (a key that does not fit the schema
// cancels with a ValidationError reason), then all items read under one lock
// (a consistent snapshot); Responses in request order, {} for a missing
// item; capacity 2 x a strongly consistent read per item.
//
// The engine serializes transactions, so TransactionConflict and
// TransactionInProgressException never occur (the fault layer may inject
// them).
#include "emulator/engine/ops/ops_transact.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "emulator/engine/call_context.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_mutation.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/transact_request.h"
#include "emulator/engine/ops/transact_tokens.h"
#include "emulator/engine/request.h"
#include "emulator/expr/projection.h"
#include "emulator/value/codec.h"

namespace ddblab::engine {
namespace {

using Kind = TransactWriteAction::Kind;

// Capacity per table, in order of first appearance.
class TableCapacity {
 public:
  void Add(const Table& table, const std::string& name_as_given,
           const Consumed& c) {
    auto [it, inserted] = index_.try_emplace(table.id, rows_.size());
    if (inserted) rows_.push_back({name_as_given, Consumed()});
    rows_[it->second].second += c;
  }
  // [ConsumedCapacity...] or null; `units_member` is "WriteCapacityUnits" or
  // "ReadCapacityUnits".
  Json ToJson(CapacityMode mode, const char* units_member) const {
    if (mode == CapacityMode::kNone) return nullptr;
    Json out = Json::array();
    for (const auto& [name, c] : rows_) {
      Json one = ConsumedCapacityJson(name, c, mode);
      one[units_member] = c.Total();
      out.push_back(std::move(one));
    }
    return out;
  }

 private:
  std::map<int64_t, size_t> index_;
  std::vector<std::pair<std::string, Consumed>> rows_;
};

// The identity of an item for "multiple operations on one item".
using ItemId = std::tuple<int64_t, std::string, std::string>;

Status CheckDistinct(std::set<ItemId>& seen, const Table& table,
                     const PrimaryKey& key) {
  if (!seen.emplace(table.id, key.pk, key.sk).second) {
    return Error::Validation(
        "Transaction request cannot include multiple operations on one item");
  }
  return OkStatus();
}

// One action once its table and key are known.
struct Planned {
  const TransactWriteAction* action = nullptr;
  std::shared_ptr<const Table> table;
  PrimaryKey key;
  value::Item key_attrs;  // only with ReturnItemCollectionMetrics
  ExistingItem old;
  bool write = false;                   // Put / Delete / Update that writes
  std::optional<value::Item> new_item;  // null with write: delete
};

// A key that does not fit the table's schema (wrong type, non-scalar,
// missing attribute, wrong index key type) is found while the transaction
// runs: DynamoDB cancels it with a ValidationError reason for that action.
// Other key errors (an empty or oversized key value) are input validation
// and fail the whole request.
bool IsKeySchemaError(const Error& e) {
  const std::string& m = e.message;
  return m == "The provided key element does not match the schema" ||
         (m.starts_with(kInvalidParams) &&
          (m.find("Missing the key ", kInvalidParams.size()) ==
               kInvalidParams.size() ||
           m.find("Type mismatch for ", kInvalidParams.size()) ==
               kInvalidParams.size()));
}

// An empty key value in a transaction's Key is reported with the PutItem
// wording ("are not valid."), as DynamoDB does.
Error TransactKeyError(Error e) {
  const std::string empty = std::string(kInvalidParams) +
                            "The AttributeValue for a key attribute cannot";
  if (e.message.starts_with(empty)) {
    e.message = "One or more parameter values are not valid. " +
                e.message.substr(kInvalidParams.size());
  }
  return e;
}

Json Reason(const Error* failure) {
  if (failure == nullptr) return Json{{"Code", "None"}};
  Json reason;
  if (failure->type == ErrorType::kConditionalCheckFailed) {
    reason["Code"] = "ConditionalCheckFailed";
  } else {
    reason["Code"] = "ValidationError";
  }
  reason["Message"] = failure->message;
  if (failure->extra.is_object() && failure->extra.contains("Item")) {
    reason["Item"] = failure->extra["Item"];
  }
  return reason;
}

Error Cancelled(const Json& reasons) {
  std::string codes;
  for (const Json& r : reasons) {
    if (!codes.empty()) codes += ", ";
    codes += r["Code"].get<std::string>();
  }
  Error error = Error::Of(
      ErrorType::kTransactionCanceled,
      "Transaction cancelled, please refer cancellation reasons for specific "
      "reasons [" +
          codes + "]");
  error.extra = Json{{"CancellationReasons", reasons}};
  return error;
}

// Evaluates one action against its stored item; fills p.write/new_item.
Status Evaluate(Planned& p) {
  const TransactWriteAction& a = *p.action;
  DDBLAB_ASSIGN_OR_RETURN(const value::Item* old_item, p.old.Get());
  DDBLAB_RETURN_IF_ERROR(
      CheckCondition(a.expr.condition, old_item, a.old_on_condition_failure));
  switch (a.kind) {
    case Kind::kConditionCheck:
      break;
    case Kind::kPut:
      p.write = true;
      p.new_item = a.item;
      break;
    case Kind::kDelete:
      p.write = true;
      break;
    case Kind::kUpdate: {
      DDBLAB_ASSIGN_OR_RETURN(UpdateOutcome outcome,
                              ComputeUpdate(*p.table, a.key, old_item, a.expr));
      p.write = outcome.new_item.has_value();
      p.new_item = std::move(outcome.new_item);
      break;
    }
  }
  return OkStatus();
}

}  // namespace

Result<TransactWriteRequest> ParseTransactWrite(const Json& request,
                                                ExpressionCache* cache) {
  DDBLAB_ASSIGN_OR_RETURN(TransactWriteRequest r,
                          ParseTransactWriteItems(request, cache));
  if (r.token) r.items_json = request.at("TransactItems");
  return r;
}

Result<Json> RenderTransactWrite(const TransactWriteRequest&,
                                 TransactWriteResult& result) {
  return std::move(result.body);
}

Result<TransactWriteResult> ExecuteTransactWrite(
    EmulatorImpl& impl, CallContext& call, const TransactWriteRequest& r) {
  const Json& items_json = r.items_json;
  auto lock = impl.Lock();
  TransactTokens& tokens = impl.transact_tokens();
  if (r.token) {
    DDBLAB_ASSIGN_OR_RETURN(std::optional<TransactTokens::Entry> done,
                            tokens.Find(*r.token, items_json, impl.Now()));
    if (done) {
      // A replay: no side effects; capacity as the reads of the items.
      Json out = done->response;
      if (r.capacity != CapacityMode::kNone) {
        Json list = Json::array();
        for (const Json& t : done->tables) {
          const double units = t[1].get<double>();
          list.push_back({{"TableName", t[0]},
                          {"CapacityUnits", units},
                          {"ReadCapacityUnits", units}});
        }
        out["ConsumedCapacity"] = std::move(list);
      }
      return TransactWriteResult{std::move(out)};
    }
  }
  std::vector<Planned> plan(r.actions.size());
  // Per action: the key error, then the evaluation's failure.
  std::vector<std::optional<Error>> errors(r.actions.size());
  bool any_key_error = false;
  std::set<ItemId> seen;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const TransactWriteAction& a = r.actions[i];
    Planned& p = plan[i];
    p.action = &a;
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(a.table_name, TableLookup::kData));
    p.table = entry->table;
    Result<PrimaryKey> key = a.kind == Kind::kPut
                                 ? ValidateItemForWrite(*p.table, a.item)
                                 : ExtractKeyParam(*p.table, a.key);
    if (!key.ok()) {
      if (!IsKeySchemaError(key.error())) {
        return TransactKeyError(key.error());
      }
      // Only the first such action is reported (see below).
      if (!any_key_error) errors[i] = key.error();
      any_key_error = true;
    } else {
      p.key = std::move(*key);
      if (r.collection_metrics) {
        p.key_attrs =
            a.kind == Kind::kPut ? TableKeyOf(*p.table, a.item) : a.key;
      }
    }
    DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(a.expr, *p.table));
  }
  // A key that does not fit its table cancels the transaction before the
  // one-operation-per-item check.
  if (!any_key_error) {
    for (const Planned& p : plan) {
      DDBLAB_RETURN_IF_ERROR(CheckDistinct(seen, *p.table, p.key));
    }
  }
  // Read and evaluate the actions in request order; any failure cancels
  // everything (the reasons, one per action, are built only then). A
  // ValidationError (a key that does not fit, an update that cannot apply)
  // stops there: DynamoDB reports it and None for every action after it
  // ([ValidationError, None, None]); ConditionalCheckFailed does not stop.
  bool failed = any_key_error;
  for (size_t i = 0; i < plan.size(); ++i) {
    Planned& p = plan[i];
    if (errors[i]) break;  // the first key that does not fit
    DDBLAB_ASSIGN_OR_RETURN(p.old,
                            ExistingItem::Read(impl.store(), *p.table, p.key));
    Status s = Evaluate(p);
    if (s.ok()) continue;
    if (s.error().type == ErrorType::kInternalServerError) return s.error();
    failed = true;
    errors[i] = std::move(s).error();
    if (errors[i]->type != ErrorType::kConditionalCheckFailed) {
      for (size_t j = i + 1; j < errors.size(); ++j) errors[j].reset();
      break;
    }
  }
  if (failed) {
    Json reasons = Json::array();
    for (const std::optional<Error>& e : errors) {
      reasons.push_back(Reason(e ? &*e : nullptr));
    }
    return Cancelled(reasons);
  }
  // Apply all writes atomically.
  TableCapacity capacity;
  Json metrics = Json::object();
  WriteBatch batch(impl, call);
  DDBLAB_RETURN_IF_ERROR(batch.Begin());
  for (size_t i = 0; i < plan.size(); ++i) {
    Planned& p = plan[i];
    Consumed used;
    if (p.write) {
      Result<Consumed> applied = batch.Apply(
          *p.table, p.key, p.old, p.new_item ? &*p.new_item : nullptr);
      if (!applied.ok() && call.capacity.IsThrottle(applied.error())) {
        return call.capacity.Cancellation(plan.size(), i);
      }
      if (!applied.ok()) return applied.error();
      used = *applied;
    } else {
      // A ConditionCheck writes nothing but is charged as a write of the
      // item it checks (1 unit when absent), doubled as every action is.
      used.table = WriteUnits(p.old.size());
      Status admitted =
          call.capacity.Admit(*p.table, {{0, true, p.key.pk, used.table}});
      if (!admitted.ok() && call.capacity.IsThrottle(admitted.error())) {
        return call.capacity.Cancellation(plan.size(), i);
      }
      DDBLAB_RETURN_IF_ERROR(admitted);
    }
    used.Scale(2);
    capacity.Add(*p.table, p.action->table_name, used);
    if (r.collection_metrics && p.action->kind != Kind::kConditionCheck) {
      Json m = ItemCollectionMetricsJson(*p.table, p.key_attrs);
      if (!m.is_null()) metrics[p.action->table_name].push_back(std::move(m));
    }
  }
  DDBLAB_RETURN_IF_ERROR(batch.Commit());
  Json out = Json::object();
  if (!metrics.empty()) out["ItemCollectionMetrics"] = metrics;
  if (r.token) {
    TransactTokens::Entry entry;
    entry.items = items_json;
    entry.response = out;
    entry.tables = Json::array();
    std::map<std::string, double> counts;
    std::vector<std::string> order;
    for (const TransactWriteAction& a : r.actions) {
      if (counts[a.table_name]++ == 0) order.push_back(a.table_name);
    }
    for (const std::string& name : order) {
      entry.tables.push_back(Json::array({name, counts[name]}));
    }
    entry.completed = impl.Now();
    tokens.Remember(*r.token, std::move(entry));
  }
  Json cc = capacity.ToJson(r.capacity, "WriteCapacityUnits");
  if (!cc.is_null()) out["ConsumedCapacity"] = std::move(cc);
  return TransactWriteResult{std::move(out)};
}

Result<TransactGetRequest> ParseTransactGet(const Json& request,
                                            ExpressionCache* cache) {
  return ParseTransactGetItems(request, cache);
}

Result<TransactGetResult> ExecuteTransactGet(EmulatorImpl& impl,
                                             CallContext& call,
                                             const TransactGetRequest& r) {
  TransactGetResult result;
  std::vector<TransactGetResult::Read>& reads = result.reads;
  reads.resize(r.actions.size());
  {
    auto lock = impl.Lock();
    std::vector<PrimaryKey> keys(r.actions.size());
    std::set<ItemId> seen;
    Json reasons = Json::array();
    bool any_key_error = false;
    for (size_t i = 0; i < r.actions.size(); ++i) {
      const TransactGetAction& a = r.actions[i];
      DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                              impl.FindTable(a.table_name, TableLookup::kData));
      reads[i].table = entry->table;
      Result<PrimaryKey> key = ExtractKeyParam(*entry->table, a.key);
      if (key.ok()) {
        keys[i] = std::move(*key);
        reasons.push_back(Reason(nullptr));
      } else if (IsKeySchemaError(key.error())) {
        any_key_error = true;
        reasons.push_back(Reason(&key.error()));
      } else {
        return TransactKeyError(key.error());
      }
      DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(a.expr, *entry->table));
    }
    if (any_key_error) return Cancelled(reasons);
    for (size_t i = 0; i < r.actions.size(); ++i) {
      DDBLAB_RETURN_IF_ERROR(CheckDistinct(seen, *reads[i].table, keys[i]));
    }
    size_t aggregate = 0;
    for (size_t i = 0; i < r.actions.size(); ++i) {
      DDBLAB_ASSIGN_OR_RETURN(
          reads[i].item,
          ExistingItem::Read(impl.store(), *reads[i].table, keys[i]));
      aggregate += static_cast<size_t>(reads[i].item.size());
      if (!call.capacity.enforced()) continue;
      Status admitted = call.capacity.Admit(
          *reads[i].table,
          {{0, false, keys[i].pk, ReadUnits(reads[i].item.size(), true)}});
      if (!admitted.ok() && call.capacity.IsThrottle(admitted.error())) {
        return call.capacity.Cancellation(r.actions.size(), i);
      }
      DDBLAB_RETURN_IF_ERROR(admitted);
    }
    if (aggregate > kMaxTransactBytes) {
      return Error::Validation(
          "Transaction request size has exceeded the maximum allowed size");
    }
  }
  return result;
}

Result<Json> RenderTransactGet(const TransactGetRequest& r,
                               TransactGetResult& result) {
  std::vector<TransactGetResult::Read>& reads = result.reads;
  Json responses = Json::array();
  TableCapacity capacity;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const TransactGetAction& a = r.actions[i];
    Consumed used;
    used.table = 2 * ReadUnits(reads[i].item.size(), true);
    capacity.Add(*reads[i].table, a.table_name, used);
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* item, reads[i].item.Get());
    if (item == nullptr) {
      responses.push_back(Json::object());
      continue;
    }
    responses.push_back(
        {{"Item",
          value::EncodeItem(a.expr.projection
                                ? expr::Project(*a.expr.projection, *item)
                                : *item)}});
  }
  Json out{{"Responses", std::move(responses)}};
  Json cc = capacity.ToJson(r.capacity, "ReadCapacityUnits");
  if (!cc.is_null()) out["ConsumedCapacity"] = std::move(cc);
  return out;
}

}  // namespace ddblab::engine
