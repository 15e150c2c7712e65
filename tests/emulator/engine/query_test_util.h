// tests/emulator/engine/query_test_util.h: the fixtures of the Query tests
// (query_test.cc, query_index_test.cc): a table "tbl" with an LSI and three
// GSIs, a hash-only table "hash", and small JSON helpers.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {

inline Json S(const std::string& s) { return {{"S", s}}; }
inline Json N(const std::string& n) { return {{"N", n}}; }

// The values of `attr` in `items` ("-" where absent), as their S or N text.
inline std::vector<std::string> Column(const Json& items,
                                       const std::string& attr) {
  std::vector<std::string> out;
  for (const Json& item : items) {
    if (!item.contains(attr)) {
      out.push_back("-");
    } else if (item[attr].contains("S")) {
      out.push_back(item[attr]["S"].get<std::string>());
    } else if (item[attr].contains("N")) {
      out.push_back(item[attr]["N"].get<std::string>());
    } else {
      out.push_back("?");
    }
  }
  return out;
}

using Strings = std::vector<std::string>;

class QueryTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    // "tbl": pk S, sk N; LSI "lsi" on lsk (KEYS_ONLY); GSIs "gall" (g, gs;
    // ALL), "gkeys" (g; KEYS_ONLY), "ginc" (g, gs; INCLUDE x).
    Ok("CreateTable",
       {{"TableName", "tbl"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
          {{"AttributeName", "sk"}, {"AttributeType", "N"}},
          {{"AttributeName", "lsk"}, {"AttributeType", "S"}},
          {{"AttributeName", "g"}, {"AttributeType", "S"}},
          {{"AttributeName", "gs"}, {"AttributeType", "N"}}}},
        {"KeySchema",
         {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
          {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}}},
        {"LocalSecondaryIndexes",
         {{{"IndexName", "lsi"},
           {"KeySchema",
            {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
             {{"AttributeName", "lsk"}, {"KeyType", "RANGE"}}}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "gall"},
           {"KeySchema",
            {{{"AttributeName", "g"}, {"KeyType", "HASH"}},
             {{"AttributeName", "gs"}, {"KeyType", "RANGE"}}}},
           {"Projection", {{"ProjectionType", "ALL"}}}},
          {{"IndexName", "gkeys"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}},
          {{"IndexName", "ginc"},
           {"KeySchema",
            {{{"AttributeName", "g"}, {"KeyType", "HASH"}},
             {{"AttributeName", "gs"}, {"KeyType", "RANGE"}}}},
           {"Projection",
            {{"ProjectionType", "INCLUDE"}, {"NonKeyAttributes", {"x"}}}}}}}});
    CreateTable("hash", "pk");
  }

  void Put(const std::string& table, const Json& item) {
    Ok("PutItem", {{"TableName", table}, {"Item", item}});
  }

  // Items pk=p, sk=n for each n, with x = "x<n>".
  void PutNumbers(const std::string& p, const Strings& numbers) {
    for (const std::string& n : numbers) {
      Put("tbl", {{"pk", S(p)}, {"sk", N(n)}, {"x", S("x" + n)}});
    }
  }

  Json Query(Json request) {
    if (!request.contains("TableName")) request["TableName"] = "tbl";
    return Ok("Query", request);
  }
  std::string QueryError(Json request) {
    if (!request.contains("TableName")) request["TableName"] = "tbl";
    return FailText("Query", request);
  }

  // Pages of a query until LastEvaluatedKey is absent; the Count of each.
  std::vector<int64_t> PageCounts(Json request, Json* all_items) {
    std::vector<int64_t> counts;
    for (int guard = 0; guard < 100; ++guard) {
      Json page = Query(request);
      counts.push_back(page["Count"].get<int64_t>());
      for (const Json& item : page["Items"]) all_items->push_back(item);
      if (!page.contains("LastEvaluatedKey")) break;
      request["ExclusiveStartKey"] = page["LastEvaluatedKey"];
    }
    return counts;
  }

  static Json Pk(const std::string& p) {
    return {{"KeyConditionExpression", "pk = :p"},
            {"ExpressionAttributeValues", {{":p", S(p)}}}};
  }
};

inline constexpr char kVE[] = "ValidationException: ";

inline std::string VE(const std::string& message) { return kVE + message; }

// ---------------------------------------------------------------------------
// Indexes

class QueryIndexTest : public QueryTest {
 protected:
  void SetUp() override {
    QueryTest::SetUp();
    Put("tbl", {{"pk", S("a")},
                {"sk", N("1")},
                {"g", S("G")},
                {"gs", N("30")},
                {"x", S("xa1")},
                {"y", S("ya1")},
                {"lsk", S("m")}});
    Put("tbl", {{"pk", S("a")},
                {"sk", N("2")},
                {"g", S("G")},
                {"gs", N("10")},
                {"x", S("xa2")},
                {"lsk", S("k")}});
    Put("tbl", {{"pk", S("b")},
                {"sk", N("1")},
                {"g", S("G")},
                {"gs", N("20")},
                {"y", S("yb1")}});
    Put("tbl", {{"pk", S("c")}, {"sk", N("1")}, {"g", S("H")}, {"gs", N("5")}});
    // Sparse: no g, not in the GSIs; no lsk, not in the LSI.
    Put("tbl", {{"pk", S("d")}, {"sk", N("1")}, {"x", S("xd1")}});
  }

  Json G(const std::string& index, const std::string& g = "G") {
    return {{"TableName", "tbl"},
            {"IndexName", index},
            {"KeyConditionExpression", "g = :g"},
            {"ExpressionAttributeValues", {{":g", S(g)}}}};
  }
};

}  // namespace ddblab::engine::testing
