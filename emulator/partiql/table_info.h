// emulator/partiql/table_info.h: what the translator needs to know about a
// table, read from a DescribeTable response: the key schema, the key
// attribute types and the secondary indexes.
//
// Thread-safety: a plain value type.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::partiql {

struct KeySchema {
  std::string hash;
  std::optional<std::string> range;
  // The other attributes of a multi-attribute GSI key (KeySchema order).
  std::vector<std::string> more;

  // The key attribute names, hash first.
  std::vector<std::string> Names() const;
  bool Multi() const { return !more.empty(); }
};

struct IndexInfo {
  std::string name;
  bool global = true;
  KeySchema keys;
  std::string projection_type = "ALL";  // ALL | KEYS_ONLY | INCLUDE
  std::vector<std::string> non_key_attributes;
};

struct TableInfo {
  std::string name;
  KeySchema keys;
  // AttributeDefinitions: name -> "S" | "N" | "B".
  std::map<std::string, std::string> attribute_types;
  std::vector<IndexInfo> indexes;
  // Vector indexes (not readable through PartiQL).
  std::vector<std::string> vector_indexes;

  bool HasVectorIndex(const std::string& index_name) const;
  const IndexInfo* FindIndex(const std::string& name) const;

  // From the body of a DescribeTable response ({"Table": {...}}).
  static Result<TableInfo> FromDescribeTable(const nlohmann::json& response);

 private:
  static Result<TableInfo> FromDescribeTableUnchecked(
      const nlohmann::json& response);
};

}  // namespace ddblab::partiql
