// PartiQL WHERE clauses, indexes, conditional writes and their errors, end
// to end on a real in-memory ddblab::Emulator. The expected answers follow
// DynamoDB as pinned on AWS in paritysuite/dynamodb-conformance
// (tests/tier2/partiql/whereFunctions.test.ts, comparison.test.ts,
// setFunctions.test.ts) where that suite covers the case.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/emulator.h"

namespace ddblab {
namespace {

using Json = nlohmann::json;

std::string Show(const Result<Json>& r) {
  if (r.ok()) return r->dump();
  std::string out = ToString(r.error());
  if (!r.error().extra.is_null()) out += " " + r.error().extra.dump();
  return out;
}

class PartiqlWhereTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.clock = std::make_shared<ManualClock>();
    options.seed = 5;
    auto emu = Emulator::Open(std::move(options));
    ASSERT_TRUE(emu.ok()) << ToString(emu.error());
    emu_ = std::move(emu).value();
    Ok("CreateTable", Json::parse(R"j({"TableName": "Things",
        "BillingMode": "PAY_PER_REQUEST",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [
          {"AttributeName": "pk", "AttributeType": "S"},
          {"AttributeName": "sk", "AttributeType": "N"},
          {"AttributeName": "g", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{"IndexName": "byG",
          "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                        {"AttributeName": "sk", "KeyType": "RANGE"}],
          "Projection": {"ProjectionType": "KEYS_ONLY"}}]})j"));
    Put(R"j({"pk": {"S": "p"}, "sk": {"N": "1"}, "g": {"S": "red"},
             "ss": {"SS": ["a", "b", "c"]}, "s": {"S": "str"},
             "m": {"M": {"sub": {"S": "x"}}}, "nul": {"NULL": true},
             "flag": {"BOOL": true}})j");
    Put(R"j({"pk": {"S": "p"}, "sk": {"N": "2"}, "g": {"S": "red"},
             "s": {"S": "longer"}})j");
    Put(R"j({"pk": {"S": "p"}, "sk": {"N": "3"}, "g": {"S": "blue"}})j");
    Put(R"j({"pk": {"S": "q"}, "sk": {"N": "1"}})j");
  }

  Json Ok(std::string_view op, const Json& request) {
    Result<Json> r = emu_->Call(op, request);
    EXPECT_TRUE(r.ok()) << op << " -> " << Show(r);
    return r.ok() ? *r : Json();
  }
  void Put(const std::string& item) {
    Ok("PutItem", {{"TableName", "Things"}, {"Item", Json::parse(item)}});
  }
  Result<Json> Exec(const std::string& statement, Json extra = Json::object()) {
    extra["Statement"] = statement;
    return emu_->Call("ExecuteStatement", extra);
  }
  // The sort keys a SELECT returns, in order.
  std::string Keys(const std::string& where) {
    Result<Json> r = Exec("SELECT pk, sk FROM Things WHERE " + where);
    if (!r.ok()) return Show(r);
    std::string out;
    for (const Json& item : (*r)["Items"]) {
      out += item["pk"]["S"].get<std::string>() +
             item["sk"]["N"].get<std::string>() + " ";
    }
    return out;
  }
  Json Get(const std::string& pk, const std::string& sk) {
    return Ok("GetItem", {{"TableName", "Things"},
                          {"ConsistentRead", true},
                          {"Key", {{"pk", {{"S", pk}}}, {"sk", {{"N", sk}}}}}});
  }

  std::unique_ptr<Emulator> emu_;
};

TEST_F(PartiqlWhereTest, FunctionsAndIs) {
  EXPECT_EQ(Keys("pk = 'p' AND attribute_exists(ss)"), "p1 ");
  EXPECT_EQ(Keys("pk = 'p' AND NOT attribute_exists(ss)"), "p2 p3 ");
  EXPECT_EQ(Keys("pk = 'p' AND ATTRIBUTE_EXISTS(m.sub)"), "p1 ");
  EXPECT_EQ(Keys("pk = 'p' AND attribute_exists(ss) = true"), "p1 ");
  EXPECT_EQ(
      Keys("pk = 'p' AND (attribute_exists(nope) OR attribute_exists(s))"),
      "p1 p2 ");
  EXPECT_EQ(Keys("pk = 'p' AND s IS MISSING"), "p3 ");
  EXPECT_EQ(Keys("pk = 'p' AND s IS NOT MISSING"), "p1 p2 ");
  EXPECT_EQ(Keys("pk = 'p' AND nul IS NULL"), "p1 ");
  EXPECT_EQ(Keys("pk = 'p' AND s IS STRING"), "p1 p2 ");
  EXPECT_EQ(Keys("pk = 'p' AND flag IS BOOL"), "p1 ");
  EXPECT_EQ(Keys("pk = 'p' AND size(s) = 3"), "p1 ");
  EXPECT_EQ(Keys("pk = 'p' AND attribute_type(ss, 'SS')"), "p1 ");
  EXPECT_EQ(Keys("pk = 'p' AND contains(ss, 'b')"), "p1 ");
  EXPECT_EQ(Keys("pk = 'p' AND begins_with(s, 'lo')"), "p2 ");
}

TEST_F(PartiqlWhereTest, ComparisonsAndKeyConditions) {
  EXPECT_EQ(Keys("pk = 'p' AND sk > 1"), "p2 p3 ");
  EXPECT_EQ(Keys("pk = 'p' AND sk BETWEEN 2 AND 3"), "p2 p3 ");
  EXPECT_EQ(Keys("pk = 'p' AND sk <> 2"), "p1 p3 ");
  EXPECT_EQ(Keys("pk = 'p' AND NOT sk IN [1, 3]"), "p2 ");
  EXPECT_EQ(Keys("pk IN ['q']"), "q1 ");
  EXPECT_EQ(Keys("sk = 1 AND pk = 'q'"), "q1 ");
  EXPECT_EQ(Keys("pk = 'p' AND ss = <<'c', 'a', 'b'>>"), "p1 ");
  Result<Json> desc =
      Exec("SELECT sk FROM Things WHERE pk = 'p' ORDER BY sk DESC");
  EXPECT_EQ(
      Show(desc),
      R"j({"Items":[{"sk":{"N":"3"}},{"sk":{"N":"2"}},{"sk":{"N":"1"}}]})j");
}

TEST_F(PartiqlWhereTest, EngineRefusalsLoseTheirExpressionPrefix) {
  // Pinned on AWS (comparison.test.ts).
  EXPECT_EQ(Show(Exec("SELECT * FROM Things WHERE pk = 'p' AND s < true")),
            "ValidationException: Incorrect operand type for operator or "
            "function; operator or function: <, operand type: BOOL");
  std::string in = "SELECT * FROM Things WHERE s IN [0";
  for (int i = 1; i <= 100; ++i) in += ", " + std::to_string(i);
  EXPECT_EQ(Show(Exec(in + "]")),
            "ValidationException: The IN operator is provided with too many "
            "operands; number of operands: 101");
}

TEST_F(PartiqlWhereTest, IndexReads) {
  EXPECT_EQ(
      Show(Exec(R"(SELECT pk, sk FROM Things."byG" WHERE g = 'red')")),
      R"j({"Items":[{"pk":{"S":"p"},"sk":{"N":"1"}},{"pk":{"S":"p"},"sk":{"N":"2"}}]})j");
  EXPECT_EQ(Show(Exec(R"(SELECT s FROM Things."byG" WHERE g = 'red')")),
            "ValidationException: One or more parameter values were invalid: "
            "Global secondary index byG does not project [s]");
}

TEST_F(PartiqlWhereTest, ConditionalWrites) {
  // A further WHERE condition guards UPDATE and DELETE (whereFunctions).
  EXPECT_EQ(Show(Exec("UPDATE Things SET z = 1 WHERE pk = 'p' AND sk = 2 AND "
                      "attribute_exists(nope)")),
            "ConditionalCheckFailedException: The conditional request failed");
  EXPECT_EQ(Show(Exec("UPDATE Things SET y = 1 WHERE pk = 'p' AND sk = 2 AND "
                      "attribute_not_exists(y)")),
            R"j({"Items":[]})j");
  EXPECT_EQ(Get("p", "2")["Item"]["y"].dump(), R"j({"N":"1"})j");
  EXPECT_EQ(Show(Exec("DELETE FROM Things WHERE pk = 'p' AND sk = 3 AND "
                      "attribute_exists(nope)",
                      {{"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}})),
            "ConditionalCheckFailedException: The conditional request failed "
            R"j({"Item":{"g":{"S":"blue"},"pk":{"S":"p"},"sk":{"N":"3"}}})j");
  EXPECT_EQ(
      Show(Exec("DELETE FROM Things WHERE pk = 'p' AND sk = 3 "
                "RETURNING ALL OLD *")),
      R"j({"Items":[{"g":{"S":"blue"},"pk":{"S":"p"},"sk":{"N":"3"}}]})j");
  EXPECT_EQ(Get("p", "3").dump(), "{}");
}

TEST_F(PartiqlWhereTest, SetFunctionsAndRuntimeErrors) {
  EXPECT_EQ(Show(Exec("UPDATE Things SET ss = set_delete(ss, <<'a', 'zz'>>) "
                      "SET ns = set_add(ns, <<2, 1>>) WHERE pk = 'p' AND "
                      "sk = 1 RETURNING MODIFIED NEW *")),
            R"j({"Items":[{"ns":{"NS":["2","1"]},"ss":{"SS":["b","c"]}}]})j");
  // Pinned on AWS (partiqlFunctions.test.ts).
  EXPECT_EQ(Show(Exec("UPDATE Things SET ss = set_add(ss, <<1>>) WHERE "
                      "pk = 'p' AND sk = 1")),
            "ValidationException: An operand in the update expression has an "
            "incorrect data type");
}

TEST_F(PartiqlWhereTest, DuplicateInsertInsideATransaction) {
  Result<Json> r = emu_->Call("ExecuteTransaction", Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "UPDATE Things SET v = 1 WHERE pk = 'q' AND sk = 1"},
        {"Statement": "INSERT INTO Things VALUE {'pk': 'p', 'sk': 1}"}]})j"));
  EXPECT_EQ(Show(r),
            "TransactionCanceledException: Transaction cancelled, please refer "
            "cancellation reasons for specific reasons [None, DuplicateItem] "
            R"j({"CancellationReasons":[{"Code":"None"},{"Code":)j"
            R"j("DuplicateItem","Message":"Duplicate primary key exists in )j"
            R"j(table"}]})j");
  EXPECT_EQ(Get("q", "1").dump(),
            R"j({"Item":{"pk":{"S":"q"},"sk":{"N":"1"}}})j");
  // Two statements on one item: the engine's TransactWriteItems rule.
  EXPECT_EQ(Show(emu_->Call("ExecuteTransaction", Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "UPDATE Things SET v = 1 WHERE pk = 'q' AND sk = 1"},
        {"Statement": "DELETE FROM Things WHERE pk = 'q' AND sk = 1"}]})j"))),
            "ValidationException: Transaction request cannot include multiple "
            "operations on one item");
}

}  // namespace
}  // namespace ddblab
