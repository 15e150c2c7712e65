// Query through the engine (operations.md §11, expressions.md §3, §5-§7).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json S(const std::string& s) { return {{"S", s}}; }
Json N(const std::string& n) { return {{"N", n}}; }

// The values of `attr` in `items` ("-" where absent), as their S or N text.
std::vector<std::string> Column(const Json& items, const std::string& attr) {
  std::vector<std::string> out;
  for (const Json& item : items) {
    if (!item.contains(attr)) {
      out.push_back("-");
    } else if (item[attr].contains("S")) {
      out.push_back(item[attr]["S"].get<std::string>());
    } else if (item[attr].contains("N")) {
      out.push_back(item[attr]["N"].get<std::string>());
    } else {
      out.push_back("?");
    }
  }
  return out;
}

using Strings = std::vector<std::string>;

class QueryTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    // "tbl": pk S, sk N; LSI "lsi" on lsk (KEYS_ONLY); GSIs "gall" (g, gs;
    // ALL), "gkeys" (g; KEYS_ONLY), "ginc" (g, gs; INCLUDE x).
    Ok("CreateTable",
       {{"TableName", "tbl"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
          {{"AttributeName", "sk"}, {"AttributeType", "N"}},
          {{"AttributeName", "lsk"}, {"AttributeType", "S"}},
          {{"AttributeName", "g"}, {"AttributeType", "S"}},
          {{"AttributeName", "gs"}, {"AttributeType", "N"}}}},
        {"KeySchema",
         {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
          {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}}},
        {"LocalSecondaryIndexes",
         {{{"IndexName", "lsi"},
           {"KeySchema",
            {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
             {{"AttributeName", "lsk"}, {"KeyType", "RANGE"}}}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "gall"},
           {"KeySchema",
            {{{"AttributeName", "g"}, {"KeyType", "HASH"}},
             {{"AttributeName", "gs"}, {"KeyType", "RANGE"}}}},
           {"Projection", {{"ProjectionType", "ALL"}}}},
          {{"IndexName", "gkeys"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}},
          {{"IndexName", "ginc"},
           {"KeySchema",
            {{{"AttributeName", "g"}, {"KeyType", "HASH"}},
             {{"AttributeName", "gs"}, {"KeyType", "RANGE"}}}},
           {"Projection",
            {{"ProjectionType", "INCLUDE"}, {"NonKeyAttributes", {"x"}}}}}}}});
    CreateTable("hash", "pk");
  }

  void Put(const std::string& table, const Json& item) {
    Ok("PutItem", {{"TableName", table}, {"Item", item}});
  }

  // Items pk=p, sk=n for each n, with x = "x<n>".
  void PutNumbers(const std::string& p, const Strings& numbers) {
    for (const std::string& n : numbers) {
      Put("tbl", {{"pk", S(p)}, {"sk", N(n)}, {"x", S("x" + n)}});
    }
  }

  Json Query(Json request) {
    if (!request.contains("TableName")) request["TableName"] = "tbl";
    return Ok("Query", request);
  }
  std::string QueryError(Json request) {
    if (!request.contains("TableName")) request["TableName"] = "tbl";
    return FailText("Query", request);
  }

  // Pages of a query until LastEvaluatedKey is absent; the Count of each.
  std::vector<int64_t> PageCounts(Json request, Json* all_items) {
    std::vector<int64_t> counts;
    for (int guard = 0; guard < 100; ++guard) {
      Json page = Query(request);
      counts.push_back(page["Count"].get<int64_t>());
      for (const Json& item : page["Items"]) all_items->push_back(item);
      if (!page.contains("LastEvaluatedKey")) break;
      request["ExclusiveStartKey"] = page["LastEvaluatedKey"];
    }
    return counts;
  }

  static Json Pk(const std::string& p) {
    return {{"KeyConditionExpression", "pk = :p"},
            {"ExpressionAttributeValues", {{":p", S(p)}}}};
  }
};

constexpr char kVE[] = "ValidationException: ";

std::string VE(const std::string& message) { return kVE + message; }

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
            VE("The query can return at most one row and cannot be restarted"));
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
  EXPECT_EQ(err("nope", "pk = :s and sk = :s and x = :s", {{":s", S("1")}}),
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
            VE("2 validation errors detected: Value '0' at 'limit' failed to "
               "satisfy constraint: Member must have value greater than or "
               "equal to 1; Cannot specify the ProjectionExpression when "
               "choosing to get only the Count"));
}

// ---------------------------------------------------------------------------
// Indexes

class QueryIndexTest : public QueryTest {
 protected:
  void SetUp() override {
    QueryTest::SetUp();
    Put("tbl", {{"pk", S("a")},
                {"sk", N("1")},
                {"g", S("G")},
                {"gs", N("30")},
                {"x", S("xa1")},
                {"y", S("ya1")},
                {"lsk", S("m")}});
    Put("tbl", {{"pk", S("a")},
                {"sk", N("2")},
                {"g", S("G")},
                {"gs", N("10")},
                {"x", S("xa2")},
                {"lsk", S("k")}});
    Put("tbl", {{"pk", S("b")},
                {"sk", N("1")},
                {"g", S("G")},
                {"gs", N("20")},
                {"y", S("yb1")}});
    Put("tbl", {{"pk", S("c")}, {"sk", N("1")}, {"g", S("H")}, {"gs", N("5")}});
    // Sparse: no g, not in the GSIs; no lsk, not in the LSI.
    Put("tbl", {{"pk", S("d")}, {"sk", N("1")}, {"x", S("xd1")}});
  }

  Json G(const std::string& index, const std::string& g = "G") {
    return {{"TableName", "tbl"},
            {"IndexName", index},
            {"KeyConditionExpression", "g = :g"},
            {"ExpressionAttributeValues", {{":g", S(g)}}}};
  }
};

TEST_F(QueryIndexTest, GsiProjections) {
  Json all = Query(G("gall"));
  EXPECT_EQ(Column(all["Items"], "gs"), (Strings{"10", "20", "30"}));
  EXPECT_EQ(all["Items"][0], (Json{{"pk", S("a")},
                                   {"sk", N("2")},
                                   {"g", S("G")},
                                   {"gs", N("10")},
                                   {"x", S("xa2")},
                                   {"lsk", S("k")}}));
  EXPECT_EQ(Query(G("gall", "H"))["Count"], 1);

  // KEYS_ONLY: table keys + index keys; order within a GSI partition by the
  // table key.
  Json keys = Query(G("gkeys"));
  EXPECT_EQ(keys["Items"],
            (Json{{{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}},
                  {{"pk", S("a")}, {"sk", N("2")}, {"g", S("G")}},
                  {{"pk", S("b")}, {"sk", N("1")}, {"g", S("G")}}}));
  // INCLUDE x.
  Json inc = Query(G("ginc"));
  EXPECT_EQ(inc["Items"][2], (Json{{"pk", S("a")},
                                   {"sk", N("1")},
                                   {"g", S("G")},
                                   {"gs", N("30")},
                                   {"x", S("xa1")}}));

  Json req = G("gkeys");
  req["Select"] = "ALL_ATTRIBUTES";
  EXPECT_EQ(QueryError(req),
            VE("One or more parameter values were invalid: Select type "
               "ALL_ATTRIBUTES is not supported for global secondary index "
               "gkeys because its projection type is not ALL"));
  req = G("gall");
  req["Select"] = "ALL_ATTRIBUTES";
  EXPECT_EQ(Query(req)["Count"], 3);
  req = G("gall");
  req["ConsistentRead"] = true;
  EXPECT_EQ(QueryError(req),
            VE("Consistent reads are not supported on global secondary "
               "indexes"));
  req = G("ginc");
  req["ProjectionExpression"] = "x, y, pk, z, y";
  EXPECT_EQ(QueryError(req),
            VE("Invalid ProjectionExpression: Two document paths overlap with "
               "each other; must remove or rewrite one of these paths; path "
               "one: [y], path two: [y]"));
  req["ProjectionExpression"] = "x, y, pk, z";
  EXPECT_EQ(QueryError(req),
            VE("One or more parameter values were invalid: Global secondary "
               "index ginc does not project [y, z]"));
  req["ProjectionExpression"] = "x, gs";
  EXPECT_EQ(Query(req)["Items"],
            Json::parse(R"([{"x":{"S":"xa2"},"gs":{"N":"10"}},
      {"gs":{"N":"20"}},{"x":{"S":"xa1"},"gs":{"N":"30"}}])"));
}

TEST_F(QueryIndexTest, GsiPaginationAcrossEqualKeys) {
  Json req = G("gkeys");
  req["Limit"] = 1;
  Json page = Query(req);
  EXPECT_EQ(page["LastEvaluatedKey"],
            (Json{{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}}));
  Json all = Json::array();
  EXPECT_EQ(PageCounts(req, &all), (std::vector<int64_t>{1, 1, 1, 0}));
  EXPECT_EQ(Column(all, "pk"), (Strings{"a", "a", "b"}));
  req["ScanIndexForward"] = false;
  all = Json::array();
  PageCounts(req, &all);
  EXPECT_EQ(Column(all, "pk"), (Strings{"b", "a", "a"}));
  EXPECT_EQ(Column(all, "sk"), (Strings{"1", "2", "1"}));
}

TEST_F(QueryIndexTest, LsiFetchesFromTheTable) {
  Json req{{"TableName", "tbl"},
           {"IndexName", "lsi"},
           {"KeyConditionExpression", "pk = :p"},
           {"ExpressionAttributeValues", {{":p", S("a")}}}};
  // Default: what the index stores, ordered by lsk.
  EXPECT_EQ(Query(req)["Items"],
            (Json{{{"pk", S("a")}, {"sk", N("2")}, {"lsk", S("k")}},
                  {{"pk", S("a")}, {"sk", N("1")}, {"lsk", S("m")}}}));
  req["Select"] = "ALL_ATTRIBUTES";
  req["ReturnConsumedCapacity"] = "INDEXES";
  Json r = Query(req);
  EXPECT_EQ(Column(r["Items"], "x"), (Strings{"xa2", "xa1"}));
  EXPECT_EQ(r["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":1.0,
                "Table":{"CapacityUnits":0.5},
                "LocalSecondaryIndexes":{"lsi":{"CapacityUnits":0.5}}})"));
  req.erase("Select");
  req["ProjectionExpression"] = "y";
  EXPECT_EQ(Query(req)["Items"], Json::parse(R"([{},{"y":{"S":"ya1"}}])"));
  req.erase("ProjectionExpression");
  req["FilterExpression"] = "x = :x";
  req["ExpressionAttributeValues"][":x"] = S("xa1");
  EXPECT_EQ(Query(req)["Items"],
            (Json{{{"pk", S("a")}, {"sk", N("1")}, {"lsk", S("m")}}}));
  // ConsistentRead is fine on an LSI.
  req["ConsistentRead"] = true;
  EXPECT_EQ(Query(req)["Count"], 1);
}

TEST_F(QueryIndexTest, Capacity) {
  Json req = Pk("a");
  req["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Query(req)["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":0.5})"));
  req["ConsistentRead"] = true;
  req["ReturnConsumedCapacity"] = "INDEXES";
  EXPECT_EQ(Query(req)["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":1.0,
                            "Table":{"CapacityUnits":1.0}})"));
  // Nothing read still costs one unit.
  req = Pk("nobody");
  req["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Query(req)["ConsumedCapacity"]["CapacityUnits"], 0.5);
  req = G("gall");
  req["ReturnConsumedCapacity"] = "INDEXES";
  EXPECT_EQ(Query(req)["ConsumedCapacity"],
            Json::parse(R"({"TableName":"tbl","CapacityUnits":0.5,
                "Table":{"CapacityUnits":0.0},
                "GlobalSecondaryIndexes":{"gall":{"CapacityUnits":0.5}}})"));
  // The table ARN is echoed.
  req = Pk("a");
  req["TableName"] = Describe("tbl")["TableArn"];
  req["ReturnConsumedCapacity"] = "TOTAL";
  EXPECT_EQ(Query(req)["ConsumedCapacity"]["TableName"], req["TableName"]);
  // Rounded up per page, not per item.
  const std::string kb4(4090, 'q');
  for (int i = 0; i < 3; ++i) {
    Put("tbl", {{"pk", S("cap")}, {"sk", N(std::to_string(i))}, {"d", S(kb4)}});
  }
  req = Pk("cap");
  req["ReturnConsumedCapacity"] = "TOTAL";
  // Items of 4099, 4100, 4100 bytes: 12299 bytes, 4 units, halved.
  EXPECT_EQ(Query(req)["ConsumedCapacity"]["CapacityUnits"], 2.0);
}

// ---------------------------------------------------------------------------
// ExclusiveStartKey errors

TEST_F(QueryIndexTest, ExclusiveStartKeyErrors) {
  auto with = [&](Json req, Json esk) {
    req["ExclusiveStartKey"] = esk;
    return QueryError(req);
  };
  const std::string invalid = VE("The provided starting key is invalid");
  const std::string no_match =
      VE("The provided key element does not match the schema");
  const std::string invalid_no_match =
      VE("The provided starting key is invalid: The provided key element does "
         "not match the schema");
  Json table = Pk("a");
  EXPECT_EQ(with(table, Json::object()), invalid);
  EXPECT_EQ(with(table, {{"pk", S("a")}}), invalid);
  EXPECT_EQ(with(table, {{"pk", S("a")}, {"z", N("1")}}), invalid);
  EXPECT_EQ(with(table, {{"pk", S("a")}, {"sk", N("1")}, {"z", N("1")}}),
            invalid);
  EXPECT_EQ(with(table, {{"pk", N("1")}, {"sk", N("1")}}), no_match);
  EXPECT_EQ(with(table, {{"pk", S("a")}, {"sk", S("1")}}), no_match);
  EXPECT_EQ(with(table, {{"pk", S(std::string(2049, 'k'))}, {"sk", N("1")}}),
            VE("One or more parameter values were invalid: Size of hashkey "
               "has exceeded the maximum size limit of2048 bytes"));
  EXPECT_EQ(with(table, {{"pk", S("b")}, {"sk", N("1")}}),
            VE("The provided starting key is outside query boundaries based "
               "on provided conditions"));
  Json ranged = Pk("a");
  ranged["KeyConditionExpression"] = "pk = :p and sk > :n";
  ranged["ExpressionAttributeValues"][":n"] = N("5");
  EXPECT_EQ(with(ranged, {{"pk", S("a")}, {"sk", N("5")}}),
            VE("The provided starting key does not match the range key "
               "predicate"));
  EXPECT_EQ(with(ranged, {{"pk", S("b")}, {"sk", N("6")}}),
            VE("The query can return at most one row and cannot be "
               "restarted"));
  // The start key's hash is checked before the condition on it.
  EXPECT_EQ(with({{"KeyConditionExpression", "z = :p"},
                  {"ExpressionAttributeValues", {{":p", S("a")}}}},
                 {{"pk", S("a")}, {"sk", S("1")}}),
            VE("Query condition missed key schema element: pk"));

  // Indexes: table keys + index keys.
  Json lsi{{"IndexName", "lsi"},
           {"KeyConditionExpression", "pk = :p"},
           {"ExpressionAttributeValues", {{":p", S("a")}}}};
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", N("1")}}), invalid);
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", N("1")}, {"z", S("m")}}),
            invalid);
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", N("1")}, {"lsk", N("1")}}),
            no_match);
  EXPECT_EQ(with(lsi, {{"pk", S("a")}, {"sk", S("1")}, {"lsk", S("m")}}),
            invalid_no_match);
  EXPECT_EQ(with(lsi, {{"pk", S("b")}, {"sk", N("1")}, {"lsk", S("m")}}),
            VE("The provided starting key is outside query boundaries based "
               "on provided conditions"));
  Json gsi = G("gall");
  EXPECT_EQ(with(gsi, {{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}}),
            invalid);
  EXPECT_EQ(
      with(gsi, {{"x", S("a")}, {"y", N("1")}, {"g", S("G")}, {"gs", N("1")}}),
      invalid_no_match);
  EXPECT_EQ(
      with(gsi,
           {{"pk", S("a")}, {"sk", N("1")}, {"g", S("G")}, {"gs", S("1")}}),
      no_match);
  EXPECT_EQ(
      with(gsi,
           {{"pk", S("a")}, {"sk", N("1")}, {"g", S("X")}, {"gs", N("1")}}),
      VE("The provided starting key is outside query boundaries based "
         "on provided conditions"));
  // A round trip on the GSI with an ExclusiveStartKey that is no item.
  gsi["ExclusiveStartKey"] = {
      {"pk", S("a")}, {"sk", N("0")}, {"g", S("G")}, {"gs", N("15")}};
  EXPECT_EQ(Column(Query(gsi)["Items"], "gs"), (Strings{"20", "30"}));
  // Undecodable values.
  EXPECT_EQ(with(table, {{"pk", Json::object()}}),
            VE("The provided starting key is invalid: Supplied AttributeValue "
               "is empty, must contain exactly one of the supported "
               "datatypes"));
  EXPECT_EQ(with(table, {{"pk", {{"NS", Json::array()}}}}),
            VE("One or more parameter values were invalid: An number set  may "
               "not be empty"));
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
