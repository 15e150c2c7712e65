// PutItem / GetItem / DeleteItem with condition and projection expressions
// and their legacy forms (the DynamoDB API reference).
#include <gtest/gtest.h>

#include "tests/emulator/engine/items_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr char kConditionFailed[] =
    "ConditionalCheckFailedException: The conditional request failed";

class ItemExprTest : public ItemsTest {
 protected:
  void SetUp() override {
    ItemsTest::SetUp();
    CreateTable("tbl");
  }
  Json Key(const std::string& pk) { return {{"pk", S(pk)}}; }
};

TEST_F(ItemExprTest, PutInsertOnlyGuard) {
  Json first = {{"pk", S("a")}, {"v", N("1")}};
  Ok("PutItem", {{"TableName", "tbl"},
                 {"Item", first},
                 {"ConditionExpression", "attribute_not_exists(pk)"}});
  EXPECT_EQ(Get("tbl", Key("a")), first);
  EXPECT_EQ(FailText("PutItem",
                     {{"TableName", "tbl"},
                      {"Item", {{"pk", S("a")}, {"v", N("2")}}},
                      {"ConditionExpression", "attribute_not_exists(pk)"}}),
            kConditionFailed);
  EXPECT_EQ(Get("tbl", Key("a")), first);  // unchanged
}

TEST_F(ItemExprTest, MissingItemIsEmptyItemForConditions) {
  // attribute_exists on a missing item: false.
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "tbl"},
                           {"Item", Key("a")},
                           {"ConditionExpression", "attribute_exists(pk)"}}),
      kConditionFailed);
  EXPECT_TRUE(Get("tbl", Key("a")).is_null());
  // A comparison with an absent attribute is false; <> is true.
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "tbl"},
                           {"Item", Key("a")},
                           {"ConditionExpression", "v = :v"},
                           {"ExpressionAttributeValues", {{":v", N("1")}}}}),
      kConditionFailed);
  Ok("PutItem", {{"TableName", "tbl"},
                 {"Item", Key("a")},
                 {"ConditionExpression", "v <> :v"},
                 {"ExpressionAttributeValues", {{":v", N("1")}}}});
  EXPECT_EQ(Get("tbl", Key("a")), Key("a"));
}

TEST_F(ItemExprTest, ConditionWithNamesAndValues) {
  Put("tbl", {{"pk", S("a")}, {"status", S("open")}, {"n", N("5")}});
  // "status" is a reserved word: it needs a name placeholder.
  EXPECT_EQ(
      FailText("DeleteItem",
               {{"TableName", "tbl"},
                {"Key", Key("a")},
                {"ConditionExpression", "status = :s"},
                {"ExpressionAttributeValues", {{":s", S("open")}}}}),
      "ValidationException: Invalid ConditionExpression: Attribute name is a "
      "reserved keyword; reserved keyword: status");
  EXPECT_EQ(
      FailText("DeleteItem", {{"TableName", "tbl"},
                              {"Key", Key("a")},
                              {"ConditionExpression", "#s = :s AND n > :min"},
                              {"ExpressionAttributeNames", {{"#s", "status"}}},
                              {"ExpressionAttributeValues",
                               {{":s", S("open")}, {":min", N("5")}}}}),
      kConditionFailed);
  EXPECT_FALSE(Get("tbl", Key("a")).is_null());
  Ok("DeleteItem",
     {{"TableName", "tbl"},
      {"Key", Key("a")},
      {"ConditionExpression", "#s = :s AND n >= :min"},
      {"ExpressionAttributeNames", {{"#s", "status"}}},
      {"ExpressionAttributeValues", {{":s", S("open")}, {":min", N("5")}}}});
  EXPECT_TRUE(Get("tbl", Key("a")).is_null());
  // Deleting a missing item with attribute_exists fails.
  EXPECT_EQ(
      FailText("DeleteItem", {{"TableName", "tbl"},
                              {"Key", Key("a")},
                              {"ConditionExpression", "attribute_exists(pk)"}}),
      kConditionFailed);
}

TEST_F(ItemExprTest, ReturnValuesOnConditionCheckFailure) {
  Json old = {{"pk", S("a")}, {"s", S("dog")}};
  Put("tbl", old);
  Json put = {{"TableName", "tbl"},
              {"Item", {{"pk", S("a")}, {"s", S("cat")}}},
              {"ConditionExpression", "s = :v"},
              {"ExpressionAttributeValues", {{":v", S("rat")}}},
              {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}};
  Error e = Fail("PutItem", put);
  EXPECT_EQ(ToString(e), kConditionFailed);
  EXPECT_EQ(e.extra, Json({{"Item", old}}));
  Json del = {{"TableName", "tbl"},
              {"Key", Key("a")},
              {"ConditionExpression", "s = :v"},
              {"ExpressionAttributeValues", {{":v", S("rat")}}},
              {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}};
  EXPECT_EQ(Fail("DeleteItem", del).extra, Json({{"Item", old}}));
  // NONE: no Item.
  put["ReturnValuesOnConditionCheckFailure"] = "NONE";
  EXPECT_TRUE(Fail("PutItem", put).extra.is_null());
  // The item does not exist: no Item member.
  Json missing = del;
  missing["Key"] = Key("zz");
  e = Fail("DeleteItem", missing);
  EXPECT_EQ(ToString(e), kConditionFailed);
  EXPECT_TRUE(e.extra.is_null());
  // A successful write returns neither Item nor Attributes.
  put["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD";
  put["ExpressionAttributeValues"][":v"] = S("dog");
  EXPECT_EQ(Ok("PutItem", put), Json::object());
  EXPECT_EQ(Get("tbl", Key("a"))["s"], S("cat"));
  // Only ALL_OLD / NONE are allowed.
  put["ReturnValuesOnConditionCheckFailure"] = "ALL_NEW";
  EXPECT_EQ(FailText("PutItem", put),
            "ValidationException: 1 validation error detected: Value 'ALL_NEW' "
            "at 'returnValuesOnConditionCheckFailure' failed to satisfy "
            "constraint: Member must satisfy enum value set: [ALL_OLD, NONE]");
}

TEST_F(ItemExprTest, PutDeleteReturnValues) {
  EXPECT_EQ(Ok("PutItem", {{"TableName", "tbl"},
                           {"Item", {{"pk", S("a")}, {"v", N("1")}}},
                           {"ReturnValues", "ALL_OLD"}}),
            Json::object());
  EXPECT_EQ(Ok("PutItem", {{"TableName", "tbl"},
                           {"Item", {{"pk", S("a")}, {"v", N("2")}}},
                           {"ReturnValues", "ALL_OLD"}}),
            Json({{"Attributes", {{"pk", S("a")}, {"v", N("1")}}}}));
  EXPECT_EQ(Ok("DeleteItem", {{"TableName", "tbl"},
                              {"Key", Key("a")},
                              {"ReturnValues", "ALL_OLD"}}),
            Json({{"Attributes", {{"pk", S("a")}, {"v", N("2")}}}}));
  EXPECT_EQ(Ok("DeleteItem", {{"TableName", "tbl"},
                              {"Key", Key("a")},
                              {"ReturnValues", "ALL_OLD"}}),
            Json::object());
  for (const char* rv : {"UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"}) {
    EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"},
                                   {"Item", Key("b")},
                                   {"ReturnValues", rv}}),
              "ValidationException: ReturnValues can only be ALL_OLD or NONE");
    EXPECT_EQ(FailText("DeleteItem", {{"TableName", "tbl"},
                                      {"Key", Key("b")},
                                      {"ReturnValues", rv}}),
              "ValidationException: ReturnValues can only be ALL_OLD or NONE");
  }
  EXPECT_TRUE(Get("tbl", Key("b")).is_null());
}

TEST_F(ItemExprTest, StyleAndPlaceholderErrors) {
  Put("tbl", {{"pk", S("a")}, {"v", N("1")}});
  const Json before = Get("tbl", Key("a"));
  Json put = {{"TableName", "tbl"}, {"Item", {{"pk", S("a")}, {"v", N("9")}}}};
  auto with = [&](Json extra) {
    Json r = put;
    r.update(extra);
    return FailText("PutItem", r);
  };
  EXPECT_EQ(with({{"ConditionExpression", "attribute_exists(pk)"},
                  {"Expected", {{"pk", {{"Exists", false}}}}}}),
            "ValidationException: Can not use both expression and "
            "non-expression parameters in the same request: Non-expression "
            "parameters: {Expected} Expression parameters: "
            "{ConditionExpression}");
  EXPECT_EQ(with({{"ExpressionAttributeNames", {{"#a", "a"}}}}),
            "ValidationException: ExpressionAttributeNames can only be "
            "specified when using expressions");
  EXPECT_EQ(with({{"ExpressionAttributeValues", {{":a", S("a")}}}}),
            "ValidationException: ExpressionAttributeValues can only be "
            "specified when using expressions: ConditionExpression is null");
  EXPECT_EQ(
      with({{"ConditionExpression", "v = :v"},
            {"ExpressionAttributeValues", {{":v", N("1")}, {":w", N("2")}}}}),
      "ValidationException: Value provided in ExpressionAttributeValues "
      "unused in expressions: keys: {:w}");
  EXPECT_EQ(with({{"ConditionExpression", "v = :v"},
                  {"ExpressionAttributeNames", {{"#b", "b"}}},
                  {"ExpressionAttributeValues", {{":v", N("1")}}}}),
            "ValidationException: Value provided in ExpressionAttributeNames "
            "unused in expressions: keys: {#b}");
  EXPECT_EQ(with({{"ConditionExpression", "v = :v"}}),
            "ValidationException: Invalid ConditionExpression: An expression "
            "attribute value used in expression is not defined; attribute "
            "value: :v");
  EXPECT_EQ(with({{"ConditionExpression", "#v = :v"},
                  {"ExpressionAttributeValues", {{":v", N("1")}}}}),
            "ValidationException: Invalid ConditionExpression: An expression "
            "attribute name used in the document path is not defined; "
            "attribute name: #v");
  EXPECT_EQ(with({{"ConditionExpression", ""}}),
            "ValidationException: Invalid ConditionExpression: The expression "
            "can not be empty;");
  EXPECT_EQ(with({{"ConditionExpression", "v = :v"},
                  {"ExpressionAttributeValues", Json::object()}}),
            "ValidationException: ExpressionAttributeValues must not be empty");
  EXPECT_EQ(with({{"ConditionExpression", "v = :v"},
                  {"ExpressionAttributeValues", {{"v", N("1")}}}}),
            "ValidationException: ExpressionAttributeValues contains invalid "
            "key: Syntax error; key: \"v\"");
  EXPECT_EQ(with({{"ConditionExpression", "v = :v"},
                  {"ExpressionAttributeValues", {{":v", N("x")}}}}),
            "ValidationException: ExpressionAttributeValues contains invalid "
            "value: The parameter cannot be converted to a numeric value: x "
            "for key :v");
  EXPECT_EQ(
      with({{"ConditionExpression", "v = :v"},
            {"ExpressionAttributeValues", {{":v", {{"N", 1}}}}}}),
      "SerializationException: NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(
      with({{"ConditionExpression", 5}}),
      "SerializationException: NUMBER_VALUE cannot be converted to String");
  // A nested path on a key attribute.
  EXPECT_EQ(with({{"ConditionExpression", "pk.x = :v"},
                  {"ExpressionAttributeValues", {{":v", N("1")}}}}),
            "ValidationException: Key attributes must be scalars; list random "
            "access '[]' and map lookup '.' are not allowed: Key: pk");
  EXPECT_EQ(Get("tbl", Key("a")), before);  // nothing changed
}

TEST_F(ItemExprTest, LegacyExpected) {
  Put("tbl", {{"pk", S("a")}, {"v", N("1")}});
  // Value: equality.
  EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"},
                                 {"Item", {{"pk", S("a")}, {"v", N("2")}}},
                                 {"Expected", {{"v", {{"Value", N("7")}}}}}}),
            kConditionFailed);
  Ok("PutItem", {{"TableName", "tbl"},
                 {"Item", {{"pk", S("a")}, {"v", N("2")}}},
                 {"Expected", {{"v", {{"Value", N("1")}}}}}});
  // Exists false; ConditionalOperator OR.
  EXPECT_EQ(
      FailText("DeleteItem", {{"TableName", "tbl"},
                              {"Key", Key("a")},
                              {"Expected", {{"v", {{"Exists", false}}}}}}),
      kConditionFailed);
  Json either = {
      {"v", {{"ComparisonOperator", "EQ"}, {"AttributeValueList", {N("9")}}}},
      {"w", {{"ComparisonOperator", "NULL"}}}};
  EXPECT_EQ(FailText("DeleteItem", {{"TableName", "tbl"},
                                    {"Key", Key("a")},
                                    {"Expected", either},
                                    {"ConditionalOperator", "AND"}}),
            kConditionFailed);
  Ok("DeleteItem", {{"TableName", "tbl"},
                    {"Key", Key("a")},
                    {"Expected", either},
                    {"ConditionalOperator", "OR"}});
  EXPECT_TRUE(Get("tbl", Key("a")).is_null());
  EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"},
                                 {"Item", Key("a")},
                                 {"Expected", {{"v", {{"Exists", true}}}}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Value must be provided when Exists is true for Attribute: v");
  EXPECT_EQ(FailText("PutItem", {{"TableName", "tbl"},
                                 {"Item", Key("a")},
                                 {"Expected", {{"v", {{"Exists", false}}}}},
                                 {"ConditionalOperator", "XOR"}}),
            "ValidationException: 1 validation error detected: Value 'XOR' at "
            "'conditionalOperator' failed to satisfy constraint: Member must "
            "satisfy enum value set: [AND, OR]");
  EXPECT_TRUE(Get("tbl", Key("a")).is_null());
}

TEST_F(ItemExprTest, GetItemProjection) {
  Json item = {{"pk", S("a")},
               {"name", S("n")},
               {"m", M({{"x", N("1")}, {"y", N("2")}})},
               {"l", L({S("l0"), S("l1"), S("l2"), S("l3")})}};
  Put("tbl", item);
  auto get = [&](Json extra) {
    Json r = {{"TableName", "tbl"}, {"Key", Key("a")}};
    r.update(extra);
    return Ok("GetItem", r);
  };
  EXPECT_EQ(get({{"ProjectionExpression", "m.y, l[3], l[1], #n"},
                 {"ExpressionAttributeNames", {{"#n", "name"}}}}),
            Json({{"Item",
                   {{"m", M({{"y", N("2")}})},
                    {"l", L({S("l1"), S("l3")})},
                    {"name", S("n")}}}}));
  // Missing attributes: an empty item, not no item; keys are not added.
  EXPECT_EQ(get({{"ProjectionExpression", "zz"}}),
            Json({{"Item", Json::object()}}));
  EXPECT_EQ(get({{"AttributesToGet", {"pk", "zz"}}}),
            Json({{"Item", {{"pk", S("a")}}}}));
  // Missing item: no Item.
  EXPECT_EQ(Ok("GetItem", {{"TableName", "tbl"},
                           {"Key", Key("b")},
                           {"ProjectionExpression", "m"}}),
            Json::object());
  auto fail = [&](Json extra) {
    Json r = {{"TableName", "tbl"}, {"Key", Key("a")}};
    r.update(extra);
    return FailText("GetItem", r);
  };
  EXPECT_EQ(fail({{"ProjectionExpression", "m"}, {"AttributesToGet", {"m"}}}),
            "ValidationException: Can not use both expression and "
            "non-expression parameters in the same request: Non-expression "
            "parameters: {AttributesToGet} Expression parameters: "
            "{ProjectionExpression}");
  EXPECT_EQ(fail({{"ExpressionAttributeNames", {{"#n", "name"}}}}),
            "ValidationException: ExpressionAttributeNames can only be "
            "specified when using expressions");
  EXPECT_EQ(
      fail({{"ProjectionExpression", "m, m.x"}}),
      "ValidationException: Invalid ProjectionExpression: Two document "
      "paths overlap with each other; must remove or rewrite one of these "
      "paths; path one: [m], path two: [m, x]");
  EXPECT_EQ(fail({{"ProjectionExpression", "pk.x"}}),
            "ValidationException: Key attributes must be scalars; list random "
            "access '[]' and map lookup '.' are not allowed: Key: pk");
  EXPECT_EQ(fail({{"ProjectionExpression", "#n"},
                  {"ExpressionAttributeNames", {{"#n", "name"}, {"#o", "o"}}}}),
            "ValidationException: Value provided in ExpressionAttributeNames "
            "unused in expressions: keys: {#o}");
  EXPECT_EQ(fail({{"AttributesToGet", {"m", "m"}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Duplicate value in attribute name: m");
  EXPECT_EQ(fail({{"AttributesToGet", Json::array()}}),
            "ValidationException: 1 validation error detected: Value '[]' at "
            "'attributesToGet' failed to satisfy constraint: Member must have "
            "length greater than or equal to 1");
  // The legacy list's names are checked like an item's: 1..65535 bytes.
  EXPECT_EQ(fail({{"AttributesToGet", {"m", ""}}}),
            "ValidationException: 1 validation error detected: Empty "
            "attribute name");
  EXPECT_EQ(fail({{"AttributesToGet", {std::string(65536, 'a')}}}),
            "ValidationException: 1 validation error detected: Attribute name "
            "is too large, must be less than 65536 bytes");
  EXPECT_EQ(get({{"AttributesToGet", {std::string(65535, 'a')}}}),
            Json({{"Item", Json::object()}}));
}

TEST_F(ItemExprTest, GetItemConsistentReadCapacity) {
  Put("tbl", {{"pk", S("a")}, {"big", S(std::string(5000, 'x'))}});
  auto units = [&](const std::string& pk, bool consistent) {
    return Ok("GetItem", {{"TableName", "tbl"},
                          {"Key", Key(pk)},
                          {"ConsistentRead", consistent},
                          {"ReturnConsumedCapacity",
                           "TOTAL"}})["ConsumedCapacity"]["CapacityUnits"]
        .get<double>();
  };
  EXPECT_EQ(units("a", true), 2.0);  // 5 KB: 2 x 4 KB
  EXPECT_EQ(units("a", false), 1.0);
  EXPECT_EQ(units("missing", true), 1.0);
  EXPECT_EQ(units("missing", false), 0.5);
}

TEST_F(ItemExprTest, WriteCapacityIsMaxOfOldAndNew) {
  auto put = [&](size_t bytes) {
    return Ok("PutItem",
              {{"TableName", "tbl"},
               {"Item", {{"pk", S("a")}, {"b", S(std::string(bytes, 'x'))}}},
               {"ReturnConsumedCapacity",
                "TOTAL"}})["ConsumedCapacity"]["CapacityUnits"]
        .get<double>();
  };
  EXPECT_EQ(put(2500), 3.0);
  EXPECT_EQ(put(10), 3.0);  // the old item was 3 KB
  EXPECT_EQ(put(10), 1.0);
  EXPECT_EQ(Ok("DeleteItem",
               {{"TableName", "tbl"},
                {"Key", Key("zz")},
                {"ReturnConsumedCapacity", "TOTAL"}})["ConsumedCapacity"],
            Json({{"TableName", "tbl"}, {"CapacityUnits", 1.0}}));
}

TEST_F(ItemExprTest, OrderedWritesPattern) {
  // Last-writer-wins by timestamp: an older write is rejected.
  auto write = [&](const std::string& ts, const std::string& v) {
    return emu_->Call(
        "PutItem",
        {{"TableName", "tbl"},
         {"Item", {{"pk", S("k")}, {"ts", N(ts)}, {"v", S(v)}}},
         {"ConditionExpression", "attribute_not_exists(ts) OR :ts >= ts"},
         {"ExpressionAttributeValues", {{":ts", N(ts)}}}});
  };
  EXPECT_TRUE(write("10", "a").ok());
  EXPECT_TRUE(write("20", "b").ok());
  Result<Json> stale = write("15", "c");
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(ToString(stale.error()), kConditionFailed);
  EXPECT_TRUE(write("20", "d").ok());  // equal timestamps pass (>=)
  EXPECT_EQ(Get("tbl", Key("k")),
            Json({{"pk", S("k")}, {"ts", N("20")}, {"v", S("d")}}));
}

TEST_F(ItemExprTest, UnknownTableAndKeyErrorsComeAfterParsing) {
  EXPECT_EQ(
      FailText("PutItem", {{"TableName", "nope"},
                           {"Item", Key("a")},
                           {"ConditionExpression", "attribute_exists(pk)"}}),
      "ResourceNotFoundException: Requested resource not found");
  // An expression error is reported before the table lookup.
  EXPECT_EQ(FailText("PutItem", {{"TableName", "nope"},
                                 {"Item", Key("a")},
                                 {"ConditionExpression", "attribute_exists("}}),
            "ValidationException: Invalid ConditionExpression: Syntax error; "
            "token: \"<EOF>\", near: \"(\"");
  EXPECT_EQ(
      FailText("DeleteItem", {{"TableName", "tbl"},
                              {"Key", {{"pk", N("1")}}},
                              {"ConditionExpression", "attribute_exists(pk)"}}),
      "ValidationException: The provided key element does not match the "
      "schema");
}

}  // namespace
}  // namespace ddblab::engine::testing
