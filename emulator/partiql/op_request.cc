// DynamoDB JSON of a plan's requests (see op_request.h).
#include "emulator/partiql/op_request.h"

#include "emulator/value/codec.h"

namespace ddblab::partiql {
namespace {

using Json = nlohmann::json;

void SetText(Json* out, const char* member,
             const std::optional<std::string>& text) {
  if (text) (*out)[member] = *text;
}

void SetString(Json* out, const char* member, const std::string& text) {
  if (!text.empty()) (*out)[member] = text;
}

const char* ActionMember(TransactAction action) {
  switch (action) {
    case TransactAction::kGet:
      return "Get";
    case TransactAction::kConditionCheck:
      return "ConditionCheck";
    case TransactAction::kPut:
      return "Put";
    case TransactAction::kUpdate:
      return "Update";
    case TransactAction::kDelete:
      return "Delete";
  }
  return "ConditionCheck";
}

}  // namespace

Json ToJson(const OpRequest& r) {
  Json out = {{"TableName", r.table_name}};
  if (r.index_name) out["IndexName"] = *r.index_name;
  if (r.key) out["Key"] = value::EncodeItem(*r.key);
  if (r.item) out["Item"] = value::EncodeItem(*r.item);
  SetText(&out, "ConditionExpression", r.condition_expression);
  SetText(&out, "UpdateExpression", r.update_expression);
  SetText(&out, "KeyConditionExpression", r.key_condition_expression);
  SetText(&out, "FilterExpression", r.filter_expression);
  SetText(&out, "ProjectionExpression", r.projection_expression);
  if (!r.names.empty()) {
    Json names = Json::object();
    for (const auto& [key, name] : r.names) names[key] = name;
    out["ExpressionAttributeNames"] = std::move(names);
  }
  if (!r.values.empty()) {
    Json values = Json::object();
    for (const auto& [key, v] : r.values) {
      values[key] = value::EncodeAttributeValue(v);
    }
    out["ExpressionAttributeValues"] = std::move(values);
  }
  if (r.consistent_read) out["ConsistentRead"] = true;
  if (!r.scan_index_forward) out["ScanIndexForward"] = false;
  SetString(&out, "ReturnValues", r.return_values);
  SetString(&out, "ReturnValuesOnConditionCheckFailure",
            r.return_values_on_condition_check_failure);
  SetString(&out, "ReturnConsumedCapacity", r.return_consumed_capacity);
  if (r.limit) out["Limit"] = *r.limit;
  if (!r.exclusive_start_key.is_null()) {
    out["ExclusiveStartKey"] = r.exclusive_start_key;
  }
  return out;
}

Json TransactItemsJson(const TransactRequest& r) {
  Json items = Json::array();
  for (const TransactItem& item : r.items) {
    Json member = ToJson(item.request);
    member.erase("ConsistentRead");
    items.push_back({{ActionMember(item.action), std::move(member)}});
  }
  return items;
}

Json ToJson(const TransactRequest& r) {
  Json out = {{"TransactItems", TransactItemsJson(r)}};
  SetString(&out, "ReturnConsumedCapacity", r.return_consumed_capacity);
  if (r.write) SetString(&out, "ClientRequestToken", r.client_request_token);
  return out;
}

}  // namespace ddblab::partiql
