// BatchWriteItem (the DynamoDB API reference).
//
// Parse (no lock), in DynamoDB's order:
//   1. JSON types, then the shape constraints in one "N validation errors
//      detected" message: ReturnConsumedCapacity, ReturnItemCollectionMetrics,
//      RequestItems (batch_common.h) and its values: one error for the map
//      when a table's list is empty or longer than 25 ("Map value must
//      satisfy constraint: [Member must have length less than or equal to
//      25, Member must have length greater than or equal to 1]"), then per
//      request "requestItems.<t>.member.<i>.member.deleteRequest.key" /
//      "...putRequest.item" not null.
//   2. More than 25 requests over all tables: "Too many items requested for
//      the BatchWriteItem call".
//   3. Per table: a WriteRequest with neither or both of PutRequest and
//      DeleteRequest gives DynamoDB's odd "Supplied AttributeValue has more
//      than one datatypes set, must contain exactly one of the supported
//      datatypes"; then per request its AttributeValue contents and, for a
//      put, "Item size has exceeded the maximum allowed size".
// Execute (engine lock): every table is looked up first (ResourceNotFound
// "Requested resource not found" — before any duplicate check); then per
// request, in order, its key against the schema — an Item's missing or
// mistyped key reads "The provided key element does not match the schema",
// as for a Key; index keys keep "Type mismatch for Index Key ..." — and
// "Provided list of item keys contains duplicates" when two requests target
// one item (also through a name and an ARN of the same table). Any error
// rejects the whole batch before anything is written. A fault decision may
// then leave requests unprocessed (the call's CallFaults, asked with each
// request's table as given and position in its list). The others are applied
// through WriteBatch::Apply in ONE WriteBatch (one SQLite transaction): one
// stream record per changed item, none for deleting a missing item. Output:
// UnprocessedItems ({} when everything was done; else the left requests per
// table, in the request's shape); ConsumedCapacity per table (1 unit per KB of
// the larger of old and new item, deleting a missing item 1; index writes as in
// capacity.h); ItemCollectionMetrics (SIZE) for the tables with LSIs: one entry
// per item collection written, absent if none.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator/engine/call_context.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"
#include "emulator/engine/ops/batch_common.h"
#include "emulator/engine/ops/item_request.h"
#include "emulator/engine/ops/ops_batch.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

constexpr char kRequestListShape[] =
    "java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>";

// A WriteRequest as read in phase 1.
struct RawOp {
  int members = 0;  // how many of DeleteRequest / PutRequest are present
  bool put = false;
  std::optional<value::Item> item;
  std::optional<Error> deferred;  // the first AttributeValue content error
};

struct RawTable {
  std::string name;
  std::vector<RawOp> ops;
};

// `table_path` is the table's list path; the element's path is built only
// for an error (this runs for every request of every call).
RawOp ReadWriteRequest(RequestParser& p, const Json& element,
                       const std::string& table_path, size_t index) {
  RawOp raw;
  const Json* wr = p.StructValue(element, "WriteRequest");
  if (wr == nullptr) {
    p.NotNull(false, ElementPath(table_path, index));
    return raw;
  }
  // Model member order: DeleteRequest, then PutRequest.
  if (const Json* del = p.Struct(*wr, "DeleteRequest", "DeleteRequest")) {
    ++raw.members;
    raw.item = ReadAttributeMap(p, *del, "Key", &raw.deferred);
    if (!raw.item.has_value() && !raw.deferred.has_value()) {
      p.NotNull(false, ElementPath(table_path, index) + ".deleteRequest.key");
    }
  }
  if (const Json* put = p.Struct(*wr, "PutRequest", "PutRequest")) {
    ++raw.members;
    raw.put = true;
    std::optional<Error> deferred;
    std::optional<value::Item> item =
        ReadAttributeMap(p, *put, "Item", &deferred);
    if (!item.has_value() && !deferred.has_value()) {
      p.NotNull(false, ElementPath(table_path, index) + ".putRequest.item");
    }
    if (raw.members == 1) {
      raw.item = std::move(item);
      raw.deferred = std::move(deferred);
    }
  }
  return raw;
}

}  // namespace

Result<BatchWriteRequest> ParseBatchWrite(const Json& request) {
  RequestParser p(request);
  BatchWriteRequest r;
  ReadCapacityMode(p, request, &r.capacity);
  r.collection_metrics = ReadItemCollectionMetrics(p, request);
  const Json* items = p.Map(request, "RequestItems", kRequestListShape);
  p.NotNull(items != nullptr, "requestItems");
  if (items != nullptr && items->empty()) {
    // DynamoDB's own sentence for an empty map, not the length constraint.
    return Error::Validation(
        "The requestItems parameter is required for BatchWriteItem");
  }
  std::vector<RawTable> raws;
  if (items != nullptr) {
    CheckRequestItemsMap(p, *items, kMaxBatchWriteRequests);
    bool bad_length = false;
    for (const Json& list : *items) {
      if (list.is_array() &&
          (list.empty() ||
           static_cast<int64_t>(list.size()) > kMaxBatchWriteRequests)) {
        bad_length = true;
      }
    }
    if (bad_length) {
      p.AddConstraint(FormatConstraintValue(*items), "requestItems",
                      "Map value must satisfy constraint: [Member must have "
                      "length less than or equal to 25, Member must have "
                      "length greater than or equal to 1]");
    }
    for (auto it = items->begin(); it != items->end(); ++it) {
      RawTable& raw = raws.emplace_back();
      raw.name = it.key();
      const Json* list = p.List(*items, it.key());
      if (list == nullptr) {
        p.NotNull(it->is_array(), TableMemberPath(raw.name));
        continue;
      }
      raw.ops.reserve(list->size());
      const std::string table_path = TableMemberPath(raw.name);
      for (size_t i = 0; i < list->size(); ++i) {
        raw.ops.push_back(ReadWriteRequest(p, (*list)[i], table_path, i));
      }
    }
  }
  DDBLAB_RETURN_IF_ERROR(p.Finish());

  int64_t total = 0;
  for (const RawTable& raw : raws)
    total += static_cast<int64_t>(raw.ops.size());
  if (total > kMaxBatchWriteRequests) {
    return Error::Validation(
        "Too many items requested for the BatchWriteItem call");
  }
  r.tables.reserve(raws.size());
  for (RawTable& raw : raws) {
    for (const RawOp& op : raw.ops) {
      if (op.members != 1) {
        return Error::Validation(
            "Supplied AttributeValue has more than one datatypes set, must "
            "contain exactly one of the supported datatypes");
      }
    }
    TableWrite t;
    t.name = std::move(raw.name);
    t.ops.reserve(raw.ops.size());
    for (RawOp& op : raw.ops) {
      if (op.deferred) return *std::move(op.deferred);
      if (op.put && value::ItemSize(*op.item) > value::kMaxItemSize) {
        return Error::Validation(
            "Item size has exceeded the maximum allowed size");
      }
      t.ops.push_back(WriteOp{op.put, std::move(*op.item)});
    }
    r.tables.push_back(std::move(t));
  }
  return r;
}

namespace {

// An Item's key errors read as for a Key parameter in a batch.
Result<PrimaryKey> ItemKey(const Table& table, const value::Item& item) {
  Result<PrimaryKey> key = ValidateItemForWrite(table, item);
  if (key.ok()) return key;
  const std::string& message = key.error().message;
  const std::string prefix(kInvalidParams);
  if (message.rfind(prefix + "Missing the key ", 0) == 0 ||
      message.rfind(prefix + "Type mismatch for key ", 0) == 0) {
    return Error::Validation(
        "The provided key element does not match the schema");
  }
  return key;
}

Json UnprocessedRequest(const WriteOp& op) {
  if (op.put) return {{"PutRequest", {{"Item", value::EncodeItem(op.item)}}}};
  return {{"DeleteRequest", {{"Key", value::EncodeItem(op.item)}}}};
}

}  // namespace

Result<BatchWriteResult> ExecuteBatchWrite(EmulatorImpl& impl,
                                           CallContext& call,
                                           const BatchWriteRequest& r) {
  BatchWriteResult out;
  auto lock = impl.Lock();
  for (const TableWrite& t : r.tables) {
    DDBLAB_ASSIGN_OR_RETURN(Catalog::Entry * entry,
                            impl.FindTable(t.name, TableLookup::kData));
    out.tables.push_back(entry->table);
  }
  // The keys planned so far (at most 25: a linear scan, no allocation per
  // key); the views point into out.planned, reserved so it never moves.
  struct SeenKey {
    int64_t table_id;
    std::string_view pk;
    std::string_view sk;
  };
  std::vector<SeenKey> seen;
  seen.reserve(static_cast<size_t>(kMaxBatchWriteRequests));
  out.planned.resize(r.tables.size());
  for (size_t i = 0; i < r.tables.size(); ++i) {
    const Table& table = *out.tables[i];
    out.planned[i].reserve(r.tables[i].ops.size());
    for (const WriteOp& op : r.tables[i].ops) {
      PlannedWrite p;
      p.op = &op;
      if (op.put) {
        DDBLAB_ASSIGN_OR_RETURN(p.key, ItemKey(table, op.item));
      } else {
        DDBLAB_ASSIGN_OR_RETURN(p.key, ExtractKeyParam(table, op.item));
      }
      for (const SeenKey& k : seen) {
        // Keys of one batch mostly differ in their last byte: test it before
        // comparing whole keys.
        if (k.pk.size() == p.key.pk.size() && !k.pk.empty() &&
            k.pk.back() != p.key.pk.back()) {
          continue;
        }
        if (k.table_id == table.id && k.pk == p.key.pk && k.sk == p.key.sk) {
          return Error::Validation(
              "Provided list of item keys contains duplicates");
        }
      }
      const PrimaryKey& key = out.planned[i].emplace_back(std::move(p)).key;
      seen.push_back({table.id, key.pk, key.sk});
    }
  }
  // Old items first (reads), then every write in one batch. The batch is
  // open for the reads too: they then share its transaction instead of
  // each opening and closing a read transaction of its own.
  WriteBatch batch(impl, call);
  DDBLAB_RETURN_IF_ERROR(batch.Begin());
  std::vector<std::vector<ExistingItem>> olds(r.tables.size());
  for (size_t i = 0; i < r.tables.size(); ++i) {
    olds[i].resize(out.planned[i].size());
    for (size_t k = 0; k < out.planned[i].size(); ++k) {
      PlannedWrite& p = out.planned[i][k];
      if (call.faults.Unprocessed(r.tables[i].name, k)) {
        p.unprocessed = true;
        continue;
      }
      DDBLAB_ASSIGN_OR_RETURN(
          olds[i][k], ExistingItem::Read(impl.store(), *out.tables[i], p.key));
    }
  }
  out.consumed.resize(r.tables.size());
  std::optional<Error> throttle;  // capacity enforcement
  size_t processed = 0;
  for (size_t i = 0; i < r.tables.size(); ++i) {
    for (size_t k = 0; k < out.planned[i].size(); ++k) {
      PlannedWrite& p = out.planned[i][k];
      if (p.unprocessed) continue;
      Status used =
          batch.ApplyInto(*out.tables[i], p.key, olds[i][k],
                          p.op->put ? &p.op->item : nullptr, &out.consumed[i]);
      if (!used.ok() && call.capacity.IsThrottle(used.error())) {
        // Over capacity: not written, back in UnprocessedItems.
        if (!throttle) throttle = used.error();
        p.unprocessed = true;
        continue;
      }
      if (!used.ok()) return used.error();
      ++processed;
    }
  }
  // DynamoDB throws only when no request at all could be processed.
  if (throttle && processed == 0) return *throttle;
  DDBLAB_RETURN_IF_ERROR(batch.Commit());
  return out;
}

Result<Json> RenderBatchWrite(const BatchWriteRequest& r,
                              BatchWriteResult& done) {
  Json unprocessed = Json::object();
  Json metrics = Json::object();
  std::vector<TableConsumed> consumed;
  consumed.reserve(r.tables.size());
  for (size_t i = 0; i < r.tables.size(); ++i) {
    const TableWrite& t = r.tables[i];
    const Table& table = *done.tables[i];
    Json left = Json::array();
    Json collections = Json::array();
    for (const PlannedWrite& p : done.planned[i]) {
      if (p.unprocessed) {
        left.push_back(UnprocessedRequest(*p.op));
        continue;
      }
      if (!r.collection_metrics) continue;
      Json m = ItemCollectionMetricsJson(table, p.op->item);
      if (m.is_null()) continue;
      bool known = false;
      for (const Json& c : collections) {
        known = known || c["ItemCollectionKey"] == m["ItemCollectionKey"];
      }
      if (!known) collections.push_back(std::move(m));
    }
    if (!left.empty()) unprocessed[t.name] = std::move(left);
    if (!collections.empty()) metrics[t.name] = std::move(collections);
    consumed.push_back({t.name, done.consumed[i]});
  }
  Json out = {{"UnprocessedItems", std::move(unprocessed)}};
  Json capacity = ConsumedCapacityList(consumed, r.capacity);
  if (!capacity.is_null()) out["ConsumedCapacity"] = std::move(capacity);
  if (!metrics.empty()) out["ItemCollectionMetrics"] = std::move(metrics);
  return out;
}

}  // namespace ddblab::engine
