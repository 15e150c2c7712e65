// UpdateItem (the DynamoDB API reference): upsert, conditions, runtime errors,
// ReturnValues, legacy AttributeUpdates/Expected, capacity, concurrency and
// the idempotent-counter / ordered-writes patterns.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "tests/emulator/engine/items_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr char kConditionFailed[] =
    "ConditionalCheckFailedException: The conditional request failed";
constexpr char kMissingAttr[] =
    "ValidationException: The provided expression refers to an attribute that "
    "does not exist in the item";
constexpr char kBadOperand[] =
    "ValidationException: An operand in the update expression has an "
    "incorrect data type";
constexpr char kBadPath[] =
    "ValidationException: The document path provided in the update "
    "expression is invalid for update";

class UpdateItemTest : public ItemsTest {
 protected:
  void SetUp() override {
    ItemsTest::SetUp();
    CreateTable("tbl");
  }
  Json Key(const std::string& pk) { return {{"pk", S(pk)}}; }
  // UpdateItem on t/pk with an expression and values.
  Json Req(const std::string& pk, const std::string& update,
           Json values = nullptr) {
    Json r = {{"TableName", "tbl"}, {"Key", Key(pk)}};
    if (!update.empty()) r["UpdateExpression"] = update;
    if (!values.is_null()) r["ExpressionAttributeValues"] = values;
    return r;
  }
  Json WithRv(Json r, const std::string& rv) {
    r["ReturnValues"] = rv;
    return r;
  }
};

TEST_F(UpdateItemTest, UpsertCreatesAndModifies) {
  EXPECT_EQ(Update(Req("a", "SET v = :v", {{":v", N("1")}})), Json::object());
  EXPECT_EQ(Get("tbl", Key("a")), Json({{"pk", S("a")}, {"v", N("1")}}));
  Update(
      Req("a", "SET v = v + :one, w = :w", {{":one", N("1")}, {":w", S("x")}}));
  EXPECT_EQ(Get("tbl", Key("a")),
            Json({{"pk", S("a")}, {"v", N("2")}, {"w", S("x")}}));
  Update(Req("a", "REMOVE w ADD n :n", {{":n", N("5")}}));
  EXPECT_EQ(Get("tbl", Key("a")),
            Json({{"pk", S("a")}, {"v", N("2")}, {"n", N("5")}}));
}

TEST_F(UpdateItemTest, KeyOnlyItemCreation) {
  EXPECT_EQ(Update(Req("a", "")), Json::object());
  EXPECT_EQ(Get("tbl", Key("a")), Key("a"));
  Update({{"TableName", "tbl"},
          {"Key", Key("b")},
          {"AttributeUpdates", Json::object()}});
  EXPECT_EQ(Get("tbl", Key("b")), Key("b"));
  // On an existing item, no update leaves it as is.
  Put("tbl", {{"pk", S("c")}, {"v", N("1")}});
  EXPECT_EQ(Update(WithRv(Req("c", ""), "ALL_NEW")),
            Json({{"Attributes", {{"pk", S("c")}, {"v", N("1")}}}}));
}

TEST_F(UpdateItemTest, RemoveOnlyOnMissingItemCreatesNothing) {
  EXPECT_EQ(Update(WithRv(Req("a", "REMOVE b, c.d"), "ALL_NEW")),
            Json::object());
  EXPECT_TRUE(Get("tbl", Key("a")).is_null());
  EXPECT_EQ(Update(Req("a", "DELETE s :s", {{":s", {{"SS", {"x"}}}}})),
            Json::object());
  EXPECT_TRUE(Get("tbl", Key("a")).is_null());
  EXPECT_EQ(Describe("tbl")["ItemCount"], 0);
  // The same REMOVE on an existing item without c is a path error.
  Put("tbl", Key("a"));
  EXPECT_EQ(FailText("UpdateItem", Req("a", "REMOVE b, c.d")), kBadPath);
  // A REMOVE together with a SET creates the item.
  Update(Req("n", "REMOVE b SET c = :c", {{":c", N("1")}}));
  EXPECT_EQ(Get("tbl", Key("n")), Json({{"pk", S("n")}, {"c", N("1")}}));
}

TEST_F(UpdateItemTest, KeyAttributesCannotBeUpdated) {
  Put("tbl", {{"pk", S("a")}, {"v", N("1")}});
  const Json before = Get("tbl", Key("a"));
  const char* msg =
      "ValidationException: One or more parameter values were invalid: Cannot "
      "update attribute pk. This attribute is part of the key";
  EXPECT_EQ(FailText("UpdateItem", Req("a", "SET pk = :v", {{":v", S("b")}})),
            msg);
  EXPECT_EQ(FailText("UpdateItem", Req("a", "REMOVE pk")), msg);
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "tbl"},
                      {"Key", Key("a")},
                      {"AttributeUpdates", {{"pk", {{"Value", S("b")}}}}}}),
            msg);
  EXPECT_EQ(FailText("UpdateItem", Req("a", "SET pk.x = :v", {{":v", S("b")}})),
            "ValidationException: Key attributes must be scalars; list random "
            "access '[]' and map lookup '.' are not allowed: Key: pk");
  EXPECT_EQ(Get("tbl", Key("a")), before);
}

TEST_F(UpdateItemTest, IndexKeyTypeErrors) {
  MakeIndexedTable("idx");
  Json key = {{"pk", S("p")}, {"sk", N("1")}};
  Put("idx", {{"pk", S("p")}, {"sk", N("1")}, {"g", S("g1")}});
  const Json before = Get("idx", key);
  EXPECT_EQ(
      FailText("UpdateItem", {{"TableName", "idx"},
                              {"Key", key},
                              {"UpdateExpression", "SET g = :n"},
                              {"ExpressionAttributeValues", {{":n", N("1")}}}}),
      "ValidationException: One or more parameter values were invalid: Type "
      "mismatch for Index Key g Expected: S Actual: N IndexName: by_g");
  EXPECT_EQ(
      FailText("UpdateItem", {{"TableName", "idx"},
                              {"Key", key},
                              {"UpdateExpression", "ADD l :n"},
                              {"ExpressionAttributeValues", {{":n", N("1")}}}}),
      "ValidationException: One or more parameter values were invalid: Type "
      "mismatch for Index Key l Expected: S Actual: N IndexName: by_l");
  // A value read from the item: known only once the item is read.
  EXPECT_EQ(FailText("UpdateItem", {{"TableName", "idx"},
                                    {"Key", key},
                                    {"UpdateExpression", "SET g = sk"}}),
            "ValidationException: The update expression attempted to update "
            "the secondary index key to unsupported type");
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "idx"},
                      {"Key", key},
                      {"AttributeUpdates", {{"g", {{"Value", N("1")}}}}}}),
            "ValidationException: One or more parameter values were invalid: "
            "Type mismatch for Index Key g Expected: S Actual: N IndexName: "
            "by_g");
  EXPECT_EQ(
      FailText("UpdateItem", {{"TableName", "idx"},
                              {"Key", key},
                              {"UpdateExpression", "SET g.x = :n"},
                              {"ExpressionAttributeValues", {{":n", N("1")}}}}),
      "ValidationException: Key attributes must be scalars; list random "
      "access '[]' and map lookup '.' are not allowed: IndexKey: g");
  EXPECT_EQ(Get("idx", key), before);
  // Setting the index key with the right type moves the item in the index.
  Ok("UpdateItem", {{"TableName", "idx"},
                    {"Key", key},
                    {"UpdateExpression", "SET g = :g REMOVE l"},
                    {"ExpressionAttributeValues", {{":g", S("g2")}}}});
  EXPECT_EQ(Get("idx", key)["g"], S("g2"));
}

TEST_F(UpdateItemTest, RuntimeErrorsChangeNothing) {
  Put("tbl", {{"pk", S("a")},
              {"s", S("str")},
              {"n", N("1")},
              {"m", M({{"x", N("1")}})},
              {"l", L({N("1")})},
              {"ss", {{"SS", {"a"}}}}});
  const Json before = Get("tbl", Key("a"));
  EXPECT_EQ(FailText("UpdateItem",
                     Req("a", "SET v = nope + :one", {{":one", N("1")}})),
            kMissingAttr);
  EXPECT_EQ(FailText("UpdateItem", Req("a", "SET v = nope")), kMissingAttr);
  EXPECT_EQ(FailText("UpdateItem", Req("a", "SET l = list_append(nope, :l)",
                                       {{":l", L({N("2")})}})),
            kMissingAttr);
  EXPECT_EQ(
      FailText("UpdateItem", Req("a", "SET s = s + :one", {{":one", N("1")}})),
      kBadOperand);
  EXPECT_EQ(FailText("UpdateItem", Req("a", "ADD s :one", {{":one", N("1")}})),
            kBadOperand);
  EXPECT_EQ(FailText("UpdateItem",
                     Req("a", "DELETE n :x", {{":x", {{"SS", {"a"}}}}})),
            kBadOperand);
  EXPECT_EQ(
      FailText("UpdateItem", Req("a", "SET nope.x = :one", {{":one", N("1")}})),
      kBadPath);
  EXPECT_EQ(
      FailText("UpdateItem", Req("a", "SET s.x = :one", {{":one", N("1")}})),
      kBadPath);
  EXPECT_EQ(
      FailText("UpdateItem", Req("a", "SET m[0] = :one", {{":one", N("1")}})),
      kBadPath);
  EXPECT_EQ(
      FailText(
          "UpdateItem",
          Req("a", "SET n = n + :big",
              {{":big", N("9.9999999999999999999999999999999999999E+125")}})),
      "ValidationException: Number overflow. Attempting to store a number "
      "with magnitude larger than supported range");
  // Legacy AttributeUpdates type clash.
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "tbl"},
                      {"Key", Key("a")},
                      {"AttributeUpdates",
                       {{"s", {{"Action", "ADD"}, {"Value", N("1")}}}}}}),
            "ValidationException: Type mismatch for attribute to update");
  // Updates on a missing item: SET into a missing map.
  EXPECT_EQ(
      FailText("UpdateItem", Req("zz", "SET a.b = :one", {{":one", N("1")}})),
      kBadPath);
  EXPECT_TRUE(Get("tbl", Key("zz")).is_null());
  EXPECT_EQ(Get("tbl", Key("a")), before);
}

TEST_F(UpdateItemTest, ItemSizeAndNestingLimits) {
  Put("tbl", {{"pk", S("a")}, {"big", S(std::string(409590, 'x'))}});
  EXPECT_EQ(FailText("UpdateItem", Req("a", "SET more = :s",
                                       {{":s", S(std::string(100, 'y'))}})),
            "ValidationException: Item size to update has exceeded the maximum "
            "allowed size");
  EXPECT_FALSE(Get("tbl", Key("a")).contains("more"));
  // 31 nested maps in a value sit at levels 2..32; one more level fails.
  Json deep = N("1");
  for (int i = 0; i < 31; ++i) deep = M({{"d", deep}});
  Update(Req("b", "SET a = :d", {{":d", deep}}));
  Update(Req("c", "SET a = :e", {{":e", M(Json::object())}}));
  EXPECT_EQ(FailText("UpdateItem", Req("c", "SET a.b = :d", {{":d", deep}})),
            "ValidationException: Nesting Levels have exceeded supported "
            "limits: Attributes in the item have nested levels beyond "
            "supported limit");
  EXPECT_EQ(Get("tbl", Key("c")),
            Json({{"pk", S("c")}, {"a", M(Json::object())}}));
}

TEST_F(UpdateItemTest, ReturnValuesTopLevel) {
  Put("tbl", {{"pk", S("a")}, {"a", S("hi")}, {"b", S("dog")}});
  auto rv = [&](const std::string& mode, const std::string& update,
                Json values = nullptr) {
    return Update(WithRv(Req("a", update, values), mode));
  };
  EXPECT_EQ(rv("NONE", "SET b = :v", {{":v", S("cat")}}), Json::object());
  EXPECT_EQ(rv("ALL_OLD", "SET b = :v", {{":v", S("dog")}}),
            Json({{"Attributes",
                   {{"pk", S("a")}, {"a", S("hi")}, {"b", S("cat")}}}}));
  EXPECT_EQ(rv("UPDATED_OLD", "SET b = :v, c = :c",
               {{":v", S("cat")}, {":c", S("x")}}),
            Json({{"Attributes", {{"b", S("dog")}}}}));
  // Rewriting the same value still counts; REMOVE counts.
  EXPECT_EQ(rv("UPDATED_OLD", "SET b = :v", {{":v", S("cat")}}),
            Json({{"Attributes", {{"b", S("cat")}}}}));
  EXPECT_EQ(rv("UPDATED_OLD", "REMOVE b"),
            Json({{"Attributes", {{"b", S("cat")}}}}));
  EXPECT_EQ(rv("UPDATED_OLD", "SET b = :v", {{":v", S("new")}}),
            Json::object());
  EXPECT_EQ(rv("ALL_NEW", "REMOVE c"),
            Json({{"Attributes",
                   {{"pk", S("a")}, {"a", S("hi")}, {"b", S("new")}}}}));
  EXPECT_EQ(rv("UPDATED_NEW", "SET a = :v, b = :w REMOVE c",
               {{":v", S("dog")}, {":w", S("tiger")}}),
            Json({{"Attributes", {{"a", S("dog")}, {"b", S("tiger")}}}}));
  EXPECT_EQ(rv("UPDATED_NEW", "REMOVE b"), Json::object());
  EXPECT_EQ(rv("UPDATED_NEW", "ADD n :one", {{":one", N("1")}}),
            Json({{"Attributes", {{"n", N("1")}}}}));
  // A new item: ALL_OLD and UPDATED_OLD give nothing; UPDATED_NEW no keys.
  EXPECT_EQ(
      Update(WithRv(Req("new1", "SET x = :v", {{":v", N("1")}}), "ALL_OLD")),
      Json::object());
  EXPECT_EQ(Update(WithRv(Req("new2", "SET x = :v", {{":v", N("1")}}),
                          "UPDATED_NEW")),
            Json({{"Attributes", {{"x", N("1")}}}}));
  EXPECT_EQ(
      Update(WithRv(Req("new3", "SET x = :v", {{":v", N("1")}}), "ALL_NEW")),
      Json({{"Attributes", {{"pk", S("new3")}, {"x", N("1")}}}}));
  // Nothing written at all (AttributeUpdates {}): no UPDATED_* attributes.
  EXPECT_EQ(Update({{"TableName", "tbl"},
                    {"Key", Key("new4")},
                    {"AttributeUpdates", Json::object()},
                    {"ReturnValues", "UPDATED_NEW"}}),
            Json::object());
  EXPECT_EQ(Update({{"TableName", "tbl"},
                    {"Key", Key("new5")},
                    {"AttributeUpdates", Json::object()},
                    {"ReturnValues", "ALL_NEW"}}),
            Json({{"Attributes", Key("new5")}}));
  EXPECT_EQ(
      FailText("UpdateItem", WithRv(Req("a", "REMOVE b"), "all_new")),
      "ValidationException: 1 validation error detected: Value 'all_new' "
      "at 'returnValues' failed to satisfy constraint: Member must satisfy "
      "enum value set: [NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW]");
}

TEST_F(UpdateItemTest, ReturnValuesNestedPaths) {
  Put("tbl", {{"pk", S("p")},
              {"a", M({{"b", S("dog")}, {"c", L({N("1"), N("2"), N("3")})}})},
              {"d", S("cat")}});
  auto rv = [&](const std::string& mode, const std::string& update,
                Json values = nullptr) {
    return Update(WithRv(Req("p", update, values), mode))["Attributes"];
  };
  EXPECT_EQ(rv("UPDATED_OLD", "SET a.b = :v", {{":v", S("hi")}}),
            Json({{"a", M({{"b", S("dog")}})}}));
  EXPECT_EQ(rv("UPDATED_OLD", "SET a.c[1] = :v", {{":v", N("7")}}),
            Json({{"a", M({{"c", L({N("2")})}})}}));
  EXPECT_EQ(rv("UPDATED_OLD", "SET a.c[1] = :v, a.b = :w",
               {{":v", N("8")}, {":w", S("dog")}}),
            Json({{"a", M({{"b", S("hi")}, {"c", L({N("7")})}})}}));
  EXPECT_EQ(rv("UPDATED_NEW", "SET a.c[1] = :v, a.b = :w",
               {{":v", N("3")}, {":w", S("yo")}}),
            Json({{"a", M({{"b", S("yo")}, {"c", L({N("3")})}})}}));
  // REMOVE a.c[1], a.c[3]: a.c[3] did not exist.
  EXPECT_EQ(rv("UPDATED_OLD", "REMOVE a.c[1], a.c[3]"),
            Json({{"a", M({{"c", L({N("3")})}})}}));
  EXPECT_EQ(Get("tbl", Key("p"))["a"],
            M({{"b", S("yo")}, {"c", L({N("1"), N("3")})}}));
  // New sub-attribute: nothing old, the new value in UPDATED_NEW.
  EXPECT_TRUE(rv("UPDATED_OLD", "SET a.x1 = :v", {{":v", N("8")}}).is_null());
  EXPECT_EQ(rv("UPDATED_NEW", "SET a.x2 = :v", {{":v", N("8")}}),
            Json({{"a", M({{"x2", N("8")}})}}));
  // Quirk: an index past the end appends, and is not reported.
  EXPECT_TRUE(
      rv("UPDATED_NEW", "SET a.c[100] = :v", {{":v", N("70")}}).is_null());
  EXPECT_EQ(Get("tbl", Key("p"))["a"]["M"]["c"], L({N("1"), N("3"), N("70")}));
  // Quirk: after REMOVE a.c[1] the element shifted into a.c[1] is reported.
  EXPECT_EQ(rv("UPDATED_NEW", "REMOVE a.c[1]"),
            Json({{"a", M({{"c", L({N("70")})}})}}));
}

TEST_F(UpdateItemTest, ConditionsOnUpdate) {
  Put("tbl", {{"pk", S("a")}, {"s", S("dog")}});
  Json r = Req("a", "SET s = :v2", {{":v1", S("rat")}, {":v2", S("cow")}});
  r["ConditionExpression"] = "s = :v1";
  r["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD";
  Error e = Fail("UpdateItem", r);
  EXPECT_EQ(ToString(e), kConditionFailed);
  EXPECT_EQ(e.extra, Json({{"Item", {{"pk", S("a")}, {"s", S("dog")}}}}));
  EXPECT_EQ(Get("tbl", Key("a"))["s"], S("dog"));
  // Missing item: the condition sees an empty item; no Item in the error.
  Json missing = r;
  missing["Key"] = Key("zz");
  e = Fail("UpdateItem", missing);
  EXPECT_TRUE(e.extra.is_null());
  EXPECT_TRUE(Get("tbl", Key("zz")).is_null());
  r["ExpressionAttributeValues"][":v1"] = S("dog");
  EXPECT_EQ(Ok("UpdateItem", r), Json::object());
  EXPECT_EQ(Get("tbl", Key("a"))["s"], S("cow"));
  // An update-only-if-exists guard.
  Json guarded = Req("b", "SET x = :x", {{":x", N("1")}});
  guarded["ConditionExpression"] = "attribute_exists(pk)";
  EXPECT_EQ(FailText("UpdateItem", guarded), kConditionFailed);
  EXPECT_TRUE(Get("tbl", Key("b")).is_null());
}

TEST_F(UpdateItemTest, LegacyAttributeUpdatesAndExpected) {
  Put("tbl", {{"pk", S("a")},
              {"n", N("3")},
              {"set", {{"NS", {"2", "4", "6"}}}},
              {"gone", S("x")}});
  Json r = {{"TableName", "tbl"},
            {"Key", Key("a")},
            {"AttributeUpdates",
             {{"n", {{"Action", "ADD"}, {"Value", N("2")}}},
              {"set", {{"Action", "DELETE"}, {"Value", {{"NS", {"4", "5"}}}}}},
              {"gone", {{"Action", "DELETE"}}},
              {"put", {{"Value", S("p")}}}}},
            {"Expected", {{"n", {{"Value", N("3")}}}}},
            {"ReturnValues", "UPDATED_OLD"}};
  EXPECT_EQ(Update(r), Json({{"Attributes",
                              {{"n", N("3")},
                               {"set", {{"NS", {"2", "4", "6"}}}},
                               {"gone", S("x")}}}}));
  Json item = Get("tbl", Key("a"));
  EXPECT_EQ(item["n"], N("5"));
  EXPECT_EQ(item["put"], S("p"));
  EXPECT_FALSE(item.contains("gone"));
  EXPECT_EQ(item["set"]["NS"].size(), 2u);
  // The Expected condition now fails (n is 5).
  EXPECT_EQ(FailText("UpdateItem", r), kConditionFailed);
  EXPECT_EQ(Get("tbl", Key("a")), item);
  // Legacy errors.
  EXPECT_EQ(
      FailText("UpdateItem",
               {{"TableName", "tbl"},
                {"Key", Key("a")},
                {"AttributeUpdates", {{"x", {{"Action", "PUT"}}}}}}),
      "ValidationException: One or more parameter values were invalid: "
      "Only DELETE action is allowed when no attribute value is specified");
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "tbl"},
                      {"Key", Key("a")},
                      {"AttributeUpdates",
                       {{"x", {{"Action", "ADD"}, {"Value", S("s")}}}}}}),
            "ValidationException: One or more parameter values were invalid: "
            "ADD action is not supported for the type S");
  // AttributeUpdates names are checked like an item's: 1..65535 bytes.
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "tbl"},
                      {"Key", Key("a")},
                      {"AttributeUpdates", {{"", {{"Value", S("s")}}}}}}),
            "ValidationException: 1 validation error detected: Empty "
            "attribute name");
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "tbl"},
                      {"Key", Key("a")},
                      {"AttributeUpdates",
                       {{std::string(65536, 'a'), {{"Action", "DELETE"}}}}}}),
            "ValidationException: 1 validation error detected: Attribute name "
            "is too large, must be less than 65536 bytes");
  // Mixing styles.
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "tbl"},
                      {"Key", Key("a")},
                      {"UpdateExpression", "REMOVE x"},
                      {"AttributeUpdates", {{"x", {{"Action", "DELETE"}}}}}}),
            "ValidationException: Can not use both expression and "
            "non-expression parameters in the same request: Non-expression "
            "parameters: {AttributeUpdates} Expression parameters: "
            "{UpdateExpression}");
  EXPECT_EQ(FailText("UpdateItem",
                     {{"TableName", "tbl"},
                      {"Key", Key("a")},
                      {"AttributeUpdates", {{"x", {{"Action", "DELETE"}}}}},
                      {"ExpressionAttributeValues", {{":x", N("1")}}}}),
            "ValidationException: ExpressionAttributeValues can only be "
            "specified when using expressions: UpdateExpression and "
            "ConditionExpression are null");
  EXPECT_EQ(Get("tbl", Key("a")), item);
}

TEST_F(UpdateItemTest, ExpressionErrorsBeforeTable) {
  EXPECT_EQ(FailText("UpdateItem", {{"TableName", "nope"},
                                    {"Key", Key("a")},
                                    {"UpdateExpression", ""}}),
            "ValidationException: Invalid UpdateExpression: The expression can "
            "not be empty;");
  EXPECT_EQ(FailText("UpdateItem",
                     Req("a", "SET a = :v, a.b = :v", {{":v", N("1")}})),
            "ValidationException: Invalid UpdateExpression: Two document paths "
            "overlap with each other; must remove or rewrite one of these "
            "paths; path one: [a], path two: [a, b]");
  EXPECT_EQ(FailText("UpdateItem",
                     Req("a", "SET a = :v", {{":v", N("1")}, {":w", N("2")}})),
            "ValidationException: Value provided in ExpressionAttributeValues "
            "unused in expressions: keys: {:w}");
  // A value used only by the condition counts as used.
  Json r = Req("a", "SET a = :v", {{":v", N("1")}, {":w", N("2")}});
  r["ConditionExpression"] = "attribute_not_exists(a) OR a <> :w";
  Ok("UpdateItem", r);
  EXPECT_EQ(FailText("UpdateItem", {{"TableName", "nope"},
                                    {"Key", Key("a")},
                                    {"UpdateExpression", "REMOVE a"}}),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(FailText("UpdateItem", {{"TableName", "tbl"},
                                    {"Key", {{"pk", S("a")}, {"x", S("b")}}},
                                    {"UpdateExpression", "REMOVE a"}}),
            "ValidationException: The provided key element does not match the "
            "schema");
}

TEST_F(UpdateItemTest, CapacityAndCollectionMetrics) {
  Put("tbl", {{"pk", S("a")}, {"b", S(std::string(2500, 'x'))}});
  Json r = Req("a", "REMOVE b");
  r["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Update(r)["ConsumedCapacity"],
            Json({{"TableName", "tbl"}, {"CapacityUnits", 3.0}}));
  r["Key"] = Key("missing");  // REMOVE on a missing item: nothing written
  EXPECT_EQ(Update(r)["ConsumedCapacity"]["CapacityUnits"], 1.0);
  MakeIndexedTable("idx");
  Json out = Ok("UpdateItem", {{"TableName", "idx"},
                               {"Key", {{"pk", S("p")}, {"sk", N("1")}}},
                               {"UpdateExpression", "SET l = :l"},
                               {"ExpressionAttributeValues", {{":l", S("x")}}},
                               {"ReturnItemCollectionMetrics", "SIZE"}});
  EXPECT_EQ(out, Json::parse(R"({"ItemCollectionMetrics": {
      "ItemCollectionKey": {"pk": {"S": "p"}}, "SizeEstimateRangeGB": [0.0, 1.0]}})"));
}

TEST_F(UpdateItemTest, IdempotentCounterPattern) {
  Put("tbl", {{"pk", S("ctr")}, {"history", L(Json::array())}, {"n", N("0")}});
  auto apply = [&](const std::string& request_id) {
    return emu_->Call("UpdateItem",
                      {{"TableName", "tbl"},
                       {"Key", Key("ctr")},
                       {"UpdateExpression",
                        "SET history = list_append(history, :k) ADD n :one"},
                       {"ConditionExpression", "NOT contains(history, :key)"},
                       {"ExpressionAttributeValues",
                        {{":k", L({S(request_id)})},
                         {":key", S(request_id)},
                         {":one", N("1")}}}});
  };
  EXPECT_TRUE(apply("r1").ok());
  EXPECT_TRUE(apply("r2").ok());
  Result<Json> dup = apply("r1");  // a retry of r1
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(ToString(dup.error()), kConditionFailed);
  EXPECT_TRUE(apply("r3").ok());
  Json item = Get("tbl", Key("ctr"));
  EXPECT_EQ(item["n"], N("3"));
  EXPECT_EQ(item["history"], L({S("r1"), S("r2"), S("r3")}));
}

TEST_F(UpdateItemTest, OrderedWritesPattern) {
  auto write = [&](const std::string& ts, const std::string& v) {
    return emu_->Call(
        "UpdateItem",
        {{"TableName", "tbl"},
         {"Key", Key("k")},
         {"UpdateExpression", "SET ts = :ts, v = :v"},
         {"ConditionExpression", "attribute_not_exists(ts) OR :ts >= ts"},
         {"ExpressionAttributeValues", {{":ts", N(ts)}, {":v", S(v)}}}});
  };
  EXPECT_TRUE(write("5", "a").ok());
  EXPECT_TRUE(write("7", "b").ok());
  EXPECT_FALSE(write("6", "late").ok());
  EXPECT_EQ(Get("tbl", Key("k")),
            Json({{"pk", S("k")}, {"ts", N("7")}, {"v", S("b")}}));
}

// N threads increment one counter with a read-modify-write loop guarded by
// a condition on the value read: the final value equals the number of
// successful calls, and every thread eventually succeeds.
TEST_F(UpdateItemTest, ConcurrentConditionalIncrements) {
  Put("tbl", {{"pk", S("c")}, {"c", N("0")}});
  constexpr int kThreads = 8;
  constexpr int kPerThread = 100;
  std::atomic<int> successes{0};
  std::atomic<int> conflicts{0};
  std::atomic<int> unexpected{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int done = 0; done < kPerThread;) {
        Result<Json> got = emu_->Call("GetItem", {{"TableName", "tbl"},
                                                  {"Key", Key("c")},
                                                  {"ConsistentRead", true}});
        if (!got.ok()) {
          ++unexpected;
          return;
        }
        const Json seen = (*got)["Item"]["c"];
        Result<Json> r = emu_->Call(
            "UpdateItem", {{"TableName", "tbl"},
                           {"Key", Key("c")},
                           {"UpdateExpression", "SET c = c + :one"},
                           {"ConditionExpression", "c = :expected"},
                           {"ExpressionAttributeValues",
                            {{":one", N("1")}, {":expected", seen}}}});
        if (r.ok()) {
          ++successes;
          ++done;
        } else if (r.error().type == ErrorType::kConditionalCheckFailed) {
          ++conflicts;
        } else {
          ++unexpected;
          return;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(unexpected.load(), 0);
  EXPECT_EQ(successes.load(), kThreads * kPerThread);
  EXPECT_EQ(Get("tbl", Key("c"))["c"], N(std::to_string(successes.load())));
}

}  // namespace
}  // namespace ddblab::engine::testing
