// BatchWriteItem (the DynamoDB API reference): writes, capacity, item
// collection metrics, stream records, the fault hook, and every error text (a
// rejected batch writes nothing).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/emulator/engine/batch_test_util.h"
#include "tests/emulator/engine/streams_test_util.h"
#include "tests/emulator/engine/ttl_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr char kVE[] = "ValidationException: ";
constexpr char kNotFound[] =
    "ResourceNotFoundException: Requested resource not found";
constexpr char kDuplicates[] =
    "ValidationException: Provided list of item keys contains duplicates";
constexpr char kMismatch[] =
    "ValidationException: The provided key element does not match the schema";
constexpr char kMapValue[] =
    "' at 'requestItems' failed to satisfy constraint: Map value must satisfy "
    "constraint: [Member must have length less than or equal to 25, Member "
    "must have length greater than or equal to 1]";

class BatchWriteTest : public BatchTest {
 protected:
  void SetUp() override {
    BatchTest::SetUp();
    MakeTable("hash");
    MakeTable("range", true);
  }
  Json BatchWrite(const Json& request_items,
                  const Json& extra = Json::object()) {
    Json req = extra;
    req["RequestItems"] = request_items;
    return Ok("BatchWriteItem", req);
  }
  // The error of a batch that must fail, checking it wrote nothing to the
  // tables "hash" and "range".
  std::string Rejected(const Json& request) {
    const int64_t hash = ItemCount("hash");
    const int64_t range = ItemCount("range");
    std::string text = FailText("BatchWriteItem", request);
    EXPECT_EQ(ItemCount("hash"), hash) << text;
    EXPECT_EQ(ItemCount("range"), range) << text;
    return text;
  }
  std::string RejectedItems(const Json& request_items) {
    return Rejected({{"RequestItems", request_items}});
  }
};

TEST_F(BatchWriteTest, PutsAndDeletesAcrossTables) {
  Put("hash", {{"pk", S("old")}, {"x", S("1")}});
  Json out = BatchWrite(
      {{"hash",
        {PutReq({{"pk", S("a")}, {"c", S("c")}}), DeleteReq(Key("old")),
         DeleteReq(Key("never"))}},
       {"range",
        {PutReq({{"pk", S("a")}, {"sk", S("1")}, {"n", N("1.50")}})}}});
  EXPECT_EQ(out, Json({{"UnprocessedItems", Json::object()}}));
  EXPECT_EQ(Get("hash", Key("a")), Json({{"pk", S("a")}, {"c", S("c")}}));
  EXPECT_TRUE(Get("hash", Key("old")).is_null());
  EXPECT_EQ(Get("range", Key("a", "1")),
            Json({{"pk", S("a")}, {"sk", S("1")}, {"n", N("1.5")}}));
  EXPECT_EQ(ItemCount("hash"), 1);
  EXPECT_EQ(ItemCount("range"), 1);
}

TEST_F(BatchWriteTest, PutReplacesTheWholeItem) {
  BatchWrite({{"hash", {PutReq({{"pk", S("a")}, {"x", S("1")}})}}});
  BatchWrite({{"hash", {PutReq({{"pk", S("a")}, {"y", S("2")}})}}});
  EXPECT_EQ(Get("hash", Key("a")), Json({{"pk", S("a")}, {"y", S("2")}}));
}

TEST_F(BatchWriteTest, TableByArn) {
  const std::string arn = Arn("hash");
  Json out = BatchWrite({{arn, {PutReq(Key("a"))}}},
                        {{"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out["ConsumedCapacity"],
            Json::array({{{"TableName", arn}, {"CapacityUnits", 1.0}}}));
  EXPECT_EQ(Get("hash", Key("a")), Key("a"));
  // One item through the name and the ARN is a duplicate.
  EXPECT_EQ(RejectedItems(
                {{arn, {PutReq(Key("b"))}}, {"hash", {DeleteReq(Key("b"))}}}),
            kDuplicates);
}

TEST_F(BatchWriteTest, CapacityPerTable) {
  MakeNumberTable("num");
  const Json request = {
      {"hash", {PutReq(SizedItem("a", 1025)), PutReq(Key("b"))}},
      {"num", {PutReq({{"n", N("7")}})}}};
  Json out = BatchWrite(request, {{"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out["ConsumedCapacity"], Json::parse(R"([
    {"TableName": "hash", "CapacityUnits": 3.0},
    {"TableName": "num", "CapacityUnits": 1.0}])"));
  out = BatchWrite(request, {{"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(out["ConsumedCapacity"], Json::parse(R"([
    {"TableName": "hash", "CapacityUnits": 3.0, "Table": {"CapacityUnits": 3.0}},
    {"TableName": "num", "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}])"));
  // Deleting: the old item's size; a missing item costs 1.
  out = BatchWrite({{"hash", {DeleteReq(Key("a")), DeleteReq(Key("zz"))}}},
                   {{"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out["ConsumedCapacity"], Json::parse(R"([
    {"TableName": "hash", "CapacityUnits": 3.0}])"));
}

TEST_F(BatchWriteTest, IndexCapacityAndCounts) {
  MakeIndexedTable("idx");
  Json out = BatchWrite(
      {{"idx",
        {PutReq({{"pk", S("a")}, {"sk", N("1")}, {"g", S("g")}, {"l", S("l")}}),
         PutReq({{"pk", S("a")}, {"sk", N("2")}, {"g", S("g")}}),
         PutReq({{"pk", S("b")}, {"sk", N("1")}})}}},
      {{"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(out["ConsumedCapacity"], Json::parse(R"([
    {"TableName": "idx", "CapacityUnits": 6.0, "Table": {"CapacityUnits": 3.0},
     "GlobalSecondaryIndexes": {"by_g": {"CapacityUnits": 2.0}},
     "LocalSecondaryIndexes": {"by_l": {"CapacityUnits": 1.0}}}])"));
  Json table = Describe("idx");
  EXPECT_EQ(table["ItemCount"], 3);
  EXPECT_EQ(table["GlobalSecondaryIndexes"][0]["ItemCount"], 2);
  EXPECT_EQ(table["LocalSecondaryIndexes"][0]["ItemCount"], 1);
  const int64_t gsi_bytes =
      table["GlobalSecondaryIndexes"][0]["IndexSizeBytes"];
  // Deleting an item in both indexes: its entries go, each costing a unit,
  // and the other item's entry stays.
  out = BatchWrite({{"idx", {DeleteReq({{"pk", S("a")}, {"sk", N("1")}})}}},
                   {{"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(out["ConsumedCapacity"], Json::parse(R"([
    {"TableName": "idx", "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
     "GlobalSecondaryIndexes": {"by_g": {"CapacityUnits": 1.0}},
     "LocalSecondaryIndexes": {"by_l": {"CapacityUnits": 1.0}}}])"));
  table = Describe("idx");
  EXPECT_EQ(table["ItemCount"], 2);
  EXPECT_EQ(table["GlobalSecondaryIndexes"][0]["ItemCount"], 1);
  EXPECT_LT(table["GlobalSecondaryIndexes"][0]["IndexSizeBytes"], gsi_bytes);
  EXPECT_EQ(table["LocalSecondaryIndexes"][0]["ItemCount"], 0);
  EXPECT_EQ(table["LocalSecondaryIndexes"][0]["IndexSizeBytes"], 0);
  Json left = Ok("Query", Json::parse(R"({"TableName": "idx",
      "IndexName": "by_g", "KeyConditionExpression": "g = :g",
      "ExpressionAttributeValues": {":g": {"S": "g"}}})"));
  EXPECT_EQ(left["Items"], Json::parse(R"([
      {"pk": {"S": "a"}, "sk": {"N": "2"}, "g": {"S": "g"}}])"));
}

TEST_F(BatchWriteTest, ItemCollectionMetricsForTablesWithLocalIndexes) {
  MakeIndexedTable("idx");
  Json out = BatchWrite({{"idx",
                          {PutReq({{"pk", S("a")}, {"sk", N("1")}}),
                           PutReq({{"pk", S("a")}, {"sk", N("2")}}),
                           DeleteReq({{"pk", S("b")}, {"sk", N("1")}})}},
                         {"hash", {PutReq(Key("a"))}}},
                        {{"ReturnItemCollectionMetrics", "SIZE"}});
  EXPECT_EQ(out, Json::parse(R"({
    "UnprocessedItems": {},
    "ItemCollectionMetrics": {"idx": [
      {"ItemCollectionKey": {"pk": {"S": "a"}}, "SizeEstimateRangeGB": [0.0, 1.0]},
      {"ItemCollectionKey": {"pk": {"S": "b"}}, "SizeEstimateRangeGB": [0.0, 1.0]}]}})"));
  out = BatchWrite({{"hash", {PutReq(Key("a"))}}},
                   {{"ReturnItemCollectionMetrics", "SIZE"}});
  EXPECT_EQ(out, Json({{"UnprocessedItems", Json::object()}}));
}

TEST_F(BatchWriteTest, FaultLeavesRequestsUnprocessed) {
  Put("hash", Key("d"));
  LeaveUnprocessed("left");
  Json out = BatchWrite(
      {{"hash",
        {PutReq({{"pk", S("a")}}), PutReq({{"pk", S("left")}, {"n", N("01")}}),
         DeleteReq(Key("d"))}},
       {"range", {DeleteReq(Key("left", "1"))}}},
      {{"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out, Json::parse(R"({
    "UnprocessedItems": {
      "hash": [{"PutRequest": {"Item": {"pk": {"S": "left"}, "n": {"N": "1"}}}}],
      "range": [{"DeleteRequest": {"Key": {"pk": {"S": "left"}, "sk": {"S": "1"}}}}]},
    "ConsumedCapacity": [{"TableName": "hash", "CapacityUnits": 2.0},
                         {"TableName": "range", "CapacityUnits": 0.0}]})"));
  EXPECT_EQ(Get("hash", Key("a")), Key("a"));
  EXPECT_TRUE(Get("hash", Key("left")).is_null());
  EXPECT_TRUE(Get("hash", Key("d")).is_null());
  // The SDK loop: resubmit UnprocessedItems until it is empty.
  LeaveUnprocessed(std::nullopt);
  EXPECT_EQ(BatchWrite(out["UnprocessedItems"]),
            Json({{"UnprocessedItems", Json::object()}}));
  EXPECT_EQ(Get("hash", Key("left")), Json({{"pk", S("left")}, {"n", N("1")}}));
}

// ---------------------------------------------------------------------------
// Errors

TEST_F(BatchWriteTest, ShapeErrors) {
  EXPECT_EQ(Rejected(Json::object()),
            std::string(kVE) +
                "1 validation error detected: Value null at 'requestItems' "
                "failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(Rejected({{"ReturnConsumedCapacity", "hi"},
                      {"ReturnItemCollectionMetrics", "hi"}}),
            std::string(kVE) +
                "3 validation errors detected: Value 'hi' at "
                "'returnConsumedCapacity' failed to satisfy constraint: Member "
                "must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value "
                "'hi' at 'returnItemCollectionMetrics' failed to satisfy "
                "constraint: Member must satisfy enum value set: [SIZE, NONE]; "
                "Value null at 'requestItems' failed to satisfy constraint: "
                "Member must not be null");
  // An empty map has its own sentence.
  EXPECT_EQ(RejectedItems(Json::object()),
            std::string(kVE) +
                "The requestItems parameter is required for BatchWriteItem");
  const std::string map_keys =
      "' at 'requestItems' failed to satisfy constraint: Map keys must "
      "satisfy constraint: [Member must have length less than or equal to "
      "255, Member must have length greater than or equal to 3, Member must "
      "satisfy regular expression pattern: [a-zA-Z0-9_.-]+]";
  EXPECT_EQ(RejectedItems({{"a", Json::array()}}),
            std::string(kVE) + "2 validation errors detected: Value '{a=[]}" +
                map_keys + "; Value '{a=[]}" + kMapValue);
  EXPECT_EQ(Rejected({{"RequestItems",
                       {{"aa;",
                         {{{"PutRequest", Json::object()},
                           {"DeleteRequest", Json::object()}}}}}},
                      {"ReturnConsumedCapacity", "hi"},
                      {"ReturnItemCollectionMetrics", "hi"}}),
            std::string(kVE) +
                "5 validation errors detected: Value 'hi' at "
                "'returnConsumedCapacity' failed to satisfy constraint: Member "
                "must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value "
                "'hi' at 'returnItemCollectionMetrics' failed to satisfy "
                "constraint: Member must satisfy enum value set: [SIZE, NONE]; "
                "Value '{aa;=[{DeleteRequest={}, PutRequest={}}]}" +
                map_keys +
                "; Value null at 'requestItems.aa;.member.1.member."
                "deleteRequest.key' failed to satisfy constraint: Member must "
                "not be null; Value null at "
                "'requestItems.aa;.member.1.member.putRequest.item' failed to "
                "satisfy constraint: Member must not be null");
}

TEST_F(BatchWriteTest, SerializationErrors) {
  EXPECT_EQ(RejectedItems("x"),
            "SerializationException: Unexpected field type");
  EXPECT_EQ(RejectedItems(
                {{"hash", Json::array({{{"PutRequest", {{"Item", "x"}}}}})}}),
            "SerializationException: Unexpected field type");
  EXPECT_EQ(RejectedItems({{"hash", {"x"}}}),
            "SerializationException: Unexpected value type in payload");
}

TEST_F(BatchWriteTest, RequestCountLimits) {
  Json requests = Json::array();
  for (int i = 0; i < 26; ++i) {
    requests.push_back(i % 2 ? DeleteReq(Key(std::to_string(i)))
                             : PutReq(Key(std::to_string(i))));
  }
  std::string text = RejectedItems({{"hash", requests}});
  const std::string head = std::string(kVE) +
                           "1 validation error detected: Value "
                           "'{hash=[{PutRequest={Item={pk={S=0}}}}, "
                           "{DeleteRequest={Key={pk={S=1}}}}, ";
  EXPECT_EQ(text.substr(0, head.size()), head);
  const std::string tail = kMapValue;
  ASSERT_GT(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  // 25 is fine: then the table must exist.
  requests.erase(requests.end() - 1);
  EXPECT_EQ(RejectedItems({{"nothere", requests}}), kNotFound);
  // More than 25 over several tables.
  Json first(requests.begin(), requests.begin() + 13);
  Json second(requests.begin() + 12, requests.end());
  EXPECT_EQ(RejectedItems({{"hash", first}, {"nothere", second}}),
            std::string(kVE) +
                "Too many items requested for the BatchWriteItem call");
  EXPECT_EQ(BatchWrite({{"hash", requests}}),
            Json({{"UnprocessedItems", Json::object()}}));
  EXPECT_EQ(ItemCount("hash"), 13);
}

TEST_F(BatchWriteTest, WriteRequestMustHaveExactlyOneMember) {
  const std::string odd =
      std::string(kVE) +
      "Supplied AttributeValue has more than one datatypes set, must contain "
      "exactly one of the supported datatypes";
  EXPECT_EQ(RejectedItems({{"hash", {Json::object()}}}), odd);
  EXPECT_EQ(RejectedItems({{"hash",
                            {PutReq(Key("a")),
                             {{"PutRequest", {{"Item", Key("b")}}},
                              {"DeleteRequest", {{"Key", Key("b")}}}}}}}),
            odd);
  // Checked before the table lookup and before the AttributeValues.
  EXPECT_EQ(
      RejectedItems(
          {{"nothere", {PutReq({{"pk", Json::object()}}), Json::object()}}}),
      odd);
}

TEST_F(BatchWriteTest, DuplicateKeys) {
  EXPECT_EQ(RejectedItems({{"hash", {PutReq(Key("a")), DeleteReq(Key("a"))}}}),
            kDuplicates);
  EXPECT_EQ(RejectedItems({{"hash", {DeleteReq(Key("a")), PutReq(Key("a"))}}}),
            kDuplicates);
  EXPECT_EQ(RejectedItems({{"hash",
                            {PutReq({{"pk", S("a")}, {"x", S("1")}}),
                             PutReq({{"pk", S("a")}, {"x", S("2")}})}}}),
            kDuplicates);
  EXPECT_EQ(
      RejectedItems(
          {{"range", {DeleteReq(Key("a", "1")), DeleteReq(Key("a", "1"))}}}),
      kDuplicates);
  MakeNumberTable("num");
  EXPECT_EQ(
      FailText("BatchWriteItem",
               {{"RequestItems",
                 {{"num",
                   {PutReq({{"n", N("1")}}), DeleteReq({{"n", N("1.0")}})}}}}}),
      kDuplicates);
  // The table is checked first.
  EXPECT_EQ(RejectedItems({{"nothere", {PutReq(Key("a")), PutReq(Key("a"))}}}),
            kNotFound);
  // Not duplicates: another sort key, another table.
  BatchWrite(
      {{"range",
        {PutReq(Key("a", "1")), PutReq(Key("a", "2")), PutReq(Key("b", "1"))}},
       {"hash", {PutReq(Key("a"))}}});
  EXPECT_EQ(ItemCount("range"), 3);
  EXPECT_EQ(ItemCount("hash"), 1);
}

TEST_F(BatchWriteTest, ItemSchemaErrors) {
  Put("hash", Key("keep"));
  // A valid first request is not written when a later one is bad.
  EXPECT_EQ(
      RejectedItems({{"hash", {PutReq(Key("a")), PutReq(Json::object())}}}),
      kMismatch);
  EXPECT_EQ(RejectedItems({{"hash", {PutReq({{"b", S("a")}})}}}), kMismatch);
  EXPECT_EQ(RejectedItems({{"hash", {PutReq({{"pk", N("1")}})}}}), kMismatch);
  EXPECT_EQ(RejectedItems({{"hash", {PutReq({{"pk", {{"SS", {"a"}}}}})}}}),
            kMismatch);
  EXPECT_EQ(RejectedItems({{"range", {PutReq(Key("a"))}}}), kMismatch);
  EXPECT_EQ(RejectedItems({{"hash", {DeleteReq(Key("a", "b"))}}}), kMismatch);
  EXPECT_EQ(
      RejectedItems(
          {{"hash", {DeleteReq(Key("keep")), DeleteReq(Json::object())}}}),
      kMismatch);
  EXPECT_EQ(RejectedItems({{"nothere", {PutReq(Json::object())}}}), kNotFound);
  EXPECT_EQ(RejectedItems({{"hash", {PutReq(Key(std::string(2049, 'a')))}}}),
            std::string(kVE) +
                "One or more parameter values were invalid: Size of hashkey "
                "has exceeded the maximum size limit of2048 bytes");
  EXPECT_EQ(
      RejectedItems({{"range", {PutReq(Key("a", std::string(1025, 'b')))}}}),
      std::string(kVE) +
          "One or more parameter values were invalid: Aggregated size of "
          "all range keys has exceeded the size limit of 1024 bytes");
  EXPECT_EQ(RejectedItems({{"hash", {PutReq(Key(""))}}}),
            std::string(kVE) +
                "One or more parameter values are not valid. The "
                "AttributeValue for a key attribute cannot contain an empty "
                "string value. Key: pk");
  EXPECT_EQ(RejectedItems({{"hash", {DeleteReq(Key(""))}}}),
            std::string(kVE) +
                "One or more parameter values were invalid: The AttributeValue "
                "for a key attribute cannot contain an empty string value. "
                "Key: pk");
  MakeIndexedTable("idx");
  EXPECT_EQ(
      FailText(
          "BatchWriteItem",
          {{"RequestItems",
            {{"idx",
              {PutReq({{"pk", S("a")}, {"sk", N("1")}, {"g", N("1")}})}}}}}),
      std::string(kVE) +
          "One or more parameter values were invalid: Type mismatch for "
          "Index Key g Expected: S Actual: N IndexName: by_g");
  EXPECT_EQ(Get("hash", Key("keep")), Key("keep"));
  EXPECT_EQ(ItemCount("idx"), 0);
}

TEST_F(BatchWriteTest, ItemContentErrors) {
  EXPECT_EQ(RejectedItems({{"hash", {PutReq({{"pk", Json::object()}})}}}),
            std::string(kVE) +
                "Supplied AttributeValue is empty, must contain exactly one of "
                "the supported datatypes");
  EXPECT_EQ(
      RejectedItems(
          {{"hash", {PutReq({{"pk", S("a")}, {"s", {{"NS", {"1", "1"}}}}})}}}),
      std::string(kVE) + "Input collection contains duplicates");
  EXPECT_EQ(RejectedItems({{"hash", {DeleteReq({{"pk", N("b")}})}}}),
            std::string(kVE) +
                "The parameter cannot be converted to a numeric value: b");
  const std::string too_big =
      std::string(kVE) + "Item size has exceeded the maximum allowed size";
  EXPECT_EQ(RejectedItems({{"hash", {PutReq(SizedItem("a", 409601))}}}),
            too_big);
  // Checked before the table lookup; 409,600 bytes is allowed.
  EXPECT_EQ(RejectedItems({{"nothere", {PutReq(SizedItem("a", 409601))}}}),
            too_big);
  EXPECT_EQ(RejectedItems({{"nothere", {PutReq(SizedItem("a", 409600))}}}),
            kNotFound);
  BatchWrite({{"hash", {PutReq(SizedItem("a", 409600))}}});
  EXPECT_EQ(ItemCount("hash"), 1);
}

TEST_F(BatchWriteTest, MissingTableRejectsEveryTable) {
  EXPECT_EQ(RejectedItems({{"hash", {PutReq(Key("a"))}},
                           {"nothere", {PutReq(Key("a"))}}}),
            kNotFound);
}

// ---------------------------------------------------------------------------
// Stream records: one per changed item, none for deleting a missing item.

class BatchWriteStreamTest : public StreamsTest {};

TEST_F(BatchWriteStreamTest, OneRecordPerChangedItem) {
  const std::string arn = CreateStreamTable("str", "NEW_AND_OLD_IMAGES");
  Put("str", {{"pk", {{"S", "old"}}}});
  Ok("BatchWriteItem",
     {{"RequestItems",
       {{"str",
         {{{"PutRequest", {{"Item", {{"pk", {{"S", "a"}}}}}}}},
          {{"PutRequest",
            {{"Item", {{"pk", {{"S", "old"}}}, {"x", {{"N", "1"}}}}}}}},
          {{"DeleteRequest", {{"Key", {{"pk", {{"S", "never"}}}}}}}}}}}}});
  std::vector<Json> records = ReadAll(arn);
  ASSERT_EQ(records.size(), 3u);
  std::vector<std::string> events;
  for (const Json& r : records) {
    events.push_back(r["eventName"].get<std::string>() + " " +
                     r["dynamodb"]["Keys"]["pk"]["S"].get<std::string>());
  }
  EXPECT_EQ(events,
            (std::vector<std::string>{"INSERT old", "INSERT a", "MODIFY old"}));
  EXPECT_EQ(records[2]["dynamodb"]["OldImage"], Json({{"pk", {{"S", "old"}}}}));
}

// ---------------------------------------------------------------------------
// TTL: batch puts enter the deletion queue, batch deletes leave it.

class BatchWriteTtlTest : public TtlEngineTest {};

TEST_F(BatchWriteTtlTest, QueueFollowsBatchWrites) {
  CreateTtlTable("ttl");
  auto item = [](const std::string& pk, int64_t exp) {
    Json i = {{"pk", {{"S", pk}}}, {"exp", {{"N", std::to_string(exp)}}}};
    return Json{{"PutRequest", {{"Item", i}}}};
  };
  Ok("BatchWriteItem",
     {{"RequestItems",
       {{"ttl",
         {item("a", kT0 + 10), item("b", kT0 + 20), item("c", kT0 + 30)}}}}});
  // Due a second after its TTL: DynamoDB deletes items whose TTL is less
  // than the current time.
  EXPECT_EQ(QueueDue("ttl", "a"), kT0 + 11);
  EXPECT_EQ(Waiting("ttl"), 3);
  Ok("BatchWriteItem",
     {{"RequestItems",
       {{"ttl",
         {Json{{"DeleteRequest", {{"Key", {{"pk", {{"S", "b"}}}}}}}},
          item("c", kT0 + 5)}}}}});
  EXPECT_EQ(QueueDue("ttl", "b"), std::nullopt);
  EXPECT_EQ(QueueDue("ttl", "c"), kT0 + 6);
  Advance(11);
  EXPECT_EQ(Sweep(), 2);
  EXPECT_FALSE(Has("ttl", "a"));
  EXPECT_FALSE(Has("ttl", "c"));
  EXPECT_EQ(Describe("ttl")["ItemCount"], 0);
}

}  // namespace
}  // namespace ddblab::engine::testing
