// PartiqlExecutor against a fake callback that records the DynamoDB requests
// it is sent and answers from a script.
#include "emulator/partiql/executor.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ddblab::partiql {
namespace {

using Json = nlohmann::json;

Json HashTable(const std::string& name) {
  return Json::parse(R"j({"Table": {"TableName": ")j" + name + R"j(",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk",
                                "AttributeType": "S"}]}})j");
}

class FakeDynamo {
 public:
  FakeDynamo() { tables_["Tbl"] = HashTable("Tbl"); }

  CallFn Fn() {
    return [this](Operation op, const Json& request) -> Result<Json> {
      calls_.push_back(std::string(NameOf(op)) + " " + request.dump());
      if (op == Operation::kDescribeTable) {
        auto it = tables_.find(request["TableName"].get<std::string>());
        if (it == tables_.end()) {
          return Error::ResourceNotFound(
              "Requested resource not found: Table: " +
              request["TableName"].get<std::string>() + " not found");
        }
        return it->second;
      }
      if (answers_.empty()) return Json::object();
      Result<Json> answer = answers_.front();
      answers_.pop_front();
      return answer;
    };
  }

  void Answer(Result<Json> answer) { answers_.push_back(std::move(answer)); }
  // The calls other than DescribeTable.
  std::vector<std::string> Calls() const {
    std::vector<std::string> out;
    for (const std::string& c : calls_) {
      if (c.rfind("DescribeTable", 0) != 0) out.push_back(c);
    }
    return out;
  }
  const std::vector<std::string>& AllCalls() const { return calls_; }

 private:
  std::map<std::string, Json> tables_;
  std::deque<Result<Json>> answers_;
  std::vector<std::string> calls_;
};

std::string Show(const Result<Json>& r) {
  if (r.ok()) return r->dump();
  std::string out = std::string(r.error().Name()) + ": " + r.error().message;
  if (!r.error().extra.is_null()) out += " " + r.error().extra.dump();
  return out;
}

TEST(ExecuteStatementTest, SelectByKeyIsGetItem) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(
      Json::parse(R"j({"Item": {"pk": {"S": "a"}, "v": {"N": "1"}}})j"));
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE pk = ?"},
                 {"Parameters", Json::parse(R"j([{"S": "a"}])j")},
                 {"ConsistentRead", true}})),
            R"j({"Items":[{"pk":{"S":"a"},"v":{"N":"1"}}]})j");
  EXPECT_EQ(
      fake.AllCalls(),
      (std::vector<std::string>{
          R"j(DescribeTable {"TableName":"Tbl"})j",
          R"j(GetItem {"ConsistentRead":true,"Key":{"pk":{"S":"a"}},"TableName":"Tbl"})j"}));
  // No item: no Items entry.
  fake.Answer(Json::object());
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE pk = 'b'"}})),
            R"j({"Items":[]})j");
}

TEST(ExecuteStatementTest, ScanPagesThroughNextToken) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(Json::parse(
      R"j({"Items": [{"pk": {"S": "a"}}], "Count": 1, "ScannedCount": 1,
           "LastEvaluatedKey": {"pk": {"S": "a"}}})j"));
  Json first_request = {{"Statement", "SELECT * FROM Tbl WHERE v > 1"},
                        {"Limit", 1}};
  Result<Json> first = executor.ExecuteStatement(first_request);
  ASSERT_TRUE(first.ok()) << Show(first);
  ASSERT_TRUE(first->contains("NextToken"));
  EXPECT_EQ((*first)["Items"].dump(), R"j([{"pk":{"S":"a"}}])j");
  EXPECT_EQ((*first)["LastEvaluatedKey"].dump(), R"j({"pk":{"S":"a"}})j");

  fake.Answer(Json::parse(R"j({"Items": [], "Count": 0, "ScannedCount": 0})j"));
  Json second_request = first_request;
  second_request["NextToken"] = (*first)["NextToken"];
  EXPECT_EQ(Show(executor.ExecuteStatement(second_request)),
            R"j({"Items":[]})j");
  EXPECT_EQ(
      fake.Calls().back(),
      R"j(Scan {"ExclusiveStartKey":{"pk":{"S":"a"}},)j"
      R"j("ExpressionAttributeNames":{"#n0":"v"},"ExpressionAttributeValues":)j"
      R"j({":v0":{"N":"1"}},"FilterExpression":"#n0 > :v0","Limit":1,)j"
      R"j("TableName":"Tbl"})j");

  // The token belongs to its statement.
  Json other = {{"Statement", "SELECT * FROM Tbl WHERE v > 2"},
                {"NextToken", (*first)["NextToken"]}};
  EXPECT_EQ(Show(executor.ExecuteStatement(other)),
            "ValidationException: NextToken does not match request");
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE v > 1"},
                 {"NextToken", "garbage"}})),
            "ValidationException: Invalid NextToken");
}

TEST(ExecuteStatementTest, InsertOfAnExistingKeyIsDuplicateItem) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(Json::object());
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "INSERT INTO Tbl VALUE {'pk': 'a'}"}})),
            R"j({"Items":[]})j");
  fake.Answer(Error::ConditionalCheckFailed("The conditional request failed"));
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "INSERT INTO Tbl VALUE {'pk': 'a'}"}})),
            "DuplicateItemException: Duplicate primary key exists in table");
}

TEST(ExecuteStatementTest, UpdateReturningAndMissingItem) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(
      Json::parse(R"j({"Attributes": {"pk": {"S": "a"}, "v": {"N": "2"}}})j"));
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement",
                  "UPDATE Tbl SET v = 2 WHERE pk = 'a' RETURNING ALL NEW *"},
                 {"ReturnConsumedCapacity", "TOTAL"}})),
            R"j({"Items":[{"pk":{"S":"a"},"v":{"N":"2"}}]})j");
  EXPECT_EQ(
      fake.Calls().back(),
      R"j(UpdateItem {"ConditionExpression":"attribute_exists(#n1)",)j"
      R"j("ExpressionAttributeNames":{"#n0":"v","#n1":"pk"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"N":"2"}},"Key":{"pk":)j"
      R"j({"S":"a"}},"ReturnConsumedCapacity":"TOTAL","ReturnValues":)j"
      R"j("ALL_NEW","TableName":"Tbl","UpdateExpression":"SET #n0 = :v0"})j");
  Error failed =
      Error::ConditionalCheckFailed("The conditional request failed");
  failed.extra = Json::parse(R"j({"Item": {"pk": {"S": "a"}}})j");
  fake.Answer(failed);
  EXPECT_EQ(
      Show(executor.ExecuteStatement(
          {{"Statement", "UPDATE Tbl SET v = 2 WHERE pk = 'a' AND v = 9"},
           {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}})),
      R"j(ConditionalCheckFailedException: The conditional request failed {"Item":{"pk":{"S":"a"}}})j");
}

TEST(ExecuteStatementTest, EngineErrorsAsPartiqlWordsThem) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Nope WHERE pk = 'a'"}})),
            "ResourceNotFoundException: Requested resource not found");
  fake.Answer(Error::Validation(
      "Invalid FilterExpression: The IN operator is provided with too many "
      "operands; number of operands: 101"));
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE v IN [1]"}})),
            "ValidationException: The IN operator is provided with too many "
            "operands; number of operands: 101");
  EXPECT_EQ(
      Show(executor.ExecuteStatement({{"Statement", "SELECT * FROM ab"}})),
      "ValidationException: Table name should be within the length [3, "
      "255] and only contain 'a-z', 'A-Z', '0-9', '-', '_', '.'.");
}

TEST(ExecuteStatementTest, ParameterChecks) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE pk = ? AND v = ?"},
                 {"Parameters", Json::parse(R"j([{"S": "a"}])j")}})),
            "ValidationException: Number of parameters in request and "
            "statement don't match.");
  // Pinned on AWS (partiqlParameterNumbers.test.ts).
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE pk = ?"},
                 {"Parameters",
                  Json::parse(
                      R"j([{"L": [{"N": "1"}, {"N": "1e99999999999"}]}])j")}})),
            "ValidationException: The parameter cannot be converted to a "
            "numeric value: 1e99999999999");
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE pk = ?"},
                 {"Parameters", Json::parse(R"j([{"N": ""}])j")}})),
            "ValidationException: The parameter cannot be converted to a "
            "numeric value");
  Json deep = {{"S", "leaf"}};
  for (int i = 0; i < 40; ++i) deep = {{"M", {{"n", deep}}}};
  EXPECT_EQ(Show(executor.ExecuteStatement(
                {{"Statement", "SELECT * FROM Tbl WHERE pk = 'a' AND x = ?"},
                 {"Parameters", Json::array({deep, {{"N", "abc"}}})}})),
            "ValidationException: Nesting Levels have exceeded supported "
            "limits: Attributes in the item have nested levels beyond "
            "supported limit");
  // Extra parameters are accepted.
  fake.Answer(Json::object());
  EXPECT_EQ(
      Show(executor.ExecuteStatement(
          {{"Statement", "SELECT * FROM Tbl WHERE pk = ?"},
           {"Parameters", Json::parse(R"j([{"S": "a"}, {"S": "b"}])j")}})),
      R"j({"Items":[]})j");
}

TEST(BatchExecuteStatementTest, EachStatementHasItsOwnAnswer) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(Json::parse(
      R"j({"Item": {"pk": {"S": "a"}}, "ConsumedCapacity": {"TableName": "Tbl", "CapacityUnits": 0.5}})j"));
  fake.Answer(Json::parse(
      R"j({"ConsumedCapacity": {"TableName": "Tbl", "CapacityUnits": 0.5}})j"));
  Result<Json> out = executor.BatchExecuteStatement(Json::parse(R"j({
      "ReturnConsumedCapacity": "TOTAL",
      "Statements": [
        {"Statement": "SELECT * FROM Tbl WHERE pk = 'a'"},
        {"Statement": "SELECT * FROM Tbl WHERE pk = ?", "Parameters": [{"S": "b"}],
         "ConsistentRead": true},
        {"Statement": "SELECT * FROM Tbl WHERE v = 1"},
        {"Statement": "SELECT * FROM Nope WHERE pk = 'a'"},
        {"Statement": "SLECT * FROM Tbl"}]})j"));
  EXPECT_EQ(
      Show(out),
      R"j({"ConsumedCapacity":[{"CapacityUnits":1.0,"TableName":"Tbl"}],)j"
      R"j("Responses":[{"Item":{"pk":{"S":"a"}},"TableName":"Tbl"},)j"
      R"j({"TableName":"Tbl"},)j"
      R"j({"Error":{"Code":"ValidationError","Message":"Select statements )j"
      R"j(within BatchExecuteStatement must specify the primary key in the )j"
      R"j(where clause."}},)j"
      R"j({"Error":{"Code":"ResourceNotFound","Message":"Requested resource )j"
      R"j(not found"}},)j"
      R"j({"Error":{"Code":"ValidationError","Message":"Statement wasn't )j"
      R"j(well formed, can't be processed: Expected data manipulation"}}]})j");
  EXPECT_EQ(
      fake.Calls(),
      (std::vector<std::string>{
          R"j(GetItem {"Key":{"pk":{"S":"a"}},"ReturnConsumedCapacity":"TOTAL","TableName":"Tbl"})j",
          R"j(GetItem {"ConsistentRead":true,"Key":{"pk":{"S":"b"}},"ReturnConsumedCapacity":"TOTAL","TableName":"Tbl"})j"}));
}

TEST(BatchExecuteStatementTest, WriteErrorsCarryCodeMessageAndItem) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(Error::ConditionalCheckFailed("The conditional request failed"));
  Error failed =
      Error::ConditionalCheckFailed("The conditional request failed");
  failed.extra = Json::parse(R"j({"Item": {"pk": {"S": "b"}}})j");
  fake.Answer(failed);
  fake.Answer(Json::object());
  Result<Json> out = executor.BatchExecuteStatement(Json::parse(R"j({
      "Statements": [
        {"Statement": "INSERT INTO Tbl VALUE {'pk': 'a'}"},
        {"Statement": "UPDATE Tbl SET v = 1 WHERE pk = 'b'",
         "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
        {"Statement": "DELETE FROM Tbl WHERE pk = 'c'"}]})j"));
  EXPECT_EQ(Show(out),
            R"j({"Responses":[{"Error":{"Code":"DuplicateItem","Message":)j"
            R"j("Duplicate primary key exists in table"},"TableName":"Tbl"},)j"
            R"j({"Error":{"Code":"ConditionalCheckFailed","Item":{"pk":{"S":)j"
            R"j("b"}},"Message":"The conditional request failed"},)j"
            R"j("TableName":"Tbl"},{"TableName":"Tbl"}]})j");
}

TEST(BatchExecuteStatementTest, ReadsAndWritesDoNotMix) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  EXPECT_EQ(Show(executor.BatchExecuteStatement(Json::parse(R"j({
      "Statements": [
        {"Statement": "SELECT * FROM Tbl WHERE pk = 'a'"},
        {"Statement": "DELETE FROM Tbl WHERE pk = 'c'"}]})j"))),
            "ValidationException: BatchExecuteStatement API does not support "
            "both read and write operations in the same request.");
  EXPECT_TRUE(fake.Calls().empty());
}

TEST(ExecuteTransactionTest, WritesAreOneTransactWriteItems) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(Json::object());
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "ClientRequestToken": "tok",
      "TransactStatements": [
        {"Statement": "INSERT INTO Tbl VALUE {'pk': ?}", "Parameters": [{"S": "n"}]},
        {"Statement": "UPDATE Tbl SET v = v + 1 WHERE pk = 'a'",
         "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
        {"Statement": "DELETE FROM Tbl WHERE pk = 'd'"},
        {"Statement": "EXISTS(SELECT * FROM Tbl WHERE pk = 'e' AND v > 1)"}]})j"))),
            R"j({"Responses":[]})j");
  EXPECT_EQ(
      fake.Calls(),
      (std::vector<std::string>{
          R"j(TransactWriteItems {"ClientRequestToken":"tok","TransactItems":[)j"
          R"j({"Put":{"ConditionExpression":"attribute_not_exists(#n0)",)j"
          R"j("ExpressionAttributeNames":{"#n0":"pk"},"Item":{"pk":{"S":"n"}},)j"
          R"j("TableName":"Tbl"}},)j"
          R"j({"Update":{"ConditionExpression":"attribute_exists(#n1)",)j"
          R"j("ExpressionAttributeNames":{"#n0":"v","#n1":"pk"},)j"
          R"j("ExpressionAttributeValues":{":v0":{"N":"1"}},"Key":{"pk":{"S":)j"
          R"j("a"}},"ReturnValuesOnConditionCheckFailure":"ALL_OLD",)j"
          R"j("TableName":"Tbl","UpdateExpression":"SET #n0 = #n0 + :v0"}},)j"
          R"j({"Delete":{"Key":{"pk":{"S":"d"}},"TableName":"Tbl"}},)j"
          R"j({"ConditionCheck":{"ConditionExpression":"#n0 > :v0",)j"
          R"j("ExpressionAttributeNames":{"#n0":"v"},"ExpressionAttributeValues":)j"
          R"j({":v0":{"N":"1"}},"Key":{"pk":{"S":"e"}},"TableName":"Tbl"}}]})j"}));
}

TEST(ExecuteTransactionTest, ReadsAreOneTransactGetItems) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  fake.Answer(
      Json::parse(R"j({"Responses": [{"Item": {"pk": {"S": "a"}}}, {}]})j"));
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "SELECT * FROM Tbl WHERE pk = 'a'"},
        {"Statement": "SELECT v FROM Tbl WHERE pk = 'b'"}]})j"))),
            R"j({"Responses":[{"Item":{"pk":{"S":"a"}}},{}]})j");
  EXPECT_EQ(
      fake.Calls(),
      (std::vector<std::string>{
          R"j(TransactGetItems {"TransactItems":[{"Get":{"Key":{"pk":{"S":"a"}},)j"
          R"j("TableName":"Tbl"}},{"Get":{"ExpressionAttributeNames":{"#n0":"v"},)j"
          R"j("Key":{"pk":{"S":"b"}},"ProjectionExpression":"#n0",)j"
          R"j("TableName":"Tbl"}}]})j"}));
}

TEST(ExecuteTransactionTest, CancellationNamesDuplicateInserts) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  Error canceled = Error::Of(
      ErrorType::kTransactionCanceled,
      "Transaction cancelled, please refer cancellation reasons for specific "
      "reasons [ConditionalCheckFailed, ConditionalCheckFailed]");
  canceled.extra = Json::parse(R"j({"CancellationReasons": [
      {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"},
      {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}]})j");
  fake.Answer(canceled);
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "INSERT INTO Tbl VALUE {'pk': 'a'}"},
        {"Statement": "UPDATE Tbl SET v = 1 WHERE pk = 'missing'"}]})j"))),
            "TransactionCanceledException: Transaction cancelled, please "
            "refer cancellation reasons for specific reasons [DuplicateItem, "
            "ConditionalCheckFailed] "
            R"j({"CancellationReasons":[{"Code":"DuplicateItem","Message":)j"
            R"j("Duplicate primary key exists in table"},{"Code":)j"
            R"j("ConditionalCheckFailed","Message":"The conditional request )j"
            R"j(failed"}]})j");
}

TEST(ExecuteTransactionTest, StatementErrorsNameTheirPlace) {
  FakeDynamo fake;
  PartiqlExecutor executor(fake.Fn());
  // Pinned on AWS (partiqlGrammar.test.ts, partiqlFunctions.test.ts).
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "DELETE FROM Tbl WHERE pk = 'a'"},
        {"Statement": "SELECT * FROM Tbl WHERE"}]})j"))),
            "ValidationException: Validation failed in TransactStatements[1]: "
            "Statement wasn't well formed, can't be processed: Unexpected "
            "term");
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "SELECT * FROM Tbl WHERE pk = 'a' AND attribute_exists(ss)"}]})j"))),
            "ValidationException: Validation failed in TransactStatements[0]: "
            "Select statements within ExecuteTransaction must specify the "
            "primary key in the where clause.");
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "EXISTS(SELECT * FROM Tbl WHERE pk = 'a')"},
        {"Statement": "UPDATE Tbl SET z = 1 WHERE pk = 'b'"}]})j"))),
            "ValidationException: Validation failed in TransactStatements[0]: "
            "EXISTS() must contain a single item read with additional "
            "condition");
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "UPDATE Tbl SET n = ? WHERE pk = 'b'",
         "Parameters": [{"N": "1e99999999999"}]}]})j"))),
            "ValidationException: The parameter cannot be converted to a "
            "numeric value: 1e99999999999");
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "SELECT * FROM Tbl WHERE pk = 'a'"},
        {"Statement": "DELETE FROM Tbl WHERE pk = 'b'"}]})j"))),
            "ValidationException: ExecuteTransaction API does not support "
            "both read and write operations in the same request.");
  EXPECT_EQ(Show(executor.ExecuteTransaction(Json::parse(R"j({
      "TransactStatements": [
        {"Statement": "DELETE FROM Nope WHERE pk = 'b'"}]})j"))),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_TRUE(fake.Calls().empty());
}

}  // namespace
}  // namespace ddblab::partiql
