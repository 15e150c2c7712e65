// Query through the engine (the DynamoDB API reference, DynamoDB's expression
// rules): key conditions, pages, filters, projections, Select, placeholders and
// legacy parameters. Index reads: query_index_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/emulator/engine/query_test_util.h"

namespace ddblab::engine::testing {
namespace {

// ---------------------------------------------------------------------------
// Key conditions and order

TEST_F(QueryTest, NumbersAreOrderedNumericallyBothWays) {
  PutNumbers("a", {"10", "-2.5", "100", "0", "-10", "1.5", "1", "-0.001"});
  PutNumbers("b", {"5"});
  Json asc = Query(Pk("a"));
  EXPECT_EQ(Column(asc["Items"], "sk"),
            (Strings{"-10", "-2.5", "-0.001", "0", "1", "1.5", "10", "100"}));
  EXPECT_EQ(asc["Count"], 8);
  EXPECT_EQ(asc["ScannedCount"], 8);
  EXPECT_FALSE(asc.contains("LastEvaluatedKey"));
  Json req = Pk("a");
  req["ScanIndexForward"] = false;
  EXPECT_EQ(Column(Query(req)["Items"], "sk"),
            (Strings{"100", "10", "1.5", "1", "0", "-0.001", "-2.5", "-10"}));
}

TEST_F(QueryTest, RangeConditions) {
  PutNumbers("a", {"1", "2", "3", "4", "5"});
  auto sks = [&](const std::string& cond, Json values) {
    values[":p"] = S("a");
    return Column(Query({{"KeyConditionExpression", "pk = :p AND " + cond},
                         {"ExpressionAttributeValues", values}})["Items"],
                  "sk");
  };
  EXPECT_EQ(sks("sk = :v", {{":v", N("3")}}), (Strings{"3"}));
  EXPECT_EQ(sks("sk < :v", {{":v", N("3")}}), (Strings{"1", "2"}));
  EXPECT_EQ(sks("sk <= :v", {{":v", N("3")}}), (Strings{"1", "2", "3"}));
  EXPECT_EQ(sks("sk > :v", {{":v", N("3")}}), (Strings{"4", "5"}));
  EXPECT_EQ(sks("sk >= :v", {{":v", N("3")}}), (Strings{"3", "4", "5"}));
  EXPECT_EQ(sks("sk BETWEEN :a AND :b", {{":a", N("2")}, {":b", N("4")}}),
            (Strings{"2", "3", "4"}));
  // Operands reversed: ":v > sk" is "sk < :v".
  EXPECT_EQ(sks(":v > sk", {{":v", N("3")}}), (Strings{"1", "2"}));
  // Key condition in the other order.
  EXPECT_EQ(Column(Query({{"KeyConditionExpression", "sk >= :v and :p = pk"},
                          {"ExpressionAttributeValues",
                           {{":p", S("a")}, {":v", N("5")}}}})["Items"],
                   "sk"),
            (Strings{"5"}));
}

TEST_F(QueryTest, BeginsWithOnStringSortKeyViaLsiAndOnBinary) {
  int n = 0;
  for (const char* l : {"ab", "abc", "abd", "b", "a", "ab\xc3\xbf"}) {
    Put("tbl", {{"pk", S("p")}, {"sk", N(std::to_string(++n))}, {"lsk", S(l)}});
  }
  Json r =
      Query({{"TableName", "tbl"},
             {"IndexName", "lsi"},
             {"KeyConditionExpression", "pk = :p AND begins_with(lsk, :s)"},
             {"ExpressionAttributeValues", {{":p", S("p")}, {":s", S("ab")}}}});
  EXPECT_EQ(Column(r["Items"], "lsk"),
            (Strings{"ab", "abc", "abd", "ab\xc3\xbf"}));

  // Binary sort keys: bytes order, prefix with 0xFF bytes.
  Ok("CreateTable", {{"TableName", "bin"},
                     {"BillingMode", "PAY_PER_REQUEST"},
                     {"AttributeDefinitions",
                      {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
                       {{"AttributeName", "sk"}, {"AttributeType", "B"}}}},
                     {"KeySchema",
                      {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
                       {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}}}});
  // base64: /w== 0xff, /wA= ff00, //8= ffff, //8A ffff00, AP8= 00ff, AQ== 01
  for (const char* b : {"/w==", "/wA=", "//8=", "//8A", "AP8=", "AQ=="}) {
    Put("bin", {{"pk", S("p")}, {"sk", {{"B", b}}}});
  }
  auto bins = [&](const Json& items) {
    Strings out;
    for (const Json& i : items) out.push_back(i["sk"]["B"].get<std::string>());
    return out;
  };
  EXPECT_EQ(
      bins(Query({{"TableName", "bin"},
                  {"KeyConditionExpression", "pk = :p"},
                  {"ExpressionAttributeValues", {{":p", S("p")}}}})["Items"]),
      (Strings{"AP8=", "AQ==", "/w==", "/wA=", "//8=", "//8A"}));
  EXPECT_EQ(
      bins(Query({{"TableName", "bin"},
                  {"KeyConditionExpression", "pk = :p and begins_with(sk, :b)"},
                  {"ExpressionAttributeValues",
                   {{":p", S("p")}, {":b", {{"B", "//8="}}}}}})["Items"]),
      (Strings{"//8=", "//8A"}));
  EXPECT_EQ(
      bins(Query({{"TableName", "bin"},
                  {"KeyConditionExpression", "pk = :p and begins_with(sk, :b)"},
                  {"ExpressionAttributeValues",
                   {{":p", S("p")}, {":b", {{"B", "/w=="}}}}}})["Items"]),
      (Strings{"/w==", "/wA=", "//8=", "//8A"}));
}

TEST_F(QueryTest, HashOnlyTable) {
  Put("hash", {{"pk", S("a")}, {"v", N("1")}});
  Put("hash", {{"pk", S("b")}});
  Json r = Query({{"TableName", "hash"},
                  {"KeyConditionExpression", "pk = :p"},
                  {"ExpressionAttributeValues", {{":p", S("a")}}},
                  {"Limit", 1}});
  EXPECT_EQ(r["Items"], Json::array({{{"pk", S("a")}, {"v", N("1")}}}));
  // At most one row: the read never stops early.
  EXPECT_FALSE(r.contains("LastEvaluatedKey"));
  EXPECT_EQ(QueryError({{"TableName", "hash"},
                        {"KeyConditionExpression", "pk = :p"},
                        {"ExpressionAttributeValues", {{":p", S("a")}}},
                        {"ExclusiveStartKey", {{"pk", S("a")}}}}),
            VE("The provided starting key is invalid: The provided key "
               "element does not match the schema"));
  EXPECT_EQ(QueryError({{"TableName", "hash"},
                        {"KeyConditionExpression", "pk = :p"},
                        {"ExpressionAttributeValues", {{":p", S("a")}}},
                        {"ExclusiveStartKey", {{"pk", S("b")}}}}),
            VE("The provided starting key is outside query boundaries based "
               "on provided conditions"));
}

TEST_F(QueryTest, KeyConditionSchemaErrors) {
  auto err = [&](const std::string& table, const std::string& cond,
                 Json values) {
    return QueryError({{"TableName", table},
                       {"KeyConditionExpression", cond},
                       {"ExpressionAttributeValues", values}});
  };
  EXPECT_EQ(err("tbl", "sk = :n", {{":n", N("1")}}),
            VE("Query condition missed key schema element: pk"));
  EXPECT_EQ(err("tbl", "pk = :s and z = :s", {{":s", S("1")}}),
            VE("Query condition missed key schema element: sk"));
  EXPECT_EQ(err("tbl", "pk > :s", {{":s", S("1")}}),
            VE("Query key condition not supported"));
  EXPECT_EQ(err("hash", "pk = :s and z = :s", {{":s", S("1")}}),
            VE("Query key condition not supported"));
  EXPECT_EQ(err("hash", "y = :s and z = :s", {{":s", S("1")}}),
            VE("Query key condition not supported"));
  EXPECT_EQ(err("tbl", "pk = :n", {{":n", N("1")}}),
            VE("One or more parameter values were invalid: Condition "
               "parameter type does not match schema type"));
  EXPECT_EQ(err("tbl", "pk = :s and sk = :s", {{":s", S("1")}}),
            VE("One or more parameter values were invalid: Condition "
               "parameter type does not match schema type"));
  // Structure errors come from the expression layer, before the table.
  EXPECT_EQ(err("nope", "pk = :s OR pk = :s", {{":s", S("1")}}),
            VE("Invalid operator used in KeyConditionExpression: OR"));
  // Three to eight conditions fit a multi-attribute GSI key: their count is
  // checked against the schema (gsi_multi_key_test.cc); nine never fit.
  EXPECT_EQ(err("tbl", "pk = :s and sk = :s and x = :s", {{":s", S("1")}}),
            VE("Conditions can be of length 1 or 2 only"));
  EXPECT_EQ(err("nope",
                "a = :s and b = :s and c = :s and d = :s and e = :s and f = :s "
                "and g = :s and h = :s and i = :s",
                {{":s", S("1")}}),
            VE("Conditions can be of length 1 or 2 only"));
  // Schema errors need the table.
  EXPECT_EQ(err("nope", "sk = :s", {{":s", S("1")}}),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(QueryError({}),
            VE("Either the KeyConditions or KeyConditionExpression parameter "
               "must be specified in the request."));
  EXPECT_EQ(QueryError({{"TableName", "tbl"},
                        {"IndexName", "nope"},
                        {"KeyConditionExpression", "pk = :s"},
                        {"ExpressionAttributeValues", {{":s", S("1")}}}}),
            VE("The table does not have the specified index: nope"));
}

// ---------------------------------------------------------------------------
// Pages

TEST_F(QueryTest, LimitPagesRoundTripBothDirections) {
  PutNumbers("a", {"1", "2", "3", "4", "5", "6", "7", "8", "9"});
  Json req = Pk("a");
  req["Limit"] = 4;
  Json all = Json::array();
  EXPECT_EQ(PageCounts(req, &all), (std::vector<int64_t>{4, 4, 1}));
  EXPECT_EQ(Column(all, "sk"),
            (Strings{"1", "2", "3", "4", "5", "6", "7", "8", "9"}));

  // Limit reached exactly at the end: LastEvaluatedKey anyway, then an
  // empty page.
  req["Limit"] = 3;
  all = Json::array();
  EXPECT_EQ(PageCounts(req, &all), (std::vector<int64_t>{3, 3, 3, 0}));
  Json first = Query(req);
  EXPECT_EQ(first["LastEvaluatedKey"], (Json{{"pk", S("a")}, {"sk", N("3")}}));

  req["ScanIndexForward"] = false;
  req["Limit"] = 4;
  all = Json::array();
  EXPECT_EQ(PageCounts(req, &all), (std::vector<int64_t>{4, 4, 1}));
  EXPECT_EQ(Column(all, "sk"),
            (Strings{"9", "8", "7", "6", "5", "4", "3", "2", "1"}));

  // An ExclusiveStartKey need not exist.
  req = Pk("a");
  req["ExclusiveStartKey"] = {{"pk", S("a")}, {"sk", N("4.5")}};
  req["Limit"] = 2;
  EXPECT_EQ(Column(Query(req)["Items"], "sk"), (Strings{"5", "6"}));
}

TEST_F(QueryTest, OneMegabytePagesMeasuredBeforeFilter) {
  // 25 items of about 100,000 bytes: a page ends with the item that takes
  // the bytes read to 1 MB or more, i.e. after 11 items.
  const std::string big(100000, 'z');
  for (int i = 0; i < 25; ++i) {
    Put("tbl", {{"pk", S("big")},
                {"sk", N(std::to_string(i))},
                {"data", S(big)},
                {"even", {{"BOOL", i % 2 == 0}}}});
  }
  Json req = Pk("big");
  Json all = Json::array();
  EXPECT_EQ(PageCounts(req, &all), (std::vector<int64_t>{11, 11, 3}));
  EXPECT_EQ(all.size(), 25u);
  Json page = Query(req);
  EXPECT_EQ(page["LastEvaluatedKey"],
            (Json{{"pk", S("big")}, {"sk", N("10")}}));

  // A filter does not change where the page ends.
  req["FilterExpression"] = "even = :t";
  req["ExpressionAttributeValues"][":t"] = {{"BOOL", true}};
  req["ProjectionExpression"] = "sk";
  page = Query(req);
  EXPECT_EQ(page["ScannedCount"], 11);
  EXPECT_EQ(page["Count"], 6);
  EXPECT_EQ(Column(page["Items"], "sk"),
            (Strings{"0", "2", "4", "6", "8", "10"}));
  EXPECT_EQ(page["LastEvaluatedKey"],
            (Json{{"pk", S("big")}, {"sk", N("10")}}));
  // Capacity: the bytes read, not what the filter kept.
  req["ReturnConsumedCapacity"] = "TOTAL";
  req["ConsistentRead"] = true;
  page = Query(req);
  // Item i: pk 2+3, sk 2+(1 for 0, else 2), data 4+100000, even 4+1; the
  // 11 items read make 1,100,197 bytes: 269 units of 4 KB.
  EXPECT_EQ(page["ConsumedCapacity"],
            (Json{{"TableName", "tbl"}, {"CapacityUnits", 269.0}}));
}

TEST_F(QueryTest, FilterAfterTheCut) {
  for (int i = 1; i <= 8; ++i) {
    Json item{{"pk", S("f")}, {"sk", N(std::to_string(i))}};
    if (i % 2 == 1) item["odd"] = {{"BOOL", true}};
    Put("tbl", item);
  }
  Json req = Pk("f");
  req["Limit"] = 4;
  req["FilterExpression"] = "attribute_exists(odd)";
  Json page = Query(req);
  EXPECT_EQ(page["Count"], 2);
  EXPECT_EQ(page["ScannedCount"], 4);
  EXPECT_EQ(Column(page["Items"], "sk"), (Strings{"1", "3"}));
  // The last item read was filtered out; it is still the LastEvaluatedKey.
  EXPECT_EQ(page["LastEvaluatedKey"], (Json{{"pk", S("f")}, {"sk", N("4")}}));

  // A page may be empty and still have a LastEvaluatedKey.
  req["FilterExpression"] = "attribute_exists(nothing)";
  page = Query(req);
  EXPECT_EQ(page["Items"], Json::array());
  EXPECT_EQ(page["Count"], 0);
  EXPECT_EQ(page["ScannedCount"], 4);
  EXPECT_TRUE(page.contains("LastEvaluatedKey"));

  // Filters may not use the keys of what is queried.
  req["FilterExpression"] = "sk > :p";
  EXPECT_EQ(QueryError(req),
            VE("Filter Expression can only contain non-primary key "
               "attributes: Primary key attribute: sk"));
  req["FilterExpression"] = "attribute_exists(pk.x) AND odd = :p";
  EXPECT_EQ(QueryError(req),
            VE("Filter Expression can only contain non-primary key "
               "attributes: Primary key attribute: pk"));
  // On a GSI the table keys are ordinary attributes, the index keys not.
  Json g{{"TableName", "tbl"},
         {"IndexName", "gall"},
         {"KeyConditionExpression", "g = :g"},
         {"FilterExpression", "pk = :g"},
         {"ExpressionAttributeValues", {{":g", S("x")}}}};
  EXPECT_EQ(Query(g)["Count"], 0);
  g["FilterExpression"] = "gs = :g";
  EXPECT_EQ(QueryError(g),
            VE("Filter Expression can only contain non-primary key "
               "attributes: Primary key attribute: gs"));
  // Nested paths on key attributes.
  req["FilterExpression"] = "odd = :p AND lsk.a = :p";
  EXPECT_EQ(QueryError(req),
            VE("Key attributes must be scalars; list random access '[]' and "
               "map lookup '.' are not allowed: IndexKey: lsk"));
}

TEST_F(QueryTest, ProjectionKeepsEmptyItems) {
  Put("tbl", {{"pk", S("p")},
              {"sk", N("1")},
              {"a", S("1")},
              {"m", {{"M", {{"b", N("2")}, {"c", N("3")}}}}}});
  Put("tbl", {{"pk", S("p")}, {"sk", N("2")}});
  Json req = Pk("p");
  req["ProjectionExpression"] = "a, #m.b";
  req["ExpressionAttributeNames"] = {{"#m", "m"}};
  Json r = Query(req);
  EXPECT_EQ(r["Items"],
            Json::parse(R"([{"a":{"S":"1"},"m":{"M":{"b":{"N":"2"}}}},{}])"));
  EXPECT_EQ(r["Count"], 2);
  req["ProjectionExpression"] = "nothing";
  req.erase("ExpressionAttributeNames");
  EXPECT_EQ(Query(req)["Items"], Json::parse("[{},{}]"));
  // Nested paths on keys.
  req["ProjectionExpression"] = "sk[0]";
  EXPECT_EQ(QueryError(req),
            VE("Key attributes must be scalars; list random access '[]' and "
               "map lookup '.' are not allowed: Key: sk"));
}

// ---------------------------------------------------------------------------
// Select

TEST_F(QueryTest, SelectModesAndErrors) {
  PutNumbers("s", {"1", "2", "3"});
  Json req = Pk("s");
  req["Select"] = "COUNT";
  Json r = Query(req);
  EXPECT_FALSE(r.contains("Items"));
  EXPECT_EQ(r["Count"], 3);
  EXPECT_EQ(r["ScannedCount"], 3);
  req["Limit"] = 2;
  EXPECT_EQ(Query(req)["LastEvaluatedKey"],
            (Json{{"pk", S("s")}, {"sk", N("2")}}));
  req.erase("Limit");

  req["Select"] = "ALL_ATTRIBUTES";
  EXPECT_EQ(Query(req)["Items"][0],
            (Json{{"pk", S("s")}, {"sk", N("1")}, {"x", S("x1")}}));
  req["Select"] = "SPECIFIC_ATTRIBUTES";
  req["ProjectionExpression"] = "x";
  EXPECT_EQ(Column(Query(req)["Items"], "x"), (Strings{"x1", "x2", "x3"}));

  const std::string p = "1 validation error detected: ";
  req["Select"] = "COUNT";
  EXPECT_EQ(QueryError(req),
            VE(p + "Cannot specify the ProjectionExpression when choosing to "
                   "get only the Count"));
  req["Select"] = "ALL_ATTRIBUTES";
  EXPECT_EQ(QueryError(req),
            VE(p + "Cannot specify the ProjectionExpression when choosing to "
                   "get ALL_ATTRIBUTES"));
  req["Select"] = "ALL_PROJECTED_ATTRIBUTES";
  EXPECT_EQ(QueryError(req),
            VE(p + "Cannot specify the ProjectionExpression when choosing to "
                   "get ALL_PROJECTED_ATTRIBUTES"));
  req.erase("ProjectionExpression");
  EXPECT_EQ(QueryError(req),
            VE(p + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying "
                   "using an IndexName"));
  req["Select"] = "SPECIFIC_ATTRIBUTES";
  EXPECT_EQ(QueryError(req),
            VE(p + "Must specify the AttributesToGet or ProjectionExpression "
                   "when choosing to get SPECIFIC_ATTRIBUTES"));
  req["Select"] = "count";
  EXPECT_EQ(QueryError(req),
            VE(p + "Value 'count' at 'select' failed to satisfy constraint: "
                   "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, "
                   "COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"));
  EXPECT_EQ(QueryError({{"TableName", "tbl"},
                        {"KeyConditions",
                         {{"pk",
                           {{"ComparisonOperator", "EQ"},
                            {"AttributeValueList", {S("s")}}}}}},
                        {"AttributesToGet", {"x"}},
                        {"Select", "COUNT"}}),
            VE(p + "Cannot specify the AttributesToGet when choosing to get "
                   "only the Count"));
  // Select errors are constraint errors on Query: they join the others.
  req["Select"] = "COUNT";
  req["ProjectionExpression"] = "x";
  req["Limit"] = 0;
  EXPECT_EQ(QueryError(req),
            VE("2 validation errors detected: Value at 'Limit' failed to "
               "satisfy constraint: Member must have value greater than or "
               "equal to 1; Cannot specify the ProjectionExpression when "
               "choosing to get only the Count"));
}

// ---------------------------------------------------------------------------
// Placeholders and legacy parameters

TEST_F(QueryTest, UnusedPlaceholdersAcrossExpressions) {
  PutNumbers("u", {"1"});
  Json req = Pk("u");
  req["ExpressionAttributeNames"] = {{"#x", "x"}, {"#y", "y"}};
  req["ProjectionExpression"] = "#x";
  EXPECT_EQ(QueryError(req),
            VE("Value provided in ExpressionAttributeNames unused in "
               "expressions: keys: {#y}"));
  req["FilterExpression"] = "#y <> :v";
  EXPECT_EQ(QueryError(req),
            VE("Invalid FilterExpression: An expression attribute value used "
               "in expression is not defined; attribute value: :v"));
  req["ExpressionAttributeValues"][":v"] = S("1");
  req["ExpressionAttributeValues"][":w"] = S("1");
  EXPECT_EQ(QueryError(req),
            VE("Value provided in ExpressionAttributeValues unused in "
               "expressions: keys: {:w}"));
  req["ExpressionAttributeValues"].erase(":w");
  EXPECT_EQ(Column(Query(req)["Items"], "x"), (Strings{"x1"}));
  EXPECT_EQ(QueryError({{"TableName", "tbl"},
                        {"KeyConditions",
                         {{"pk",
                           {{"ComparisonOperator", "EQ"},
                            {"AttributeValueList", {S("u")}}}}}},
                        {"ExpressionAttributeValues", {{":v", S("1")}}}}),
            VE("ExpressionAttributeValues can only be specified when using "
               "expressions: FilterExpression and KeyConditionExpression are "
               "null"));
}

TEST_F(QueryTest, LegacyParameters) {
  PutNumbers("l", {"1", "2", "3", "4"});
  Put("tbl", {{"pk", S("l")}, {"sk", N("5")}, {"y", S("yes")}});
  Json kc{
      {"pk", {{"ComparisonOperator", "EQ"}, {"AttributeValueList", {S("l")}}}},
      {"sk",
       {{"ComparisonOperator", "BETWEEN"},
        {"AttributeValueList", {N("2"), N("5")}}}}};
  Json r = Query({{"KeyConditions", kc}});
  EXPECT_EQ(Column(r["Items"], "sk"), (Strings{"2", "3", "4", "5"}));
  r = Query({{"KeyConditions", kc},
             {"QueryFilter",
              {{"x",
                {{"ComparisonOperator", "BEGINS_WITH"},
                 {"AttributeValueList", {S("x3")}}}},
               {"y", {{"ComparisonOperator", "NOT_NULL"}}}}},
             {"ConditionalOperator", "OR"},
             {"AttributesToGet", {"sk", "y"}}});
  EXPECT_EQ(r["Items"], Json::parse(R"([{"sk":{"N":"3"}},
                                        {"sk":{"N":"5"},"y":{"S":"yes"}}])"));
  EXPECT_EQ(r["ScannedCount"], 4);
  // KeyConditions with a FilterExpression is allowed.
  r = Query({{"KeyConditions", kc},
             {"FilterExpression", "x = :x"},
             {"ExpressionAttributeValues", {{":x", S("x4")}}}});
  EXPECT_EQ(Column(r["Items"], "sk"), (Strings{"4"}));

  EXPECT_EQ(QueryError({{"KeyConditions", kc},
                        {"QueryFilter",
                         {{"sk", {{"ComparisonOperator", "NOT_NULL"}}}}}}),
            VE("QueryFilter can only contain non-primary key attributes: "
               "Primary key attribute: sk"));
  EXPECT_EQ(QueryError({{"KeyConditions", kc},
                        {"AttributesToGet", {"x"}},
                        {"ProjectionExpression", "x"}}),
            VE("Can not use both expression and non-expression parameters in "
               "the same request: Non-expression parameters: "
               "{AttributesToGet} Expression parameters: "
               "{ProjectionExpression}"));
  EXPECT_EQ(QueryError({{"KeyConditions", kc},
                        {"KeyConditionExpression", "pk = :p"},
                        {"ExpressionAttributeValues", {{":p", S("l")}}}}),
            VE("Can not use both expression and non-expression parameters in "
               "the same request: Non-expression parameters: {KeyConditions} "
               "Expression parameters: {KeyConditionExpression}"));
  EXPECT_EQ(
      QueryError(
          {{"KeyConditions",
            {{"pk",
              {{"ComparisonOperator", "EQ"}, {"AttributeValueList", {S("l")}}}},
             {"sk", {{"ComparisonOperator", "NOT_NULL"}}}}}}),
      VE("Attempted conditional constraint is not an indexable "
         "operation"));
  EXPECT_EQ(QueryError({{"KeyConditions",
                         {{"pk",
                           {{"ComparisonOperator", "BEGINS_WITH"},
                            {"AttributeValueList", {S("l")}}}}}}}),
            VE("Query key condition not supported"));
  EXPECT_EQ(QueryError({{"KeyConditions", Json::object()}}),
            VE("Conditions can be of length 1 or 2 only"));
  EXPECT_EQ(
      QueryError({{"KeyConditions", kc}, {"AttributesToGet", {"x", "x"}}}),
      VE("One or more parameter values were invalid: Duplicate value in "
         "attribute name: x"));
  EXPECT_EQ(QueryError({{"KeyConditions",
                         {{"pk",
                           {{"ComparisonOperator", "EQ"},
                            {"AttributeValueList", {N("1")}}}}}}}),
            VE("One or more parameter values were invalid: Condition "
               "parameter type does not match schema type"));
}

TEST_F(QueryTest, BackfillingIndexCannotBeRead) {
  Options options;
  options.table_status_delay = std::chrono::seconds(10);
  Open(options);
  CreateTable("bftab", "pk");
  clock_->Advance(std::chrono::seconds(11));
  Put("bftab", {{"pk", S("a")}, {"g", S("G")}});
  Ok("UpdateTable",
     {{"TableName", "bftab"},
      {"AttributeDefinitions",
       {{{"AttributeName", "g"}, {"AttributeType", "S"}}}},
      {"GlobalSecondaryIndexUpdates",
       {{{"Create",
          {{"IndexName", "byg"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "ALL"}}}}}}}}});
  Json q{{"TableName", "bftab"},
         {"IndexName", "byg"},
         {"KeyConditionExpression", "g = :g"},
         {"ExpressionAttributeValues", {{":g", S("G")}}}};
  const std::string error =
      VE("Cannot read from backfilling global secondary index: byg");
  EXPECT_EQ(FailText("Query", q), error);
  EXPECT_EQ(FailText("Scan", {{"TableName", "bftab"}, {"IndexName", "byg"}}),
            error);
  clock_->Advance(std::chrono::seconds(11));
  EXPECT_EQ(Ok("Query", q)["Items"], (Json{{{"pk", S("a")}, {"g", S("G")}}}));
}

}  // namespace
}  // namespace ddblab::engine::testing
