#include <gtest/gtest.h>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json Attr(const std::string& name, const std::string& type = "S") {
  return {{"AttributeName", name}, {"AttributeType", type}};
}
Json Key(const std::string& name, const std::string& type) {
  return {{"AttributeName", name}, {"KeyType", type}};
}
Json Throughput(int64_t r = 1, int64_t w = 1) {
  return {{"ReadCapacityUnits", r}, {"WriteCapacityUnits", w}};
}
// A provisioned table keyed by a (HASH) and b (RANGE).
Json HashRange(const std::string& name = "abc") {
  return {{"TableName", name},
          {"AttributeDefinitions", {Attr("a"), Attr("b")}},
          {"KeySchema", {Key("a", "HASH"), Key("b", "RANGE")}},
          {"ProvisionedThroughput", Throughput()}};
}
// (A single-element braced list passed as a Json argument is the element
// itself, not an array: wrap it.)
Json Index(const std::string& name, Json key_schema, const Json& projection) {
  if (key_schema.is_object()) key_schema = Json::array({key_schema});
  return {{"IndexName", name},
          {"KeySchema", key_schema},
          {"Projection", projection}};
}

using CreateTableTest = EngineTest;

TEST_F(CreateTableTest, BasicProvisionedTableDescription) {
  Json req{{"TableName", "basic"},
           {"AttributeDefinitions", {Attr("a")}},
           {"KeySchema", {Key("a", "HASH")}},
           {"ProvisionedThroughput", Throughput(5, 6)}};
  Json desc = Ok("CreateTable", req)["TableDescription"];
  ASSERT_TRUE(desc["TableId"].is_string());
  std::string id = desc["TableId"];
  ASSERT_EQ(id.size(), 36u);
  EXPECT_EQ(id[14], '4');  // UUID version 4
  desc.erase("TableId");
  EXPECT_EQ(desc, Json::parse(R"({
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
    "TableName": "basic",
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
    "TableStatus": "CREATING",
    "CreationDateTime": 1704067200.0,
    "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6,
                              "NumberOfDecreasesToday": 0},
    "TableSizeBytes": 0,
    "ItemCount": 0,
    "TableArn": "arn:aws:dynamodb:us-east-1:000000000000:table/basic",
    "DeletionProtectionEnabled": false
  })"));
  // With no status delay the table is ACTIVE at once.
  Json described = Describe("basic");
  EXPECT_EQ(described["TableStatus"], "ACTIVE");
  EXPECT_EQ(described["TableId"], id);
}

TEST_F(CreateTableTest, TableIdsAreSeededAndDeterministic) {
  std::string first = CreateTable("one")["TableDescription"]["TableId"];
  std::string second = CreateTable("two")["TableDescription"]["TableId"];
  EXPECT_NE(first, second);
  Open(Options{});  // a fresh :memory: emulator with the same seed
  EXPECT_EQ(CreateTable("one")["TableDescription"]["TableId"], first);
}

TEST_F(CreateTableTest, PayPerRequestWithIndexesStreamTagsAndClass) {
  Json req{
      {"TableName", "full"},
      {"BillingMode", "PAY_PER_REQUEST"},
      {"AttributeDefinitions", {Attr("a"), Attr("b", "N"), Attr("c", "B")}},
      {"KeySchema", {Key("a", "HASH"), Key("b", "RANGE")}},
      {"LocalSecondaryIndexes",
       {Index("lsi", {Key("a", "HASH"), Key("c", "RANGE")},
              {{"ProjectionType", "KEYS_ONLY"}})}},
      {"GlobalSecondaryIndexes",
       {Index(
           "gsi", {Key("c", "HASH")},
           {{"ProjectionType", "INCLUDE"}, {"NonKeyAttributes", {"x", "y"}}})}},
      {"StreamSpecification",
       {{"StreamEnabled", true}, {"StreamViewType", "NEW_AND_OLD_IMAGES"}}},
      {"Tags", {{{"Key", "team"}, {"Value", "core"}}}},
      {"TableClass", "STANDARD_INFREQUENT_ACCESS"},
      {"DeletionProtectionEnabled", true}};
  Json desc = Ok("CreateTable", req)["TableDescription"];
  desc.erase("TableId");
  const std::string arn = "arn:aws:dynamodb:us-east-1:000000000000:table/full";
  Json expected = Json::parse(R"({
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"},
                             {"AttributeName": "b", "AttributeType": "N"},
                             {"AttributeName": "c", "AttributeType": "B"}],
    "TableName": "full",
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                  {"AttributeName": "b", "KeyType": "RANGE"}],
    "TableStatus": "CREATING",
    "CreationDateTime": 1704067200.0,
    "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0,
                              "NumberOfDecreasesToday": 0},
    "TableSizeBytes": 0,
    "ItemCount": 0,
    "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST",
                           "LastUpdateToPayPerRequestDateTime": 1704067200.0},
    "LocalSecondaryIndexes": [{
      "IndexName": "lsi",
      "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                    {"AttributeName": "c", "KeyType": "RANGE"}],
      "Projection": {"ProjectionType": "KEYS_ONLY"},
      "IndexSizeBytes": 0, "ItemCount": 0}],
    "GlobalSecondaryIndexes": [{
      "IndexName": "gsi",
      "KeySchema": [{"AttributeName": "c", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x", "y"]},
      "IndexStatus": "CREATING",
      "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0,
                                "NumberOfDecreasesToday": 0},
      "IndexSizeBytes": 0, "ItemCount": 0}],
    "StreamSpecification": {"StreamEnabled": true,
                            "StreamViewType": "NEW_AND_OLD_IMAGES"},
    "LatestStreamLabel": "2024-01-01T00:00:00.000",
    "TableClassSummary": {"TableClass": "STANDARD_INFREQUENT_ACCESS"},
    "DeletionProtectionEnabled": true
  })");
  expected["TableArn"] = arn;
  expected["LatestStreamArn"] = arn + "/stream/2024-01-01T00:00:00.000";
  expected["LocalSecondaryIndexes"][0]["IndexArn"] = arn + "/index/lsi";
  expected["GlobalSecondaryIndexes"][0]["IndexArn"] = arn + "/index/gsi";
  EXPECT_EQ(desc, expected);
  Json now = Describe("full");
  EXPECT_EQ(now["GlobalSecondaryIndexes"][0]["IndexStatus"], "ACTIVE");
  // Tags are kept but not echoed.
  EXPECT_EQ(Ok("ListTagsOfResource", {{"ResourceArn", arn}}),
            Json::parse(R"({"Tags": [{"Key": "team", "Value": "core"}]})"));
}

TEST_F(CreateTableTest, ExistingTableIsResourceInUse) {
  CreateTable("dup");
  EXPECT_EQ(FailText("CreateTable", HashRange("dup")),
            "ResourceInUseException: Table already exists: dup");
}

TEST_F(CreateTableTest, ShapeErrors) {
  EXPECT_EQ(FailText("CreateTable", Json::object()),
            "ValidationException: The parameter 'TableName' is required but "
            "was not present in the request");
  EXPECT_EQ(FailText("CreateTable", {{"TableName", "abc;"}}),
            "ValidationException: 3 validation errors detected: Value null at "
            "'attributeDefinitions' failed to satisfy constraint: Member must "
            "not be null; Value 'abc;' at 'tableName' failed to satisfy "
            "constraint: Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+; Value null at 'keySchema' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(FailText("CreateTable", {{"TableName", "ab"},
                                     {"AttributeDefinitions", Json::array()},
                                     {"KeySchema", Json::array()}}),
            "ValidationException: 2 validation errors detected: Value 'ab' at "
            "'tableName' failed to satisfy constraint: Member must have "
            "length greater than or equal to 3; Value '[]' at 'keySchema' "
            "failed to satisfy constraint: Member must have length greater "
            "than or equal to 1");
  EXPECT_EQ(
      FailText("CreateTable",
               {{"TableName", "abc"},
                {"AttributeDefinitions", Json::array()},
                {"KeySchema",
                 {{{"KeyType", "HASH"}},
                  {{"AttributeName", "a"}},
                  {{"KeyType", "Woop"}, {"AttributeName", "a"}}}},
                {"ProvisionedThroughput", Throughput(0, -1)}}),
      "ValidationException: 6 validation errors detected: Value '-1' at "
      "'provisionedThroughput.writeCapacityUnits' failed to satisfy "
      "constraint: Member must have value greater than or equal to 1; Value "
      "'0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy "
      "constraint: Member must have value greater than or equal to 1; Value "
      "'[KeySchemaElement(attributeName=null, keyType=HASH), "
      "KeySchemaElement(attributeName=a, keyType=null), "
      "KeySchemaElement(attributeName=a, keyType=Woop)]' "
      "at 'keySchema' failed to satisfy constraint: Member must have length "
      "less than or equal to 2; Value null at "
      "'keySchema.1.member.attributeName' "
      "failed to satisfy constraint: Member must not be null; Value null at "
      "'keySchema.2.member.keyType' failed to satisfy constraint: Member must "
      "not be null; Value 'Woop' at 'keySchema.3.member.keyType' failed to "
      "satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]");
  Json req = HashRange();
  req["AttributeDefinitions"][0]["AttributeType"] = "SS";
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: 1 validation error detected: Value 'SS' at "
            "'attributeDefinitions.1.member.attributeType' failed to satisfy "
            "constraint: Member must satisfy enum value set: [B, N, S]");
  req = HashRange();
  req["BillingMode"] = "FREE";
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: 1 validation error detected: Value 'FREE' at "
            "'billingMode' failed to satisfy constraint: Member must satisfy "
            "enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  req = HashRange();
  req["TableName"] = 5;
  EXPECT_EQ(
      FailText("CreateTable", req),
      "SerializationException: NUMBER_VALUE cannot be converted to String");
  req = HashRange();
  req["KeySchema"][0] = "HASH";
  EXPECT_EQ(FailText("CreateTable", req),
            "SerializationException: Unexpected value type in payload");
  req = HashRange();
  req["ProvisionedThroughput"] = Json::array();
  EXPECT_EQ(FailText("CreateTable", req),
            "SerializationException: Unrecognized collection type class "
            "com.amazonaws.dynamodb.v20120810.ProvisionedThroughput");
}

TEST_F(CreateTableTest, KeySchemaErrors) {
  auto create = [&](std::vector<Json> defs, std::vector<Json> keys) {
    return FailText("CreateTable", {{"TableName", "abc"},
                                    {"AttributeDefinitions", defs},
                                    {"KeySchema", keys},
                                    {"ProvisionedThroughput", Throughput()}});
  };
  EXPECT_EQ(create(Json::array(), {Key("a", "HASH"), Key("a", "HASH")}),
            "ValidationException: Invalid KeySchema: Some index key attribute "
            "have no definition");
  EXPECT_EQ(create({Attr("b")}, {Key("a", "HASH")}),
            "ValidationException: One or more parameter values were invalid: "
            "Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [a], AttributeDefinitions: [b]");
  EXPECT_EQ(create({Attr("b")}, {Key("a", "HASH"), Key("b", "RANGE")}),
            "ValidationException: Invalid KeySchema: Some index key attribute "
            "have no definition");
  EXPECT_EQ(create({Attr("a")}, {Key("a", "HASH"), Key("a", "HASH")}),
            "ValidationException: Invalid KeySchema: Some index key attribute "
            "have no definition");
  EXPECT_EQ(
      create({Attr("a"), Attr("b")}, {Key("a", "HASH"), Key("a", "HASH")}),
      "ValidationException: Both the Hash Key and the Range Key element "
      "in the KeySchema have the same name");
  EXPECT_EQ(
      create({Attr("a"), Attr("b")}, {Key("a", "HASH"), Key("b", "HASH")}),
      "ValidationException: Invalid KeySchema: The second "
      "KeySchemaElement is not a RANGE key type");
  EXPECT_EQ(
      create({Attr("a"), Attr("b")}, {Key("a", "RANGE"), Key("b", "HASH")}),
      "ValidationException: Invalid KeySchema: The first "
      "KeySchemaElement is not a HASH key type");
  EXPECT_EQ(create({Attr("a"), Attr("c"), Attr("b")},
                   {Key("a", "HASH"), Key("b", "RANGE")}),
            "ValidationException: One or more parameter values were invalid: "
            "Number of attributes in KeySchema does not exactly match number "
            "of attributes defined in AttributeDefinitions");
  EXPECT_EQ(create({Attr("a"), Attr("a", "N")}, {Key("a", "HASH")}),
            "ValidationException: Attribute Name is duplicated: a");
}

TEST_F(CreateTableTest, BillingAndThroughputErrors) {
  Json req = HashRange();
  req.erase("ProvisionedThroughput");
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: One or more parameter values were invalid: "
            "ReadCapacityUnits and WriteCapacityUnits must both be specified "
            "when BillingMode is PROVISIONED");
  req = HashRange();
  req["BillingMode"] = "PAY_PER_REQUEST";
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: One or more parameter values were invalid: "
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
            "when BillingMode is PAY_PER_REQUEST");
  req = HashRange();
  req["ProvisionedThroughput"] = Throughput(1000000000001, 1000000000001);
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: Given value 1000000000001 for "
            "ReadCapacityUnits is out of bounds");
  req["ProvisionedThroughput"] = Throughput(1000000000000, 1000000000001);
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: Given value 1000000000001 for "
            "WriteCapacityUnits is out of bounds");
}

TEST_F(CreateTableTest, LocalSecondaryIndexErrors) {
  auto with_lsis = [&](Json lsis, Json table_keys = Json()) {
    Json req = HashRange();
    if (lsis.is_object()) lsis = Json::array({lsis});
    if (table_keys.is_object()) table_keys = Json::array({table_keys});
    if (!table_keys.is_null()) req["KeySchema"] = table_keys;
    req["LocalSecondaryIndexes"] = lsis;
    return FailText("CreateTable", req);
  };
  Json all = {{"ProjectionType", "ALL"}};
  EXPECT_EQ(with_lsis(Json::array()),
            "ValidationException: One or more parameter values were invalid: "
            "List of LocalSecondaryIndexes is empty");
  EXPECT_EQ(
      with_lsis({Index("abc", {Key("a", "HASH"), Key("b", "RANGE")}, all)},
                {Key("a", "HASH")}),
      "ValidationException: One or more parameter values were invalid: "
      "Table KeySchema does not have a range key, which is required when "
      "specifying a LocalSecondaryIndex");
  EXPECT_EQ(
      with_lsis({Index("abc", {Key("a", "HASH"), Key("c", "RANGE")}, all)}),
      "ValidationException: One or more parameter values were invalid: "
      "Some index key attributes are not defined in "
      "AttributeDefinitions. Keys: [a, c], AttributeDefinitions: [a, b]");
  EXPECT_EQ(with_lsis({Index("abc", {Key("a", "RANGE")}, all)}),
            "ValidationException: Invalid KeySchema: The first "
            "KeySchemaElement is not a HASH key type");
  EXPECT_EQ(with_lsis({Index("abc", {Key("b", "HASH")}, all)}),
            "ValidationException: One or more parameter values were invalid: "
            "Index KeySchema does not have a range key for index: abc");
  EXPECT_EQ(
      with_lsis({Index("abc", {Key("b", "HASH"), Key("a", "RANGE")}, all)}),
      "ValidationException: One or more parameter values were invalid: "
      "Index KeySchema does not have the same leading hash key as table "
      "KeySchema for index: abc. index hash key: b, table hash key: a");
  EXPECT_EQ(with_lsis({Index("abc", {Key("a", "HASH"), Key("b", "RANGE")},
                             Json::object())}),
            "ValidationException: One or more parameter values were invalid: "
            "Unknown ProjectionType: null");
  EXPECT_EQ(with_lsis({Index("abc", {Key("a", "HASH"), Key("b", "RANGE")},
                             {{"ProjectionType", "KEYS_ONLY"},
                              {"NonKeyAttributes", {"x"}}})}),
            "ValidationException: One or more parameter values were invalid: "
            "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified");
  EXPECT_EQ(with_lsis({Index("abc", {Key("a", "HASH"), Key("b", "RANGE")},
                             {{"ProjectionType", "INCLUDE"}})}),
            "ValidationException: One or more parameter values were invalid: "
            "ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  EXPECT_EQ(with_lsis({Index("abc", {Key("a", "HASH"), Key("b", "RANGE")},
                             {{"ProjectionType", "INCLUDE"},
                              {"NonKeyAttributes", {"x", "x"}}})}),
            "ValidationException: One or more parameter values were invalid: "
            "Duplicate element in NonKeyAttributes: x");
  EXPECT_EQ(
      with_lsis({Index("abc", {Key("a", "HASH"), Key("b", "RANGE")}, all),
                 Index("abc", {Key("a", "HASH"), Key("b", "RANGE")}, all)}),
      "ValidationException: One or more parameter values were invalid: "
      "Duplicate index name: abc");
  Json six = Json::array();
  for (int i = 0; i < 6; ++i) {
    six.push_back(Index("idx" + std::to_string(i),
                        {Key("a", "HASH"), Key("b", "RANGE")}, all));
  }
  EXPECT_EQ(with_lsis(six),
            "ValidationException: One or more parameter values were invalid: "
            "Number of LocalSecondaryIndexes exceeds per-table limit of 5");
  EXPECT_EQ(with_lsis({Index("h;", Json::array(),
                             {{"ProjectionType", "abc"},
                              {"NonKeyAttributes", Json::array()}})}),
            "ValidationException: 5 validation errors detected: Value 'h;' at "
            "'localSecondaryIndexes.1.member.indexName' failed to satisfy "
            "constraint: Member must satisfy regular expression pattern: "
            "[a-zA-Z0-9_.-]+; Value 'h;' at "
            "'localSecondaryIndexes.1.member.indexName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 3; "
            "Value '[]' at 'localSecondaryIndexes.1.member.keySchema' failed "
            "to satisfy constraint: Member must have length greater than or "
            "equal to 1; Value 'abc' at "
            "'localSecondaryIndexes.1.member.projection.projectionType' failed "
            "to satisfy constraint: Member must satisfy enum value set: [ALL, "
            "INCLUDE, KEYS_ONLY]; Value '[]' at "
            "'localSecondaryIndexes.1.member.projection.nonKeyAttributes' "
            "failed to satisfy constraint: Member must have length greater "
            "than or equal to 1");
}

TEST_F(CreateTableTest, GlobalSecondaryIndexErrors) {
  auto with_gsis = [&](Json gsis, std::string billing = "") {
    Json req = HashRange();
    if (gsis.is_object()) gsis = Json::array({gsis});
    req["GlobalSecondaryIndexes"] = gsis;
    if (!billing.empty()) {
      req["BillingMode"] = billing;
      req.erase("ProvisionedThroughput");
    }
    return FailText("CreateTable", req);
  };
  Json all = {{"ProjectionType", "ALL"}};
  auto gsi = [&](const std::string& name, std::vector<Json> keys,
                 bool throughput = true) {
    Json g = Index(name, keys, all);
    if (throughput) g["ProvisionedThroughput"] = Throughput();
    return g;
  };
  EXPECT_EQ(with_gsis(Json::array()),
            "ValidationException: One or more parameter values were invalid: "
            "List of GlobalSecondaryIndexes is empty");
  EXPECT_EQ(with_gsis({gsi("abc", {Key("c", "HASH")})}),
            "ValidationException: One or more parameter values were invalid: "
            "Some index key attributes are not defined in "
            "AttributeDefinitions. Keys: [c], AttributeDefinitions: [a, b]");
  EXPECT_EQ(with_gsis({gsi("abc", {Key("b", "HASH"), Key("b", "RANGE")})}),
            "ValidationException: Both the Hash Key and the Range Key element "
            "in the KeySchema have the same name");
  EXPECT_EQ(with_gsis({gsi("abc", {Key("b", "HASH")}, false)}),
            "ValidationException: One or more parameter values were invalid: "
            "ProvisionedThroughput is not specified for index: abc");
  EXPECT_EQ(with_gsis({gsi("abc", {Key("b", "HASH")})}, "PAY_PER_REQUEST"),
            "ValidationException: One or more parameter values were invalid: "
            "ProvisionedThroughput should not be specified for index: abc when "
            "BillingMode is PAY_PER_REQUEST");
  Json many = Json::array();
  for (int i = 0; i < 21; ++i)
    many.push_back(gsi("g" + std::to_string(i) + "x", {Key("b", "HASH")}));
  EXPECT_EQ(with_gsis(many),
            "ValidationException: One or more parameter values were invalid: "
            "GlobalSecondaryIndex count exceeds the per-table limit of 20");
  Json req = HashRange();
  req["LocalSecondaryIndexes"] =
      Json::array({Index("abc", {Key("a", "HASH"), Key("b", "RANGE")}, all)});
  req["GlobalSecondaryIndexes"] = Json::array({gsi("abc", {Key("b", "HASH")})});
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: One or more parameter values were invalid: "
            "Duplicate index name: abc");
  // A multi-attribute GSI key naming an attribute twice (the other shapes
  // are in gsi_multi_key_test.cc).
  EXPECT_EQ(with_gsis({gsi("abc", {Key("a", "HASH"), Key("b", "HASH"),
                                   Key("b", "RANGE")})}),
            "ValidationException: The KeySchema contains multiple key "
            "attributes with the same name");
}

TEST_F(CreateTableTest, UnusedDefinitionsWithIndexes) {
  Json req = HashRange();
  req["AttributeDefinitions"].push_back(Attr("x"));
  req["GlobalSecondaryIndexes"] = {{{"IndexName", "gsi"},
                                    {"KeySchema", {Key("b", "HASH")}},
                                    {"Projection", {{"ProjectionType", "ALL"}}},
                                    {"ProvisionedThroughput", Throughput()}}};
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: One or more parameter values were invalid: "
            "Some AttributeDefinitions are not used. AttributeDefinitions: [a, "
            "b, x], keys used: [a, b]");
}

TEST_F(CreateTableTest, StreamSpecificationErrors) {
  Json req = HashRange();
  req["StreamSpecification"] = {{"StreamEnabled", true}};
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: One or more parameter values were invalid: "
            "Table is being created with a stream enabled, UpdateViewType is "
            "required");
  req["StreamSpecification"] = {{"StreamEnabled", false},
                                {"StreamViewType", "KEYS_ONLY"}};
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: One or more parameter values were invalid: "
            "Table is being created with a stream disabled, UpdateViewType "
            "should not be specified");
  req["StreamSpecification"] = {{"StreamEnabled", true},
                                {"StreamViewType", "ALL"}};
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: 1 validation error detected: Value 'ALL' at "
            "'streamSpecification.streamViewType' failed to satisfy "
            "constraint: Member must satisfy enum value set: [NEW_IMAGE, "
            "OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]");
  // A disabled stream spec without a view type is fine and stores nothing.
  req["StreamSpecification"] = {{"StreamEnabled", false}};
  Json desc = Ok("CreateTable", req)["TableDescription"];
  EXPECT_FALSE(desc.contains("StreamSpecification"));
  EXPECT_FALSE(desc.contains("LatestStreamArn"));
}

TEST_F(CreateTableTest, TagErrors) {
  Json req = HashRange();
  req["Tags"] = {{{"Key", "aws:x"}, {"Value", "v"}}};
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: Tag Key cannot be prefixed with aws:, Key: "
            "aws:x");
  req["Tags"] = {{{"Key", "k"}, {"Value", "1"}},
                 {{"Key", "k"}, {"Value", "2"}}};
  EXPECT_EQ(FailText("CreateTable", req),
            "ValidationException: Duplicate Tag Keys provided as input: "
            "Duplicate Tag Key found k");
}

TEST_F(CreateTableTest, FailedCreateLeavesNothingBehind) {
  Json req = HashRange("ghost");
  req["StreamSpecification"] = {{"StreamEnabled", true}};
  Fail("CreateTable", req);
  EXPECT_EQ(Ok("ListTables", Json::object()),
            Json::parse(R"({"TableNames": []})"));
  EXPECT_EQ(FailText("DescribeTable", {{"TableName", "ghost"}}),
            "ResourceNotFoundException: Requested resource not found: Table: "
            "ghost not found");
}

}  // namespace
}  // namespace ddblab::engine::testing
