// tests/cli/control_esm_test.cc: `ddblab serve` hosting event source
// mappings, composed as cli/main.cc composes it (TTL/clock control + the
// hosted mappings on one engine), driven through the Protocol without a
// socket: the mapping API under the server's /_ddblab/ prefix, mappings
// from --event-source-mappings, delivery when POST /_ddblab/clock moves a
// manual clock, and the checks on a bad file.
#include "cli/control_esm.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/control_ttl.h"
#include "cli/emulator_handler.h"
#include "emulator/server/protocol.h"
#include "tests/cli/control_call.h"

namespace ddblab::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr std::string_view kEsm = "/_ddblab/event-source-mappings";
constexpr int64_t kStart = 1700000000;

class ServeEsmTest : public ::testing::Test {
 protected:
  ServeEsmTest()
      : logger_(server::LogLevel::kError, log_),
        auth_(server::AuthConfig{}, date_clock_) {
    dir_ = fs::path(::testing::TempDir()) /
           ("ddblab_serve_esm_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    log_file_ = (dir_ / "events.jsonl").string();
  }

  ~ServeEsmTest() override {
    if (protocol_) protocol_->extensions().Stop();  // as RunServe does
    protocol_.reset();
    handler_.reset();
    fs::remove_all(dir_);
  }

  // What RunServe does between parsing and serving, minus the socket.
  Status Start(const ServeConfig& config) {
    server::ServeHooks hooks;
    hooks.open = &EmulatorHandler::Open;
    DDBLAB_RETURN_IF_ERROR(AddTtlControl(config, hooks));
    DDBLAB_RETURN_IF_ERROR(AddEsmControl(config, hooks));
    Options options;
    options.seed = config.seed;
    DDBLAB_ASSIGN_OR_RETURN(handler_, hooks.open(options));
    protocol_ = std::make_unique<server::Protocol>(
        *handler_, auth_, date_clock_, logger_, server::ProtocolConfig{});
    return hooks.add_routes(*handler_, *protocol_);
  }

  static ServeConfig ManualConfig(std::string file = "") {
    ServeConfig config;
    config.clock = "manual=" + std::to_string(kStart);
    config.event_source_mappings_file = std::move(file);
    config.allow_functions = true;
    return config;
  }

  std::string WriteFile(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  // A mapping whose command appends each event as one line to log_file_
  // and answers null (success).
  Json LoggingMapping(Json fields = Json::object()) const {
    Json m = {{"TableName", "orders"},
              {"FunctionName", "logger"},
              {"StartingPosition", "TRIM_HORIZON"},
              {"Function",
               {{"Command",
                 {"sh", "-c", "cat >> \"$0\"; echo >> \"$0\"", log_file_}}}}};
    m.update(fields);
    return m;
  }

  void DynamoCall(const std::string& op, const Json& request) {
    Result<Json> out = handler_->Call(op, request);
    ASSERT_TRUE(out.ok()) << ToString(out.error());
    if (op == "CreateTable") {
      stream_arn_ = (*out)["TableDescription"]["LatestStreamArn"];
    }
  }

  void CreateOrders() {
    DynamoCall("CreateTable", Json::parse(R"({
      "TableName": "orders",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST",
      "StreamSpecification": {"StreamEnabled": true,
                              "StreamViewType": "NEW_AND_OLD_IMAGES"}})"));
  }
  void Put(const std::string& pk) {
    DynamoCall("PutItem",
               {{"TableName", "orders"}, {"Item", {{"pk", {{"S", pk}}}}}});
  }

  using Answer = control_test::ControlAnswer;
  Answer Send(std::string method, std::string path, std::string body = "") {
    return control_test::SendControl(*protocol_, std::move(method),
                                     std::move(path), std::move(body));
  }
  Answer Advance(const std::string& amount) {
    return Send("POST", "/_ddblab/clock", Json{{"advance", amount}}.dump());
  }
  Json Mappings() {
    Answer list = Send("GET", std::string(kEsm));
    EXPECT_EQ(list.status, 200);
    return list.body["EventSourceMappings"];
  }

  // The pk of every record of every invocation logged so far.
  std::vector<std::vector<std::string>> Invocations() const {
    std::vector<std::vector<std::string>> out;
    std::ifstream in(log_file_);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      Json event = Json::parse(line);
      std::vector<std::string> pks;
      for (const Json& r : event["Records"]) {
        pks.push_back(r["dynamodb"]["Keys"]["pk"]["S"]);
        EXPECT_EQ(r["eventSourceARN"], stream_arn_);
      }
      out.push_back(pks);
    }
    return out;
  }

  fs::path dir_;
  std::string log_file_;
  std::string stream_arn_;
  ManualClock date_clock_;  // the Date header's; the engine has its own
  std::ostringstream log_;
  server::Logger logger_;
  server::Authenticator auth_;
  std::unique_ptr<server::RequestHandler> handler_;
  std::unique_ptr<server::Protocol> protocol_;
};

using Calls = std::vector<std::vector<std::string>>;

TEST_F(ServeEsmTest, FileMappingsDeliverWhenTheClockAdvances) {
  std::string file =
      WriteFile("esm.json", Json::array({LoggingMapping()}).dump());
  ASSERT_TRUE(Start(ManualConfig(file)).ok());
  CreateOrders();
  Put("a");
  Put("b");
  // Nothing runs until the clock moves.
  Json before = Mappings();
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0]["Metrics"]["Invocations"], 0);
  EXPECT_EQ(before[0]["LastProcessingResult"], "No records processed");
  EXPECT_EQ(Invocations(), Calls{});

  Answer moved = Advance("1s");
  EXPECT_EQ(moved.status, 200);
  EXPECT_EQ(moved.body, Json({{"now", kStart + 1}, {"deleted", 0}}));
  // Delivered before the clock call answered.
  EXPECT_EQ(Invocations(), (Calls{{"a", "b"}}));
  std::string uuid = before[0]["UUID"];
  Answer got = Send("GET", std::string(kEsm) + "/" + uuid);
  ASSERT_EQ(got.status, 200);
  Json expected = {
      {"BatchSize", 100},
      {"MaximumBatchingWindowInSeconds", 0},
      {"ParallelizationFactor", 1},
      {"EventSourceArn", stream_arn_},
      {"StartingPosition", "TRIM_HORIZON"},
      {"MaximumRecordAgeInSeconds", -1},
      {"BisectBatchOnFunctionError", false},
      {"MaximumRetryAttempts", -1},
      {"TumblingWindowInSeconds", 0},
      {"FunctionResponseTypes", Json::array()},
      {"DestinationConfig", Json::object()},
      {"UUID", uuid},
      {"FunctionArn", "arn:aws:lambda:us-east-1:000000000000:function:logger"},
      {"LastModified", before[0]["LastModified"]},
      {"LastProcessingResult", "OK"},
      {"State", "Enabled"},
      {"StateTransitionReason", "User action"},
      {"Function", LoggingMapping()["Function"]},
      {"Metrics",
       {{"Invocations", 1},
        {"FunctionErrors", 0},
        {"PartialFailures", 0},
        {"NotDelivered", 0},
        {"Retries", 0},
        {"Bisections", 0},
        {"RecordsDelivered", 2},
        {"RecordsFiltered", 0},
        {"RecordsDiscarded", 0},
        {"IteratorAgeMilliseconds", 1000}}}};
  // The checkpoint of the one shard: the last record of the one event.
  Result<Json> stream =
      handler_->CallStreams("DescribeStream", {{"StreamArn", stream_arn_}});
  ASSERT_TRUE(stream.ok());
  std::ifstream log(log_file_);
  std::string line;
  ASSERT_TRUE(std::getline(log, line));
  const Json event = Json::parse(line);
  expected["ShardCheckpoints"] = Json::array(
      {{{"ShardId", (*stream)["StreamDescription"]["Shards"][0]["ShardId"]},
        {"SequenceNumber",
         event["Records"][1]["dynamodb"]["SequenceNumber"]}}});
  EXPECT_EQ(got.body, expected) << got.body.dump(2);

  // A later write goes out at the next advance, not before.
  Put("c");
  EXPECT_EQ(Invocations(), (Calls{{"a", "b"}}));
  EXPECT_EQ(Advance("500ms").status, 200);
  EXPECT_EQ(Invocations(), (Calls{{"a", "b"}, {"c"}}));
  EXPECT_EQ(Advance("1h").status, 200);
  EXPECT_EQ(Invocations(), (Calls{{"a", "b"}, {"c"}}));
}

// Without --allow-functions the API creates nothing: every function runs
// a command or calls a URL, and only the operator decides that.
TEST_F(ServeEsmTest, ApiCreatesNothingWithoutAllowFunctions) {
  ServeConfig config = ManualConfig();
  config.allow_functions = false;
  ASSERT_TRUE(Start(config).ok());
  CreateOrders();
  Put("a");
  Answer created = Send("POST", std::string(kEsm), LoggingMapping().dump());
  EXPECT_EQ(created.status, 403);
  EXPECT_EQ(created.body,
            (Json{{"__type", "AccessDeniedException"},
                  {"message",
                   "creating a mapping through this API would run a command "
                   "or call a URL, which this host does not allow: start "
                   "ddblab serve with --allow-functions, or give the mapping "
                   "in --event-source-mappings FILE"}}));
  EXPECT_EQ(Mappings(), Json::array());
  ASSERT_EQ(Advance("1s").status, 200);
  EXPECT_EQ(Invocations(), Calls{});
  EXPECT_FALSE(fs::exists(log_file_));
}

TEST_F(ServeEsmTest, ApiOnTheServersPortCreatesPausesResumesDeletes) {
  ASSERT_TRUE(Start(ManualConfig()).ok());
  CreateOrders();
  EXPECT_EQ(Mappings(), Json::array());
  Answer created = Send("POST", std::string(kEsm),
                        LoggingMapping({{"BatchSize", 2}}).dump());
  ASSERT_EQ(created.status, 202) << created.body.dump();
  std::string uuid = created.body["UUID"];
  EXPECT_EQ(created.body["State"], "Enabled");
  EXPECT_EQ(created.body["BatchSize"], 2);
  for (std::string pk : {"a", "b", "c"}) Put(pk);
  ASSERT_EQ(Advance("1s").status, 200);
  EXPECT_EQ(Invocations(), (Calls{{"a", "b"}, {"c"}}));

  Answer paused =
      Send("PUT", std::string(kEsm) + "/" + uuid, R"({"Enabled": false})");
  ASSERT_EQ(paused.status, 202);
  EXPECT_EQ(paused.body["State"], "Disabled");
  Put("d");
  ASSERT_EQ(Advance("1s").status, 200);
  EXPECT_EQ(Invocations().size(), 2u);  // paused: nothing delivered
  Answer resumed =
      Send("PUT", std::string(kEsm) + "/" + uuid, R"({"Enabled": true})");
  ASSERT_EQ(resumed.status, 202);
  EXPECT_EQ(resumed.body["State"], "Enabled");
  // .../run delivers what is due without moving the clock.
  Answer run = Send("POST", std::string(kEsm) + "/run");
  EXPECT_EQ(run.status, 200);
  EXPECT_EQ(run.body, Json({{"Invocations", 1}}));
  EXPECT_EQ(Invocations(), (Calls{{"a", "b"}, {"c"}, {"d"}}));

  Answer deleted = Send("DELETE", std::string(kEsm) + "/" + uuid);
  ASSERT_EQ(deleted.status, 202);
  EXPECT_EQ(deleted.body["State"], "Deleting");
  Answer gone = Send("GET", std::string(kEsm) + "/" + uuid);
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.body,
            Json({{"__type", "ResourceNotFoundException"},
                  {"message", "The resource you requested does not exist."}}));
  EXPECT_EQ(Mappings(), Json::array());
}

TEST_F(ServeEsmTest, RetriesExhaustedLeaveAnOnFailureRecord) {
  ASSERT_TRUE(Start(ManualConfig()).ok());
  CreateOrders();
  Json failing = LoggingMapping({{"MaximumRetryAttempts", 0}});
  failing["Function"] = {{"Command", {"sh", "-c", "cat >/dev/null; exit 3"}}};
  Answer created = Send("POST", std::string(kEsm), failing.dump());
  ASSERT_EQ(created.status, 202);
  std::string uuid = created.body["UUID"];
  Put("a");
  ASSERT_EQ(Advance("1s").status, 200);
  Answer failures = Send("GET", std::string(kEsm) + "/" + uuid + "/failures");
  ASSERT_EQ(failures.status, 200);
  ASSERT_EQ(failures.body["Failures"].size(), 1u) << failures.body.dump(2);
  const Json& f = failures.body["Failures"][0];
  EXPECT_EQ(f["requestContext"]["condition"], "RetryAttemptsExhausted");
  EXPECT_EQ(f["requestContext"]["approximateInvokeCount"], 1);
  EXPECT_EQ(f["DDBStreamBatchInfo"]["batchSize"], 1);
  EXPECT_EQ(f["DDBStreamBatchInfo"]["streamArn"], stream_arn_);
  Json m = Send("GET", std::string(kEsm) + "/" + uuid).body;
  EXPECT_EQ(m["LastProcessingResult"], "PROBLEM: Function call failed");
  EXPECT_EQ(m["Metrics"]["FunctionErrors"], 1);
  EXPECT_EQ(m["Metrics"]["RecordsDiscarded"], 1);
}

TEST_F(ServeEsmTest, TtlDeletionsOfTheAdvanceAreDeliveredInTheSameCall) {
  // The filter users deploy to see TTL expiries and nothing else.
  Json ttl_only = LoggingMapping(
      {{"FilterCriteria",
        {{"Filters",
          {{{"Pattern",
             R"({"userIdentity": {"type": ["Service"], "principalId": ["dynamodb.amazonaws.com"]}})"}}}}}}});
  std::string file = WriteFile("esm.json", Json::array({ttl_only}).dump());
  ASSERT_TRUE(Start(ManualConfig(file)).ok());
  CreateOrders();
  DynamoCall("UpdateTimeToLive",
             {{"TableName", "orders"},
              {"TimeToLiveSpecification",
               {{"Enabled", true}, {"AttributeName", "expires"}}}});
  DynamoCall("PutItem",
             {{"TableName", "orders"},
              {"Item",
               {{"pk", {{"S", "old"}}},
                {"expires", {{"N", std::to_string(kStart + 10)}}}}}});
  Put("kept");
  DynamoCall("DeleteItem",
             {{"TableName", "orders"}, {"Key", {{"pk", {{"S", "kept"}}}}}});
  ASSERT_EQ(Advance("5s").body, Json({{"now", kStart + 5}, {"deleted", 0}}));
  EXPECT_EQ(Invocations(), Calls{});  // a user's DeleteItem is filtered out
  // Deleted once its TTL is less than the clock (kStart + 11).
  ASSERT_EQ(Advance("6s").body, Json({{"now", kStart + 11}, {"deleted", 1}}));
  EXPECT_EQ(Invocations(), (Calls{{"old"}}));
  Json m = Mappings()[0];
  EXPECT_EQ(m["Metrics"]["RecordsFiltered"], 3);  // 2 inserts + 1 delete
}

TEST_F(ServeEsmTest, BadFileIsRefusedNamingTheEntry) {
  Json bad_batch = LoggingMapping({{"BatchSize", 0}});
  std::string file =
      WriteFile("bad.json", Json::array({LoggingMapping(), bad_batch}).dump());
  Status s = Start(ManualConfig(file));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "--event-source-mappings: " + file +
                ": mapping 1: 1 validation error detected: Value '0' at "
                "'batchSize' failed to satisfy constraint: Member must have "
                "value greater than or equal to 1");
  EXPECT_EQ(handler_, nullptr);  // refused before the engine opened

  Json no_function = LoggingMapping();
  no_function.erase("Function");
  file = WriteFile("nofn.json", Json::array({no_function}).dump());
  s = Start(ManualConfig(file));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "--event-source-mappings: " + file +
                ": mapping 0: Function is required: {\"Command\": [...]} or "
                "{\"Url\": \"...\"}");

  file = WriteFile("broken.json", "[{");
  s = Start(ManualConfig(file));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "--event-source-mappings: " + file + ": not valid JSON");

  file = WriteFile("object.json", R"({"TableName": "orders"})");
  s = Start(ManualConfig(file));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "--event-source-mappings: " + file +
                ": expected a JSON list of event source mappings");

  std::string missing = (dir_ / "missing.json").string();
  s = Start(ManualConfig(missing));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "--event-source-mappings: cannot read " + missing);
}

TEST_F(ServeEsmTest, SameWritesAndAdvancesGiveTheSameInvocations) {
  // Two runs of one script: identical invocation logs and metrics.
  std::vector<Json> runs;
  for (int run = 0; run < 2; ++run) {
    if (protocol_) protocol_->extensions().Stop();
    protocol_.reset();
    handler_.reset();
    fs::remove(log_file_);
    std::string file = WriteFile(
        "esm.json",
        Json::array({LoggingMapping({{"BatchSize", 3},
                                     {"MaximumBatchingWindowInSeconds", 2}})})
            .dump());
    ASSERT_TRUE(Start(ManualConfig(file)).ok());
    CreateOrders();
    for (int i = 0; i < 7; ++i) Put("k" + std::to_string(i));
    ASSERT_EQ(Advance("1s").status, 200);
    Calls first = Invocations();
    ASSERT_EQ(Advance("2s").status, 200);
    Json mapping = Mappings()[0];
    mapping.erase("EventSourceArn");  // each run has its own stream
    runs.push_back(Json{{"after_1s", first},
                        {"after_3s", Invocations()},
                        {"mapping", mapping}});
  }
  EXPECT_EQ(runs[0], runs[1]);
  // Full batches go out as soon as they are gathered; the last partial one
  // waits for its batching window.
  EXPECT_EQ(runs[0]["after_1s"],
            Json({{"k0", "k1", "k2"}, {"k3", "k4", "k5"}}));
  EXPECT_EQ(runs[0]["after_3s"],
            Json({{"k0", "k1", "k2"}, {"k3", "k4", "k5"}, {"k6"}}));
}

TEST_F(ServeEsmTest, ClockHookLeavesTheServerAnsweringOnASystemClock) {
  // On the system clock a thread delivers; the stop hook ends it before the
  // engine closes (the fixture's teardown does it as RunServe would).
  ServeConfig config;
  config.allow_functions = true;
  ASSERT_TRUE(Start(config).ok());
  CreateOrders();
  Answer created = Send("POST", std::string(kEsm), LoggingMapping().dump());
  ASSERT_EQ(created.status, 202);
  Answer clock = Advance("1s");
  EXPECT_EQ(clock.status, 400);
  EXPECT_EQ(clock.body["message"],
            "the clock is the system clock; start ddblab serve with --clock "
            "manual to control it");
}

}  // namespace
}  // namespace ddblab::cli
