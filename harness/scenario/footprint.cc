// Steps' footprints and their dependence (footprint.h).
#include "harness/scenario/footprint.h"

#include <algorithm>

#include "harness/scenario/unmatched_rules.h"

namespace ddblab::harness::scenario {
namespace {

bool Overlap(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() || a == b;
}

bool Conflict(const Access& a, const Access& b) {
  if (!a.write && !b.write) return false;
  if (a.kind != b.kind || !Overlap(a.table, b.table)) return false;
  return a.kind != Access::Kind::kItem || Overlap(a.item, b.item);
}

// The table a name or ARN names ("" when there is none).
std::string TableOf(const json& request) {
  std::vector<std::string> tables = TablesOfRequest(request);
  return tables.empty() ? "" : tables.front();
}

std::string TableNamed(const std::string& name_or_arn) {
  return TableOf(json{{"TableName", name_or_arn}});
}

const json* Member(const json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace

void Footprint::Add(const Footprint& other) {
  for (const Access& a : other.accesses) {
    if (std::find(accesses.begin(), accesses.end(), a) == accesses.end()) {
      accesses.push_back(a);
    }
  }
  everything = everything || other.everything;
  fault = fault || other.fault;
}

bool Dependent(const Footprint& a, const Footprint& b) {
  if (a.everything || b.everything || (a.fault && b.fault)) return true;
  for (const Access& x : a.accesses) {
    for (const Access& y : b.accesses) {
      if (Conflict(x, y)) return true;
    }
  }
  return false;
}

void TableShapes::Note(const json& create_table) {
  const json* name = Member(create_table, "TableName");
  if (!name || !name->is_string()) return;
  Shape shape;
  if (const json* schema = Member(create_table, "KeySchema");
      schema && schema->is_array()) {
    for (const json& element : *schema) {
      const json* attribute = Member(element, "AttributeName");
      if (attribute && attribute->is_string()) {
        shape.key.push_back(attribute->get<std::string>());
      }
    }
  }
  if (const json* spec = Member(create_table, "StreamSpecification")) {
    const json* enabled = Member(*spec, "StreamEnabled");
    shape.stream = !enabled || !enabled->is_boolean() || enabled->get<bool>();
  }
  shapes_[TableNamed(name->get<std::string>())] = std::move(shape);
}

void TableShapes::AddItem(const std::string& table, const json& key_or_item,
                          bool is_item, bool write, Footprint* out) const {
  auto shape = shapes_.find(table);
  Access access{Access::Kind::kItem, table, "", write};
  if (key_or_item.is_object()) {
    if (!is_item) {
      access.item = key_or_item.dump();
    } else if (shape != shapes_.end() && !shape->second.key.empty()) {
      json key = json::object();
      for (const std::string& attribute : shape->second.key) {
        if (const json* value = Member(key_or_item, attribute.c_str())) {
          key[attribute] = *value;
        }
      }
      access.item = key.dump();
    }
  }
  if (access.item == "{}") access.item.clear();
  out->accesses.push_back(access);
  if (write && (shape == shapes_.end() || shape->second.stream)) {
    out->accesses.push_back({Access::Kind::kStream, table, "", true});
  }
}

Footprint TableShapes::OfCall(std::string_view op, const json& request) const {
  Footprint out;
  const std::string table = TableOf(request);
  const json null;
  const auto member = [&](const json& object, const char* name) -> const json& {
    const json* found = Member(object, name);
    return found ? *found : null;
  };
  if (op == "GetItem" || op == "PutItem" || op == "UpdateItem" ||
      op == "DeleteItem") {
    const bool put = op == "PutItem";
    AddItem(table, member(request, put ? "Item" : "Key"), put, op != "GetItem",
            &out);
  } else if (op == "Query" || op == "Scan") {
    out.accesses.push_back({Access::Kind::kItem, table, "", false});
  } else if (op == "BatchGetItem" || op == "BatchWriteItem") {
    const json& items = member(request, "RequestItems");
    if (!items.is_object()) out.everything = true;
    for (const auto& [name, value] : items.items()) {
      const std::string t = TableNamed(name);
      if (op == "BatchGetItem") {
        const json& keys = member(value, "Keys");
        if (!keys.is_array()) AddItem(t, null, false, false, &out);
        for (const json& key : keys) AddItem(t, key, false, false, &out);
        continue;
      }
      if (!value.is_array()) out.everything = true;
      for (const json& write : value) {
        if (const json* put = Member(write, "PutRequest")) {
          AddItem(t, member(*put, "Item"), true, true, &out);
        } else if (const json* del = Member(write, "DeleteRequest")) {
          AddItem(t, member(*del, "Key"), false, true, &out);
        } else {
          out.everything = true;
        }
      }
    }
  } else if (op == "TransactWriteItems" || op == "TransactGetItems") {
    const json& items = member(request, "TransactItems");
    if (!items.is_array()) out.everything = true;
    for (const json& element : items) {
      if (!element.is_object() || element.empty()) out.everything = true;
      for (const auto& [kind, body] : element.items()) {
        const std::string t = TableOf(body);
        const bool put = kind == "Put";
        AddItem(t, member(body, put ? "Item" : "Key"), put,
                kind != "Get" && kind != "ConditionCheck", &out);
      }
    }
  } else if (op == "ListTables" || op == "DescribeTable" ||
             op == "DescribeTimeToLive" || op == "ListStreams" ||
             op == "DescribeContinuousBackups" || op == "ListTagsOfResource") {
    out.accesses.push_back({Access::Kind::kCatalog, "", "", false});
  } else if (op == "DescribeStream" || op == "GetShardIterator" ||
             op == "GetRecords") {
    // GetRecords names a shard iterator, not a table: every stream.
    out.accesses.push_back({Access::Kind::kStream, table, "", false});
  } else {
    out.everything = true;
  }
  return out;
}

}  // namespace ddblab::harness::scenario
