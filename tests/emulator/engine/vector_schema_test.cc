// Vector indexes on the control plane: CreateTable's VectorIndexes,
// UpdateTable's VectorIndexUpdates, their descriptions and their lifecycle
// on the clock (vector/vector_schema.h, ops/vector_index_updates.h).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/emulator/engine/vector_test_util.h"

namespace ddblab::engine::testing {
namespace {

class VectorSchemaTest : public VectorEngineTest {
 protected:
  std::string CreateFails(Json request) {
    return FailText("CreateTable", request);
  }
  void OpenWithDelay() {
    Options options;
    options.table_status_delay = std::chrono::seconds(10);
    Open(options);
  }
  void Advance(int seconds) { clock_->Advance(std::chrono::seconds(seconds)); }
  Json AddIndex(const std::string& table, Json index, Json defs = nullptr) {
    Json req{{"TableName", table},
             {"VectorIndexUpdates", {{{"Create", index}}}}};
    if (!defs.is_null()) req["AttributeDefinitions"] = defs;
    return req;
  }
  static Json DeleteIndex(const std::string& table, const std::string& name) {
    return {{"TableName", table},
            {"VectorIndexUpdates", {{{"Delete", {{"IndexName", name}}}}}}};
  }
};

constexpr char kInvalid[] =
    "ValidationException: One or more parameter values were invalid: ";

TEST_F(VectorSchemaTest, CreateTableRefusesBadDefinitions) {
  Json tenant_hash = Json::array(
      {{{"AttributeName", "tenant"}, {"SearchSchemaElementType", "HASH"}}});
  EXPECT_EQ(CreateFails(TableRequest("ttt", Json::array())),
            std::string(kInvalid) + "List of VectorIndexes is empty");
  Json provisioned = TableRequest("ttt", {Index("vix", 3)});
  provisioned.erase("BillingMode");
  provisioned["ProvisionedThroughput"] = {{"ReadCapacityUnits", 1},
                                          {"WriteCapacityUnits", 1}};
  EXPECT_EQ(CreateFails(provisioned),
            std::string(kInvalid) +
                "Vector indexes are only supported for PAY_PER_REQUEST tables");
  Json six = Json::array();
  for (int i = 0; i < 6; ++i)
    six.push_back(Index("vix" + std::to_string(i), 3));
  EXPECT_EQ(CreateFails(TableRequest("ttt", six)),
            std::string(kInvalid) +
                "VectorIndex count exceeds the per-table limit of 5");
  EXPECT_EQ(CreateFails(TableRequest("ttt", {Index("vix", 4097)})),
            std::string(kInvalid) +
                "Number of dimensions must be between 1 and 4096 inclusive.");
  EXPECT_EQ(CreateFails(TableRequest("ttt", {Index("vix", 0)})),
            "ValidationException: 1 validation error detected: Value '0' at "
            "'vectorIndexes.1.member.dimensions' failed to satisfy "
            "constraint: Member must have value greater than or equal to 1");
  EXPECT_EQ(CreateFails(TableRequest("ttt", {Index("ab", 3)})),
            "ValidationException: 1 validation error detected: Value 'ab' at "
            "'vectorIndexes.1.member.indexName' failed to satisfy constraint: "
            "Member must have length greater than or equal to 3");
  EXPECT_EQ(CreateFails(TableRequest("ttt", {Index("vix", 3, "MANHATTAN")})),
            "ValidationException: 1 validation error detected: Value "
            "'MANHATTAN' at 'vectorIndexes.1.member.distanceFunction' failed "
            "to satisfy constraint: Member must satisfy enum value set: "
            "[COSINE, DOT_PRODUCT, EUCLIDEAN]");
  EXPECT_EQ(
      CreateFails(TableRequest("ttt", {Index("a1x", 3), Index("a2x", 4)})),
      std::string(kInvalid) +
          "Conflicting attribute definition for 'embedding'. All "
          "VectorIndexes on the same vector attribute must use the same "
          "dimensions.");
  EXPECT_EQ(
      CreateFails(TableRequest("ttt", {Index("vix", 3)}, {{"embedding", "S"}})),
      std::string(kInvalid) +
          "Conflicting attribute definition for 'embedding'. An "
          "attribute cannot be defined in AttributeDefinitions when "
          "used as a VectorAttribute.");
  EXPECT_EQ(
      CreateFails(TableRequest("ttt", {Index("vix", 3), Index("vix", 3)})),
      std::string(kInvalid) + "Duplicate index name: vix");
  Json two_hashes = Json::array(
      {{{"AttributeName", "tenant"}, {"SearchSchemaElementType", "HASH"}},
       {{"AttributeName", "zone"}, {"SearchSchemaElementType", "HASH"}}});
  EXPECT_EQ(
      CreateFails(TableRequest("ttt", {Index("vix", 3, "COSINE", two_hashes)},
                               {{"tenant", "S"}, {"zone", "S"}})),
      std::string(kInvalid) +
          "Value '2' at 'SearchSchema' failed to satisfy constraint: "
          "Member must have HASH count less than or equal to 1");
  Json twice = Json::array(
      {{{"AttributeName", "tenant"}, {"SearchSchemaElementType", "HASH"}},
       {{"AttributeName", "tenant"},
        {"SearchSchemaElementType", "INLINE_FILTER"}}});
  EXPECT_EQ(CreateFails(TableRequest("ttt", {Index("vix", 3, "COSINE", twice)},
                                     {{"tenant", "S"}})),
            std::string(kInvalid) +
                "SearchSchema contains a duplicate AttributeName");
  EXPECT_EQ(CreateFails(
                TableRequest("ttt", {Index("vix", 3, "COSINE", tenant_hash)})),
            std::string(kInvalid) +
                "One element in SearchSchema is not defined in attribute "
                "definitions");
  // Index names are shared with GSIs.
  Json with_gsi = TableRequest("ttt", {Index("by_g", 3)}, {{"g", "S"}});
  with_gsi["GlobalSecondaryIndexes"] = {
      {{"IndexName", "by_g"},
       {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
       {"Projection", {{"ProjectionType", "ALL"}}}}};
  EXPECT_EQ(CreateFails(with_gsi),
            std::string(kInvalid) + "Duplicate index name: by_g");
}

TEST_F(VectorSchemaTest, DescribesTheIndexAndKeepsSearchSchemaDefinitions) {
  Json schema = Json::array(
      {{{"AttributeName", "tenant"}, {"SearchSchemaElementType", "HASH"}},
       {{"AttributeName", "year"},
        {"SearchSchemaElementType", "INLINE_FILTER"}}});
  Json created =
      Ok("CreateTable", TableRequest("docs",
                                     {Index("vix", 4096, "DOT_PRODUCT", schema,
                                            {{"ProjectionType", "INCLUDE"},
                                             {"NonKeyAttributes", {"title"}}})},
                                     {{"tenant", "S"}, {"year", "N"}}));
  EXPECT_EQ(created["TableDescription"]["VectorIndexes"][0]["IndexStatus"],
            "CREATING");
  Json d = Describe("docs");
  EXPECT_EQ(d["AttributeDefinitions"].size(), 3u);
  Json expected = Json::parse(R"({
    "IndexName": "vix",
    "SearchSchema": [
      {"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
      {"AttributeName": "year", "SearchSchemaElementType": "INLINE_FILTER"}],
    "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]},
    "VectorAttribute": {"AttributeName": "embedding"},
    "Dimensions": 4096,
    "DistanceFunction": "DOT_PRODUCT",
    "IndexStatus": "ACTIVE",
    "IndexSizeBytes": 0,
    "ItemCount": 0,
    "IndexArn": "arn:aws:dynamodb:us-east-1:000000000000:table/docs/index/vix"
  })");
  EXPECT_EQ(d["VectorIndexes"], Json::array({expected}));
  EXPECT_FALSE(d.contains("GlobalSecondaryIndexes"));
}

TEST_F(VectorSchemaTest, CreateTablePathBecomesActiveWithItsTable) {
  OpenWithDelay();
  Ok("CreateTable", TableRequest("ttt", {Index("vix", 3)}));
  Json d = Describe("ttt");
  EXPECT_EQ(d["TableStatus"], "CREATING");
  EXPECT_EQ(d["VectorIndexes"][0]["IndexStatus"], "CREATING");
  EXPECT_FALSE(d["VectorIndexes"][0].contains("Backfilling"));
  EXPECT_EQ(FailText("DeleteTable", {{"TableName", "ttt"}}),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Table is being created: ttt");
  Advance(10);
  d = Describe("ttt");
  EXPECT_EQ(d["TableStatus"], "ACTIVE");
  EXPECT_EQ(d["VectorIndexes"][0]["IndexStatus"], "ACTIVE");
  EXPECT_FALSE(d["VectorIndexes"][0].contains("Backfilling"));
}

TEST_F(VectorSchemaTest, UpdateTableAddsAnIndexThroughAllocationAndBackfill) {
  OpenWithDelay();
  CreateTable("ttt");
  Advance(10);
  PutVec("ttt", "before", {"1", "0", "0"});
  Json answer = Ok("UpdateTable", AddIndex("ttt", Index("vix", 3)));
  EXPECT_EQ(answer["TableDescription"]["TableStatus"], "UPDATING");
  EXPECT_EQ(answer["TableDescription"]["VectorIndexes"][0]["IndexStatus"],
            "CREATING");
  EXPECT_EQ(answer["TableDescription"]["VectorIndexes"][0]["Backfilling"],
            false);
  // Resource allocation: not searchable, not deletable, no other index.
  EXPECT_EQ(FailText("SearchVectors",
                     SearchRequest("ttt", "vix", {"1", "0", "0"}, 5)),
            "ValidationException: The table does not have the specified "
            "index: vix");
  EXPECT_EQ(FailText("UpdateTable", DeleteIndex("ttt", "vix")),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Index creation is in resource allocation phase. "
            "Retry deletion during backfilling phase or when the index is "
            "active. Table: ttt Index: vix");
  EXPECT_EQ(FailText("UpdateTable", AddIndex("ttt", Index("vix2", 3))),
            "LimitExceededException: Subscriber limit exceeded: Only 1 online "
            "index can be created or deleted simultaneously per table");
  Advance(10);
  Json d = Describe("ttt");
  EXPECT_EQ(d["TableStatus"], "ACTIVE");
  EXPECT_EQ(d["VectorIndexes"][0]["IndexStatus"], "CREATING");
  EXPECT_EQ(d["VectorIndexes"][0]["Backfilling"], true);
  EXPECT_EQ(FailText("SearchVectors",
                     SearchRequest("ttt", "vix", {"1", "0", "0"}, 5)),
            "ValidationException: Cannot search backfilling vector index: vix");
  EXPECT_EQ(FailText("DeleteTable", {{"TableName", "ttt"}}),
            "ResourceInUseException: Attempt to change a resource which is "
            "still in use: Cannot delete table while indexes are being "
            "created, updated, or deleted.");
  PutVec("ttt", "during", {"0", "1", "0"});  // writes reach the new index
  Advance(10);
  d = Describe("ttt");
  EXPECT_EQ(d["VectorIndexes"][0]["IndexStatus"], "ACTIVE");
  EXPECT_FALSE(d["VectorIndexes"][0].contains("Backfilling"));
  EXPECT_EQ(d["VectorIndexes"][0]["ItemCount"], 2);
  EXPECT_EQ(
      Pks(Ok("SearchVectors", SearchRequest("ttt", "vix", {"1", "0", "0"}, 5))),
      (std::vector<std::string>{"before", "during"}));
}

TEST_F(VectorSchemaTest, UpdateTableRefusals) {
  CreateTable("ttt");
  Json both{
      {"TableName", "ttt"},
      {"VectorIndexUpdates",
       {{{"Create", Index("vix", 3)}, {"Delete", {{"IndexName", "x1x"}}}}}}};
  EXPECT_EQ(FailText("UpdateTable", both),
            std::string(kInvalid) +
                "Only one vector index action is allowed per "
                "VectorIndexUpdate object");
  Json two{{"TableName", "ttt"},
           {"VectorIndexUpdates",
            {{{"Create", Index("vix", 3)}}, {{"Create", Index("vix2", 3)}}}}};
  EXPECT_EQ(FailText("UpdateTable", two),
            "LimitExceededException: Subscriber limit exceeded: Only 1 online "
            "index can be created or deleted simultaneously per table");
  EXPECT_EQ(FailText("UpdateTable", DeleteIndex("ttt", "nix")),
            "ResourceNotFoundException: Requested resource not found: Index "
            "nix for table ttt");
  Ok("UpdateTable", AddIndex("ttt", Index("vix", 3)));
  EXPECT_EQ(FailText("UpdateTable", AddIndex("ttt", Index("vix", 3))),
            "ValidationException: Attempting to create an index which already "
            "exists");
  EXPECT_EQ(FailText("UpdateTable", AddIndex("ttt", Index("vix9", 4))),
            std::string(kInvalid) +
                "Conflicting attribute definition for 'embedding'. All "
                "VectorIndexes on the same vector attribute must use the same "
                "dimensions.");
  for (int i = 2; i <= 5; ++i) {
    Ok("UpdateTable", AddIndex("ttt", Index("vix" + std::to_string(i), 3)));
  }
  EXPECT_EQ(FailText("UpdateTable", AddIndex("ttt", Index("vix6", 3))),
            std::string(kInvalid) +
                "VectorIndex count exceeds the per-table limit of 5");
  Json provisioned{{"TableName", "ttt"},
                   {"BillingMode", "PROVISIONED"},
                   {"ProvisionedThroughput",
                    {{"ReadCapacityUnits", 1}, {"WriteCapacityUnits", 1}}}};
  EXPECT_EQ(FailText("UpdateTable", provisioned),
            std::string(kInvalid) +
                "Tables with vector indexes must be in PAY_PER_REQUEST mode");
  // A provisioned table gets no vector index.
  Ok("CreateTable", Json::parse(R"({"TableName": "ppp",
       "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
       "ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                 "WriteCapacityUnits": 1}})"));
  EXPECT_EQ(FailText("UpdateTable", AddIndex("ppp", Index("vix", 3))),
            std::string(kInvalid) +
                "Vector indexes are only supported for PAY_PER_REQUEST tables");
}

TEST_F(VectorSchemaTest, DeleteGoesThroughDeletingAndPrunesDefinitions) {
  OpenWithDelay();
  Json schema = Json::array(
      {{{"AttributeName", "tenant"}, {"SearchSchemaElementType", "HASH"}}});
  Ok("CreateTable", TableRequest("ttt", {Index("vix", 3, "COSINE", schema)},
                                 {{"tenant", "S"}}));
  Advance(10);
  Ok("UpdateTable", DeleteIndex("ttt", "vix"));
  Json d = Describe("ttt");
  EXPECT_EQ(d["VectorIndexes"][0]["IndexStatus"], "DELETING");
  EXPECT_EQ(FailText("SearchVectors",
                     SearchRequest("ttt", "vix", {"1", "0", "0"}, 5)),
            "ValidationException: The table does not have the specified "
            "index: vix");
  Advance(10);
  d = Describe("ttt");
  EXPECT_FALSE(d.contains("VectorIndexes"));
  EXPECT_EQ(d["AttributeDefinitions"],
            Json::parse(R"([{"AttributeName": "pk", "AttributeType": "S"}])"));
  // Nothing left to keep the table PAY_PER_REQUEST.
  Ok("UpdateTable", Json::parse(R"({"TableName": "ttt",
       "BillingMode": "PROVISIONED",
       "ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                 "WriteCapacityUnits": 1}})"));
}

}  // namespace
}  // namespace ddblab::engine::testing
