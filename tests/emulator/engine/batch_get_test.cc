// BatchGetItem (the DynamoDB API reference): results, projections, capacity,
// the 16 MB response limit, the fault hook, and every error text.
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/batch_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr char kVE[] = "ValidationException: ";

class BatchGetTest : public BatchTest {
 protected:
  Json BatchGet(const Json& request_items, const Json& extra = Json::object()) {
    Json req = extra;
    req["RequestItems"] = request_items;
    return Ok("BatchGetItem", req);
  }
  std::string BatchGetFail(const Json& request) {
    return FailText("BatchGetItem", request);
  }
  // {"tbl": {"Keys": [{"pk": "k0"}, ...]}} with `n` keys from `from`.
  static Json Keys(int from, int n) {
    Json keys = Json::array();
    for (int i = from; i < from + n; ++i) keys.push_back(Key(KeyName(i)));
    return keys;
  }
  static std::string KeyName(int i) {
    return std::string("k") + (i < 10 ? "0" : "") + std::to_string(i);
  }
};

TEST_F(BatchGetTest, ReturnsExistingItemsAndOmitsMissingOnes) {
  MakeTable("hash");
  MakeTable("range", true);
  Put("hash", {{"pk", S("a")}, {"x", N("1")}});
  Put("hash", {{"pk", S("c")}, {"x", N("3")}});
  Put("range", {{"pk", S("a")}, {"sk", S("1")}, {"y", S("z")}});
  Json out = BatchGet({{"hash", {{"Keys", {Key("a"), Key("b"), Key("c")}}}},
                       {"range", {{"Keys", {Key("a", "1"), Key("a", "2")}}}}});
  EXPECT_EQ(out, Json::parse(R"({
    "Responses": {
      "hash": [{"pk": {"S": "a"}, "x": {"N": "1"}},
               {"pk": {"S": "c"}, "x": {"N": "3"}}],
      "range": [{"pk": {"S": "a"}, "sk": {"S": "1"}, "y": {"S": "z"}}]},
    "UnprocessedKeys": {}})"));
  // A table none of whose keys exist still has its (empty) entry.
  EXPECT_EQ(
      BatchGet({{"hash", {{"Keys", {Key("zz")}}}}}),
      Json::parse(R"({"Responses": {"hash": []}, "UnprocessedKeys": {}})"));
}

TEST_F(BatchGetTest, TableByArnEchoesTheArn) {
  MakeTable("tbl");
  Put("tbl", {{"pk", S("a")}});
  const std::string arn = Arn("tbl");
  Json out = BatchGet({{arn, {{"Keys", {Key("a")}}}}},
                      {{"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out["Responses"], Json({{arn, {{{"pk", S("a")}}}}}));
  EXPECT_EQ(out["ConsumedCapacity"],
            Json::array({{{"TableName", arn}, {"CapacityUnits", 0.5}}}));
}

TEST_F(BatchGetTest, ProjectionsPerTable) {
  MakeTable("one");
  MakeTable("two");
  Json item = {{"pk", S("a")},
               {"b", N("2")},
               {"c", S("c")},
               {"m", M({{"x", S("1")}, {"y", S("2")}})}};
  Put("one", item);
  Put("two", item);
  Json out = BatchGet({{"one",
                        {{"Keys", {Key("a")}},
                         {"ProjectionExpression", "#b, m.x"},
                         {"ExpressionAttributeNames", {{"#b", "b"}}}}},
                       {"two", {{"Keys", {Key("a")}}}}});
  EXPECT_EQ(out["Responses"]["one"],
            Json::array({{{"b", N("2")}, {"m", M({{"x", S("1")}})}}}));
  EXPECT_EQ(out["Responses"]["two"], Json::array({item}));
  // AttributesToGet (a request may not mix it with ProjectionExpression,
  // even across tables).
  out = BatchGet(
      {{"one", {{"Keys", {Key("a")}}, {"AttributesToGet", {"c", "nope"}}}},
       {"two", {{"Keys", {Key("a")}}, {"AttributesToGet", {"b"}}}}});
  EXPECT_EQ(out["Responses"]["one"], Json::array({{{"c", S("c")}}}));
  EXPECT_EQ(out["Responses"]["two"], Json::array({{{"b", N("2")}}}));
  // A projection naming nothing that exists gives an empty item, not none.
  out = BatchGet(
      {{"one", {{"Keys", {Key("a")}}, {"ProjectionExpression", "zz"}}}});
  EXPECT_EQ(out["Responses"]["one"], Json::array({Json::object()}));
}

TEST_F(BatchGetTest, CapacityPerTablePerItem) {
  MakeTable("big");
  MakeNumberTable("num");
  Put("big", SizedItem("a", 4097));  // 2 units strongly consistent
  Put("big", {{"pk", S("b")}});      // 1 unit
  const Json request = {
      {"big", {{"Keys", {Key("a"), Key("b"), Key("missing")}}}},
      {"num", {{"Keys", {{{"n", N("5")}}}}, {"ConsistentRead", true}}}};
  Json out = BatchGet(request, {{"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out["ConsumedCapacity"], Json::parse(R"([
    {"TableName": "big", "CapacityUnits": 2.0},
    {"TableName": "num", "CapacityUnits": 1.0}])"));
  Json strong = request;
  strong["big"]["ConsistentRead"] = true;
  out = BatchGet(strong, {{"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(out["ConsumedCapacity"], Json::parse(R"([
    {"TableName": "big", "CapacityUnits": 4.0, "Table": {"CapacityUnits": 4.0}},
    {"TableName": "num", "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}])"));
  EXPECT_FALSE(BatchGet(request, {{"ReturnConsumedCapacity", "NONE"}})
                   .contains("ConsumedCapacity"));
}

TEST_F(BatchGetTest, KeysAreMatchedByValue) {
  MakeNumberTable("num");
  Ok("PutItem", {{"TableName", "num"}, {"Item", {{"n", N("1000")}}}});
  Json out = BatchGet({{"num", {{"Keys", {{{"n", N("1e3")}}}}}}});
  EXPECT_EQ(out["Responses"]["num"], Json::array({{{"n", N("1000")}}}));
}

// 100 items of 300 KB (307,200 bytes): 52 fit in 16,000,000 bytes (the
// documented example), the 48 others come back as UnprocessedKeys with the
// table's parameters; a second call reads them.
TEST_F(BatchGetTest, ResponseLimitLeavesTheRestUnprocessed) {
  MakeTable("tbl");
  for (int i = 0; i < 100; ++i) Put("tbl", SizedItem(KeyName(i), 307200));
  Json kaa = {{"Keys", Keys(0, 100)},
              {"ConsistentRead", true},
              {"ProjectionExpression", "#k, v"},
              {"ExpressionAttributeNames", {{"#k", "pk"}}}};
  Json out = BatchGet({{"tbl", kaa}}, {{"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(out["Responses"]["tbl"].size(), 52u);
  for (int i = 0; i < 52; ++i) {
    EXPECT_EQ(out["Responses"]["tbl"][i]["pk"], S(KeyName(i)));
  }
  Json expected_left = kaa;
  expected_left["Keys"] = Keys(52, 48);
  EXPECT_EQ(out["UnprocessedKeys"], Json({{"tbl", expected_left}}));
  // 52 items of 75 units (300 KB / 4 KB), strongly consistent.
  EXPECT_EQ(out["ConsumedCapacity"],
            Json::array({{{"TableName", "tbl"}, {"CapacityUnits", 3900.0}}}));

  Json again = BatchGet(out["UnprocessedKeys"]);
  EXPECT_EQ(again["Responses"]["tbl"].size(), 48u);
  EXPECT_EQ(again["UnprocessedKeys"], Json::object());
}

// The limit counts returned data across tables, in RequestItems order;
// a small projection returns everything.
TEST_F(BatchGetTest, ResponseLimitSpansTablesAndCountsProjectedSize) {
  MakeTable("tba");
  MakeTable("tbb");
  for (int i = 0; i < 40; ++i) Put("tba", SizedItem(KeyName(i), 307200));
  for (int i = 40; i < 100; ++i) Put("tbb", SizedItem(KeyName(i), 307200));
  Json out = BatchGet(
      {{"tba", {{"Keys", Keys(0, 40)}}}, {"tbb", {{"Keys", Keys(40, 60)}}}});
  EXPECT_EQ(out["Responses"]["tba"].size(), 40u);
  EXPECT_EQ(out["Responses"]["tbb"].size(), 12u);
  EXPECT_EQ(out["UnprocessedKeys"], Json({{"tbb", {{"Keys", Keys(52, 48)}}}}));

  out = BatchGet(
      {{"tba", {{"Keys", Keys(0, 40)}, {"ProjectionExpression", "pk"}}},
       {"tbb", {{"Keys", Keys(40, 60)}, {"ProjectionExpression", "pk"}}}});
  EXPECT_EQ(out["Responses"]["tba"].size(), 40u);
  EXPECT_EQ(out["Responses"]["tbb"].size(), 60u);
  EXPECT_EQ(out["UnprocessedKeys"], Json::object());
}

TEST_F(BatchGetTest, FaultLeavesKeysUnprocessed) {
  MakeTable("tbl");
  Put("tbl", {{"pk", S("a")}});
  Put("tbl", {{"pk", S("b")}});
  LeaveUnprocessed("b");
  Json out = BatchGet(
      {{"tbl", {{"Keys", {Key("a"), Key("b")}}, {"AttributesToGet", {"pk"}}}}},
      {{"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out, Json::parse(R"({
    "Responses": {"tbl": [{"pk": {"S": "a"}}]},
    "UnprocessedKeys": {"tbl": {"Keys": [{"pk": {"S": "b"}}],
                                "AttributesToGet": ["pk"]}},
    "ConsumedCapacity": [{"TableName": "tbl", "CapacityUnits": 0.5}]})"));
  LeaveUnprocessed(std::nullopt);
  out = BatchGet(out["UnprocessedKeys"]);
  EXPECT_EQ(out["Responses"]["tbl"], Json::array({{{"pk", S("b")}}}));
}

// ---------------------------------------------------------------------------
// Errors

TEST_F(BatchGetTest, ShapeErrors) {
  EXPECT_EQ(BatchGetFail(Json::object()),
            std::string(kVE) +
                "1 validation error detected: Value null at 'requestItems' "
                "failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(BatchGetFail({{"ReturnConsumedCapacity", "hi"}}),
            std::string(kVE) +
                "2 validation errors detected: Value 'hi' at "
                "'returnConsumedCapacity' failed to satisfy constraint: Member "
                "must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value "
                "null at 'requestItems' failed to satisfy constraint: Member "
                "must not be null");
  // An empty map has its own sentence.
  EXPECT_EQ(BatchGetFail({{"RequestItems", Json::object()}}),
            std::string(kVE) +
                "The requestItems parameter is required for BatchGetItem");
  const std::string map_keys =
      "failed to satisfy constraint: Map keys must satisfy constraint: "
      "[Member must have length less than or equal to 255, Member must have "
      "length greater than or equal to 3, Member must satisfy regular "
      "expression pattern: [a-zA-Z0-9_.-]+]";
  EXPECT_EQ(BatchGetFail({{"RequestItems", {{"a", Json::object()}}},
                          {"ReturnConsumedCapacity", "hi"}}),
            std::string(kVE) +
                "3 validation errors detected: Value 'hi' at "
                "'returnConsumedCapacity' failed to satisfy constraint: Member "
                "must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value "
                "'{a={}}' at 'requestItems' " +
                map_keys +
                "; Value null at 'requestItems.a.member.keys' failed to "
                "satisfy constraint: Member must not be null");
  EXPECT_EQ(
      BatchGetFail({{"RequestItems", {{"a", {{"Keys", Json::array()}}}}}}),
      std::string(kVE) +
          "2 validation errors detected: Value '{a={Keys=[]}}' at "
          "'requestItems' " +
          map_keys +
          "; Value '[]' at 'requestItems.a.member.keys' failed to "
          "satisfy constraint: Member must have length greater than or "
          "equal to 1");
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"abc",
              {{"Keys", {Key("a")}}, {"AttributesToGet", Json::array()}}}}}}),
      std::string(kVE) +
          "1 validation error detected: Value '[]' at "
          "'requestItems.abc.member.attributesToGet' failed to satisfy "
          "constraint: Member must have length greater than or equal to "
          "1");
}

TEST_F(BatchGetTest, SerializationErrors) {
  EXPECT_EQ(BatchGetFail({{"RequestItems", "x"}}),
            "SerializationException: Unexpected field type");
  EXPECT_EQ(BatchGetFail({{"RequestItems", {{"abc", {{"Keys", "x"}}}}}}),
            "SerializationException: Unexpected field type");
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"abc", {{"Keys", {Key("a")}}, {"ConsistentRead", 1}}}}}}),
      "SerializationException: NUMBER_VALUE cannot be converted to Boolean");
  EXPECT_EQ(
      BatchGetFail({{"RequestItems", {{"abc", {{"Keys", {{{"a", 1}}}}}}}}}),
      "SerializationException: Unexpected value type in payload");
}

TEST_F(BatchGetTest, KeyCountLimits) {
  Json keys = Keys(0, 101);
  // Over 100 keys in one table: DynamoDB's API member names, no value.
  EXPECT_EQ(BatchGetFail({{"RequestItems", {{"abc", {{"Keys", keys}}}}}}),
            std::string(kVE) +
                "1 validation error detected: Value at "
                "'RequestItems.abc.member.Keys' failed to satisfy constraint: "
                "Member must have length less than or equal to 100");
  // Still one of the request's constraint errors.
  EXPECT_EQ(BatchGetFail({{"ReturnConsumedCapacity", "hi"},
                          {"RequestItems", {{"abc", {{"Keys", keys}}}}}}),
            std::string(kVE) +
                "2 validation errors detected: Value 'hi' at "
                "'returnConsumedCapacity' failed to satisfy constraint: Member "
                "must satisfy enum value set: [INDEXES, TOTAL, NONE]; Value at "
                "'RequestItems.abc.member.Keys' failed to satisfy constraint: "
                "Member must have length less than or equal to 100");

  EXPECT_EQ(
      BatchGetFail({{"RequestItems",
                     {{"abc", {{"Keys", Keys(0, 100)}}},
                      {"abd", {{"Keys", Keys(100, 1)}}}}}}),
      std::string(kVE) + "Too many items requested for the BatchGetItem call");
  // Exactly 100 keys is fine: then the table must exist.
  EXPECT_EQ(
      BatchGetFail({{"RequestItems", {{"abc", {{"Keys", Keys(0, 100)}}}}}}),
      "ResourceNotFoundException: Requested resource not found");
}

TEST_F(BatchGetTest, DuplicateKeys) {
  MakeTable("tbl");
  MakeNumberTable("num");
  const std::string dup =
      std::string(kVE) + "Provided list of item keys contains duplicates";
  EXPECT_EQ(
      BatchGetFail({{"RequestItems",
                     {{"tbl", {{"Keys", {Key("a"), Key("a"), Key("a")}}}}}}}),
      dup);
  EXPECT_EQ(
      BatchGetFail({{"RequestItems",
                     {{"tbl", {{"Keys", {Key("a"), Key("b"), Key("a")}}}}}}}),
      dup);
  // Numbers compare by value.
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"num", {{"Keys", {{{"n", N("1")}}, {{"n", N("1.0")}}}}}}}}}),
      dup);
  // Found before the table lookup.
  EXPECT_EQ(BatchGetFail({{"RequestItems",
                           {{"nothere", {{"Keys", {Key("a"), Key("a")}}}}}}}),
            dup);
  // The same key in two tables is not a duplicate.
  MakeTable("tbl2");
  Put("tbl2", {{"pk", S("a")}});
  EXPECT_EQ(BatchGet({{"tbl", {{"Keys", {Key("a")}}}},
                      {"tbl2", {{"Keys", {Key("a")}}}}})["Responses"],
            Json::parse(R"({"tbl": [], "tbl2": [{"pk": {"S": "a"}}]})"));
}

TEST_F(BatchGetTest, KeyValueErrors) {
  EXPECT_EQ(BatchGetFail({{"RequestItems",
                           {{"abc", {{"Keys", {{{"a", Json::object()}}}}}}}}}),
            std::string(kVE) +
                "Supplied AttributeValue is empty, must contain exactly one "
                "of the supported datatypes");
  EXPECT_EQ(BatchGetFail(
                {{"RequestItems", {{"abc", {{"Keys", {{{"a", N("b")}}}}}}}}}),
            std::string(kVE) +
                "The parameter cannot be converted to a numeric value: b");
  EXPECT_EQ(BatchGetFail(
                {{"RequestItems",
                  {{"abc", {{"Keys", {{{"a", {{"S", "a"}, {"N", "1"}}}}}}}}}}}),
            std::string(kVE) +
                "Supplied AttributeValue has more than one datatypes set, "
                "must contain exactly one of the supported datatypes");
}

TEST_F(BatchGetTest, ExpressionErrors) {
  MakeTable("tbl");
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"abc",
              {{"Keys", {Key("a")}}, {"AttributesToGet", {"a", "a"}}}}}}}),
      std::string(kVE) +
          "One or more parameter values were invalid: Duplicate value "
          "in attribute name: a");
  const std::string mixing =
      std::string(kVE) +
      "Can not use both expression and non-expression parameters in the same "
      "request: Non-expression parameters: {AttributesToGet} Expression "
      "parameters: {ProjectionExpression}";
  EXPECT_EQ(BatchGetFail({{"RequestItems",
                           {{"abc",
                             {{"Keys", {Key("a")}},
                              {"AttributesToGet", {"a"}},
                              {"ProjectionExpression", "a"}}}}}}),
            mixing);
  // Remembered across tables.
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"abc", {{"Keys", {Key("a")}}, {"AttributesToGet", {"a"}}}},
             {"abd", {{"Keys", {Key("a")}}, {"ProjectionExpression", "a"}}}}}}),
      mixing);
  EXPECT_EQ(BatchGetFail({{"RequestItems",
                           {{"abc",
                             {{"Keys", {Key("a")}},
                              {"ExpressionAttributeNames", {{"#a", "a"}}}}}}}}),
            std::string(kVE) +
                "ExpressionAttributeNames can only be specified when using "
                "expressions");
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"abc",
              {{"Keys", {Key("a")}},
               {"ProjectionExpression", "#a"},
               {"ExpressionAttributeNames", {{"#a", "a"}, {"#u", "u"}}}}}}}}),
      std::string(kVE) +
          "Value provided in ExpressionAttributeNames unused in "
          "expressions: keys: {#u}");
  // Key paths: nested access into a key attribute.
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"tbl",
              {{"Keys", {Key("a")}}, {"ProjectionExpression", "pk.x"}}}}}}),
      std::string(kVE) +
          "Key attributes must be scalars; list random access '[]' and "
          "map lookup '.' are not allowed: Key: pk");
}

TEST_F(BatchGetTest, SchemaErrors) {
  MakeTable("hash");
  MakeTable("range", true);
  const std::string mismatch =
      std::string(kVE) + "The provided key element does not match the schema";
  EXPECT_EQ(BatchGetFail({{"RequestItems",
                           {{"nothere", {{"Keys", {Json::object()}}}}}}}),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(BatchGetFail(
                {{"RequestItems", {{"hash", {{"Keys", {Json::object()}}}}}}}),
            mismatch);
  EXPECT_EQ(BatchGetFail(
                {{"RequestItems", {{"hash", {{"Keys", {{{"b", S("a")}}}}}}}}}),
            mismatch);
  EXPECT_EQ(BatchGetFail(
                {{"RequestItems",
                  {{"hash", {{"Keys", {{{"pk", S("a")}, {"b", S("a")}}}}}}}}}),
            mismatch);
  EXPECT_EQ(BatchGetFail(
                {{"RequestItems", {{"hash", {{"Keys", {{{"pk", N("1")}}}}}}}}}),
            mismatch);
  EXPECT_EQ(
      BatchGetFail({{"RequestItems", {{"range", {{"Keys", {Key("a")}}}}}}}),
      mismatch);
  EXPECT_EQ(
      BatchGetFail({{"RequestItems",
                     {{"hash", {{"Keys", {Key(std::string(2049, 'a'))}}}}}}}),
      std::string(kVE) +
          "One or more parameter values were invalid: Size of hashkey "
          "has exceeded the maximum size limit of2048 bytes");
  EXPECT_EQ(
      BatchGetFail(
          {{"RequestItems",
            {{"range", {{"Keys", {Key("a", std::string(1025, 'b'))}}}}}}}),
      std::string(kVE) +
          "One or more parameter values were invalid: Aggregated size of "
          "all range keys has exceeded the size limit of 1024 bytes");
  EXPECT_EQ(BatchGetFail({{"RequestItems", {{"hash", {{"Keys", {Key("")}}}}}}}),
            std::string(kVE) +
                "One or more parameter values were invalid: The AttributeValue "
                "for a key attribute cannot contain an empty string value. "
                "Key: pk");
  // One missing table fails the whole call.
  EXPECT_EQ(BatchGetFail({{"RequestItems",
                           {{"hash", {{"Keys", {Key("a")}}}},
                            {"nothere", {{"Keys", {Key("a")}}}}}}}),
            "ResourceNotFoundException: Requested resource not found");
}

TEST_F(BatchGetTest, CreatingTableIsNotFound) {
  Options options;
  options.table_status_delay = std::chrono::seconds(10);
  Open(options);
  MakeTable("tbl");
  EXPECT_EQ(BatchGetFail({{"RequestItems", {{"tbl", {{"Keys", {Key("a")}}}}}}}),
            "ResourceNotFoundException: Requested resource not found");
  clock_->Advance(std::chrono::seconds(10));
  EXPECT_EQ(
      BatchGet({{"tbl", {{"Keys", {Key("a")}}}}}),
      Json::parse(R"({"Responses": {"tbl": []}, "UnprocessedKeys": {}})"));
}

}  // namespace
}  // namespace ddblab::engine::testing
