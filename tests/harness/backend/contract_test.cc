// The backend contract: the same calls and the same assertions on every
// backend row. Rows: emulator (in process); ddblab_http and ddblab_https
// (`ddblab serve --auth verify`, every signature checked); ddblocal (Amazon
// DynamoDB Local, an independent implementation standing in for AWS); aws
// (Amazon DynamoDB, only with DDBLAB_TEST_AWS=1). Where DynamoDB Local
// answers differently, the assertion names the documented divergence
// (docs/dynamodb-local-divergences.md) instead of skipping the check.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "emulator/api/random.h"
#include "harness/backend/backend.h"
#include "harness/backend/http_backend.h"
#include "tests/harness/backend/test_servers.h"

namespace ddblab::harness {
namespace {

using nlohmann::json;

const char kAwsHowTo[] =
    "Amazon DynamoDB row skipped. To run it: DDBLAB_TEST_AWS=1 with AWS "
    "credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or ~/.aws with "
    "AWS_PROFILE) and a region (AWS_REGION or ~/.aws/config), then "
    "`DDBLAB_TEST_AWS=1 ctest --test-dir build -R contract.aws "
    "--output-on-failure`. It creates on-demand tables named "
    "ddblab_contract_<random>_* and always deletes them.";

struct Row {
  std::unique_ptr<Backend> backend;
  std::string skip;
  bool is_ddblocal = false;
};

Row OpenRow(const std::string& row) {
  Row out;
  BackendOptions options;
  options.environment = AwsEnvironment::FromMap({});
  options.retry = RetryPolicy::Standard(1);
  std::string spec;
  if (row == "emulator") {
    spec = "emulator";
  } else if (row == "ddblab_http" || row == "ddblab_https") {
    std::string ca;
    auto endpoint =
        testing::DdblabEndpoint(row == "ddblab_https", &out.skip, &ca);
    if (!endpoint) return out;
    spec = *endpoint;
    options.ca_cert_file = ca;
    options.credentials = AwsCredentials{testing::kAccessKeyId,
                                         testing::kSecretAccessKey, "", ""};
  } else if (row == "ddblocal") {
    auto endpoint = testing::DynamoDbLocalEndpoint(&out.skip);
    if (!endpoint) return out;
    spec = *endpoint;
    out.is_ddblocal = true;
  } else if (row == "aws") {
    const char* flag = std::getenv("DDBLAB_TEST_AWS");
    if (flag == nullptr || std::string(flag) != "1") {
      out.skip = kAwsHowTo;
      return out;
    }
    options.environment = AwsEnvironment::Process();
    spec = "aws";
    auto region = ResolveRegion(options.environment);
    if (region.ok() && !region->has_value()) spec = "aws:us-east-1";
  }
  auto backend = OpenBackend(spec, options);
  if (!backend.ok()) {
    out.skip = "cannot open " + spec + ": " + ToString(backend.error());
    if (row == "aws") out.skip += "\n" + std::string(kAwsHowTo);
    return out;
  }
  out.backend = std::move(*backend);
  return out;
}

Row& RowFor(const std::string& row) {
  static std::map<std::string, Row> rows;
  auto it = rows.find(row);
  if (it == rows.end()) it = rows.emplace(row, OpenRow(row)).first;
  return it->second;
}

// A fresh prefix per test binary run, so an AWS account never sees a clash.
const std::string& Prefix() {
  static const std::string prefix = [] {
    Rng rng(static_cast<uint64_t>(
        std::chrono::system_clock::now().time_since_epoch().count()));
    char buf[32];
    std::snprintf(buf, sizeof(buf), "ddblab_contract_%08llx_",
                  static_cast<unsigned long long>(rng.Next() & 0xffffffffULL));
    return std::string(buf);
  }();
  return prefix;
}

class ContractTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    Row& row = RowFor(GetParam());
    if (!row.backend) {
      // Only the AWS row may be absent; the local rows are set up by
      // scripts/setup.sh and must run.
      if (GetParam() == "aws") GTEST_SKIP() << row.skip;
      FAIL() << row.skip;
    }
    backend_ = row.backend.get();
    ddblocal_ = row.is_ddblocal;
  }
  void TearDown() override {
    for (const std::string& table : created_) {
      auto out = backend_->Call("DeleteTable", {{"TableName", table}});
      if (!out.ok() && out.error().type != ErrorType::kResourceNotFound) {
        ADD_FAILURE() << "could not delete " << table << ": "
                      << ToString(out.error());
      }
    }
  }

  json Ok(std::string_view op, const json& request) {
    auto out = backend_->Call(op, request);
    EXPECT_TRUE(out.ok()) << op << ": " << ToString(out.error());
    return out.ok() ? *out : json();
  }
  json OkStreams(std::string_view op, const json& request) {
    auto out = backend_->CallStreams(op, request);
    EXPECT_TRUE(out.ok()) << op << ": " << ToString(out.error());
    return out.ok() ? *out : json();
  }
  Error Fails(std::string_view op, const json& request) {
    auto out = backend_->Call(op, request);
    EXPECT_FALSE(out.ok()) << op << " succeeded: " << out->dump();
    return out.ok() ? Error() : out.error();
  }

  // Real waits for real endpoints (AWS tables take seconds to create).
  void Pause() {
    backend_->clock().SleepUntil(
        backend_->clock().Now() + std::chrono::milliseconds(500),
        std::stop_token());
  }

  std::string CreateTable(std::string_view suffix, bool with_stream = false) {
    std::string name = Prefix() + std::string(suffix);
    json request = {{"TableName", name},
                    {"KeySchema",
                     {{{"AttributeName", "pk"}, {"KeyType", "HASH"}},
                      {{"AttributeName", "sk"}, {"KeyType", "RANGE"}}}},
                    {"AttributeDefinitions",
                     {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
                      {{"AttributeName", "sk"}, {"AttributeType", "S"}}}},
                    {"BillingMode", "PAY_PER_REQUEST"}};
    if (with_stream) {
      request["StreamSpecification"] = {
          {"StreamEnabled", true}, {"StreamViewType", "NEW_AND_OLD_IMAGES"}};
    }
    json out = Ok("CreateTable", request);
    created_.push_back(name);
    EXPECT_EQ(out["TableDescription"]["TableName"], name);
    for (int i = 0; i < 240; ++i) {
      json described = Ok("DescribeTable", {{"TableName", name}});
      if (described["Table"]["TableStatus"] == "ACTIVE") break;
      Pause();
    }
    return name;
  }

  static json Item(std::string pk, std::string sk,
                   json extra = json::object()) {
    json item = {{"pk", {{"S", std::move(pk)}}},
                 {"sk", {{"S", std::move(sk)}}}};
    item.update(extra);
    return item;
  }

  Backend* backend_ = nullptr;
  bool ddblocal_ = false;
  std::vector<std::string> created_;
};

TEST_P(ContractTest, TableLifecycle) {
  std::string name = CreateTable("lifecycle");
  json table = Ok("DescribeTable", {{"TableName", name}})["Table"];
  EXPECT_EQ(table["TableName"], name);
  EXPECT_EQ(table["TableStatus"], "ACTIVE");
  EXPECT_EQ(table["KeySchema"],
            json::parse(R"([{"AttributeName":"pk","KeyType":"HASH"},
                            {"AttributeName":"sk","KeyType":"RANGE"}])"));
  EXPECT_EQ(table["ItemCount"], 0);
  EXPECT_EQ(table["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST");
  EXPECT_TRUE(table["TableArn"].get<std::string>().ends_with(":table/" + name))
      << table["TableArn"];

  Error again = Fails("CreateTable",
                      {{"TableName", name},
                       {"KeySchema", table["KeySchema"]},
                       {"AttributeDefinitions", table["AttributeDefinitions"]},
                       {"BillingMode", "PAY_PER_REQUEST"}});
  EXPECT_EQ(again.type, ErrorType::kResourceInUse);
  if (ddblocal_) {
    // Divergence 1 (docs/dynamodb-local-divergences.md).
    EXPECT_EQ(again.message, "Cannot create preexisting table");
  } else {
    EXPECT_EQ(again.message, "Table already exists: " + name);
  }

  json deleted = Ok("DeleteTable", {{"TableName", name}});
  EXPECT_EQ(deleted["TableDescription"]["TableName"], name);
  Error missing;
  for (int i = 0; i < 240; ++i) {
    auto out = backend_->Call("DescribeTable", {{"TableName", name}});
    if (!out.ok()) {
      missing = out.error();
      break;
    }
    EXPECT_EQ((*out)["Table"]["TableStatus"], "DELETING");
    Pause();
  }
  EXPECT_EQ(missing.type, ErrorType::kResourceNotFound);
  if (ddblocal_) {
    // Divergence 2.
    EXPECT_EQ(missing.message, "Cannot do operations on a non-existent table");
  } else {
    EXPECT_EQ(missing.message,
              "Requested resource not found: Table: " + name + " not found");
  }
}

TEST_P(ContractTest, ItemsWithConditions) {
  std::string name = CreateTable("items");
  json item = Item("a", "1", {{"n", {{"N", "5"}}}, {"s", {{"S", "x"}}}});
  EXPECT_EQ(Ok("PutItem", {{"TableName", name}, {"Item", item}}),
            json::object());
  Error exists =
      Fails("PutItem", {{"TableName", name},
                        {"Item", item},
                        {"ConditionExpression", "attribute_not_exists(pk)"}});
  EXPECT_EQ(exists.type, ErrorType::kConditionalCheckFailed);
  EXPECT_EQ(exists.message, "The conditional request failed");

  json key = Item("a", "1");
  EXPECT_EQ(Ok("GetItem",
               {{"TableName", name}, {"Key", key}, {"ConsistentRead", true}}),
            json({{"Item", item}}));

  json updated =
      Ok("UpdateItem", {{"TableName", name},
                        {"Key", key},
                        {"UpdateExpression", "SET s = :s ADD n :one"},
                        {"ConditionExpression", "n = :five"},
                        {"ExpressionAttributeValues",
                         {{":s", {{"S", "y"}}},
                          {":one", {{"N", "1"}}},
                          {":five", {{"N", "5"}}}}},
                        {"ReturnValues", "ALL_NEW"}});
  EXPECT_EQ(
      updated,
      json({{"Attributes",
             Item("a", "1", {{"n", {{"N", "6"}}}, {"s", {{"S", "y"}}}})}}));
  Error stale =
      Fails("UpdateItem", {{"TableName", name},
                           {"Key", key},
                           {"UpdateExpression", "SET s = :s"},
                           {"ConditionExpression", "n = :five"},
                           {"ExpressionAttributeValues",
                            {{":s", {{"S", "z"}}}, {":five", {{"N", "5"}}}}}});
  EXPECT_EQ(stale.type, ErrorType::kConditionalCheckFailed);
  EXPECT_EQ(stale.message, "The conditional request failed");

  Error bad_key =
      Fails("GetItem", {{"TableName", name}, {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(bad_key.type, ErrorType::kValidation);
  if (ddblocal_) {
    // Divergence 3.
    EXPECT_EQ(bad_key.message,
              "The number of conditions on the keys is invalid");
  } else {
    EXPECT_EQ(bad_key.message,
              "The provided key element does not match the schema");
  }

  json old =
      Ok("DeleteItem",
         {{"TableName", name}, {"Key", key}, {"ReturnValues", "ALL_OLD"}});
  EXPECT_EQ(old["Attributes"]["s"], json({{"S", "y"}}));
  EXPECT_EQ(Ok("GetItem",
               {{"TableName", name}, {"Key", key}, {"ConsistentRead", true}}),
            json::object());
  Error gone =
      Fails("DeleteItem", {{"TableName", name},
                           {"Key", key},
                           {"ConditionExpression", "attribute_exists(pk)"}});
  EXPECT_EQ(gone.type, ErrorType::kConditionalCheckFailed);
  EXPECT_EQ(gone.message, "The conditional request failed");

  Error no_table =
      Fails("GetItem", {{"TableName", Prefix() + "missing"}, {"Key", key}});
  EXPECT_EQ(no_table.type, ErrorType::kResourceNotFound);
  if (ddblocal_) {
    // Divergence 2.
    EXPECT_EQ(no_table.message, "Cannot do operations on a non-existent table");
  } else {
    EXPECT_EQ(no_table.message, "Requested resource not found");
  }
}

TEST_P(ContractTest, QueryAndScanPaging) {
  std::string name = CreateTable("paging");
  for (int i = 0; i < 5; ++i) {
    Ok("PutItem",
       {{"TableName", name}, {"Item", Item("p", "0" + std::to_string(i))}});
  }
  Ok("PutItem", {{"TableName", name}, {"Item", Item("q", "00")}});
  std::vector<size_t> pages;
  std::vector<std::string> keys;
  json start;
  do {
    json request = {{"TableName", name},
                    {"KeyConditionExpression", "pk = :p"},
                    {"ExpressionAttributeValues", {{":p", {{"S", "p"}}}}},
                    {"Limit", 2},
                    {"ConsistentRead", true}};
    if (!start.is_null()) request["ExclusiveStartKey"] = start;
    json page = Ok("Query", request);
    pages.push_back(page["Items"].size());
    EXPECT_EQ(page["Count"], page["Items"].size());
    for (const json& item : page["Items"]) keys.push_back(item["sk"]["S"]);
    start = page.value("LastEvaluatedKey", json());
    if (!start.is_null()) {
      EXPECT_EQ(start, page["Items"].back());
    }
  } while (!start.is_null() && pages.size() < 10);
  // A full last page still carries a LastEvaluatedKey; a short one does not.
  EXPECT_EQ(pages, (std::vector<size_t>{2, 2, 1}));
  EXPECT_EQ(keys, (std::vector<std::string>{"00", "01", "02", "03", "04"}));

  json backwards =
      Ok("Query", {{"TableName", name},
                   {"KeyConditionExpression", "pk = :p AND sk > :s"},
                   {"ExpressionAttributeValues",
                    {{":p", {{"S", "p"}}}, {":s", {{"S", "02"}}}}},
                   {"ScanIndexForward", false}});
  EXPECT_EQ(backwards["Items"],
            json::array({Item("p", "04"), Item("p", "03")}));

  std::multiset<std::string> scanned;
  start = json();
  int scan_pages = 0;
  do {
    json request = {{"TableName", name}, {"Limit", 4}};
    if (!start.is_null()) request["ExclusiveStartKey"] = start;
    json page = Ok("Scan", request);
    ++scan_pages;
    EXPECT_LE(page["Items"].size(), 4u);
    for (const json& item : page["Items"]) {
      scanned.insert(item["pk"]["S"].get<std::string>() +
                     item["sk"]["S"].get<std::string>());
    }
    start = page.value("LastEvaluatedKey", json());
  } while (!start.is_null() && scan_pages < 10);
  EXPECT_EQ(scan_pages, 2);
  EXPECT_EQ(scanned, (std::multiset<std::string>{"p00", "p01", "p02", "p03",
                                                 "p04", "q00"}));
}

TEST_P(ContractTest, BatchWriteAndGet) {
  std::string name = CreateTable("batch");
  json puts = json::array();
  for (int i = 0; i < 3; ++i) {
    puts.push_back({{"PutRequest",
                     {{"Item", Item("b", std::to_string(i),
                                    {{"v", {{"N", std::to_string(i)}}}})}}}});
  }
  json written = Ok("BatchWriteItem", {{"RequestItems", {{name, puts}}}});
  EXPECT_EQ(written, json({{"UnprocessedItems", json::object()}}));
  json keys = json::array({Item("b", "0"), Item("b", "2"), Item("b", "9")});
  json got = Ok(
      "BatchGetItem",
      {{"RequestItems", {{name, {{"Keys", keys}, {"ConsistentRead", true}}}}}});
  EXPECT_EQ(got["UnprocessedKeys"], json::object());
  std::set<std::string> values;
  for (const json& item : got["Responses"][name]) {
    values.insert(item["v"]["N"].get<std::string>());
  }
  EXPECT_EQ(values, (std::set<std::string>{"0", "2"}));

  Error dup =
      Fails("BatchWriteItem", {{"RequestItems", {{name, {puts[0], puts[0]}}}}});
  EXPECT_EQ(dup.type, ErrorType::kValidation);
  EXPECT_EQ(dup.message, "Provided list of item keys contains duplicates");
}

TEST_P(ContractTest, Transactions) {
  std::string name = CreateTable("transact");
  Ok("TransactWriteItems",
     {{"TransactItems",
       {{{"Put", {{"TableName", name}, {"Item", Item("t", "1")}}}},
        {{"Put", {{"TableName", name}, {"Item", Item("t", "2")}}}}}}});
  auto cancelled = backend_->Call(
      "TransactWriteItems",
      {{"TransactItems",
        {{{"ConditionCheck",
           {{"TableName", name},
            {"Key", Item("t", "1")},
            {"ConditionExpression", "attribute_not_exists(pk)"}}}},
         {{"Put", {{"TableName", name}, {"Item", Item("t", "3")}}}}}}});
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.error().type, ErrorType::kTransactionCanceled);
  EXPECT_EQ(cancelled.error().message,
            "Transaction cancelled, please refer cancellation reasons for "
            "specific reasons [ConditionalCheckFailed, None]");
  // Divergence 4: DynamoDB Local ends the reason's message with a period.
  const std::string reason = ddblocal_ ? "The conditional request failed."
                                       : "The conditional request failed";
  EXPECT_EQ(
      cancelled.error().extra["CancellationReasons"],
      json::array({{{"Code", "ConditionalCheckFailed"}, {"Message", reason}},
                   {{"Code", "None"}}}));
  json got =
      Ok("TransactGetItems",
         {{"TransactItems",
           {{{"Get", {{"TableName", name}, {"Key", Item("t", "2")}}}},
            {{"Get", {{"TableName", name}, {"Key", Item("t", "3")}}}}}}});
  EXPECT_EQ(got["Responses"],
            json::array({{{"Item", Item("t", "2")}}, json::object()}));
}

// DynamoDB Local's text for a transaction over 4 MB is what the emulator
// answers (DynamoDB publishes none); the size is the sum of the items' sizes.
TEST_P(ContractTest, TransactionOverFourMegabytes) {
  std::string name = CreateTable("transact4mb");
  json actions = json::array();
  const std::string big(390000, 'x');
  size_t sum = 0;
  for (int i = 0; i < 11; ++i) {
    std::string sk = "big" + std::to_string(i);
    actions.push_back({{"Put",
                        {{"TableName", name},
                         {"Item",
                          {{"pk", {{"S", "t"}}},
                           {"sk", {{"S", sk}}},
                           {"d", {{"S", big}}}}}}}});
    sum += 2 + 1 + 2 + sk.size() + 1 + big.size();
  }
  Error error = Fails("TransactWriteItems", {{"TransactItems", actions}});
  EXPECT_EQ(error.type, ErrorType::kValidation);
  EXPECT_EQ(error.message,
            "Transaction payload size cannot exceed 4MB. Payload Size: " +
                std::to_string(sum));
  json count = Ok("Scan", {{"TableName", name}, {"Select", "COUNT"}});
  EXPECT_EQ(count["Count"], 0);
}

TEST_P(ContractTest, StreamsRead) {
  std::string name = CreateTable("streams", /*with_stream=*/true);
  std::string arn =
      Ok("DescribeTable", {{"TableName", name}})["Table"]["LatestStreamArn"];
  ASSERT_FALSE(arn.empty());
  Ok("PutItem",
     {{"TableName", name}, {"Item", Item("s", "1", {{"v", {{"N", "1"}}}})}});
  Ok("UpdateItem", {{"TableName", name},
                    {"Key", Item("s", "1")},
                    {"UpdateExpression", "SET v = :v"},
                    {"ExpressionAttributeValues", {{":v", {{"N", "2"}}}}}});
  json listed = OkStreams("ListStreams", {{"TableName", name}});
  ASSERT_EQ(listed["Streams"].size(), 1u);
  EXPECT_EQ(listed["Streams"][0]["StreamArn"], arn);
  EXPECT_EQ(listed["Streams"][0]["TableName"], name);

  std::vector<json> records;
  for (int round = 0; round < 40 && records.size() < 2; ++round) {
    if (round > 0) Pause();
    records.clear();
    json stream = OkStreams("DescribeStream", {{"StreamArn", arn}});
    EXPECT_EQ(stream["StreamDescription"]["StreamViewType"],
              "NEW_AND_OLD_IMAGES");
    for (const json& shard : stream["StreamDescription"]["Shards"]) {
      json iterator = OkStreams("GetShardIterator",
                                {{"StreamArn", arn},
                                 {"ShardId", shard["ShardId"]},
                                 {"ShardIteratorType", "TRIM_HORIZON"}});
      json page = OkStreams("GetRecords",
                            {{"ShardIterator", iterator["ShardIterator"]}});
      for (const json& record : page["Records"]) records.push_back(record);
    }
  }
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["eventName"], "INSERT");
  EXPECT_EQ(records[0]["eventSource"], "aws:dynamodb");
  EXPECT_EQ(records[0]["dynamodb"]["Keys"], Item("s", "1"));
  EXPECT_EQ(records[0]["dynamodb"]["NewImage"],
            Item("s", "1", {{"v", {{"N", "1"}}}}));
  EXPECT_FALSE(records[0]["dynamodb"].contains("OldImage"));
  EXPECT_EQ(records[1]["eventName"], "MODIFY");
  EXPECT_EQ(records[1]["dynamodb"]["OldImage"],
            Item("s", "1", {{"v", {{"N", "1"}}}}));
  EXPECT_EQ(records[1]["dynamodb"]["NewImage"],
            Item("s", "1", {{"v", {{"N", "2"}}}}));
  EXPECT_EQ(records[1]["dynamodb"]["StreamViewType"], "NEW_AND_OLD_IMAGES");
}

// Controls a backend lacks answer with an error naming it, never a no-op.
TEST_P(ContractTest, MissingControlsSaySo) {
  const bool ddblab =
      GetParam() == "emulator" || GetParam().starts_with("ddblab_");
  EXPECT_EQ(backend_->Has(Capability::kTtlSweep), ddblab);
  EXPECT_EQ(backend_->Has(Capability::kStreamShards), ddblab);
  // Every row here runs on the system clock: no clock control anywhere.
  EXPECT_FALSE(backend_->Has(Capability::kClock));
  Status advanced = backend_->AdvanceClock(std::chrono::seconds(1));
  ASSERT_FALSE(advanced.ok());
  EXPECT_EQ(advanced.error().type, ErrorType::kUnknownOperation);
  EXPECT_EQ(advanced.error().message,
            "backend " + backend_->name() + " has no clock control");
  if (!ddblab) {
    auto swept = backend_->SweepTtl();
    ASSERT_FALSE(swept.ok());
    EXPECT_EQ(swept.error().message,
              "backend " + backend_->name() + " has no TTL sweep control");
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ContractTest,
                         ::testing::Values("emulator", "ddblab_http",
                                           "ddblab_https", "ddblocal", "aws"),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness
