#include "emulator/engine/ops/transact_request.h"

#include <deque>
#include <utility>

#include "emulator/engine/ops/item_request.h"
#include "emulator/value/item_size.h"

namespace ddblab::engine {
namespace {

constexpr char kOneOf[] =
    "TransactItems can only contain one of Check, Put, Update or Delete";

// One TransactWriteItems action as read in phase 1.
struct RawWriteAction {
  TransactWriteAction::Kind kind = TransactWriteAction::Kind::kPut;
  int members = 0;  // how many of ConditionCheck/Put/Delete/Update are set
  std::optional<std::string> table_name;
  std::optional<value::Item> item_or_key;
  std::optional<Error> deferred;
  std::optional<ExpressionInput> expr;
  bool old_on_condition_failure = false;
};

void ReadTableName(RequestParser& p, const Json& obj, const std::string& path,
                   std::optional<std::string>* out) {
  *out = p.String(obj, "TableName");
  if (*out) {
    p.CheckTableNameOrArn(*out, path + ".tableName");
  } else {
    p.NotNull(false, path + ".tableName");
  }
}

bool ReadOldOnFailure(RequestParser& p, const Json& obj,
                      const std::string& path) {
  std::optional<std::string> v =
      p.String(obj, "ReturnValuesOnConditionCheckFailure");
  if (!v) return false;
  p.Enum(*v, path + ".returnValuesOnConditionCheckFailure",
         {"ALL_OLD", "NONE"});
  return *v == "ALL_OLD";
}

RawWriteAction ReadWriteAction(RequestParser& p, const Json& element,
                               const std::string& path) {
  RawWriteAction raw;
  const Json* tw = p.StructValue(element, "TransactWriteItem");
  if (tw == nullptr) {
    p.NotNull(false, path);
    return raw;
  }
  struct Member {
    const char* name;
    const char* shape;
    const char* path;
    TransactWriteAction::Kind kind;
  };
  static constexpr Member kMembers[] = {
      {"ConditionCheck", "ConditionCheck", "conditionCheck",
       TransactWriteAction::Kind::kConditionCheck},
      {"Put", "Put", "put", TransactWriteAction::Kind::kPut},
      {"Delete", "Delete", "delete", TransactWriteAction::Kind::kDelete},
      {"Update", "Update", "update", TransactWriteAction::Kind::kUpdate},
  };
  for (const Member& m : kMembers) {
    const Json* a = p.Struct(*tw, m.name, m.shape);
    if (a == nullptr) continue;
    if (++raw.members > 1) continue;
    raw.kind = m.kind;
    const std::string base = path + "." + m.path;
    ReadTableName(p, *a, base, &raw.table_name);
    const bool put = m.kind == TransactWriteAction::Kind::kPut;
    raw.item_or_key =
        ReadAttributeMap(p, *a, put ? "Item" : "Key", &raw.deferred);
    p.NotNull(raw.item_or_key.has_value() || raw.deferred.has_value(),
              base + (put ? ".item" : ".key"));
    const ExpressionSpec& spec = m.kind == TransactWriteAction::Kind::kUpdate
                                     ? kTransactUpdateSpec
                                     : kTransactConditionSpec;
    raw.expr = ReadExpressionInput(p, *a, spec);
    if (m.kind == TransactWriteAction::Kind::kConditionCheck) {
      p.NotNull(raw.expr->condition_text.has_value(),
                base + ".conditionExpression");
    }
    if (m.kind == TransactWriteAction::Kind::kUpdate) {
      p.NotNull(raw.expr->update_text.has_value(), base + ".updateExpression");
    }
    raw.old_on_condition_failure = ReadOldOnFailure(p, *a, base);
  }
  return raw;
}

}  // namespace

Result<TransactWriteRequest> ParseTransactWriteItems(const Json& request,
                                                     ExpressionCache* cache) {
  RequestParser p(request);
  TransactWriteRequest r;
  const Json* list = p.List(request, "TransactItems");
  p.NotNull(list != nullptr, "transactItems");
  // A deque: one small block per action. Two RawWriteActions in one vector
  // pass 1 KB, and every allocation that large makes glibc's malloc
  // consolidate its free lists first (~2,600 instructions per call).
  std::deque<RawWriteAction> raws;
  if (list != nullptr) {
    p.ListLength(*list, "transactItems", 1, kMaxTransactActions);
    for (size_t i = 0; i < list->size(); ++i) {
      raws.push_back(
          ReadWriteAction(p, (*list)[i], ElementPath("transactItems", i)));
    }
  }
  r.token = p.String(request, "ClientRequestToken");
  if (r.token) p.Length(*r.token, "clientRequestToken", 1, 36);
  ReadCapacityMode(p, request, &r.capacity);
  r.collection_metrics = ReadItemCollectionMetrics(p, request);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  for (const RawWriteAction& raw : raws) {
    if (raw.members != 1) return Error::Validation(kOneOf);
  }
  size_t aggregate = 0;
  r.actions.reserve(raws.size());
  for (RawWriteAction& raw : raws) {
    TransactWriteAction a;
    a.kind = raw.kind;
    DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(*raw.expr));
    if (raw.deferred) return *std::move(raw.deferred);
    if (a.kind == TransactWriteAction::Kind::kPut) {
      const size_t size = value::ItemSize(*raw.item_or_key);
      if (size > value::kMaxItemSize) {
        return Error::Validation(
            "Item size has exceeded the maximum allowed size");
      }
      aggregate += size;
      a.item = std::move(*raw.item_or_key);
    } else {
      a.key = std::move(*raw.item_or_key);
    }
    DDBLAB_ASSIGN_OR_RETURN(a.expr,
                            ParseExpressions(std::move(*raw.expr), cache));
    a.table_name = std::move(*raw.table_name);
    a.old_on_condition_failure = raw.old_on_condition_failure;
    r.actions.push_back(std::move(a));
  }
  DDBLAB_RETURN_IF_ERROR(CheckTransactPayloadSize(aggregate));
  return r;
}

Status CheckTransactPayloadSize(size_t bytes) {
  if (bytes <= kMaxTransactBytes) return OkStatus();
  // DynamoDB Local's text (2026-05-28), the size being the sum of the items'
  // sizes; DynamoDB publishes none.
  return Error::Validation(
      "Transaction payload size cannot exceed 4MB. Payload Size: " +
      std::to_string(bytes));
}

Result<TransactGetRequest> ParseTransactGetItems(const Json& request,
                                                 ExpressionCache* cache) {
  RequestParser p(request);
  TransactGetRequest r;
  const Json* list = p.List(request, "TransactItems");
  p.NotNull(list != nullptr, "transactItems");
  struct RawGet {
    std::optional<std::string> table_name;
    std::optional<value::Item> key;
    std::optional<Error> deferred;
    std::optional<ExpressionInput> expr;
  };
  std::vector<RawGet> raws;
  if (list != nullptr) {
    p.ListLength(*list, "transactItems", 1, kMaxTransactActions);
    raws.resize(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string path = ElementPath("transactItems", i);
      const Json* tg = p.StructValue((*list)[i], "TransactGetItem");
      const Json* get = tg ? p.Struct(*tg, "Get", "Get") : nullptr;
      p.NotNull(get != nullptr, path + ".get");
      if (get == nullptr) continue;
      RawGet& raw = raws[i];
      ReadTableName(p, *get, path + ".get", &raw.table_name);
      raw.key = ReadAttributeMap(p, *get, "Key", &raw.deferred);
      p.NotNull(raw.key.has_value() || raw.deferred.has_value(),
                path + ".get.key");
      raw.expr = ReadExpressionInput(p, *get, kTransactGetSpec);
    }
  }
  ReadCapacityMode(p, request, &r.capacity);
  DDBLAB_RETURN_IF_ERROR(p.Finish());
  r.actions.reserve(raws.size());
  for (RawGet& raw : raws) {
    TransactGetAction a;
    DDBLAB_RETURN_IF_ERROR(CheckExpressionStyles(*raw.expr));
    if (raw.deferred) return *std::move(raw.deferred);
    DDBLAB_ASSIGN_OR_RETURN(a.expr,
                            ParseExpressions(std::move(*raw.expr), cache));
    a.table_name = std::move(*raw.table_name);
    a.key = std::move(*raw.key);
    r.actions.push_back(std::move(a));
  }
  return r;
}

}  // namespace ddblab::engine
