#include "emulator/partiql/translate.h"

#include <gtest/gtest.h>

#include <string>

#include "emulator/partiql/parser.h"

namespace ddblab::partiql {
namespace {

using Json = nlohmann::json;

// pk (S) + sk (N); GSI "byG" on g (S) projecting KEYS_ONLY + INCLUDE a;
// LSI "byL" on pk + l (S).
TableInfo Composite() {
  Json describe = Json::parse(R"j({"Table": {
    "TableName": "T",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "sk", "AttributeType": "N"},
                             {"AttributeName": "g", "AttributeType": "S"},
                             {"AttributeName": "l", "AttributeType": "S"}],
    "GlobalSecondaryIndexes": [{"IndexName": "byG",
        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "INCLUDE",
                       "NonKeyAttributes": ["a"]}}],
    "LocalSecondaryIndexes": [{"IndexName": "byL",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "l", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"}}]}})j");
  Result<TableInfo> info = TableInfo::FromDescribeTable(describe);
  EXPECT_TRUE(info.ok());
  return *info;
}

TableInfo HashOnly() {
  Result<TableInfo> info = TableInfo::FromDescribeTable(Json::parse(
      R"j({"Table": {"TableName": "H",
          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
          "AttributeDefinitions": [{"AttributeName": "pk",
                                    "AttributeType": "S"}]}})j"));
  EXPECT_TRUE(info.ok());
  return *info;
}

std::string Plan1(const TableInfo& table, std::string_view text,
                  Json parameters = nullptr, PlanOptions options = {}) {
  Result<Statement> statement = Parse(text);
  if (!statement.ok()) return "parse error: " + statement.error().message;
  Result<Plan> plan = Translate(*statement, table, parameters, options);
  if (!plan.ok()) {
    return std::string(plan.error().Name()) + ": " + plan.error().message;
  }
  return plan->DebugString();
}

std::string V(std::string_view text) {
  return "ValidationException: " + std::string(text);
}

TEST(TableInfoTest, ReadsKeysTypesAndIndexes) {
  TableInfo t = Composite();
  EXPECT_EQ(t.name, "T");
  EXPECT_EQ(t.keys.hash, "pk");
  EXPECT_EQ(t.keys.range, "sk");
  EXPECT_EQ(t.attribute_types.at("sk"), "N");
  ASSERT_NE(t.FindIndex("byG"), nullptr);
  EXPECT_TRUE(t.FindIndex("byG")->global);
  EXPECT_EQ(t.FindIndex("byG")->projection_type, "INCLUDE");
  ASSERT_NE(t.FindIndex("byL"), nullptr);
  EXPECT_FALSE(t.FindIndex("byL")->global);
  EXPECT_EQ(t.FindIndex("nope"), nullptr);
  EXPECT_FALSE(TableInfo::FromDescribeTable(Json::object()).ok());
}

TEST(TranslateSelectTest, FullKeyEqualityIsGetItem) {
  EXPECT_EQ(
      Plan1(Composite(), "SELECT * FROM T WHERE pk = 'a' AND sk = 1"),
      R"j(GetItem {"Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"TableName":"T"})j");
  EXPECT_EQ(
      Plan1(HashOnly(), "SELECT a, b.c FROM H WHERE ? = pk",
            Json::parse(R"j([{"S": "k"}])j")),
      R"j(GetItem {"ExpressionAttributeNames":{"#n0":"a","#n1":"b","#n2":"c"},)j"
      R"j("Key":{"pk":{"S":"k"}},"ProjectionExpression":"#n0, #n1.#n2",)j"
      R"j("TableName":"H"})j");
}

TEST(TranslateSelectTest, ConsistentReadIsPassedOn) {
  PlanOptions options;
  options.consistent_read = true;
  EXPECT_EQ(
      Plan1(HashOnly(), "SELECT * FROM H WHERE pk = 'a'", nullptr, options),
      R"j(GetItem {"ConsistentRead":true,"Key":{"pk":{"S":"a"}},"TableName":"H"})j");
}

TEST(TranslateSelectTest, PartitionKeyEqualityIsQuery) {
  EXPECT_EQ(
      Plan1(Composite(),
            "SELECT * FROM T WHERE pk = 'a' AND sk BETWEEN 1 AND 5 AND x <> 2"),
      R"j(Query {"ExpressionAttributeNames":{"#n0":"pk","#n1":"sk","#n2":"x"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"a"},":v1":{"N":"1"},)j"
      R"j(":v2":{"N":"5"},":v3":{"N":"2"}},"FilterExpression":"#n2 <> :v3",)j"
      R"j("KeyConditionExpression":"#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2",)j"
      R"j("TableName":"T"})j");
}

TEST(TranslateSelectTest, ReversedSortKeyComparisonIsFlipped) {
  EXPECT_EQ(
      Plan1(Composite(), "SELECT * FROM T WHERE pk = 'a' AND 5 < sk"),
      R"j(Query {"ExpressionAttributeNames":{"#n0":"pk","#n1":"sk"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"a"},":v1":{"N":"5"}},)j"
      R"j("KeyConditionExpression":"#n0 = :v0 AND #n1 > :v1","TableName":"T"})j");
}

TEST(TranslateSelectTest, BeginsWithOnSortKeyAndOrderByDesc) {
  Result<TableInfo> t = TableInfo::FromDescribeTable(Json::parse(
      R"j({"Table": {"TableName": "S2",
          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                        {"AttributeName": "sk", "KeyType": "RANGE"}],
          "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"}]}})j"));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(
      Plan1(*t,
            "SELECT * FROM S2 WHERE pk = 'a' AND begins_with(sk, 'x') "
            "ORDER BY sk DESC"),
      R"j(Query {"ExpressionAttributeNames":{"#n0":"pk","#n1":"sk"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"a"},":v1":{"S":"x"}},)j"
      R"j("KeyConditionExpression":"#n0 = :v0 AND begins_with(#n1, :v1)",)j"
      R"j("ScanIndexForward":false,"TableName":"S2"})j");
}

TEST(TranslateSelectTest, KeyConditionsTheQueryCannotCarryMakeAScan) {
  // Two conditions on the sort key, or one inside OR, can't be a key
  // condition and a Query filter may not name key attributes: Scan.
  EXPECT_EQ(
      Plan1(Composite(),
            "SELECT * FROM T WHERE pk = 'a' AND (sk = 1 OR sk = 2)"),
      R"j(Scan {"ExpressionAttributeNames":{"#n0":"pk","#n1":"sk"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"a"},":v1":{"N":"1"},)j"
      R"j(":v2":{"N":"2"}},"FilterExpression":"#n0 = :v0 AND (#n1 = :v1 OR )j"
      R"j(#n1 = :v2)","TableName":"T"})j");
  EXPECT_EQ(Plan1(Composite(), "SELECT pk FROM T"),
            R"j(Scan {"ExpressionAttributeNames":{"#n0":"pk"},)j"
            R"j("ProjectionExpression":"#n0","TableName":"T"})j");
}

TEST(TranslateSelectTest, FilterFunctionsIsAndIn) {
  EXPECT_EQ(
      Plan1(HashOnly(),
            "SELECT * FROM H WHERE a IS NOT MISSING AND b IS NULL AND NOT c IS "
            "STRING AND d IN [1, 2] AND contains(e, 'z') AND size(f) > 2 AND "
            "attribute_exists(g) = false"),
      R"j(Scan {"ExpressionAttributeNames":{"#n0":"a","#n1":"b","#n2":"c",)j"
      R"j("#n3":"d","#n4":"e","#n5":"f","#n6":"g"},"ExpressionAttributeValues":)j"
      R"j({":v0":{"S":"NULL"},":v1":{"S":"S"},":v2":{"N":"1"},":v3":{"N":"2"},)j"
      R"j(":v4":{"S":"z"},":v5":{"N":"2"}},"FilterExpression":)j"
      R"j("attribute_exists(#n0) AND attribute_type(#n1, :v0) AND NOT )j"
      R"j(attribute_type(#n2, :v1) AND #n3 IN (:v2, :v3) AND contains(#n4, :v4))j"
      R"j( AND size(#n5) > :v5 AND NOT attribute_exists(#n6)","TableName":"H"})j");
}

TEST(TranslateSelectTest, ParenthesesOnlyWhereNeeded) {
  EXPECT_EQ(
      Plan1(HashOnly(),
            "SELECT * FROM H WHERE ((a = 1)) OR NOT (b = 2 AND c = 3)"),
      R"j(Scan {"ExpressionAttributeNames":{"#n0":"a","#n1":"b","#n2":"c"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"N":"1"},":v1":{"N":"2"},)j"
      R"j(":v2":{"N":"3"}},"FilterExpression":"#n0 = :v0 OR NOT (#n1 = :v1 AND )j"
      R"j(#n2 = :v2)","TableName":"H"})j");
}

TEST(TranslateSelectTest, IndexQueriesAndScans) {
  EXPECT_EQ(
      Plan1(Composite(), R"j(SELECT a FROM T."byG" WHERE g = 'x')j"),
      R"j(Query {"ExpressionAttributeNames":{"#n0":"a","#n1":"g"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"x"}},"IndexName":"byG",)j"
      R"j("KeyConditionExpression":"#n1 = :v0","ProjectionExpression":"#n0",)j"
      R"j("TableName":"T"})j");
  // Without equality on the index's partition key: a scan of the index.
  EXPECT_EQ(
      Plan1(Composite(), R"j(SELECT * FROM T."byG" WHERE pk = 'p')j"),
      R"j(Scan {"ExpressionAttributeNames":{"#n0":"pk"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"p"}},)j"
      R"j("FilterExpression":"#n0 = :v0","IndexName":"byG","TableName":"T"})j");
}

TEST(TranslateSelectTest, IndexRefusals) {
  // Pinned on AWS (executeStatementIndex.test.ts).
  EXPECT_EQ(
      Plan1(Composite(), R"j(SELECT zz, a, yy FROM T."byG" WHERE g = 'x')j"),
      V("One or more parameter values were invalid: Global secondary "
        "index byG does not project [zz, yy]"));
  PlanOptions consistent;
  consistent.consistent_read = true;
  EXPECT_EQ(Plan1(Composite(), R"j(SELECT * FROM T."byG" WHERE g = 'x')j",
                  nullptr, consistent),
            V("Strongly consistent read is not supported on Global Secondary "
              "Indexes"));
  EXPECT_EQ(
      Plan1(Composite(), R"j(SELECT * FROM T."byL" WHERE pk = 'x')j", nullptr,
            consistent),
      R"j(Query {"ConsistentRead":true,"ExpressionAttributeNames":{"#n0":"pk"},)j"
      R"j("ExpressionAttributeValues":{":v0":{"S":"x"}},"IndexName":"byL",)j"
      R"j("KeyConditionExpression":"#n0 = :v0","TableName":"T"})j");
  EXPECT_EQ(Plan1(Composite(), R"j(SELECT * FROM T."nope")j"),
            V("The table does not have the specified index: nope"));
}

TEST(TranslateSelectTest, WhereRefusals) {
  // Pinned on AWS (partiqlFunctions.test.ts).
  const std::string stmt = "SELECT attribute_exists(ss) FROM H WHERE pk = 'a'";
  EXPECT_EQ(Plan1(HashOnly(), stmt), V("Unexpected path component at 1:8:16"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE pk = 'a' AND EXISTS(ss)"),
            V("Unrecognized function: exists at 1:36:6"));
  EXPECT_EQ(
      Plan1(HashOnly(),
            "SELECT * FROM H WHERE pk = 'a' AND set_add(ss, <<'x'>>) = ss"),
      V("Unrecognized function: set_add at 1:36:7"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE attribute_exists('ss')"),
            V("Operator or function requires a document path; operator or "
              "function: attribute_exists"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE attribute_exists()"),
            V("Incorrect number of operands for operator or function; "
              "operator or function: attribute_exists, number of operands: 0"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE attribute_exists(a, b)"),
            V("Incorrect number of operands for operator or function; "
              "operator or function: attribute_exists, number of operands: 2"));
  // DynamoDB Local's message catalog.
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE a = MISSING"),
            V("MISSING must be compared using IS operator"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE a IS INT"),
            V("Unsupported data type for IS operator: INT. Supported data "
              "types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, "
              "STRUCT, TUPLE, LIST]"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE a"),
            V("WHERE clause must contain an expression that resolves to a "
              "boolean"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE a LIKE 'x%'"),
            V("Unsupported operator in Condition Expression. Operator: LIKE"));
}

TEST(TranslateSelectTest, KeyTypeRefusals) {
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE pk = 1"),
            V("Key attribute's data type should match its data type in "
              "table's schema: Key pk"));
  EXPECT_EQ(Plan1(HashOnly(), "SELECT * FROM H WHERE pk = true"),
            V("Key value must be of type S, N, or B. Key name: pk, Key type: "
              "BOOL"));
}

TEST(TranslateSelectTest, OrderByRefusals) {
  EXPECT_EQ(Plan1(Composite(), "SELECT * FROM T ORDER BY sk"),
            V("Must have WHERE clause in the statement when using ORDER BY "
              "clause."));
  EXPECT_EQ(Plan1(Composite(), "SELECT * FROM T WHERE x = 1 ORDER BY sk"),
            V("Must have at least one non-optional hash key condition in "
              "WHERE clause when using ORDER BY clause."));
  EXPECT_EQ(Plan1(Composite(), "SELECT * FROM T WHERE pk = 'a' ORDER BY x"),
            V("Variable reference x in ORDER BY clause must be part of the "
              "primary key"));
}

TEST(TranslateSelectTest, BatchAndTransactionReadsNeedTheWholeKey) {
  PlanOptions batch;
  batch.surface = Surface::kBatch;
  PlanOptions transaction;
  transaction.surface = Surface::kTransaction;
  const std::string batch_message =
      V("Select statements within BatchExecuteStatement must specify the "
        "primary key in the where clause.");
  const std::string transaction_message =
      V("Select statements within ExecuteTransaction must specify the "
        "primary key in the where clause.");
  EXPECT_EQ(
      Plan1(Composite(), "SELECT * FROM T WHERE pk = 'a'", nullptr, batch),
      batch_message);
  EXPECT_EQ(Plan1(HashOnly(),
                  "SELECT * FROM H WHERE pk = 'a' AND attribute_exists(ss)",
                  nullptr, batch),
            batch_message);
  EXPECT_EQ(Plan1(Composite(), R"j(SELECT * FROM T."byG" WHERE g = 'a')j",
                  nullptr, batch),
            batch_message);
  EXPECT_EQ(Plan1(HashOnly(),
                  "SELECT * FROM H WHERE pk = 'a' AND attribute_exists(ss)",
                  nullptr, transaction),
            transaction_message);
  EXPECT_EQ(Plan1(Composite(), R"j(SELECT * FROM T."byL" WHERE pk = 'a')j",
                  nullptr, transaction),
            V("Reads on indices are not supported within transactions."));
  EXPECT_EQ(Plan1(Composite(), "SELECT a FROM T WHERE sk = 2 AND pk = 'a'",
                  nullptr, batch),
            R"j(GetItem {"ExpressionAttributeNames":{"#n0":"a"},"Key":{"pk":)j"
            R"j({"S":"a"},"sk":{"N":"2"}},"ProjectionExpression":"#n0",)j"
            R"j("TableName":"T"})j");
}

TEST(TranslateWriteTest, InsertIsGuardedPut) {
  EXPECT_EQ(
      Plan1(Composite(),
            "INSERT INTO T VALUE {'pk': 'a', 'sk': 7.31e6, 'm': {'x': [1, "
            "null]}, 's': <<'b', 'a'>>, 'n': <<1, 2>>, 'gone': MISSING, "
            "'p': ?}",
            Json::parse(R"j([{"B": "AAE="}])j")),
      R"j(PutItem {"ConditionExpression":"attribute_not_exists(#n0)",)j"
      R"j("ExpressionAttributeNames":{"#n0":"pk"},"Item":{"m":{"M":{"x":{"L":)j"
      R"j([{"N":"1"},{"NULL":true}]}}},"n":{"NS":["1","2"]},"p":{"B":"AAE="},)j"
      R"j("pk":{"S":"a"},"s":{"SS":["b","a"]},"sk":{"N":"7310000"}},)j"
      R"j("TableName":"T"})j");
}

TEST(TranslateWriteTest, InsertRefusals) {
  EXPECT_EQ(Plan1(Composite(), "INSERT INTO T VALUE {'pk': 'a'}"),
            V("Key attribute should be present in the item: Key sk"));
  EXPECT_EQ(Plan1(Composite(), "INSERT INTO T VALUE {'pk': 'a', 'sk': 'b'}"),
            V("Key attribute's data type should match its data type in "
              "table's schema: Key sk"));
  EXPECT_EQ(Plan1(Composite(), "INSERT INTO T VALUE ['pk']"),
            V("Unsupported format in item expression. Please use struct "
              "format {...} to express item values for insert statement."));
  EXPECT_EQ(Plan1(HashOnly(), "INSERT INTO H VALUE {'pk': 'a', 'pk': 'b'}"),
            V("Duplicate keys in tuple. Key: pk under root"));
  // Pinned on AWS (partiqlGrammar.test.ts, partiqlFunctions.test.ts).
  EXPECT_EQ(
      Plan1(HashOnly(), "INSERT INTO H VALUE {'pk': 'a', 'm': {'x': 1e126}}"),
      V("Number overflow. Attempting to store a number with magnitude "
        "larger than supported range under root.x"));
  EXPECT_EQ(
      Plan1(HashOnly(), "INSERT INTO H VALUE {'pk': 'a', 'l': [1, 1e126]}"),
      V("Number overflow. Attempting to store a number with magnitude "
        "larger than supported range under root[1]"));
  EXPECT_EQ(Plan1(HashOnly(), "INSERT INTO H VALUE {'pk': 1e-131}"),
            V("Number underflow. Attempting to store a number with magnitude "
              "smaller than supported range under root"));
  const std::string stmt =
      "INSERT INTO H VALUE {'pk': 'a', 'ss': set_add(<<'a'>>, <<'b'>>)}";
  EXPECT_EQ(Plan1(HashOnly(), stmt),
            V("Unsupported data type: set_add under key root at 1:39:7"));
  EXPECT_EQ(
      Plan1(HashOnly(), "INSERT INTO H VALUE {'pk': 'a', 's': <<'x', 'x'>>}"),
      V("One or more parameter values were invalid: Input collection "
        "[x, x] contains duplicates."));
  EXPECT_EQ(Plan1(HashOnly(), "INSERT INTO H VALUE {'pk': 'a', 's': <<?>>}",
                  Json::parse(R"j([{"S": "x"}])j")),
            V("Unsupported data type in Bag. DynamoDB only supports either "
              "numbers or strings in bags"));
  EXPECT_EQ(Plan1(HashOnly(), "INSERT INTO H VALUE {'pk': ?}"),
            V("Number of parameters in request and statement don't match."));
}

TEST(TranslateWriteTest, UpdateIsUpdateItemOnAnExistingItem) {
  EXPECT_EQ(
      Plan1(Composite(),
            "UPDATE T SET a = a + 1, b = list_append(b, [?]) SET c.d[2] = 'x' "
            "REMOVE e, f[0] SET s = set_add(s, <<'q'>>) SET n = set_delete(n, "
            "<<3>>) WHERE pk = 'k' AND sk = 2 AND (v = 1 OR v = 2) RETURNING "
            "MODIFIED NEW *",
            Json::parse(R"j([{"BOOL": true}])j")),
      R"j(UpdateItem {"ConditionExpression":"attribute_exists(#n8) AND )j"
      R"j((#n9 = :v5 OR #n9 = :v6)","ExpressionAttributeNames":{"#n0":"a",)j"
      R"j("#n1":"b","#n2":"c","#n3":"d","#n4":"e","#n5":"f","#n6":"s",)j"
      R"j("#n7":"n","#n8":"pk","#n9":"v"},"ExpressionAttributeValues":{":v0":)j"
      R"j({"N":"1"},":v1":{"L":[{"BOOL":true}]},":v2":{"S":"x"},":v3":{"SS":)j"
      R"j(["q"]},":v4":{"NS":["3"]},":v5":{"N":"1"},":v6":{"N":"2"}},"Key":{)j"
      R"j("pk":{"S":"k"},"sk":{"N":"2"}},"ReturnValues":"UPDATED_NEW",)j"
      R"j("TableName":"T","UpdateExpression":"SET #n0 = #n0 + :v0, #n1 = )j"
      R"j(list_append(#n1, :v1), #n2.#n3[2] = :v2 REMOVE #n4, #n5[0] ADD #n6 )j"
      R"j(:v3 DELETE #n7 :v4"})j");
}

TEST(TranslateWriteTest, UpdateRefusals) {
  const std::string incomplete =
      V("Where clause does not contain a mandatory equality on all key "
        "attributes");
  EXPECT_EQ(Plan1(Composite(), "UPDATE T SET a = 1 WHERE pk = 'k'"),
            incomplete);
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET a = 1"), incomplete);
  EXPECT_EQ(Plan1(HashOnly(), "FROM H WHERE a = 1 SET c = 1"), incomplete);
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET a = 1 WHERE pk = 'a' OR pk = 'b'"),
            incomplete);
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET a = 1 WHERE pk = 'a' AND pk = 'b'"),
            V("Multiple conditions on same key pk. Only single item "
              "Update/Insert/Delete are supported"));
  // Pinned on AWS (partiqlFunctions.test.ts); positions count from 1.
  const std::string where = " WHERE pk = 'pq-fn-msg'";
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET t = set_add(ss, <<'x'>>)" + where),
            V("The first argument to SET_ADD must equal the assignment value "
              "at 1:18:7"));
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET ss = set_add(ss, 'x')" + where),
            V("The second argument to SET_ADD must be a value with type SET "
              "at 1:27:2"));
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET ss = set_add(ss)" + where),
            V("SET_ADD must have exactly two arguments at 1:19:7"));
  EXPECT_EQ(
      Plan1(HashOnly(), "UPDATE H SET ss = set_delete(ss, ['x'])" + where),
      V("The second argument to SET_DELETE must be a value with type SET "
        "at 1:30:2"));
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET ss = set_add(ss, <<>>)" + where),
            V("Empty bags are not supported"));
  EXPECT_EQ(Plan1(HashOnly(), "UPDATE H SET a = 1e-131" + where),
            V("Number underflow. Attempting to store a number with magnitude "
              "smaller than supported range under root"));
  PlanOptions transaction;
  transaction.surface = Surface::kTransaction;
  EXPECT_EQ(
      Plan1(HashOnly(), "UPDATE H SET a = 1" + where + " RETURNING ALL NEW *",
            nullptr, transaction),
      V("RETURNING clause is not supported in ExecuteTransaction."));
}

TEST(TranslateWriteTest, DeleteWithAndWithoutCondition) {
  EXPECT_EQ(Plan1(HashOnly(), "DELETE FROM H WHERE pk = 'a'"),
            R"j(DeleteItem {"Key":{"pk":{"S":"a"}},"TableName":"H"})j");
  PlanOptions options;
  options.return_values_on_condition_check_failure = "ALL_OLD";
  EXPECT_EQ(
      Plan1(HashOnly(),
            "DELETE FROM H WHERE attribute_exists(x) AND pk = ? "
            "RETURNING ALL OLD *",
            Json::parse(R"j([{"S": "a"}])j"), options),
      R"j(DeleteItem {"ConditionExpression":"attribute_exists(#n0)",)j"
      R"j("ExpressionAttributeNames":{"#n0":"x"},"Key":{"pk":{"S":"a"}},)j"
      R"j("ReturnValues":"ALL_OLD","ReturnValuesOnConditionCheckFailure":)j"
      R"j("ALL_OLD","TableName":"H"})j");
  EXPECT_EQ(Plan1(HashOnly(),
                  "DELETE FROM H WHERE pk = 'a' RETURNING MODIFIED OLD *"),
            V("Invalid returning clause: RETURNING MODIFIED OLD *. Only "
              "RETURNING ALL OLD * is allowed in DELETE statements."));
}

TEST(TranslateWriteTest, ExistsIsAConditionCheckInTransactionsOnly) {
  PlanOptions transaction;
  transaction.surface = Surface::kTransaction;
  EXPECT_EQ(
      Plan1(HashOnly(), "EXISTS(SELECT * FROM H WHERE pk = 'a' AND v > 1)",
            nullptr, transaction),
      R"j(ConditionCheck {"ConditionExpression":"#n0 > :v0",)j"
      R"j("ExpressionAttributeNames":{"#n0":"v"},"ExpressionAttributeValues":)j"
      R"j({":v0":{"N":"1"}},"Key":{"pk":{"S":"a"}},"TableName":"H"})j");
  EXPECT_EQ(Plan1(HashOnly(), "EXISTS(SELECT * FROM H WHERE pk = 'a')", nullptr,
                  transaction),
            V("EXISTS() must contain a single item read with additional "
              "condition"));
  EXPECT_EQ(
      Plan1(HashOnly(), "EXISTS(SELECT * FROM H WHERE pk = 'a' AND v = 1)"),
      V("EXISTS can only be used in ExecuteTransaction write requests."));
}

}  // namespace
}  // namespace ddblab::partiql
