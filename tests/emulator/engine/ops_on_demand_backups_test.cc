// On-demand backups (ops_on_demand_backups.cc): CreateBackup,
// DescribeBackup, ListBackups, DeleteBackup and RestoreTableFromBackup —
// shapes, statuses on the clock, restore contents and overrides, errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

constexpr char kTableArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/";

Json Item(const std::string& pk, const std::string& g) {
  return Json{{"pk", {{"S", pk}}}, {"g", {{"S", g}}}};
}

class OnDemandBackupsTest : public EngineTest {
 protected:
  // `name`: pk (S) hash key, a GSI "byG" on g, PAY_PER_REQUEST, two items
  // (if `items`).
  void MakeSource(const std::string& name = "src", bool items = true) {
    Json req = Json::parse(R"({"BillingMode":"PAY_PER_REQUEST",
         "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                                 {"AttributeName":"g","AttributeType":"S"}],
         "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
         "GlobalSecondaryIndexes":[{"IndexName":"byG",
           "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
           "Projection":{"ProjectionType":"ALL"}}]})");
    req["TableName"] = name;
    Ok("CreateTable", req);
    if (!items) return;
    Ok("PutItem", {{"TableName", name}, {"Item", Item("a", "x")}});
    Ok("PutItem", {{"TableName", name}, {"Item", Item("b", "x")}});
  }

  std::string Backup(const std::string& table, const std::string& name) {
    Json r = Ok("CreateBackup", {{"TableName", table}, {"BackupName", name}});
    return r["BackupDetails"].value("BackupArn", "");
  }
};

TEST_F(OnDemandBackupsTest, CreateDescribeListDelete) {
  MakeSource();
  const double created = ToEpochSecondsDouble(clock_->Now());
  const Json table = Describe("src");
  Json r = Ok("CreateBackup", {{"TableName", "src"}, {"BackupName", "b-1"}});
  const std::string arn = r["BackupDetails"]["BackupArn"];
  EXPECT_TRUE(std::regex_match(
      arn,
      std::regex(std::string(kTableArn) + "src/backup/[0-9]{13}-[0-9a-f]{8}")))
      << arn;
  const Json details{{"BackupArn", arn},
                     {"BackupName", "b-1"},
                     {"BackupSizeBytes", table["TableSizeBytes"]},
                     {"BackupStatus", "AVAILABLE"},
                     {"BackupType", "USER"},
                     {"BackupCreationDateTime", created}};
  EXPECT_EQ(r, Json({{"BackupDetails", details}}));

  Json want = Json::parse(R"({"SourceTableDetails":{
      "TableName":"src","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0},
      "ItemCount":2,"BillingMode":"PAY_PER_REQUEST"},
    "SourceTableFeatureDetails":{"GlobalSecondaryIndexes":[{"IndexName":"byG",
      "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"ALL"},
      "ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0}}]}})");
  want["BackupDetails"] = details;
  auto& source = want["SourceTableDetails"];
  source["TableId"] = table["TableId"];
  source["TableArn"] = table["TableArn"];
  source["TableSizeBytes"] = table["TableSizeBytes"];
  source["TableCreationDateTime"] = table["CreationDateTime"];
  EXPECT_EQ(Ok("DescribeBackup", {{"BackupArn", arn}}),
            Json({{"BackupDescription", want}}));

  Json summary{{"TableName", "src"},
               {"TableId", table["TableId"]},
               {"TableArn", table["TableArn"]},
               {"BackupArn", arn},
               {"BackupName", "b-1"},
               {"BackupCreationDateTime", created},
               {"BackupStatus", "AVAILABLE"},
               {"BackupType", "USER"},
               {"BackupSizeBytes", table["TableSizeBytes"]}};
  EXPECT_EQ(Ok("ListBackups", Json::object()),
            Json({{"BackupSummaries", Json::array({summary})}}));

  // The backup outlives its table.
  Ok("DeleteTable", {{"TableName", "src"}});
  EXPECT_EQ(Ok("DescribeBackup", {{"BackupArn", arn}})["BackupDescription"],
            want);

  want["BackupDetails"]["BackupStatus"] = "DELETED";
  EXPECT_EQ(Ok("DeleteBackup", {{"BackupArn", arn}}),
            Json({{"BackupDescription", want}}));
  EXPECT_EQ(FailText("DescribeBackup", {{"BackupArn", arn}}),
            "BackupNotFoundException: Backup not found: " + arn);
  EXPECT_EQ(FailText("DeleteBackup", {{"BackupArn", arn}}),
            "BackupNotFoundException: Backup not found: " + arn);
  EXPECT_EQ(Ok("ListBackups", Json::object()),
            Json({{"BackupSummaries", Json::array()}}));
}

TEST_F(OnDemandBackupsTest, FeatureDetailsNameStreamTtlAndSse) {
  Ok("CreateTable",
     Json::parse(R"({"TableName":"feat","BillingMode":"PAY_PER_REQUEST",
       "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                               {"AttributeName":"sk","AttributeType":"N"}],
       "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                    {"AttributeName":"sk","KeyType":"RANGE"}],
       "LocalSecondaryIndexes":[{"IndexName":"lsi",
         "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                      {"AttributeName":"sk","KeyType":"RANGE"}],
         "Projection":{"ProjectionType":"KEYS_ONLY"}}],
       "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},
       "SSESpecification":{"Enabled":true,"KMSMasterKeyId":"k"}})"));
  Ok("UpdateTimeToLive", {{"TableName", "feat"},
                          {"TimeToLiveSpecification",
                           {{"Enabled", true}, {"AttributeName", "exp"}}}});
  const std::string arn = Backup("feat", "feat");
  EXPECT_EQ(Ok("DescribeBackup",
               {{"BackupArn",
                 arn}})["BackupDescription"]["SourceTableFeatureDetails"],
            Json::parse(R"({"LocalSecondaryIndexes":[{"IndexName":"lsi",
         "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                      {"AttributeName":"sk","KeyType":"RANGE"}],
         "Projection":{"ProjectionType":"KEYS_ONLY"}}],
       "StreamDescription":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},
       "TimeToLiveDescription":{"TimeToLiveStatus":"ENABLED","AttributeName":"exp"},
       "SSEDescription":{"Status":"ENABLED","SSEType":"KMS","KMSMasterKeyArn":"k"}})"));
}

TEST_F(OnDemandBackupsTest, RestoreKeepsDataAndIndexesNotStreamTtlTags) {
  Ok("CreateTable",
     Json::parse(R"({"TableName":"src","BillingMode":"PAY_PER_REQUEST",
       "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                               {"AttributeName":"g","AttributeType":"S"}],
       "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
       "GlobalSecondaryIndexes":[{"IndexName":"byG",
         "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
         "Projection":{"ProjectionType":"ALL"}}],
       "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"},
       "Tags":[{"Key":"team","Value":"x"}]})"));
  Ok("UpdateTimeToLive", {{"TableName", "src"},
                          {"TimeToLiveSpecification",
                           {{"Enabled", true}, {"AttributeName", "exp"}}}});
  Ok("PutItem", {{"TableName", "src"}, {"Item", Item("a", "x")}});
  Ok("PutItem", {{"TableName", "src"}, {"Item", Item("b", "x")}});
  const std::string arn = Backup("src", "snap");
  // Written after the backup: not restored.
  Ok("PutItem", {{"TableName", "src"}, {"Item", Item("c", "x")}});
  Ok("DeleteTable", {{"TableName", "src"}});
  clock_->Advance(std::chrono::seconds(5));
  const double restored_at = ToEpochSecondsDouble(clock_->Now());

  Json r = Ok("RestoreTableFromBackup",
              {{"TargetTableName", "dst"}, {"BackupArn", arn}});
  const Json& d = r["TableDescription"];
  EXPECT_EQ(d["TableName"], "dst");
  EXPECT_EQ(d["TableStatus"], "CREATING");
  EXPECT_EQ(d["TableArn"], std::string(kTableArn) + "dst");
  EXPECT_EQ(d["RestoreSummary"],
            Json({{"SourceBackupArn", arn},
                  {"SourceTableArn", std::string(kTableArn) + "src"},
                  {"RestoreDateTime", restored_at},
                  {"RestoreInProgress", true}}));
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["IndexName"], "byG");
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["IndexStatus"], "CREATING");
  EXPECT_FALSE(d.contains("StreamSpecification"));

  Json t = Describe("dst");
  EXPECT_EQ(t["TableStatus"], "ACTIVE");
  EXPECT_EQ(t["ItemCount"], 2);
  EXPECT_EQ(t["RestoreSummary"]["RestoreInProgress"], false);
  EXPECT_EQ(t["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST");
  EXPECT_EQ(t["GlobalSecondaryIndexes"][0]["ItemCount"], 2);
  EXPECT_FALSE(t.contains("StreamSpecification"));
  EXPECT_FALSE(t.contains("LatestStreamArn"));
  EXPECT_EQ(Ok("DescribeTimeToLive", {{"TableName", "dst"}}),
            Json::parse(R"({"TimeToLiveDescription":
                            {"TimeToLiveStatus":"DISABLED"}})"));
  EXPECT_EQ(Ok("ListTagsOfResource", {{"ResourceArn", t["TableArn"]}}),
            Json::parse(R"({"Tags":[]})"));
  EXPECT_EQ(Ok("GetItem",
               {{"TableName", "dst"}, {"Key", {{"pk", {{"S", "a"}}}}}})["Item"],
            Item("a", "x"));
  Json q = Ok("Query", {{"TableName", "dst"},
                        {"IndexName", "byG"},
                        {"KeyConditionExpression", "g = :g"},
                        {"ExpressionAttributeValues", {{":g", {{"S", "x"}}}}}});
  EXPECT_EQ(q["Count"], 2);

  EXPECT_EQ(FailText("RestoreTableFromBackup",
                     {{"TargetTableName", "dst"}, {"BackupArn", arn}}),
            "TableAlreadyExistsException: Table already exists: dst");
  // A backup of the restored table names it as its source.
  const std::string again = Backup("dst", "again");
  EXPECT_EQ(again.rfind(std::string(kTableArn) + "dst/backup/", 0), 0u);
}

TEST_F(OnDemandBackupsTest, RestoreKeepsVectorIndexes) {
  Ok("CreateTable", Json::parse(R"({"TableName":"vec",
       "BillingMode":"PAY_PER_REQUEST",
       "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
       "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
       "VectorIndexes":[{"IndexName":"vix",
         "VectorAttribute":{"AttributeName":"embedding"},"Dimensions":2,
         "DistanceFunction":"EUCLIDEAN",
         "Projection":{"ProjectionType":"ALL"}}]})"));
  for (const char* pk : {"p", "q"}) {
    Json item = Json::parse(R"({"embedding":{"L":[{"N":"1"},{"N":"2"}]}})");
    item["pk"] = {{"S", pk}};
    Ok("PutItem", {{"TableName", "vec"}, {"Item", item}});
  }
  const std::string arn = Backup("vec", "vbak");
  EXPECT_EQ(Ok("DescribeBackup",
               {{"BackupArn",
                 arn}})["BackupDescription"]["SourceTableFeatureDetails"],
            Json::parse(R"({"VectorIndexes":[{"IndexName":"vix",
              "VectorAttribute":{"AttributeName":"embedding"},
              "Projection":{"ProjectionType":"ALL"},"Dimensions":2,
              "DistanceFunction":"EUCLIDEAN"}]})"));
  Ok("RestoreTableFromBackup",
     {{"TargetTableName", "vec2"}, {"BackupArn", arn}});
  Json v = Describe("vec2")["VectorIndexes"][0];
  EXPECT_EQ(v["IndexStatus"], "ACTIVE");
  EXPECT_EQ(v["ItemCount"], 2);
  Json found =
      Ok("SearchVectors", Json::parse(R"({"TableName":"vec2","IndexName":"vix",
                    "SearchVector":[{"N":"1"},{"N":"2"}],"TopK":5})"));
  EXPECT_EQ(found["SearchResults"].size(), 2u);
}

TEST_F(OnDemandBackupsTest, RestoreOverrides) {
  MakeSource();
  const std::string arn = Backup("src", "snap");
  // PROVISIONED needs the throughput (CreateTable's text).
  EXPECT_EQ(FailText("RestoreTableFromBackup",
                     {{"TargetTableName", "ppp"},
                      {"BackupArn", arn},
                      {"BillingModeOverride", "PROVISIONED"}}),
            "ValidationException: One or more parameter values were invalid: "
            "ReadCapacityUnits and WriteCapacityUnits must both be specified "
            "when BillingMode is PROVISIONED");
  Json p = Ok("RestoreTableFromBackup",
              {{"TargetTableName", "ppp"},
               {"BackupArn", arn},
               {"BillingModeOverride", "PROVISIONED"},
               {"ProvisionedThroughputOverride",
                {{"ReadCapacityUnits", 3}, {"WriteCapacityUnits", 4}}},
               {"GlobalSecondaryIndexOverride", Json::array()},
               {"SSESpecificationOverride", {{"Enabled", true}}}});
  Json t = Describe("ppp");
  EXPECT_EQ(t["BillingModeSummary"]["BillingMode"], "PROVISIONED");
  EXPECT_EQ(t["ProvisionedThroughput"]["ReadCapacityUnits"], 3);
  EXPECT_EQ(t["ProvisionedThroughput"]["WriteCapacityUnits"], 4);
  EXPECT_FALSE(t.contains("GlobalSecondaryIndexes"));
  EXPECT_EQ(t["AttributeDefinitions"],
            Json::parse(R"([{"AttributeName":"pk","AttributeType":"S"}])"));
  EXPECT_EQ(t["SSEDescription"]["Status"], "ENABLED");
  EXPECT_EQ(t["ItemCount"], 2);

  EXPECT_EQ(
      FailText("RestoreTableFromBackup", {{"TargetTableName", "qqq"},
                                          {"BackupArn", arn},
                                          {"GlobalSecondaryIndexOverride",
                                           Json::parse(R"([{"IndexName":"nope",
                   "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
                   "Projection":{"ProjectionType":"ALL"}}])")}}),
      "ValidationException: One or more parameter values were invalid: "
      "Global secondary index nope is not an index of the backup");
  Ok("RestoreTableFromBackup",
     {{"TargetTableName", "qqq"},
      {"BackupArn", arn},
      {"GlobalSecondaryIndexOverride", Json::parse(R"([{"IndexName":"byG",
         "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
         "Projection":{"ProjectionType":"KEYS_ONLY"}}])")}});
  Json g = Describe("qqq")["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(g["Projection"], Json::parse(R"({"ProjectionType":"KEYS_ONLY"})"));
  EXPECT_EQ(g["ItemCount"], 2);
}

TEST_F(OnDemandBackupsTest, StatusesOnTheClock) {
  Options options;
  options.table_status_delay = std::chrono::seconds(10);
  Open(options);
  MakeSource("src", false);  // CREATING for 10 s
  EXPECT_EQ(
      FailText("CreateBackup", {{"TableName", "src"}, {"BackupName", "early"}}),
      "TableInUseException: Table is being created: src");
  clock_->Advance(std::chrono::seconds(10));
  Ok("PutItem", {{"TableName", "src"}, {"Item", Item("a", "x")}});
  Json r = Ok("CreateBackup", {{"TableName", "src"}, {"BackupName", "bbb"}});
  const std::string arn = r["BackupDetails"]["BackupArn"];
  EXPECT_EQ(r["BackupDetails"]["BackupStatus"], "CREATING");
  EXPECT_EQ(FailText("DeleteBackup", {{"BackupArn", arn}}),
            "BackupInUseException: Backup is being created: " + arn);
  EXPECT_EQ(FailText("RestoreTableFromBackup",
                     {{"TargetTableName", "dst"}, {"BackupArn", arn}}),
            "BackupInUseException: Backup is being created: " + arn);
  clock_->Advance(std::chrono::seconds(10));
  EXPECT_EQ(Ok("DescribeBackup",
               {{"BackupArn",
                 arn}})["BackupDescription"]["BackupDetails"]["BackupStatus"],
            "AVAILABLE");
  Ok("RestoreTableFromBackup",
     {{"TargetTableName", "dst"}, {"BackupArn", arn}});
  EXPECT_EQ(Describe("dst")["RestoreSummary"]["RestoreInProgress"], true);
  EXPECT_EQ(FailText("DeleteBackup", {{"BackupArn", arn}}),
            "BackupInUseException: Backup is being restored: " + arn);
  clock_->Advance(std::chrono::seconds(10));
  Json t = Describe("dst");
  EXPECT_EQ(t["TableStatus"], "ACTIVE");
  EXPECT_EQ(t["RestoreSummary"]["RestoreInProgress"], false);
  EXPECT_EQ(t["ItemCount"], 1);
  EXPECT_EQ(Ok("DeleteBackup",
               {{"BackupArn",
                 arn}})["BackupDescription"]["BackupDetails"]["BackupStatus"],
            "DELETED");
}

TEST_F(OnDemandBackupsTest, SurviveReopenAndResetDropsThem) {
  const std::string dir =
      ::testing::TempDir() + "ondemand_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = dir + "/ddb.sqlite";
  Open(options);
  MakeSource();
  const std::string arn = Backup("src", "kept");
  Json before = Ok("DescribeBackup", {{"BackupArn", arn}});
  Open(options);
  EXPECT_EQ(Ok("DescribeBackup", {{"BackupArn", arn}}), before);
  Ok("RestoreTableFromBackup",
     {{"TargetTableName", "dst"}, {"BackupArn", arn}});
  EXPECT_EQ(Describe("dst")["ItemCount"], 2);
  ASSERT_TRUE(emu_->Reset(ResetOptions{}).ok());
  EXPECT_EQ(Ok("ListBackups", Json::object()),
            Json({{"BackupSummaries", Json::array()}}));
  emu_.reset();
  std::filesystem::remove_all(dir);
}

TEST_F(OnDemandBackupsTest, ListFiltersAndPages) {
  CreateTable("tb1");
  CreateTable("tb2");
  const double t0 = ToEpochSecondsDouble(clock_->Now());
  const std::string a = Backup("tb1", "aa1");
  clock_->Advance(std::chrono::seconds(60));
  const std::string b = Backup("tb1", "aa2");
  const std::string c = Backup("tb2", "bb1");
  auto arns = [](const Json& r) {
    std::vector<std::string> out;
    for (const Json& s : r["BackupSummaries"]) out.push_back(s["BackupArn"]);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(arns(Ok("ListBackups", Json::object())), (V{a, b, c}));
  EXPECT_EQ(arns(Ok("ListBackups", {{"TableName", "tb1"}})), (V{a, b}));
  EXPECT_EQ(
      arns(Ok("ListBackups", {{"TableName", std::string(kTableArn) + "tb2"}})),
      (V{c}));
  EXPECT_EQ(arns(Ok("ListBackups", {{"TimeRangeLowerBound", t0 + 60}})),
            (V{b, c}));
  EXPECT_EQ(arns(Ok("ListBackups", {{"TimeRangeUpperBound", t0 + 60}})),
            (V{a}));
  EXPECT_EQ(arns(Ok("ListBackups", {{"BackupType", "SYSTEM"}})), V{});
  EXPECT_EQ(arns(Ok("ListBackups", {{"BackupType", "ALL"}})), (V{a, b, c}));
  Json page = Ok("ListBackups", {{"Limit", 2}});
  EXPECT_EQ(arns(page), (V{a, b}));
  EXPECT_EQ(page["LastEvaluatedBackupArn"], b);
  page = Ok("ListBackups", {{"Limit", 2}, {"ExclusiveStartBackupArn", b}});
  EXPECT_EQ(arns(page), (V{c}));
  EXPECT_FALSE(page.contains("LastEvaluatedBackupArn"));
  EXPECT_EQ(FailText("ListBackups", {{"Limit", 0}, {"BackupType", "X"}}),
            "ValidationException: 2 validation errors detected: Value '0' at "
            "'limit' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1; Value 'X' at 'backupType' failed to "
            "satisfy constraint: Member must satisfy enum value set: [USER, "
            "SYSTEM, AWS_BACKUP, ALL]");
}

TEST_F(OnDemandBackupsTest, InputErrors) {
  CreateTable("tbl");
  EXPECT_EQ(
      FailText("CreateBackup", {{"TableName", "nope"}, {"BackupName", "bk"}}),
      "ValidationException: 1 validation error detected: Value 'bk' at "
      "'backupName' failed to satisfy constraint: Member must have "
      "length greater than or equal to 3");
  EXPECT_EQ(
      FailText("CreateBackup", {{"TableName", "tbl"}, {"BackupName", "a b"}}),
      "ValidationException: 1 validation error detected: Value 'a b' at "
      "'backupName' failed to satisfy constraint: Member must satisfy "
      "regular expression pattern: [a-zA-Z0-9_.-]+");
  EXPECT_EQ(FailText("CreateBackup", {{"TableName", "tbl"}}),
            "ValidationException: 1 validation error detected: Value null at "
            "'backupName' failed to satisfy constraint: Member must not be "
            "null");
  EXPECT_EQ(
      FailText("CreateBackup", {{"TableName", "nope"}, {"BackupName", "bak"}}),
      "TableNotFoundException: Table not found: nope");
  EXPECT_EQ(FailText("DescribeBackup", {{"BackupArn", "arn:short"}}),
            "ValidationException: 1 validation error detected: Value "
            "'arn:short' at 'backupArn' failed to satisfy constraint: Member "
            "must have length greater than or equal to 37");
  const std::string missing =
      std::string(kTableArn) + "tbl/backup/1700000000000-0123abcd";
  EXPECT_EQ(FailText("RestoreTableFromBackup",
                     {{"TargetTableName", "x"}, {"BackupArn", missing}}),
            "ValidationException: 1 validation error detected: Value 'x' at "
            "'targetTableName' failed to satisfy constraint: Member must have "
            "length greater than or equal to 3");
  EXPECT_EQ(FailText("RestoreTableFromBackup",
                     {{"TargetTableName", "xyz"}, {"BackupArn", missing}}),
            "BackupNotFoundException: Backup not found: " + missing);
}

}  // namespace
}  // namespace ddblab::engine::testing
