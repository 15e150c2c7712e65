// tests/emulator/engine/vector_test_util.h: a fixture for vector index tests
// — tables with vector indexes, items with vectors, SearchVectors calls.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {

class VectorEngineTest : public EngineTest {
 protected:
  // {"L": [{"N": "1"}, ...]} of the given number texts.
  static Json Vec(const std::vector<std::string>& numbers) {
    Json list = Json::array();
    for (const std::string& n : numbers) list.push_back({{"N", n}});
    return {{"L", list}};
  }
  // The bare SearchVector list.
  static Json Query(const std::vector<std::string>& numbers) {
    return Vec(numbers)["L"];
  }
  // One VectorIndex definition on attribute "embedding".
  static Json Index(const std::string& name, int64_t dims,
                    const std::string& distance = "COSINE",
                    Json schema = nullptr, Json projection = nullptr) {
    Json index{
        {"IndexName", name},
        {"VectorAttribute", {{"AttributeName", "embedding"}}},
        {"Dimensions", dims},
        {"DistanceFunction", distance},
        {"Projection",
         projection.is_null() ? Json{{"ProjectionType", "ALL"}} : projection}};
    if (!schema.is_null()) index["SearchSchema"] = schema;
    return index;
  }
  // A PAY_PER_REQUEST table keyed by pk:S with `indexes`; `defs` are the
  // extra AttributeDefinitions ({name, type}).
  static Json TableRequest(
      const std::string& name, std::vector<Json> indexes,
      const std::vector<std::pair<std::string, std::string>>& defs = {}) {
    Json attrs =
        Json::array({{{"AttributeName", "pk"}, {"AttributeType", "S"}}});
    for (const auto& [n, t] : defs) {
      attrs.push_back({{"AttributeName", n}, {"AttributeType", t}});
    }
    return {{"TableName", name},
            {"BillingMode", "PAY_PER_REQUEST"},
            {"AttributeDefinitions", attrs},
            {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
            {"VectorIndexes", indexes}};
  }
  // Puts {pk, embedding: vec} plus `extra`.
  void PutVec(const std::string& table, const std::string& pk,
              const std::vector<std::string>& vec,
              Json extra = Json::object()) {
    extra["pk"] = {{"S", pk}};
    extra["embedding"] = Vec(vec);
    Ok("PutItem", {{"TableName", table}, {"Item", extra}});
  }
  Json SearchRequest(const std::string& table, const std::string& index,
                     const std::vector<std::string>& query, int64_t top_k) {
    return {{"TableName", table},
            {"IndexName", index},
            {"SearchVector", Query(query)},
            {"TopK", top_k}};
  }
  // The pk of each result, in order.
  static std::vector<std::string> Pks(const Json& response) {
    std::vector<std::string> out;
    for (const Json& r : response["SearchResults"]) {
      out.push_back(r["Item"]["pk"]["S"].get<std::string>());
    }
    return out;
  }
  static std::vector<double> Scores(const Json& response) {
    std::vector<double> out;
    for (const Json& r : response["SearchResults"]) {
      out.push_back(r["Score"].get<double>());
    }
    return out;
  }
};

}  // namespace ddblab::engine::testing
