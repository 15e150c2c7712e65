// Multi-attribute GSI keys (up to four HASH and four RANGE attributes):
// CreateTable / UpdateTable validation with DynamoDB's texts, DescribeTable,
// which items are indexed, every legal Query shape and the refused ones,
// pagination, Scan and PartiQL on such an index.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/emulator/engine/query_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json Attr(const std::string& name, const std::string& type) {
  return {{"AttributeName", name}, {"AttributeType", type}};
}
Json Key(const std::string& name, const std::string& type) {
  return {{"AttributeName", name}, {"KeyType", type}};
}

class MultiKeyGsiTest : public QueryTest {
 protected:
  void SetUp() override {
    QueryTest::SetUp();
    CreateTables();
  }

  void CreateTables() {
    // "mkt": pk S; GSI "by_place" HASH tenant S, region S; RANGE year N,
    // month N, day S (ALL); GSI "pair" HASH a S, b N (KEYS_ONLY).
    Ok("CreateTable",
       {{"TableName", "mkt"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         {Attr("pk", "S"), Attr("tenant", "S"), Attr("region", "S"),
          Attr("year", "N"), Attr("month", "N"), Attr("day", "S"),
          Attr("a", "S"), Attr("b", "N")}},
        {"KeySchema", {Key("pk", "HASH")}},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "by_place"},
           {"KeySchema",
            {Key("tenant", "HASH"), Key("region", "HASH"), Key("year", "RANGE"),
             Key("month", "RANGE"), Key("day", "RANGE")}},
           {"Projection", {{"ProjectionType", "ALL"}}}},
          {{"IndexName", "pair"},
           {"KeySchema", {Key("a", "HASH"), Key("b", "HASH")}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}}});
    PutPlace("p1", "T", "eu", "2024", "1", "05");
    PutPlace("p2", "T", "eu", "2024", "2", "10");
    PutPlace("p3", "T", "eu", "2024", "2", "20");
    PutPlace("p4", "T", "eu", "2025", "1", "01");
    PutPlace("p5", "T", "us", "2024", "1", "01");
    PutPlace("p6", "U", "eu", "2024", "1", "01");
    // Not in by_place: a RANGE attribute missing.
    Put("mkt", {{"pk", S("p7")},
                {"tenant", S("T")},
                {"region", S("eu")},
                {"year", N("2024")}});
    Put("mkt", {{"pk", S("q1")}, {"a", S("x")}, {"b", N("1")}});
    Put("mkt", {{"pk", S("q2")}, {"a", S("x")}, {"b", N("2")}});
    Put("mkt", {{"pk", S("q3")}, {"a", S("x")}});  // not in "pair"
  }

  void PutPlace(const std::string& pk, const std::string& tenant,
                const std::string& region, const std::string& year,
                const std::string& month, const std::string& day) {
    Put("mkt", {{"pk", S(pk)},
                {"tenant", S(tenant)},
                {"region", S(region)},
                {"year", N(year)},
                {"month", N(month)},
                {"day", S(day)}});
  }

  // A Query on by_place of "tenant = T AND region = eu" plus `more`, with
  // values :y, :m, :d, :d2 (N, N, S, S) as used.
  Json Place(const std::string& more, Json values = Json::object()) {
    std::string cond = "tenant = :t AND #r = :r";
    if (!more.empty()) cond += " AND " + more;
    values[":t"] = S("T");
    values[":r"] = S("eu");
    Json names = {{"#r", "region"}};
    for (const auto& [ref, name] :
         {std::pair{"#y", "year"}, {"#m", "month"}, {"#d", "day"}}) {
      if (cond.find(ref) != std::string::npos) names[ref] = name;
    }
    return {{"TableName", "mkt"},
            {"IndexName", "by_place"},
            {"KeyConditionExpression", cond},
            {"ExpressionAttributeNames", names},
            {"ExpressionAttributeValues", values}};
  }
  Strings Pks(const Json& request) {
    return Column(Query(request)["Items"], "pk");
  }

  Json CreateWithGsiKey(const Json& key_schema, const Json& defs) {
    return {{"TableName", "bad"},
            {"BillingMode", "PAY_PER_REQUEST"},
            {"AttributeDefinitions", defs},
            {"KeySchema", {Key("pk", "HASH")}},
            {"GlobalSecondaryIndexes",
             {{{"IndexName", "gix"},
               {"KeySchema", key_schema},
               {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}}};
  }
};

// ---------------------------------------------------------------------------
// Schema

TEST_F(MultiKeyGsiTest, DescribeTableShowsTheSchemaAsGiven) {
  Json gsis = Describe("mkt")["GlobalSecondaryIndexes"];
  ASSERT_EQ(gsis.size(), 2u);
  EXPECT_EQ(gsis[0]["IndexName"], "by_place");
  EXPECT_EQ(
      gsis[0]["KeySchema"],
      Json({Key("tenant", "HASH"), Key("region", "HASH"), Key("year", "RANGE"),
            Key("month", "RANGE"), Key("day", "RANGE")}));
  EXPECT_EQ(gsis[0]["ItemCount"], 6);
  EXPECT_EQ(gsis[1]["KeySchema"], Json({Key("a", "HASH"), Key("b", "HASH")}));
  EXPECT_EQ(gsis[1]["ItemCount"], 2);
  EXPECT_EQ(Describe("mkt")["AttributeDefinitions"].size(), 8u);
}

TEST_F(MultiKeyGsiTest, FileDatabaseKeepsTheSchemaAcrossReopen) {
  const std::string dir = "/tmp/ddblab-gsi-test-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = dir + "/ddb.sqlite";
  Open(options);
  CreateTables();  // in the file this time
  const Json before = Describe("mkt");
  emu_.reset();
  Open(options);
  EXPECT_EQ(Describe("mkt"), before);
  EXPECT_EQ(
      Pks(Place("#y = :y AND #m = :m", {{":y", N("2024")}, {":m", N("2")}})),
      (Strings{"p2", "p3"}));
  emu_.reset();
  std::filesystem::remove_all(dir);
}

TEST_F(MultiKeyGsiTest, FourHashAndFourRangeAttributes) {
  Json defs = Json::array({Attr("pk", "S")});
  Json key = Json::array();
  for (const char* h : {"h1", "h2", "h3", "h4"}) {
    defs.push_back(Attr(h, "S"));
    key.push_back(Key(h, "HASH"));
  }
  for (const char* r : {"r1", "r2", "r3", "r4"}) {
    defs.push_back(Attr(r, "N"));
    key.push_back(Key(r, "RANGE"));
  }
  Json out = Ok("CreateTable", CreateWithGsiKey(key, defs));
  EXPECT_EQ(out["TableDescription"]["GlobalSecondaryIndexes"][0]["KeySchema"],
            key);

  // A fifth HASH / RANGE attribute.
  Json five_hash = key;
  five_hash.insert(five_hash.begin() + 4, Key("h5", "HASH"));
  Json defs5 = defs;
  defs5.push_back(Attr("h5", "S"));
  Json req = CreateWithGsiKey(five_hash, defs5);
  req["TableName"] = "bad5";
  EXPECT_EQ(FailText("CreateTable", req),
            VE("One or more parameter values were invalid: The KeySchema "
               "exceeds the maximum allowed number of HASH key attributes"));
  Json five_range = key;
  five_range.push_back(Key("h5", "RANGE"));
  req = CreateWithGsiKey(five_range, defs5);
  req["TableName"] = "bad5";
  EXPECT_EQ(FailText("CreateTable", req),
            VE("One or more parameter values were invalid: The KeySchema "
               "exceeds the maximum allowed number of RANGE key attributes"));
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "bad5"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "bad5 not found");
}

TEST_F(MultiKeyGsiTest, MalformedKeySchemas) {
  Json defs = {Attr("pk", "S"), Attr("a", "S"), Attr("b", "S"), Attr("c", "N")};
  EXPECT_EQ(
      FailText(
          "CreateTable",
          CreateWithGsiKey(
              {Key("a", "HASH"), Key("b", "RANGE"), Key("c", "HASH")}, defs)),
      VE("One or more parameter values were invalid: All HASH key attributes "
         "must precede RANGE key attributes in the KeySchema"));
  EXPECT_EQ(FailText("CreateTable",
                     CreateWithGsiKey({Key("a", "HASH"), Key("b", "HASH"),
                                       Key("a", "RANGE")},
                                      defs)),
            VE("The KeySchema contains multiple key attributes with the same "
               "name"));
  EXPECT_EQ(FailText("CreateTable",
                     CreateWithGsiKey({Key("a", "RANGE"), Key("b", "RANGE"),
                                       Key("c", "RANGE")},
                                      defs)),
            VE("Invalid KeySchema: The first KeySchemaElement is not a HASH "
               "key type"));
  // Two elements keep the texts of a one-HASH-one-RANGE schema.
  EXPECT_EQ(
      FailText("CreateTable",
               CreateWithGsiKey({Key("a", "HASH"), Key("a", "RANGE")}, defs)),
      VE("Both the Hash Key and the Range Key element in the KeySchema "
         "have the same name"));
  EXPECT_EQ(
      FailText("CreateTable",
               CreateWithGsiKey({Key("b", "RANGE"), Key("a", "HASH")}, defs)),
      VE("Invalid KeySchema: The first KeySchemaElement is not a HASH "
         "key type"));
  // A key attribute without a definition.
  EXPECT_EQ(FailText("CreateTable",
                     CreateWithGsiKey({Key("a", "HASH"), Key("zz", "HASH"),
                                       Key("b", "RANGE"), Key("c", "RANGE")},
                                      defs)),
            VE("One or more parameter values were invalid: Some index key "
               "attributes are not defined in AttributeDefinitions. Keys: "
               "[a, zz, b, c], AttributeDefinitions: [pk, a, b, c]"));
  // The table key and LSI keys stay at two elements.
  Json table3 = CreateWithGsiKey({Key("a", "HASH"), Key("b", "HASH")}, defs);
  table3["KeySchema"] = {Key("pk", "HASH"), Key("c", "RANGE"),
                         Key("a", "RANGE")};
  EXPECT_EQ(FailText("CreateTable", table3),
            VE("1 validation error detected: Value "
               "'[KeySchemaElement(attributeName=pk, keyType=HASH), "
               "KeySchemaElement(attributeName=c, keyType=RANGE), "
               "KeySchemaElement(attributeName=a, keyType=RANGE)]' at "
               "'keySchema' failed to satisfy constraint: Member must have "
               "length less than or equal to 2"));
  Json lsi3 = {{"TableName", "bad"},
               {"BillingMode", "PAY_PER_REQUEST"},
               {"AttributeDefinitions", defs},
               {"KeySchema", {Key("pk", "HASH"), Key("a", "RANGE")}},
               {"LocalSecondaryIndexes",
                {{{"IndexName", "lsx"},
                  {"KeySchema",
                   {Key("pk", "HASH"), Key("b", "RANGE"), Key("c", "RANGE")}},
                  {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}}}};
  std::string lsi_error = FailText("CreateTable", lsi3);
  EXPECT_NE(lsi_error.find("at 'localSecondaryIndexes.1.member.keySchema' "
                           "failed to satisfy constraint: Member must have "
                           "length less than or equal to 2"),
            std::string::npos)
      << lsi_error;
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "bad"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "bad not found");
}

TEST_F(MultiKeyGsiTest, UpdateTableCreateValidatesTheSameWay) {
  Json create = {
      {"TableName", "mkt"},
      {"AttributeDefinitions", {Attr("c1", "S"), Attr("c2", "S")}},
      {"GlobalSecondaryIndexUpdates",
       {{{"Create",
          {{"IndexName", "gix2"},
           {"KeySchema",
            {Key("c1", "HASH"), Key("c2", "RANGE"), Key("c1", "RANGE")}},
           {"Projection", {{"ProjectionType", "ALL"}}}}}}}}};
  EXPECT_EQ(FailText("UpdateTable", create),
            VE("The KeySchema contains multiple key attributes with the same "
               "name"));
  create["GlobalSecondaryIndexUpdates"][0]["Create"]["KeySchema"] = {
      Key("c1", "HASH"), Key("c2", "RANGE"), Key("tenant", "HASH")};
  EXPECT_EQ(FailText("UpdateTable", create),
            VE("One or more parameter values were invalid: All HASH key "
               "attributes must precede RANGE key attributes in the "
               "KeySchema"));
  EXPECT_EQ(Describe("mkt")["GlobalSecondaryIndexes"].size(), 2u);
}

// ---------------------------------------------------------------------------
// Query

TEST_F(MultiKeyGsiTest, EveryLegalKeyConditionShape) {
  // All HASH attributes, no RANGE condition: the partition in RANGE order.
  EXPECT_EQ(Pks(Place("")), (Strings{"p1", "p2", "p3", "p4"}));
  Json back = Place("");
  back["ScanIndexForward"] = false;
  EXPECT_EQ(Pks(back), (Strings{"p4", "p3", "p2", "p1"}));
  // Equality on a left prefix of the RANGE attributes.
  EXPECT_EQ(Pks(Place("#y = :y", {{":y", N("2024")}})),
            (Strings{"p1", "p2", "p3"}));
  EXPECT_EQ(
      Pks(Place("#y = :y AND #m = :m", {{":y", N("2024")}, {":m", N("2")}})),
      (Strings{"p2", "p3"}));
  EXPECT_EQ(Pks(Place("#y = :y AND #m = :m AND #d = :d",
                      {{":y", N("2024")}, {":m", N("2")}, {":d", S("10")}})),
            (Strings{"p2"}));
  // A range condition on the first RANGE attribute.
  EXPECT_EQ(Pks(Place("#y > :y", {{":y", N("2024")}})), (Strings{"p4"}));
  EXPECT_EQ(Pks(Place("#y >= :y", {{":y", N("2024")}})),
            (Strings{"p1", "p2", "p3", "p4"}));
  EXPECT_EQ(Pks(Place("#y < :y", {{":y", N("2025")}})),
            (Strings{"p1", "p2", "p3"}));
  EXPECT_EQ(Pks(Place("#y <= :y", {{":y", N("2024")}})),
            (Strings{"p1", "p2", "p3"}));
  EXPECT_EQ(Pks(Place("#y BETWEEN :y AND :y2",
                      {{":y", N("2024")}, {":y2", N("2025")}})),
            (Strings{"p1", "p2", "p3", "p4"}));
  // ... on the second, after an equality on the first.
  Json y2024 = {{":y", N("2024")}};
  auto with = [&](Json v, const std::string& name, const Json& value) {
    v[name] = value;
    return v;
  };
  EXPECT_EQ(Pks(Place("#y = :y AND #m > :m", with(y2024, ":m", N("1")))),
            (Strings{"p2", "p3"}));
  EXPECT_EQ(Pks(Place("#y = :y AND #m >= :m", with(y2024, ":m", N("2")))),
            (Strings{"p2", "p3"}));
  EXPECT_EQ(Pks(Place("#y = :y AND #m < :m", with(y2024, ":m", N("2")))),
            (Strings{"p1"}));
  EXPECT_EQ(Pks(Place("#y = :y AND #m <= :m", with(y2024, ":m", N("2")))),
            (Strings{"p1", "p2", "p3"}));
  EXPECT_EQ(
      Pks(Place("#y = :y AND #m BETWEEN :m AND :m", with(y2024, ":m", N("1")))),
      (Strings{"p1"}));
  // ... on the last: every operator including begins_with.
  Json ym = {{":y", N("2024")}, {":m", N("2")}};
  EXPECT_EQ(Pks(Place("#y = :y AND #m = :m AND begins_with(#d, :d)",
                      with(ym, ":d", S("2")))),
            (Strings{"p3"}));
  EXPECT_EQ(
      Pks(Place("#y = :y AND #m = :m AND #d > :d", with(ym, ":d", S("10")))),
      (Strings{"p3"}));
  EXPECT_EQ(
      Pks(Place("#y = :y AND #m = :m AND #d < :d", with(ym, ":d", S("2")))),
      (Strings{"p2"}));
  EXPECT_EQ(Pks(Place("#y = :y AND #m = :m AND #d BETWEEN :d AND :d2",
                      with(with(ym, ":d", S("1")), ":d2", S("15")))),
            (Strings{"p2"}));
  // The conditions may come in any order in the expression.
  Json any_order = Place("");
  any_order["KeyConditionExpression"] =
      "#m = :m AND #r = :r AND #y = :y AND tenant = :t";
  any_order["ExpressionAttributeValues"][":y"] = N("2024");
  any_order["ExpressionAttributeValues"][":m"] = N("1");
  any_order["ExpressionAttributeNames"]["#y"] = "year";
  any_order["ExpressionAttributeNames"]["#m"] = "month";
  EXPECT_EQ(Pks(any_order), (Strings{"p1"}));
  // The other partitions.
  Json us = Place("");
  us["ExpressionAttributeValues"][":r"] = S("us");
  EXPECT_EQ(Pks(us), (Strings{"p5"}));
  // Legacy KeyConditions.
  Json legacy = {
      {"TableName", "mkt"},
      {"IndexName", "by_place"},
      {"KeyConditions",
       {{"tenant",
         {{"ComparisonOperator", "EQ"}, {"AttributeValueList", {S("T")}}}},
        {"region",
         {{"ComparisonOperator", "EQ"}, {"AttributeValueList", {S("eu")}}}},
        {"year",
         {{"ComparisonOperator", "GT"},
          {"AttributeValueList", {N("2024")}}}}}}};
  EXPECT_EQ(Pks(legacy), (Strings{"p4"}));
  // A HASH-only multi-attribute key.
  Json pair = {{"TableName", "mkt"},
               {"IndexName", "pair"},
               {"KeyConditionExpression", "a = :a AND b = :b"},
               {"ExpressionAttributeValues", {{":a", S("x")}, {":b", N("2")}}}};
  Json out = Query(pair);
  EXPECT_EQ(out["Items"],
            Json({{{"pk", S("q2")}, {"a", S("x")}, {"b", N("2")}}}));
}

// DynamoDB's texts and order (HASH, then RANGE, then other attributes), the
// same as Amazon DynamoDB Local 2026-05-28 answers.
TEST_F(MultiKeyGsiTest, RefusedKeyConditionShapes) {
  Json req = Place("");
  req["KeyConditionExpression"] = "tenant = :t";
  req["ExpressionAttributeValues"].erase(":r");
  req.erase("ExpressionAttributeNames");
  EXPECT_EQ(QueryError(req),
            VE("HASH key attributes region must have equality conditions "
               "specified in the query"));
  EXPECT_EQ(QueryError(Place("#m = :m", {{":m", N("1")}})),
            VE("RANGE key attributes year must have equality conditions "
               "specified in the query because a condition is present on "
               "key attribute month"));
  EXPECT_EQ(QueryError(Place("#y = :y AND #d = :d",
                             {{":y", N("2024")}, {":d", S("05")}})),
            VE("RANGE key attributes month must have equality conditions "
               "specified in the query because a condition is present on "
               "key attribute day"));
  EXPECT_EQ(QueryError(Place("#y > :y AND #m = :m",
                             {{":y", N("2024")}, {":m", N("1")}})),
            VE("RANGE key attributes year must have equality conditions "
               "specified in the query because a condition is present on "
               "key attribute month"));
  req = Place("");
  req["KeyConditionExpression"] = "tenant = :t AND #r > :r";
  EXPECT_EQ(QueryError(req),
            VE("HASH key attributes region must have equality conditions "
               "specified in the query"));
  EXPECT_EQ(QueryError(Place("#y = :y", {{":y", S("2024")}})),
            VE("One or more parameter values were invalid: Condition "
               "parameter type does not match schema type"));
  EXPECT_EQ(QueryError(Place("x = :o", {{":o", S("x")}})),
            VE("Query condition missed key schema element"));
  Json pair = {{"TableName", "mkt"},
               {"IndexName", "pair"},
               {"KeyConditionExpression", "a = :a"},
               {"ExpressionAttributeValues", {{":a", S("x")}}}};
  EXPECT_EQ(QueryError(pair),
            VE("HASH key attributes b must have equality conditions "
               "specified in the query"));
  pair["KeyConditionExpression"] = "a = :a AND b = :b AND pk = :a";
  pair["ExpressionAttributeValues"][":b"] = N("1");
  EXPECT_EQ(QueryError(pair), VE("Query condition missed key schema element"));
  // Key attributes are not allowed in a filter.
  req = Place("");
  req["FilterExpression"] = "#d = :d";
  req["ExpressionAttributeNames"]["#d"] = "day";
  req["ExpressionAttributeValues"][":d"] = S("05");
  EXPECT_EQ(QueryError(req),
            VE("Filter Expression can only contain non-primary key "
               "attributes: Primary key attribute: day"));
}

TEST_F(MultiKeyGsiTest, PaginationRestartsInsideThePartition) {
  Json req = Place("");
  req["Limit"] = 1;
  Json page = Query(req);
  EXPECT_EQ(page["LastEvaluatedKey"], (Json{{"pk", S("p1")},
                                            {"tenant", S("T")},
                                            {"region", S("eu")},
                                            {"year", N("2024")},
                                            {"month", N("1")},
                                            {"day", S("05")}}));
  Json all = Json::array();
  EXPECT_EQ(PageCounts(req, &all), (std::vector<int64_t>{1, 1, 1, 1, 0}));
  EXPECT_EQ(Column(all, "pk"), (Strings{"p1", "p2", "p3", "p4"}));
  req = Place("#y = :y AND #m >= :m", {{":y", N("2024")}, {":m", N("2")}});
  req["Limit"] = 1;
  all = Json::array();
  PageCounts(req, &all);
  EXPECT_EQ(Column(all, "pk"), (Strings{"p2", "p3"}));

  // A start key from another partition, or outside the RANGE condition.
  req = Place("#y = :y", {{":y", N("2024")}});
  Json esk = page["LastEvaluatedKey"];
  esk["region"] = S("us");
  req["ExclusiveStartKey"] = esk;
  EXPECT_EQ(QueryError(req),
            VE("The provided starting key is outside query boundaries based "
               "on provided conditions"));
  esk = page["LastEvaluatedKey"];
  esk["year"] = N("2025");
  req["ExclusiveStartKey"] = esk;
  EXPECT_EQ(QueryError(req),
            VE("The provided starting key does not match the range key "
               "predicate"));
  esk.erase("month");
  req["ExclusiveStartKey"] = esk;
  EXPECT_EQ(QueryError(req), VE("The provided starting key is invalid"));
}

// ---------------------------------------------------------------------------
// Scan and PartiQL

TEST_F(MultiKeyGsiTest, ScanReadsEveryIndexedItem) {
  Json scan = Ok("Scan", {{"TableName", "mkt"}, {"IndexName", "by_place"}});
  Strings pks = Column(scan["Items"], "pk");
  std::sort(pks.begin(), pks.end());
  EXPECT_EQ(pks, (Strings{"p1", "p2", "p3", "p4", "p5", "p6"}));
  // Paged one by one: the same items, each once.
  Json req = {{"TableName", "mkt"}, {"IndexName", "by_place"}, {"Limit", 1}};
  Strings paged;
  for (int guard = 0; guard < 20; ++guard) {
    Json page = Ok("Scan", req);
    for (const std::string& p : Column(page["Items"], "pk")) paged.push_back(p);
    if (!page.contains("LastEvaluatedKey")) break;
    EXPECT_EQ(page["LastEvaluatedKey"].size(), 6u);
    req["ExclusiveStartKey"] = page["LastEvaluatedKey"];
  }
  EXPECT_EQ(paged, Column(scan["Items"], "pk"));
  // Segments split the partitions between them.
  Strings segmented;
  for (int s = 0; s < 3; ++s) {
    Json part = Ok("Scan", {{"TableName", "mkt"},
                            {"IndexName", "by_place"},
                            {"Segment", s},
                            {"TotalSegments", 3}});
    for (const std::string& p : Column(part["Items"], "pk")) {
      segmented.push_back(p);
    }
  }
  std::sort(segmented.begin(), segmented.end());
  EXPECT_EQ(segmented, pks);
  Json keys = Ok("Scan", {{"TableName", "mkt"}, {"IndexName", "pair"}});
  EXPECT_EQ(keys["Count"], 2);
}

TEST_F(MultiKeyGsiTest, PartiqlSelectOnTheIndex) {
  Json out = Ok("ExecuteStatement",
                {{"Statement",
                  "SELECT pk FROM \"mkt\".\"by_place\" WHERE tenant = 'T' AND "
                  "\"region\" = 'eu' AND \"year\" = 2024"}});
  Strings pks = Column(out["Items"], "pk");
  std::sort(pks.begin(), pks.end());
  EXPECT_EQ(pks, (Strings{"p1", "p2", "p3"}));
  out = Ok("ExecuteStatement",
           {{"Statement", "SELECT * FROM \"mkt\".\"pair\" WHERE a = 'x'"}});
  EXPECT_EQ(out["Items"].size(), 2u);
}

}  // namespace
}  // namespace ddblab::engine::testing
