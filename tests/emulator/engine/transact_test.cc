// TransactWriteItems / TransactGetItems (the DynamoDB API reference).
#include <gtest/gtest.h>

#include <string>

#include "tests/emulator/engine/items_test_util.h"

namespace ddblab::engine::testing {
namespace {

class TransactTest : public ItemsTest {
 protected:
  void SetUp() override {
    ItemsTest::SetUp();
    CreateTable("tbl");
    CreateTable("two", "pk", "sk");
  }
  static Json Key(const std::string& pk) { return {{"pk", S(pk)}}; }
  static Json PutAction(Json item, Json extra = Json::object()) {
    Json a = {{"TableName", "tbl"}, {"Item", std::move(item)}};
    a.update(extra);
    return {{"Put", a}};
  }
  static Json KeyAction(const char* kind, const std::string& pk,
                        Json extra = Json::object()) {
    Json a = {{"TableName", "tbl"}, {"Key", Key(pk)}};
    a.update(extra);
    return {{kind, a}};
  }
  Json Write(Json items, Json extra = Json::object()) {
    Json r = {{"TransactItems", std::move(items)}};
    r.update(extra);
    return Ok("TransactWriteItems", r);
  }
  Error WriteFail(Json items, Json extra = Json::object()) {
    Json r = {{"TransactItems", std::move(items)}};
    r.update(extra);
    return Fail("TransactWriteItems", r);
  }
  // Every item of "tbl", for "nothing changed" checks.
  Json Snapshot() {
    Json out = Json::object();
    for (const char* pk : {"a", "b", "c", "d", "e"}) {
      out[pk] = Get("tbl", Key(pk));
    }
    return out;
  }
};

TEST_F(TransactTest, AllActionsApply) {
  Put("tbl", {{"pk", S("b")}, {"v", N("1")}});
  Put("tbl", {{"pk", S("c")}, {"v", N("1")}});
  Put("tbl", {{"pk", S("d")}, {"ok", {{"BOOL", true}}}});
  Json out = Write(Json::array(
      {PutAction({{"pk", S("a")}, {"v", N("1")}},
                 {{"ConditionExpression", "attribute_not_exists(pk)"}}),
       KeyAction("Update", "b",
                 {{"UpdateExpression", "SET v = v + :one"},
                  {"ExpressionAttributeValues", {{":one", N("1")}}}}),
       KeyAction("Delete", "c"),
       KeyAction("ConditionCheck", "d",
                 {{"ConditionExpression", "ok = :t"},
                  {"ExpressionAttributeValues", {{":t", {{"BOOL", true}}}}}}),
       {{"Put",
         {{"TableName", "two"},
          {"Item", {{"pk", S("x")}, {"sk", S("y")}}}}}}}));
  EXPECT_EQ(out, Json::object());
  EXPECT_EQ(Get("tbl", Key("a")), Json({{"pk", S("a")}, {"v", N("1")}}));
  EXPECT_EQ(Get("tbl", Key("b")), Json({{"pk", S("b")}, {"v", N("2")}}));
  EXPECT_TRUE(Get("tbl", Key("c")).is_null());
  EXPECT_EQ(Get("tbl", Key("d")),
            Json({{"pk", S("d")}, {"ok", {{"BOOL", true}}}}));
  EXPECT_FALSE(Get("two", {{"pk", S("x")}, {"sk", S("y")}}).is_null());
}

TEST_F(TransactTest, CancellationReasonsInRequestOrder) {
  Put("tbl", {{"pk", S("b")}, {"v", N("1")}});
  Put("tbl", {{"pk", S("c")}, {"v", N("1")}});
  const Json before = Snapshot();
  Error e = WriteFail(Json::array(
      {PutAction({{"pk", S("a")}}),
       KeyAction("ConditionCheck", "b",
                 {{"ConditionExpression", "v = :two"},
                  {"ExpressionAttributeValues", {{":two", N("2")}}},
                  {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}}),
       KeyAction("Delete", "c",
                 {{"ConditionExpression", "attribute_not_exists(pk)"}}),
       KeyAction("Update", "d", {{"UpdateExpression", "REMOVE x"}})}));
  EXPECT_EQ(ToString(e),
            "TransactionCanceledException: Transaction cancelled, please refer "
            "cancellation reasons for specific reasons [None, "
            "ConditionalCheckFailed, ConditionalCheckFailed, None]");
  EXPECT_EQ(e.extra, Json::parse(R"({"CancellationReasons": [
      {"Code": "None"},
      {"Code": "ConditionalCheckFailed",
       "Message": "The conditional request failed",
       "Item": {"pk": {"S": "b"}, "v": {"N": "1"}}},
      {"Code": "ConditionalCheckFailed",
       "Message": "The conditional request failed"},
      {"Code": "None"}]})"));
  EXPECT_EQ(Snapshot(), before);  // the Put of "a" did not happen
}

TEST_F(TransactTest, ExactMessageForTwoActions) {
  Put("tbl", {{"pk", S("a")}});
  Error e = WriteFail(Json::array(
      {PutAction({{"pk", S("a")}},
                 {{"ConditionExpression", "attribute_not_exists(pk)"}}),
       PutAction({{"pk", S("b")}})}));
  EXPECT_EQ(e.message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [ConditionalCheckFailed, None]");
  EXPECT_EQ(e.type, ErrorType::kTransactionCanceled);
  // Without ALL_OLD there is no Item; the item does not exist -> no Item.
  EXPECT_FALSE(e.extra["CancellationReasons"][0].contains("Item"));
  EXPECT_TRUE(Get("tbl", Key("b")).is_null());
}

// Validation stops at the first invalid action: DynamoDB answers
// [ValidationError, None, None] for three actions whose keys all fail, and
// reports nothing for the actions after an update that cannot apply.
TEST_F(TransactTest, ValidationStopsAtTheFirstInvalidAction) {
  Put("tbl", {{"pk", S("a")}, {"s", S("x")}});
  const Json before = Snapshot();
  Error e = WriteFail(
      Json::array({PutAction({{"pk", N("1")}}), PutAction({{"pk", N("2")}}),
                   PutAction({{"other", S("3")}})}));
  EXPECT_EQ(e.message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [ValidationError, None, None]");
  EXPECT_EQ(e.extra, Json::parse(R"({"CancellationReasons": [
      {"Code": "ValidationError",
       "Message": "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"},
      {"Code": "None"}, {"Code": "None"}]})"));
  // A failed condition before it is still reported; a key that does not
  // fit after an update that cannot apply is not.
  Error later = WriteFail(Json::array(
      {KeyAction("ConditionCheck", "a",
                 {{"ConditionExpression", "attribute_not_exists(pk)"}}),
       KeyAction("Update", "a2", {{"UpdateExpression", "SET s = nope"}}),
       PutAction({{"pk", N("3")}})}));
  EXPECT_EQ(later.message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [ConditionalCheckFailed, ValidationError, "
            "None]");
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(TransactTest, UpdateRuntimeErrorIsValidationErrorReason) {
  Put("tbl", {{"pk", S("a")}, {"s", S("x")}});
  const Json before = Snapshot();
  Error e = WriteFail(Json::array(
      {PutAction({{"pk", S("b")}}),
       KeyAction("Update", "a",
                 {{"UpdateExpression", "SET s = s + :one"},
                  {"ExpressionAttributeValues", {{":one", N("1")}}}}),
       KeyAction("Update", "c", {{"UpdateExpression", "SET s = nope"}})}));
  EXPECT_EQ(e.message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [None, ValidationError, None]");
  EXPECT_EQ(e.extra["CancellationReasons"][1],
            Json({{"Code", "ValidationError"},
                  {"Message",
                   "An operand in the update expression has an incorrect data "
                   "type"}}));
  // The evaluation stopped there: the third update is not looked at.
  EXPECT_EQ(e.extra["CancellationReasons"][2], Json({{"Code", "None"}}));
  Error third = WriteFail(Json::array(
      {PutAction({{"pk", S("b")}}),
       KeyAction("Update", "c", {{"UpdateExpression", "SET s = nope"}})}));
  EXPECT_EQ(third.extra["CancellationReasons"][1]["Message"],
            "The provided expression refers to an attribute that does not "
            "exist in the item");
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(TransactTest, WholeCallValidationErrors) {
  Put("tbl", {{"pk", S("a")}});
  const Json before = Snapshot();
  auto text = [&](Json items) { return ToString(WriteFail(std::move(items))); };
  EXPECT_EQ(text(Json::array({PutAction({{"pk", S("a")}, {"v", N("1")}}),
                              KeyAction("Delete", "a")})),
            "ValidationException: Transaction request cannot include multiple "
            "operations on one item");
  EXPECT_EQ(
      WriteFail(Json::array({PutAction(Key("a")), KeyAction("Delete", "a")}))
          .extra,
      Json());
  EXPECT_EQ(text(Json::array(
                {{{"Put", {{"TableName", "tbl"}, {"Item", Key("b")}}},
                  {"Delete", {{"TableName", "tbl"}, {"Key", Key("c")}}}}})),
            "ValidationException: TransactItems can only contain one of Check, "
            "Put, Update or Delete");
  EXPECT_EQ(text(Json::array({Json::object()})),
            "ValidationException: TransactItems can only contain one of Check, "
            "Put, Update or Delete");
  EXPECT_EQ(text(Json::array()),
            "ValidationException: 1 validation error detected: Value '[]' at "
            "'transactItems' failed to satisfy constraint: Member must have "
            "length greater than or equal to 1");
  EXPECT_EQ(FailText("TransactWriteItems", Json::object()),
            "ValidationException: 1 validation error detected: Value null at "
            "'transactItems' failed to satisfy constraint: Member must not be "
            "null");
  Json many = Json::array();
  for (int i = 0; i < 101; ++i)
    many.push_back(PutAction(Key(std::to_string(i))));
  const std::string over = text(many);
  EXPECT_NE(over.find("at 'transactItems' failed to satisfy constraint: Member "
                      "must have length less than or equal to 100"),
            std::string::npos)
      << over;
  EXPECT_EQ(over.rfind("ValidationException: 1 validation error detected: ", 0),
            0u);
  EXPECT_EQ(
      text(Json::array({KeyAction("ConditionCheck", "a")})),
      "ValidationException: 1 validation error detected: Value null at "
      "'transactItems.1.member.conditionCheck.conditionExpression' failed "
      "to satisfy constraint: Member must not be null");
  EXPECT_EQ(
      text(Json::array({PutAction(Key("b")), KeyAction("Update", "a")})),
      "ValidationException: 1 validation error detected: Value null at "
      "'transactItems.2.member.update.updateExpression' failed to satisfy "
      "constraint: Member must not be null");
  EXPECT_EQ(text(Json::array({{{"Delete", {{"Key", Key("a")}}}}})),
            "ValidationException: 1 validation error detected: Value null at "
            "'transactItems.1.member.delete.tableName' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(text(Json::array(
                {PutAction(Key("b"), {{"ConditionExpression", "a = "}})})),
            "ValidationException: Invalid ConditionExpression: Syntax error; "
            "token: \"<EOF>\", near: \"=\"");
  EXPECT_EQ(text(Json::array({PutAction(
                Key("b"), {{"ExpressionAttributeValues", {{":v", N("1")}}}})})),
            "ValidationException: ExpressionAttributeValues can only be "
            "specified when using expressions: ConditionExpression is null");
  EXPECT_EQ(
      text(Json::array({KeyAction(
          "Update", "b",
          {{"UpdateExpression", "SET a = :v"},
           {"ExpressionAttributeValues", {{":v", N("1")}, {":w", N("1")}}}})})),
      "ValidationException: Value provided in ExpressionAttributeValues "
      "unused in expressions: keys: {:w}");
  EXPECT_EQ(text(Json::array({PutAction(
                {{"pk", S("b")}, {"big", S(std::string(409600, 'x'))}})})),
            "ValidationException: Item size has exceeded the maximum allowed "
            "size");
  // An empty key value is input validation: the whole call fails.
  EXPECT_EQ(text(Json::array({PutAction(Key("b")), KeyAction("Delete", "")})),
            "ValidationException: One or more parameter values are not valid. "
            "The AttributeValue for a key attribute cannot contain an empty "
            "string value. Key: pk");
  EXPECT_EQ(text(Json::array({PutAction(Key(""))})),
            "ValidationException: One or more parameter values are not valid. "
            "The AttributeValue for a key attribute cannot contain an empty "
            "string value. Key: pk");
  EXPECT_EQ(
      text(Json::array(
          {PutAction(Key("b")),
           KeyAction("Update", "a",
                     {{"UpdateExpression", "SET pk = :v"},
                      {"ExpressionAttributeValues", {{":v", S("z")}}}})})),
      "ValidationException: One or more parameter values were invalid: "
      "Cannot update attribute pk. This attribute is part of the key");
  EXPECT_EQ(text(Json::array(
                {PutAction(Key("b")),
                 {{"Put", {{"TableName", "nope"}, {"Item", Key("a")}}}}})),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(
      text(Json::array({PutAction(
          Key("b"), {{"ReturnValuesOnConditionCheckFailure", "ALL_NEW"}})})),
      "ValidationException: 1 validation error detected: Value 'ALL_NEW' "
      "at 'transactItems.1.member.put.returnValuesOnConditionCheckFailure' "
      "failed to satisfy constraint: Member must satisfy enum value set: "
      "[ALL_OLD, NONE]");
  EXPECT_EQ(Snapshot(), before);
}

// A key that does not fit the table's schema cancels the transaction with a
// ValidationError reason for that action (DynamoDB's shape, observed by a
// public conformance suite against AWS), and nothing is written.
TEST_F(TransactTest, KeySchemaMismatchIsValidationErrorReason) {
  Put("tbl", {{"pk", S("a")}});
  const Json before = Snapshot();
  auto reasons = [&](Json items) {
    Error e = WriteFail(std::move(items));
    EXPECT_EQ(e.type, ErrorType::kTransactionCanceled);
    return std::make_pair(e.message, e.extra["CancellationReasons"]);
  };
  const std::string schema =
      "The provided key element does not match the schema";
  const std::string one =
      "Transaction cancelled, please refer cancellation reasons for specific "
      "reasons [";
  for (Json bad : {N("5"), Json{{"L", Json::array({S("x")})}}}) {
    auto [message, r] = reasons(Json::array(
        {PutAction({{"pk", S("b")}}),
         {{"Delete", {{"TableName", "tbl"}, {"Key", {{"pk", bad}}}}}}}));
    EXPECT_EQ(message, one + "None, ValidationError]");
    EXPECT_EQ(r, Json::parse(R"([{"Code":"None"},{"Code":"ValidationError",
        "Message":")" + schema +
                             R"("}])"));
  }
  // Put: the PutItem wording.
  auto [put_message, put] = reasons(Json::array({PutAction({{"pk", N("5")}})}));
  EXPECT_EQ(put_message, one + "ValidationError]");
  EXPECT_EQ(put[0]["Message"],
            "One or more parameter values were invalid: Type mismatch for key "
            "pk expected: S actual: N");
  EXPECT_EQ(reasons(Json::array({PutAction({{"other", S("x")}})}))
                .second[0]["Message"],
            "One or more parameter values were invalid: Missing the key pk in "
            "the item");
  // Update and ConditionCheck keys; the mismatch comes before the
  // one-operation-per-item check.
  auto [m2, r2] = reasons(
      Json::array({KeyAction("ConditionCheck", "a",
                             {{"ConditionExpression", "attribute_exists(pk)"}}),
                   {{"Update",
                     {{"TableName", "tbl"},
                      {"Key", {{"pk", S("a")}, {"extra", S("x")}}},
                      {"UpdateExpression", "SET v = :v"},
                      {"ExpressionAttributeValues", {{":v", N("1")}}}}}},
                   KeyAction("Delete", "a")}));
  EXPECT_EQ(m2, one + "None, ValidationError, None]");
  EXPECT_EQ(r2[1]["Message"], schema);
  EXPECT_EQ(Snapshot(), before);

  // TransactGetItems: the same reason for a key missing an attribute.
  Error get = Fail(
      "TransactGetItems",
      {{"TransactItems",
        Json::array(
            {{{"Get", {{"TableName", "tbl"}, {"Key", Key("a")}}}},
             {{"Get", {{"TableName", "tbl"}, {"Key", Json::object()}}}}})}});
  EXPECT_EQ(ToString(get),
            "TransactionCanceledException: " + one + "None, ValidationError]");
  EXPECT_EQ(get.extra["CancellationReasons"],
            Json::parse(R"([{"Code":"None"},{"Code":"ValidationError",
        "Message":")" + schema +
                        R"("}])"));
}

TEST_F(TransactTest, AggregateSizeLimit) {
  // 11 items of ~390 KB exceed 4 MB; each alone is fine.
  Json items = Json::array();
  for (int i = 0; i < 11; ++i) {
    items.push_back(PutAction({{"pk", S("big" + std::to_string(i))},
                               {"b", S(std::string(390000, 'x'))}}));
  }
  // 11 x (2 + 4 + 1 + 390000) bytes (pk "big0".."big9", b) + 1 for "big10",
  // the sum DynamoDB Local reports.
  EXPECT_EQ(ToString(WriteFail(items)),
            "ValidationException: Transaction payload size cannot exceed 4MB. "
            "Payload Size: 4290078");
  EXPECT_TRUE(Get("tbl", Key("big0")).is_null());
  items.erase(items.end() - 1);
  Write(items);  // 10 x 390 KB < 4 MB
  EXPECT_FALSE(Get("tbl", Key("big9")).is_null());
}

TEST_F(TransactTest, CapacityIsDoubled) {
  Put("tbl", {{"pk", S("c")}, {"big", S(std::string(1500, 'x'))}});
  Json out = Write(
      Json::array(
          {PutAction({{"pk", S("a")}, {"big", S(std::string(1500, 'x'))}}),
           KeyAction("ConditionCheck", "c",
                     {{"ConditionExpression", "attribute_exists(pk)"}}),
           KeyAction("Delete", "missing"),
           {{"Put",
             {{"TableName", "two"},
              {"Item", {{"pk", S("x")}, {"sk", S("y")}}}}}}}),
      {{"ReturnConsumedCapacity", "TOTAL"}});
  // tbl: put 2 KB -> 2 x 2; check 2 KB -> 2 x 2; delete missing 2 x 1.
  EXPECT_EQ(out, Json::parse(R"({"ConsumedCapacity": [
      {"TableName": "tbl", "CapacityUnits": 10.0, "WriteCapacityUnits": 10.0},
      {"TableName": "two", "CapacityUnits": 2.0, "WriteCapacityUnits": 2.0}]})"));
}

TEST_F(TransactTest, ItemCollectionMetrics) {
  MakeIndexedTable("idx");
  Json out =
      Write(Json::array({{{"Put",
                           {{"TableName", "idx"},
                            {"Item", {{"pk", S("p")}, {"sk", N("1")}}}}}},
                         PutAction(Key("a"))}),
            {{"ReturnItemCollectionMetrics", "SIZE"}});
  EXPECT_EQ(out, Json::parse(R"({"ItemCollectionMetrics": {"idx": [
      {"ItemCollectionKey": {"pk": {"S": "p"}},
       "SizeEstimateRangeGB": [0.0, 1.0]}]}})"));
}

TEST_F(TransactTest, ClientRequestTokenIdempotency) {
  Json items = Json::array({PutAction({{"pk", S("a")}, {"v", N("1")}})});
  Json extra = {{"ClientRequestToken", "tok-1"}};
  EXPECT_EQ(Write(items, extra), Json::object());
  Put("tbl", {{"pk", S("a")}, {"v", N("2")}});  // changed by someone else
  // A replay within 10 minutes: success, no side effect.
  clock_->Advance(std::chrono::minutes(9));
  Json replay = extra;
  replay["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Write(items, replay), Json::parse(R"({"ConsumedCapacity": [
      {"TableName": "tbl", "CapacityUnits": 1.0, "ReadCapacityUnits": 1.0}]})"));
  EXPECT_EQ(Get("tbl", Key("a"))["v"], N("2"));
  // Same token, other parameters.
  Json other = Json::array({PutAction({{"pk", S("a")}, {"v", N("3")}})});
  Error e = WriteFail(other, extra);
  EXPECT_EQ(e.type, ErrorType::kIdempotentParameterMismatch);
  EXPECT_EQ(Get("tbl", Key("a"))["v"], N("2"));
  // After the window the token is forgotten: the transaction runs again.
  clock_->Advance(std::chrono::minutes(1));
  Write(other, extra);
  EXPECT_EQ(Get("tbl", Key("a"))["v"], N("3"));
  // A failed transaction does not consume its token.
  Json guarded = Json::array(
      {PutAction(Key("b"), {{"ConditionExpression", "attribute_exists(pk)"}})});
  EXPECT_EQ(WriteFail(guarded, {{"ClientRequestToken", "tok-2"}}).type,
            ErrorType::kTransactionCanceled);
  Put("tbl", Key("b"));
  Write(guarded, {{"ClientRequestToken", "tok-2"}});
  EXPECT_EQ(
      ToString(
          WriteFail(items, {{"ClientRequestToken", std::string(37, 't')}})),
      "ValidationException: 1 validation error detected: Value '" +
          std::string(37, 't') +
          "' at 'clientRequestToken' failed to satisfy constraint: Member "
          "must have length less than or equal to 36");
}

TEST_F(TransactTest, TransactGetItems) {
  Put("tbl", {{"pk", S("a")},
              {"v", N("1")},
              {"m", M({{"x", N("1")}, {"y", N("2")}})}});
  Put("two", {{"pk", S("x")}, {"sk", S("y")}, {"w", S("w")}});
  auto get = [](const std::string& table, Json key,
                Json extra = Json::object()) {
    Json g = {{"TableName", table}, {"Key", std::move(key)}};
    g.update(extra);
    return Json{{"Get", g}};
  };
  Json out =
      Ok("TransactGetItems",
         {{"TransactItems",
           Json::array({get("two", {{"pk", S("x")}, {"sk", S("y")}}),
                        get("tbl", Key("missing")),
                        get("tbl", Key("a"),
                            {{"ProjectionExpression", "#m.y, v"},
                             {"ExpressionAttributeNames", {{"#m", "m"}}}})})},
          {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(out, Json::parse(R"({
      "Responses": [
        {"Item": {"pk": {"S": "x"}, "sk": {"S": "y"}, "w": {"S": "w"}}},
        {},
        {"Item": {"m": {"M": {"y": {"N": "2"}}}, "v": {"N": "1"}}}],
      "ConsumedCapacity": [
        {"TableName": "two", "CapacityUnits": 2.0, "ReadCapacityUnits": 2.0},
        {"TableName": "tbl", "CapacityUnits": 4.0, "ReadCapacityUnits": 4.0}]})"));
  EXPECT_EQ(FailText("TransactGetItems",
                     {{"TransactItems", Json::array({get("tbl", Key("a")),
                                                     get("tbl", Key("a"))})}}),
            "ValidationException: Transaction request cannot include multiple "
            "operations on one item");
  EXPECT_EQ(
      FailText("TransactGetItems",
               {{"TransactItems", Json::array({{{"Put", Json::object()}}})}}),
      "ValidationException: 1 validation error detected: Value null at "
      "'transactItems.1.member.get' failed to satisfy constraint: Member "
      "must not be null");
  EXPECT_EQ(
      FailText("TransactGetItems",
               {{"TransactItems", Json::array({get("tbl", Key("a"),
                                                   {{"ExpressionAttributeNames",
                                                     {{"#m", "m"}}}})})}}),
      "ValidationException: ExpressionAttributeNames can only be "
      "specified when using expressions");
  EXPECT_EQ(FailText("TransactGetItems",
                     {{"TransactItems", Json::array({get("nope", Key("a"))})}}),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(FailText("TransactGetItems",
                     {{"TransactItems",
                       Json::array({get("tbl", {{"zz", S("a")}})})}}),
            "TransactionCanceledException: Transaction cancelled, please refer "
            "cancellation reasons for specific reasons [ValidationError]");
}

}  // namespace
}  // namespace ddblab::engine::testing
