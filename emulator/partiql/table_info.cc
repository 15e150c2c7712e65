#include "emulator/partiql/table_info.h"

namespace ddblab::partiql {
namespace {

using Json = nlohmann::json;

KeySchema ReadKeySchema(const Json& elements) {
  KeySchema keys;
  if (!elements.is_array()) return keys;
  for (const Json& element : elements) {
    if (!element.is_object()) continue;
    std::string name = element.value("AttributeName", "");
    std::string type = element.value("KeyType", "");
    // A multi-attribute GSI key lists several HASH / RANGE elements: the
    // first of each kind fills hash/range, the others go to `more`.
    if (type == "HASH") {
      (keys.hash.empty() ? keys.hash : keys.more.emplace_back()) = name;
    } else if (type == "RANGE") {
      if (keys.range) {
        keys.more.push_back(name);
      } else {
        keys.range = name;
      }
    }
  }
  return keys;
}

void ReadIndexes(const Json& list, bool global, std::vector<IndexInfo>* out) {
  if (!list.is_array()) return;
  for (const Json& index : list) {
    if (!index.is_object()) continue;
    IndexInfo info;
    info.name = index.value("IndexName", "");
    info.global = global;
    info.keys = ReadKeySchema(index.value("KeySchema", Json::array()));
    const Json projection = index.value("Projection", Json::object());
    if (projection.is_object()) {
      info.projection_type = projection.value("ProjectionType", "ALL");
      const Json non_key = projection.value("NonKeyAttributes", Json::array());
      if (non_key.is_array()) {
        for (const Json& name : non_key) {
          if (name.is_string()) {
            info.non_key_attributes.push_back(name.get<std::string>());
          }
        }
      }
    }
    out->push_back(std::move(info));
  }
}

}  // namespace

std::vector<std::string> KeySchema::Names() const {
  std::vector<std::string> names{hash};
  if (range) names.push_back(*range);
  names.insert(names.end(), more.begin(), more.end());
  return names;
}

bool TableInfo::HasVectorIndex(const std::string& index_name) const {
  for (const std::string& v : vector_indexes) {
    if (v == index_name) return true;
  }
  return false;
}

const IndexInfo* TableInfo::FindIndex(const std::string& index_name) const {
  for (const IndexInfo& index : indexes) {
    if (index.name == index_name) return &index;
  }
  return nullptr;
}

Result<TableInfo> TableInfo::FromDescribeTable(const Json& response) {
  try {
    return FromDescribeTableUnchecked(response);
  } catch (const nlohmann::json::exception& e) {
    return Error::Internal(std::string("Unreadable DescribeTable answer: ") +
                           e.what());
  }
}

Result<TableInfo> TableInfo::FromDescribeTableUnchecked(const Json& response) {
  if (!response.is_object() || !response.contains("Table") ||
      !response["Table"].is_object()) {
    return Error::Internal("DescribeTable answered without a Table");
  }
  const Json& table = response["Table"];
  TableInfo info;
  info.name = table.value("TableName", "");
  info.keys = ReadKeySchema(table.value("KeySchema", Json::array()));
  if (info.keys.hash.empty()) {
    return Error::Internal("DescribeTable answered without a HASH key");
  }
  const Json definitions = table.value("AttributeDefinitions", Json::array());
  if (definitions.is_array()) {
    for (const Json& d : definitions) {
      if (!d.is_object()) continue;
      info.attribute_types[d.value("AttributeName", "")] =
          d.value("AttributeType", "");
    }
  }
  ReadIndexes(table.value("GlobalSecondaryIndexes", Json::array()), true,
              &info.indexes);
  ReadIndexes(table.value("LocalSecondaryIndexes", Json::array()), false,
              &info.indexes);
  for (const Json& v : table.value("VectorIndexes", Json::array())) {
    if (v.is_object() && v.value("IndexName", Json()).is_string()) {
      info.vector_indexes.push_back(v["IndexName"].get<std::string>());
    }
  }
  return info;
}

}  // namespace ddblab::partiql
