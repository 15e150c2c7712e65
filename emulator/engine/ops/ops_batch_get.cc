// BatchGetItem (the DynamoDB API reference).
//
// Parse (no lock), in DynamoDB's order:
//   1. JSON types (SerializationException), then the shape constraints in one
//      "N validation errors detected" message: ReturnConsumedCapacity,
//      RequestItems (batch_common.h), per table "requestItems.<t>.member.keys"
//      (not null, at least 1 key; over 100 is "Value at
//      'RequestItems.<t>.member.Keys' ...", no value) and ".attributesToGet"
//      (1..255 names).
//   2. Per table, in RequestItems order: the style check, accumulated over
//      the tables so far ("Can not use both expression and non-expression
//      parameters ...", "ExpressionAttributeNames can only be specified when
//      using expressions"); AttributesToGet duplicates, the names map and the
//      ProjectionExpression (expression_params.h); then per key: its
//      AttributeValue contents, "Provided list of item keys contains
//      duplicates" (keys compared by value, before any table lookup), and
//      past 100 keys in total "Too many items requested for the BatchGetItem
//      call".
// Execute (engine lock): every table is looked up first (ResourceNotFound
// "Requested resource not found"), then every key is checked against its
// table's schema (ExtractKeyParam texts) and the projection's key paths; a
// fault decision may leave keys unprocessed (the call's CallFaults, asked
// with each key's table as given and position in Keys); the other items are
// read.
// Render (no lock): tables in RequestItems order, keys in request order.
// An item is projected, then counted against kMaxBatchGetBytes by its
// returned (projected) size; the first item that would go past the limit and
// every key after it (in every later table) go to UnprocessedKeys, which
// repeats the table's ProjectionExpression / ExpressionAttributeNames /
// AttributesToGet / ConsistentRead as given. Missing items are absent from
// Responses; every table has a Responses entry (maybe []). Capacity: per key
// read, ceil(item size / 4 KB) (at least 1; a missing item counts 1), halved
// unless ConsistentRead, summed per table; unprocessed keys cost nothing.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/engine/call_context.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/ops/batch_common.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/ops_batch.h"
#include "emulator/expr/legacy.h"
#include "emulator/expr/projection.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_json.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

// KeysAndAttributes members besides Keys and ConsistentRead.
constexpr ExpressionSpec kBatchGetSpec = expression_spec_internal::Make(
    "BatchGetItem", false, false, false, false, true, false, true, "");

constexpr const char* kParamMembers[] = {
    "AttributesToGet", "ProjectionExpression", "ExpressionAttributeNames"};

// A table as read in phase 1.
struct RawTable {
  std::string name;
  Json params = Json::object();  // borrowed by `expr`: keep its address
  std::optional<bool> consistent;
  std::vector<std::optional<value::Item>> keys;
  std::vector<std::optional<Error>> key_errors;
  std::optional<ExpressionInput> expr;
};

void ReadTable(RequestParser& p, const std::string& name, const Json& value,
               RawTable* raw) {
  raw->name = name;
  const std::string path = TableMemberPath(name);
  const Json* kaa = p.StructValue(value, "KeysAndAttributes");
  if (kaa == nullptr) {
    p.NotNull(false, path + ".keys");
    return;
  }
  const Json* keys = p.List(*kaa, "Keys");
  p.NotNull(keys != nullptr, path + ".keys");
  if (keys != nullptr) {
    if (static_cast<int64_t>(keys->size()) > kMaxBatchGetKeys) {
      // DynamoDB (observed 2026) names this one by the API's member names
      // and prints no value.
      p.AddConstraintError("Value at 'RequestItems." + name +
                           ".member.Keys' failed to satisfy constraint: "
                           "Member must have length less than or equal to " +
                           std::to_string(kMaxBatchGetKeys));
    } else {
      p.ListLength(*keys, path + ".keys", 1, kMaxBatchGetKeys);
    }
    raw->keys.reserve(keys->size());
    raw->key_errors.resize(keys->size());
    for (size_t i = 0; i < keys->size(); ++i) {
      const Json holder = {{"Key", (*keys)[i]}};
      raw->keys.push_back(
          ReadAttributeMap(p, holder, "Key", &raw->key_errors[i]));
      p.NotNull(raw->keys.back().has_value() || raw->key_errors[i].has_value(),
                ElementPath(path + ".keys", i));
    }
  }
  raw->consistent = p.Bool(*kaa, "ConsistentRead");
  for (const char* member : kParamMembers) {
    auto it = kaa->find(member);
    if (it == kaa->end() || it->is_null()) continue;
    if (std::string_view(member) == "AttributesToGet" && it->is_array() &&
        (it->empty() || it->size() > 255)) {
      // Checked here for the member path; left out of the expression input
      // (which would word it for a top-level member).
      p.ListLength(*it, path + ".attributesToGet", 1, 255);
      continue;
    }
    raw->params[member] = *it;
  }
  raw->expr = ReadExpressionInput(p, raw->params, kBatchGetSpec);
}

}  // namespace

Result<BatchGetRequest> ParseBatchGet(const Json& request,
                                      ExpressionCache* cache) {
  RequestParser p(request);
  BatchGetRequest r;
  ReadCapacityMode(p, request, &r.capacity);
  const Json* items = p.Map(request, "RequestItems", "KeysAndAttributes");
  p.NotNull(items != nullptr, "requestItems");
  if (items != nullptr && items->empty()) {
    // DynamoDB's own sentence for an empty map. Observed to differ by region
    // in 2026: most regions now answer "1 validation error detected: Value
    // at 'RequestItems' failed to satisfy constraint: Member must have length
    // greater than or equal to 1"; this is the one the conformance suites pin.
    return Error::Validation(
        "The requestItems parameter is required for BatchGetItem");
  }
  std::vector<RawTable> raws;
  if (items != nullptr) {
    CheckRequestItemsMap(p, *items, kMaxBatchGetKeys);
    raws.resize(items->size());  // fixed from here: ExpressionInput borrows
    size_t i = 0;
    for (auto it = items->begin(); it != items->end(); ++it, ++i) {
      ReadTable(p, it.key(), it.value(), &raws[i]);
    }
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());

  Json styles = {{"RequestItems", Json::object()}};
  int64_t total = 0;
  r.tables.reserve(raws.size());
  for (RawTable& raw : raws) {
    // The style check remembers the members of the tables before this one.
    Json& seen = styles["RequestItems"][raw.name];
    seen = Json::object();
    for (const char* member : kParamMembers) {
      if (raw.params.contains(member)) seen[member] = true;
    }
    DDBLAB_RETURN_IF_ERROR(expr::CheckParameterStyles(styles, "BatchGetItem"));
    TableGet t;
    DDBLAB_ASSIGN_OR_RETURN(t.expr,
                            ParseExpressions(std::move(*raw.expr), cache));
    t.keys.reserve(raw.keys.size());
    for (size_t k = 0; k < raw.keys.size(); ++k) {
      if (raw.key_errors[k]) return *std::move(raw.key_errors[k]);
      value::Item& key = *raw.keys[k];
      for (const value::Item& earlier : t.keys) {
        if (earlier == key) {
          return Error::Validation(
              "Provided list of item keys contains duplicates");
        }
      }
      if (++total > kMaxBatchGetKeys) {
        return Error::Validation(
            "Too many items requested for the BatchGetItem call");
      }
      t.keys.push_back(std::move(key));
    }
    t.name = raw.name;
    t.consistent = raw.consistent.value_or(false);
    t.consistent_given = raw.consistent;
    t.params = std::move(raw.params);
    r.tables.push_back(std::move(t));
  }
  return r;
}

namespace {

// The KeysAndAttributes of a table's unprocessed keys.
Json UnprocessedEntry(const TableGet& t, Json keys) {
  Json out = t.params;
  if (t.consistent_given) out["ConsistentRead"] = *t.consistent_given;
  out["Keys"] = std::move(keys);
  return out;
}

}  // namespace

Result<BatchGetResult> ExecuteBatchGet(EmulatorImpl& impl, CallContext& call,
                                       const BatchGetRequest& r) {
  BatchGetResult result;
  std::vector<TableRead>& reads = result.reads;
  reads.resize(r.tables.size());
  auto lock = impl.Lock();
  std::vector<std::shared_ptr<const Table>> tables;
  tables.reserve(r.tables.size());
  for (const TableGet& t : r.tables) {
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(t.name, TableLookup::kData));
    tables.push_back(entry->table);
  }
  std::vector<std::vector<PrimaryKey>> keys(r.tables.size());
  for (size_t i = 0; i < r.tables.size(); ++i) {
    keys[i].reserve(r.tables[i].keys.size());
    for (const value::Item& key : r.tables[i].keys) {
      DDBLAB_ASSIGN_OR_RETURN(PrimaryKey pk, ExtractKeyParam(*tables[i], key));
      keys[i].push_back(std::move(pk));
    }
    DDBLAB_RETURN_IF_ERROR(CheckExpressionKeys(r.tables[i].expr, *tables[i]));
  }
  std::optional<Error> throttle;  // capacity enforcement
  size_t processed = 0;
  for (size_t i = 0; i < r.tables.size(); ++i) {
    const TableGet& t = r.tables[i];
    TableRead& read = reads[i];
    read.unprocessed.assign(t.keys.size(), false);
    read.items.resize(t.keys.size());
    // One view per table: the table's keys are read at one drawn lag.
    const ReadView view =
        impl.consistency().View(impl.store(), *tables[i], nullptr, t.consistent,
                                impl.Now(), call.faults);
    for (size_t k = 0; k < t.keys.size(); ++k) {
      if (call.faults.Unprocessed(t.name, k)) {
        read.unprocessed[k] = true;
        continue;
      }
      DDBLAB_ASSIGN_OR_RETURN(
          read.items[k], view.Get(tables[i]->id, keys[i][k].pk, keys[i][k].sk));
      if (!call.capacity.enforced()) continue;
      // Capacity enforcement: a key the table cannot afford now is left
      // unprocessed (read, but not returned nor charged).
      const int64_t size = read.items[k] ? read.items[k]->size : 0;
      Status admitted = call.capacity.Admit(
          *tables[i],
          {{0, false, keys[i][k].pk, ReadUnits(size, t.consistent)}});
      if (admitted.ok()) {
        ++processed;
        continue;
      }
      if (!call.capacity.IsThrottle(admitted.error())) return admitted.error();
      if (!throttle) throttle = admitted.error();
      read.unprocessed[k] = true;
      read.items[k].reset();
    }
  }
  // DynamoDB throws only when no key at all could be read.
  if (throttle && processed == 0) return *throttle;
  return result;
}

Result<Json> RenderBatchGet(const BatchGetRequest& r, BatchGetResult& result) {
  std::vector<TableRead>& reads = result.reads;
  Json responses = Json::object();
  Json unprocessed = Json::object();
  std::vector<TableConsumed> consumed;
  consumed.reserve(r.tables.size());
  int64_t returned_bytes = 0;
  bool full = false;  // the response limit was reached
  for (size_t i = 0; i < r.tables.size(); ++i) {
    const TableGet& t = r.tables[i];
    TableRead& read = reads[i];
    Json items = Json::array();
    Json left = Json::array();
    TableConsumed used{t.name, Consumed()};
    for (size_t k = 0; k < t.keys.size(); ++k) {
      if (full || read.unprocessed[k]) {
        left.push_back(value::EncodeItem(t.keys[k]));
        continue;
      }
      std::optional<storage::StoredItem>& stored = read.items[k];
      if (!stored) {
        used.consumed.table += ReadUnits(0, t.consistent);
        continue;
      }
      const int64_t stored_size = stored->size;
      Json item_json;
      int64_t size = stored_size;  // the stored size is the item's size
      if (t.expr.projection) {
        ExistingItem existing(std::move(*stored));
        DDBLAB_ASSIGN_OR_RETURN(const value::Item* item, existing.Get());
        const value::Item projected = expr::Project(*t.expr.projection, *item);
        size = static_cast<int64_t>(value::ItemSize(projected));
        item_json = value::EncodeItem(projected);
      } else {
        // The whole item: straight from its stored bytes.
        DDBLAB_ASSIGN_OR_RETURN(item_json,
                                value::StoredItemToJson(stored->bytes));
      }
      if (returned_bytes + size > kMaxBatchGetBytes) {
        full = true;
        left.push_back(value::EncodeItem(t.keys[k]));
        continue;
      }
      returned_bytes += size;
      used.consumed.table += ReadUnits(stored_size, t.consistent);
      items.push_back(std::move(item_json));
    }
    responses[t.name] = std::move(items);
    if (!left.empty())
      unprocessed[t.name] = UnprocessedEntry(t, std::move(left));
    consumed.push_back(std::move(used));
  }
  Json out = {{"Responses", std::move(responses)},
              {"UnprocessedKeys", std::move(unprocessed)}};
  Json capacity = ConsumedCapacityList(consumed, r.capacity);
  if (!capacity.is_null()) out["ConsumedCapacity"] = std::move(capacity);
  return out;
}

}  // namespace ddblab::engine
