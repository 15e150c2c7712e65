// Reading tables and items out of request JSON (call.h).
#include "emulator/fault/call.h"

#include <algorithm>

namespace ddblab::fault {
namespace {

using Json = nlohmann::json;

const Json* Member(const Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

std::string StringMember(const Json& object, const char* name) {
  const Json* m = Member(object, name);
  return m != nullptr && m->is_string() ? m->get<std::string>() : "";
}

void AddTable(CallView& view, const std::string& given) {
  if (given.empty()) return;
  std::string name = TableNameOf(given);
  if (std::find(view.tables.begin(), view.tables.end(), name) ==
      view.tables.end()) {
    view.tables.push_back(std::move(name));
  }
}

void AddItem(CallView& view, const std::string& given, size_t position,
             const Json* item) {
  AddTable(view, given);
  CallItem c;
  c.table = TableNameOf(given);
  c.given_table = given;
  c.position = position;
  c.item = item != nullptr && item->is_object() ? item : nullptr;
  view.items.push_back(std::move(c));
}

void DescribeBatchWrite(CallView& view, const Json& request) {
  const Json* items = Member(request, "RequestItems");
  if (items == nullptr || !items->is_object()) return;
  for (const auto& [table, list] : items->items()) {
    AddTable(view, table);
    if (!list.is_array()) continue;
    for (size_t i = 0; i < list.size(); ++i) {
      const Json* item = nullptr;
      if (const Json* put = Member(list[i], "PutRequest")) {
        item = Member(*put, "Item");
      } else if (const Json* del = Member(list[i], "DeleteRequest")) {
        item = Member(*del, "Key");
      }
      AddItem(view, table, i, item);
    }
  }
}

void DescribeBatchGet(CallView& view, const Json& request) {
  const Json* items = Member(request, "RequestItems");
  if (items == nullptr || !items->is_object()) return;
  for (const auto& [table, entry] : items->items()) {
    AddTable(view, table);
    const Json* keys = Member(entry, "Keys");
    if (keys == nullptr || !keys->is_array()) continue;
    for (size_t i = 0; i < keys->size(); ++i) {
      AddItem(view, table, i, &(*keys)[i]);
    }
  }
}

void DescribeTransact(CallView& view, const Json& request) {
  const Json* actions = Member(request, "TransactItems");
  if (actions == nullptr || !actions->is_array()) return;
  view.actions = actions->size();
  for (size_t i = 0; i < actions->size(); ++i) {
    const Json& action = (*actions)[i];
    const Json* body = nullptr;
    if (action.is_object() && action.size() == 1)
      body = &action.begin().value();
    if (body == nullptr || !body->is_object()) {
      CallItem empty;
      empty.position = i;
      view.items.push_back(std::move(empty));
      continue;
    }
    const Json* item = Member(*body, "Key");
    if (item == nullptr) item = Member(*body, "Item");
    AddItem(view, StringMember(*body, "TableName"), i, item);
  }
}

}  // namespace

std::string TableNameOf(std::string_view name_or_arn) {
  if (name_or_arn.rfind("arn:", 0) != 0) return std::string(name_or_arn);
  size_t pos = name_or_arn.find(":table/");
  if (pos == std::string_view::npos) return std::string(name_or_arn);
  std::string_view rest = name_or_arn.substr(pos + 7);
  size_t end = rest.find_first_of("/|");
  return std::string(rest.substr(0, end));
}

CallView DescribeCall(Operation operation, const nlohmann::json& request) {
  CallView view;
  view.api = InfoOf(operation).api;
  view.operation = operation;
  switch (operation) {
    case Operation::kGetRecords:
      AddTable(view, StringMember(request, "ShardIterator"));
      break;
    case Operation::kListStreams:
      AddTable(view, StringMember(request, "TableName"));
      break;
    case Operation::kDescribeStream:
    case Operation::kGetShardIterator:
      AddTable(view, StringMember(request, "StreamArn"));
      break;
    case Operation::kBatchWriteItem:
      DescribeBatchWrite(view, request);
      break;
    case Operation::kBatchGetItem:
      DescribeBatchGet(view, request);
      break;
    case Operation::kTransactWriteItems:
    case Operation::kTransactGetItems:
      DescribeTransact(view, request);
      break;
    case Operation::kPutItem:
      AddItem(view, StringMember(request, "TableName"), 0,
              Member(request, "Item"));
      break;
    case Operation::kGetItem:
    case Operation::kUpdateItem:
    case Operation::kDeleteItem:
      AddItem(view, StringMember(request, "TableName"), 0,
              Member(request, "Key"));
      break;
    default:
      if (const Json* arn = Member(request, "ResourceArn");
          arn != nullptr && arn->is_string()) {
        AddTable(view, arn->get<std::string>());
      } else {
        AddTable(view, StringMember(request, "TableName"));
      }
      break;
  }
  return view;
}

}  // namespace ddblab::fault
