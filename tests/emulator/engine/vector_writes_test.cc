// Item writes on tables with vector indexes (vector/vector_entry.h and the
// write path, item_writer.h): DynamoDB's refusals on every write path, the
// index kept in step (deletes, updates, batches, transactions, TTL, a
// reopened database file), VectorWriteRequestBytes, and the reads that
// refuse a vector index (Query, Scan, PartiQL).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/emulator/engine/vector_test_util.h"

namespace ddblab::engine::testing {
namespace {

class VectorWritesTest : public VectorEngineTest {
 protected:
  // "t": index "plain" (3 dimensions) and index "schema" (HASH tenant:S,
  // INLINE_FILTER year:N, KEYS_ONLY).
  void MakeTable() {
    Json schema = Json::array(
        {{{"AttributeName", "tenant"}, {"SearchSchemaElementType", "HASH"}},
         {{"AttributeName", "year"},
          {"SearchSchemaElementType", "INLINE_FILTER"}}});
    Ok("CreateTable", TableRequest("ttt",
                                   {Index("plain", 3),
                                    Index("schema", 3, "COSINE", schema,
                                          {{"ProjectionType", "KEYS_ONLY"}})},
                                   {{"tenant", "S"}, {"year", "N"}}));
  }
  std::string PutFails(Json item) {
    return FailText("PutItem", {{"TableName", "ttt"}, {"Item", item}});
  }
  // Every item of the index (sorted pks).
  std::vector<std::string> All(const std::string& index = "plain") {
    std::vector<std::string> pks = Pks(
        Ok("SearchVectors", SearchRequest("ttt", index, {"1", "1", "1"}, 100)));
    std::sort(pks.begin(), pks.end());
    return pks;
  }
  int64_t Count(const std::string& index) {
    const Json d = Describe("ttt");
    for (const Json& v : d["VectorIndexes"]) {
      if (v["IndexName"] == index) return v["ItemCount"].get<int64_t>();
    }
    return -1;
  }
};

constexpr char kVectorInvalid[] =
    "ValidationException: One or more parameter values were invalid. ";

TEST_F(VectorWritesTest, PutRefusesBadVectorsNamingTheIndex) {
  MakeTable();
  Json item{{"pk", {{"S", "a"}}}};
  item["embedding"] = Vec({"1", "2"});
  EXPECT_EQ(PutFails(item),
            std::string(kVectorInvalid) +
                "Invalid size for parameter embedding, Expected: 3, Actual: 2 "
                "IndexName: plain");
  item["embedding"] = {{"L", {{{"N", "1"}}, {{"S", "x"}}, {{"N", "1"}}}}};
  EXPECT_EQ(PutFails(item),
            std::string(kVectorInvalid) +
                "Invalid type for parameter embedding[1], Expected: 32-bit "
                "floating point number, Actual: S. IndexName: plain");
  item["embedding"] = {{"S", "x"}};
  EXPECT_EQ(PutFails(item),
            std::string(kVectorInvalid) +
                "Invalid type for parameter embedding, Expected: 32-bit "
                "floating point number list IndexName: plain");
  item["embedding"] = Vec({"1e39", "0", "0"});
  EXPECT_EQ(PutFails(item),
            std::string(kVectorInvalid) +
                "Invalid value for parameter embedding[0], Value: "
                "1000000000000000000000000000000000000000 is outside valid "
                "range [-3.4028235E38, 3.4028235E38]. IndexName: plain");
  item["embedding"] = Vec({"1", "0", "0"});
  item["tenant"] = {{"N", "5"}};
  EXPECT_EQ(PutFails(item),
            std::string(kVectorInvalid) +
                "Attribute 'tenant' type mismatch. Expected: S, Actual: N. "
                "IndexName: schema");
  item["tenant"] = {{"S", ""}};
  EXPECT_EQ(PutFails(item),
            "ValidationException: One or more parameter values are not valid. "
            "A value specified for a secondary index key is not supported. "
            "The AttributeValue for a key attribute cannot contain an empty "
            "string value. IndexName: schema, IndexKey: tenant");
  // Tiny numbers round to zero: accepted.
  item["tenant"] = {{"S", "acme"}};
  item["embedding"] = Vec({"1e-60", "1", "0"});
  Ok("PutItem", {{"TableName", "ttt"}, {"Item", item}});
  EXPECT_EQ(Count("plain"), 1);
}

TEST_F(VectorWritesTest, EveryWritePathChecks) {
  MakeTable();
  const std::string size_error =
      std::string(kVectorInvalid) +
      "Invalid size for parameter embedding, Expected: 3, Actual: 1 "
      "IndexName: plain";
  Json bad{{"pk", {{"S", "a"}}}, {"embedding", Vec({"1"})}};
  EXPECT_EQ(FailText("BatchWriteItem",
                     {{"RequestItems",
                       {{"ttt", {{{"PutRequest", {{"Item", bad}}}}}}}}}),
            size_error);
  EXPECT_EQ(FailText("TransactWriteItems",
                     {{"TransactItems",
                       {{{"Put", {{"TableName", "ttt"}, {"Item", bad}}}}}}}),
            size_error);
  EXPECT_EQ(
      FailText("ExecuteStatement",
               {{"Statement",
                 "INSERT INTO \"ttt\" VALUE {'pk': 'a', 'embedding': [1]}"}}),
      size_error);
  PutVec("ttt", "a", {"1", "0", "0"}, {{"tenant", {{"S", "acme"}}}});
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "ttt"},
                      {"Key", {{"pk", {{"S", "a"}}}}},
                      {"UpdateExpression", "SET embedding = :v"},
                      {"ExpressionAttributeValues", {{":v", Vec({"1"})}}}}),
            size_error);
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "ttt"},
                      {"Key", {{"pk", {{"S", "a"}}}}},
                      {"UpdateExpression", "SET tenant = :v"},
                      {"ExpressionAttributeValues", {{":v", {{"S", ""}}}}}}),
            "ValidationException: One or more parameter values are not valid. "
            "The update expression attempted to update a secondary index key "
            "to a value that is not supported. The AttributeValue for a key "
            "attribute cannot contain an empty string value.");
  EXPECT_EQ(FailText("ExecuteStatement",
                     {{"Statement",
                       "UPDATE \"ttt\" SET embedding = [1] WHERE pk = 'a'"}}),
            size_error);
  EXPECT_EQ(All(), (std::vector<std::string>{"a"}));
}

TEST_F(VectorWritesTest, IndexFollowsEveryChange) {
  MakeTable();
  PutVec("ttt", "a", {"1", "0", "0"}, {{"tenant", {{"S", "acme"}}}});
  PutVec("ttt", "b", {"0", "1", "0"});  // no HASH value: plain only
  Ok("PutItem", {{"TableName", "ttt"}, {"Item", {{"pk", {{"S", "n"}}}}}});
  EXPECT_EQ(Count("plain"), 2);
  EXPECT_EQ(Count("schema"), 1);
  // REMOVE of the HASH attribute leaves the HASH index only.
  Ok("UpdateItem", {{"TableName", "ttt"},
                    {"Key", {{"pk", {{"S", "a"}}}}},
                    {"UpdateExpression", "REMOVE tenant"}});
  EXPECT_EQ(Count("schema"), 0);
  // REMOVE of the vector leaves every index.
  Ok("UpdateItem", {{"TableName", "ttt"},
                    {"Key", {{"pk", {{"S", "b"}}}}},
                    {"UpdateExpression", "REMOVE embedding"}});
  EXPECT_EQ(All(), (std::vector<std::string>{"a"}));
  // Batch puts and deletes, transactions.
  Json c{{"pk", {{"S", "c"}}}, {"embedding", Vec({"0", "0", "1"})}};
  Ok("BatchWriteItem",
     {{"RequestItems",
       {{"ttt",
         {{{"PutRequest", {{"Item", c}}}},
          {{"DeleteRequest", {{"Key", {{"pk", {{"S", "a"}}}}}}}}}}}}});
  EXPECT_EQ(All(), (std::vector<std::string>{"c"}));
  Json d{{"pk", {{"S", "d"}}}, {"embedding", Vec({"1", "1", "1"})}};
  Ok("TransactWriteItems",
     {{"TransactItems",
       {{{"Put", {{"TableName", "ttt"}, {"Item", d}}}},
        {{"Delete",
          {{"TableName", "ttt"}, {"Key", {{"pk", {{"S", "c"}}}}}}}}}}});
  EXPECT_EQ(All(), (std::vector<std::string>{"d"}));
  // A failed transaction changes nothing.
  Json e{{"pk", {{"S", "e"}}}, {"embedding", Vec({"1", "1", "1"})}};
  Fail("TransactWriteItems",
       {{"TransactItems",
         {{{"Put", {{"TableName", "ttt"}, {"Item", e}}}},
          {{"ConditionCheck",
            {{"TableName", "ttt"},
             {"Key", {{"pk", {{"S", "d"}}}}},
             {"ConditionExpression", "attribute_not_exists(pk)"}}}}}}});
  EXPECT_EQ(All(), (std::vector<std::string>{"d"}));
  Ok("DeleteItem", {{"TableName", "ttt"}, {"Key", {{"pk", {{"S", "d"}}}}}});
  EXPECT_EQ(All(), std::vector<std::string>{});
  EXPECT_EQ(Count("plain"), 0);
}

TEST_F(VectorWritesTest, TtlDeletionsLeaveTheIndexAndStreamsKeepTheVector) {
  Json req = TableRequest("ttt", {Index("plain", 3)});
  req["StreamSpecification"] = {{"StreamEnabled", true},
                                {"StreamViewType", "NEW_AND_OLD_IMAGES"}};
  std::string arn =
      Ok("CreateTable", req)["TableDescription"]["LatestStreamArn"];
  Ok("UpdateTimeToLive", {{"TableName", "ttt"},
                          {"TimeToLiveSpecification",
                           {{"Enabled", true}, {"AttributeName", "exp"}}}});
  const int64_t now = ToEpochSeconds(clock_->Now());
  PutVec("ttt", "a", {"0.1", "0", "0"},
         {{"exp", {{"N", std::to_string(now + 10)}}}});
  PutVec("ttt", "b", {"0", "1", "0"});
  EXPECT_EQ(All(), (std::vector<std::string>{"a", "b"}));
  clock_->Advance(std::chrono::seconds(20));
  ASSERT_TRUE(emu_->SweepTtl().ok());
  EXPECT_EQ(All(), (std::vector<std::string>{"b"}));
  // The stream records carry the vector as the list written.
  Json shards = emu_->CallStreams("DescribeStream", {{"StreamArn", arn}})
                    .value()["StreamDescription"]["Shards"];
  std::vector<Json> images;
  for (const Json& shard : shards) {
    Json it = emu_->CallStreams("GetShardIterator",
                                {{"StreamArn", arn},
                                 {"ShardId", shard["ShardId"]},
                                 {"ShardIteratorType", "TRIM_HORIZON"}})
                  .value();
    Json records = emu_->CallStreams("GetRecords",
                                     {{"ShardIterator", it["ShardIterator"]}})
                       .value()["Records"];
    for (const Json& r : records) {
      if (r["eventName"] == "REMOVE")
        images.push_back(r["dynamodb"]["OldImage"]);
    }
  }
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(images[0]["embedding"], Vec({"0.1", "0", "0"}));
}

TEST_F(VectorWritesTest, WriteBytesUnderIndexes) {
  Ok("CreateTable", TableRequest("www", {Index("big", 300)}));
  std::vector<std::string> v(300, "1");
  Json item{{"pk", {{"S", "a"}}}, {"embedding", Vec(v)}};
  Json req{{"TableName", "www"},
           {"Item", item},
           {"ReturnConsumedCapacity", "INDEXES"}};
  // 4 B x 300 + "embedding" (9 B) + {pk: "a"} (3 B).
  Json cc = Ok("PutItem", req)["ConsumedCapacity"];
  EXPECT_EQ(cc["VectorIndexes"],
            Json::parse(R"({"big": {"VectorWriteRequestBytes": 1212.0}})"));
  EXPECT_EQ(cc["CapacityUnits"], 1.0);  // vector bytes are not units
  // The same item again: the index's view is unchanged.
  EXPECT_FALSE(
      Ok("PutItem", req)["ConsumedCapacity"].contains("VectorIndexes"));
  req["ReturnConsumedCapacity"] = "TOTAL";
  item["label"] = {{"S", "x"}};
  req["Item"] = item;
  EXPECT_EQ(Ok("PutItem", req)["ConsumedCapacity"],
            Json::parse(R"({"TableName": "www", "CapacityUnits": 1.0})"));
  // At least 1 KB per index.
  Ok("CreateTable", TableRequest("sss", {Index("vix", 3)}));
  Json small{
      {"TableName", "sss"},
      {"Item", {{"pk", {{"S", "a"}}}, {"embedding", Vec({"1", "0", "0"})}}},
      {"ReturnConsumedCapacity", "INDEXES"}};
  EXPECT_EQ(Ok("PutItem", small)["ConsumedCapacity"]["VectorIndexes"],
            Json::parse(R"({"vix": {"VectorWriteRequestBytes": 1024.0}})"));
}

TEST_F(VectorWritesTest, ReadsOfAVectorIndexAreRefused) {
  MakeTable();
  EXPECT_EQ(FailText("Query",
                     {{"TableName", "ttt"},
                      {"IndexName", "plain"},
                      {"KeyConditionExpression", "pk = :p"},
                      {"ExpressionAttributeValues", {{":p", {{"S", "a"}}}}}}),
            "ValidationException: Query operation not supported on this index "
            "type.");
  EXPECT_EQ(FailText("Scan", {{"TableName", "ttt"}, {"IndexName", "plain"}}),
            "ValidationException: Scan operation not supported on this index "
            "type");
  EXPECT_EQ(FailText("ExecuteStatement",
                     {{"Statement", "SELECT * FROM \"ttt\".\"plain\""}}),
            "ValidationException: Scan operation not supported on this index "
            "type");
  // The table itself returns the vector like any list.
  PutVec("ttt", "a", {"0.25", "0", "0"});
  Json rows = Ok("ExecuteStatement", {{"Statement", "SELECT * FROM \"ttt\""}});
  EXPECT_EQ(rows["Items"][0]["embedding"], Vec({"0.25", "0", "0"}));
}

TEST_F(VectorWritesTest, ReopenedDatabaseRebuildsTheIndex) {
  std::string dir = "/tmp/ddblab-vector-test-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = dir + "/ddb.sqlite";
  Open(options);
  MakeTable();
  PutVec("ttt", "a", {"1", "0", "0"}, {{"tenant", {{"S", "acme"}}}});
  PutVec("ttt", "b", {"0", "1", "0"});
  Open(options);
  EXPECT_EQ(All(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Count("schema"), 1);
  emu_.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ddblab::engine::testing
