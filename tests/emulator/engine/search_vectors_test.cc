// SearchVectors through the engine (ops/ops_search_vectors.cc): scores and
// order of the three distance functions, TopK, SearchConditionExpression
// and its errors, projections, the float32 copies, ConsumedCapacity.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/emulator/engine/vector_test_util.h"

namespace ddblab::engine::testing {
namespace {

class SearchVectorsTest : public VectorEngineTest {
 protected:
  // "m": three indexes on one 3-dimension attribute, one per function, and
  // four items: a [1,0,0], b [0,1,0], c [-1,0,0], d [0.6,0.8,0].
  void MakeMetricTable() {
    Ok("CreateTable", TableRequest("mmm", {Index("cos", 3, "COSINE"),
                                           Index("l2x", 3, "EUCLIDEAN"),
                                           Index("dot", 3, "DOT_PRODUCT")}));
    PutVec("mmm", "a", {"1", "0", "0"});
    PutVec("mmm", "b", {"0", "1", "0"});
    PutVec("mmm", "ccc", {"-1", "0", "0"});
    PutVec("mmm", "d", {"0.6", "0.8", "0"});
  }
  // "h": HASH tenant:S, INLINE_FILTER year:N; 3 dimensions.
  void MakeSchemaTable() {
    Json schema = Json::array(
        {{{"AttributeName", "tenant"}, {"SearchSchemaElementType", "HASH"}},
         {{"AttributeName", "year"},
          {"SearchSchemaElementType", "INLINE_FILTER"}}});
    Ok("CreateTable", TableRequest("hhh",
                                   {Index("vix", 3, "EUCLIDEAN", schema,
                                          {{"ProjectionType", "KEYS_ONLY"}})},
                                   {{"tenant", "S"}, {"year", "N"}}));
  }
  Json Search(Json request) { return Ok("SearchVectors", request); }
  std::string SearchFails(Json request) {
    return FailText("SearchVectors", request);
  }
  Json Conditioned(const std::string& expression, Json values,
                   Json names = nullptr) {
    Json req = SearchRequest("hhh", "vix", {"1", "0", "0"}, 10);
    req["SearchConditionExpression"] = expression;
    if (!values.is_null()) req["ExpressionAttributeValues"] = values;
    if (!names.is_null()) req["ExpressionAttributeNames"] = names;
    return req;
  }
};

// The float32 values of d, as the scores see them.
const double kD0 = static_cast<double>(0.6f);
const double kD1 = static_cast<double>(0.8f);

TEST_F(SearchVectorsTest, CosineScoresAreDistancesAscending) {
  MakeMetricTable();
  Json out = Search(SearchRequest("mmm", "cos", {"1", "0", "0"}, 10));
  EXPECT_EQ(Pks(out), (std::vector<std::string>{"a", "d", "b", "ccc"}));
  const double d = 1 - kD0 / std::sqrt(kD0 * kD0 + kD1 * kD1);
  EXPECT_EQ(Scores(out), (std::vector<double>{0.0, d, 1.0, 2.0}));
  EXPECT_NEAR(Scores(out)[1], 0.4, 1e-7);
  // Exactly the two keys of the body.
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(out["SearchResults"][0].size(), 2u);
}

TEST_F(SearchVectorsTest, EuclideanScoresAreL2DistancesAscending) {
  MakeMetricTable();
  Json out = Search(SearchRequest("mmm", "l2x", {"1", "0", "0"}, 10));
  EXPECT_EQ(Pks(out), (std::vector<std::string>{"a", "d", "b", "ccc"}));
  const double d = std::sqrt((1 - kD0) * (1 - kD0) + kD1 * kD1);
  EXPECT_EQ(Scores(out), (std::vector<double>{0.0, d, std::sqrt(2.0), 2.0}));
}

TEST_F(SearchVectorsTest, DotProductScoresDescending) {
  MakeMetricTable();
  Json out = Search(SearchRequest("mmm", "dot", {"1", "0", "0"}, 10));
  EXPECT_EQ(Pks(out), (std::vector<std::string>{"a", "d", "b", "ccc"}));
  EXPECT_EQ(Scores(out), (std::vector<double>{1.0, kD0, 0.0, -1.0}));
  // TopK cuts the ranking.
  EXPECT_EQ(Pks(Search(SearchRequest("mmm", "dot", {"1", "0", "0"}, 2))),
            (std::vector<std::string>{"a", "d"}));
}

TEST_F(SearchVectorsTest, RequestErrors) {
  MakeMetricTable();
  Json req = SearchRequest("mmm", "cos", {"1", "0", "0"}, 101);
  EXPECT_EQ(SearchFails(req),
            "ValidationException: Provided TopK value '101' is out of valid "
            "range. The value must be between 1 and 100 inclusive");
  EXPECT_EQ(SearchFails(SearchRequest("mmm", "cos", {"1", "0", "0"}, 0)),
            "ValidationException: 1 validation error detected: Value '0' at "
            "'topK' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1");
  EXPECT_EQ(SearchFails(SearchRequest("mmm", "ab", {"1", "0", "0"}, 1)),
            "ValidationException: 1 validation error detected: Value at "
            "'IndexName' failed to satisfy constraint: Member must have "
            "length greater than or equal to 3");
  EXPECT_EQ(SearchFails(SearchRequest("mmm", "cos", {}, 1)),
            "ValidationException: 1 validation error detected: Value at "
            "'SearchVector' failed to satisfy constraint: Member must have "
            "length greater than or equal to 1");
  EXPECT_EQ(SearchFails(SearchRequest("nope", "cos", {"1", "0", "0"}, 1)),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(SearchFails(SearchRequest("mmm", "zzz", {"1", "0", "0"}, 1)),
            "ValidationException: The table does not have the specified "
            "index: zzz");
  const std::string invalid =
      "ValidationException: Search vector contains invalid values. All "
      "values in the search vector must be a 32-bit floating-point number "
      "attribute";
  req = SearchRequest("mmm", "cos", {"1", "0", "0"}, 1);
  req["SearchVector"][1] = {{"S", "0"}};
  EXPECT_EQ(SearchFails(req), invalid);
  req["SearchVector"] = Json::array({Vec({"1", "0", "0"})});  // L-wrapped
  EXPECT_EQ(SearchFails(req), invalid);
  EXPECT_EQ(SearchFails(SearchRequest("mmm", "cos", {"1e39", "0", "0"}, 1)),
            invalid);
  EXPECT_EQ(SearchFails(SearchRequest("mmm", "cos", {"1", "0"}, 1)),
            "ValidationException: Input search vector dimension 2 does not "
            "match vector index dimension 3");
}

TEST_F(SearchVectorsTest, ConditionGrammarErrors) {
  MakeSchemaTable();
  Json t{{":t", {{"S", "acme"}}}};
  const std::string comparator =
      "ValidationException: Invalid SearchConditionExpression: Invalid "
      "comparator used in SearchConditionExpression";
  const std::string op =
      "ValidationException: Invalid SearchConditionExpression: Invalid "
      "operator used in SearchConditionExpression";
  EXPECT_EQ(SearchFails(Conditioned("tenant <> :t", t)), comparator);
  EXPECT_EQ(
      SearchFails(Conditioned("tenant = :t AND #y >= :y",
                              {{":t", {{"S", "acme"}}}, {":y", {{"N", "1"}}}},
                              {{"#y", "year"}})),
      comparator);
  EXPECT_EQ(
      SearchFails(Conditioned(
          "tenant = :t AND #y BETWEEN :a AND :b",
          {{":t", {{"S", "acme"}}}, {":a", {{"N", "1"}}}, {":b", {{"N", "2"}}}},
          {{"#y", "year"}})),
      op);
  EXPECT_EQ(SearchFails(Conditioned("tenant IN (:t)", t)), op);
  EXPECT_EQ(
      SearchFails(Conditioned("tenant = :t OR tenant = :u",
                              {{":t", {{"S", "acme"}}}, {":u", {{"S", "b"}}}})),
      op);
  EXPECT_EQ(SearchFails(Conditioned("attribute_exists(tenant)", nullptr)), op);
  EXPECT_EQ(SearchFails(Conditioned("tenant.x = :t", t)),
            "ValidationException: Invalid SearchConditionExpression: "
            "SearchConditionExpression cannot have conditions on nested "
            "attributes");
  EXPECT_EQ(
      SearchFails(Conditioned("tenant = :t AND tenant = :u",
                              {{":t", {{"S", "acme"}}}, {":u", {{"S", "b"}}}})),
      "ValidationException: Invalid SearchConditionExpression: "
      "SearchConditionExpression must only contain one condition per "
      "attribute");
}

TEST_F(SearchVectorsTest, SchemaAndHashErrors) {
  MakeSchemaTable();
  EXPECT_EQ(SearchFails(SearchRequest("hhh", "vix", {"1", "0", "0"}, 1)),
            "ValidationException: SearchConditionExpression must be provided "
            "when SearchSchema has a HASH key");
  EXPECT_EQ(SearchFails(Conditioned("color = :c", {{":c", {{"S", "red"}}}})),
            "ValidationException: SearchConditionExpression must not contain "
            "any attributes that is not in SearchSchema. Invalid attribute: "
            "color");
  EXPECT_EQ(SearchFails(Conditioned("#y = :y", {{":y", {{"N", "1"}}}},
                                    {{"#y", "year"}})),
            "ValidationException: SearchConditionExpression must have all "
            "HASH attributes in configured SearchSchema");
  EXPECT_EQ(SearchFails(Conditioned("tenant = :t", {{":t", {{"N", "1"}}}})),
            "ValidationException: Type of 'tenant' attribute in "
            "SearchConditionExpression (N) does not match type in search "
            "schema (S)");
  EXPECT_EQ(SearchFails(Conditioned("tenant = :t", {{":t", {{"S", ""}}}})),
            "ValidationException: One or more parameter values are not "
            "valid. The AttributeValue for a key attribute cannot contain an "
            "empty string value. Key: tenant");
}

TEST_F(SearchVectorsTest, HashScopesAndInlineFiltersFilter) {
  MakeSchemaTable();
  PutVec("hhh", "a1", {"1", "0", "0"},
         {{"tenant", {{"S", "a"}}}, {"year", {{"N", "2024"}}}});
  PutVec("hhh", "a2", {"0", "1", "0"},
         {{"tenant", {{"S", "a"}}}, {"year", {{"N", "2025"}}}});
  PutVec("hhh", "a3", {"0", "0", "1"}, {{"tenant", {{"S", "a"}}}});  // no year
  PutVec("hhh", "b1", {"1", "0", "0"},
         {{"tenant", {{"S", "b"}}}, {"year", {{"N", "2024"}}}});
  PutVec("hhh", "x1", {"1", "0", "0"});  // no HASH value: not indexed
  EXPECT_EQ(Describe("hhh")["VectorIndexes"][0]["ItemCount"], 4);
  Json req = Conditioned("tenant = :t", {{":t", {{"S", "a"}}}});
  EXPECT_EQ(Pks(Search(req)), (std::vector<std::string>{"a1", "a2", "a3"}));
  req = Conditioned("tenant = :t AND #y = :y",
                    {{":t", {{"S", "a"}}}, {":y", {{"N", "2024.0"}}}},
                    {{"#y", "year"}});
  EXPECT_EQ(Pks(Search(req)), (std::vector<std::string>{"a1"}));
  // An INLINE_FILTER value of another type matches nothing.
  req = Conditioned("tenant = :t AND #y = :y",
                    {{":t", {{"S", "a"}}}, {":y", {{"S", "2024"}}}},
                    {{"#y", "year"}});
  EXPECT_EQ(Search(req), Json::parse(R"({"SearchResults": []})"));
  // KEYS_ONLY: the table key and the SearchSchema attributes.
  req = Conditioned("tenant = :t", {{":t", {{"S", "b"}}}});
  EXPECT_EQ(Search(req)["SearchResults"][0]["Item"],
            Json::parse(R"({"pk": {"S": "b1"}, "tenant": {"S": "b"},
                            "year": {"N": "2024"}})"));
}

TEST_F(SearchVectorsTest, ProjectionAndFloat32Copies) {
  Ok("CreateTable", TableRequest("ppp", {Index("vix", 3)}));
  PutVec("ppp", "a", {"0.1", "16777217", "1"}, {{"label", {{"S", "x"}}}});
  Json req = SearchRequest("ppp", "vix", {"1", "1", "1"}, 1);
  // By default everything the index holds except the vector.
  EXPECT_EQ(Search(req)["SearchResults"][0]["Item"],
            Json::parse(R"({"pk": {"S": "a"}, "label": {"S": "x"}})"));
  req["ProjectionExpression"] = "embedding, pk, nothere";
  EXPECT_EQ(Search(req)["SearchResults"][0]["Item"], Json::parse(R"({
      "pk": {"S": "a"},
      "embedding": {"L": [{"N": "0.1"}, {"N": "16777216.0"}, {"N": "1.0"}]}})"));
  req["ProjectionExpression"] = "#e[1]";
  req["ExpressionAttributeNames"] = {{"#e", "embedding"}};
  EXPECT_EQ(Search(req)["SearchResults"][0]["Item"],
            Json::parse(R"({"embedding": {"L": [{"N": "16777216.0"}]}})"));
  // The table keeps the numbers as written.
  Json got =
      Ok("GetItem", {{"TableName", "ppp"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(got["Item"]["embedding"], Vec({"0.1", "16777217", "1"}));
}

TEST_F(SearchVectorsTest, ConsumedCapacityIsBytes) {
  Ok("CreateTable", TableRequest("ccc", {Index("vix", 64)}));
  std::vector<std::string> v(64, "0.5");
  PutVec("ccc", "a", v);
  Json req = SearchRequest("ccc", "vix", v, 5);
  EXPECT_FALSE(Search(req).contains("ConsumedCapacity"));
  // 30.6875 B x 64 + 72 B + the item {pk: "a"} (3 B).
  for (const char* mode : {"TOTAL", "INDEXES"}) {
    req["ReturnConsumedCapacity"] = mode;
    EXPECT_EQ(Search(req)["ConsumedCapacity"],
              Json::parse(R"({"VectorSearchRequestBytes": 2039.0})"));
  }
  Ok("CreateTable", TableRequest("small", {Index("vix", 3)}));
  req = SearchRequest("small", "vix", {"1", "0", "0"}, 5);
  req["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Search(req), Json::parse(R"({"SearchResults": [],
                            "ConsumedCapacity":
                              {"VectorSearchRequestBytes": 1024.0}})"));
}

}  // namespace
}  // namespace ddblab::engine::testing
