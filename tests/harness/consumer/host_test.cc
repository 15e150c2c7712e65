// tests/harness/consumer/host_test.cc: the hosted mapping API (create, list,
// get, update, delete, failures, file loading) and its delivery step.
#include "harness/consumer/host.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/harness/consumer/esm_fixture.h"

namespace ddblab::harness::consumer {
namespace {

constexpr const char* kPath = "/_ddblab/event-source-mappings";

json CreateBody(const std::string& script, int retries = -1) {
  return {{"TableName", "tbl"},
          {"FunctionName", "sh"},
          {"StartingPosition", "TRIM_HORIZON"},
          {"MaximumRetryAttempts", retries},
          {"Function", {{"Command", {"sh", "-c", script}}}}};
}

// By default the API creates nothing (each function runs a command or
// calls a URL); a file's mappings are created all the same.
TEST_F(EsmTest, HostApiCreatesNoFunctionByDefault) {
  EsmHost host(backend());
  auto refused = host.Handle("POST", kPath, CreateBody("touch x").dump());
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body,
            json({{"__type", "AccessDeniedException"},
                  {"message",
                   "creating a mapping through this API would run a command "
                   "or call a URL, which this host does not allow: start "
                   "ddblab serve with --allow-functions, or give the mapping "
                   "in --event-source-mappings FILE"}}));
  EXPECT_EQ(host.Handle("GET", kPath, "").body,
            json({{"EventSourceMappings", json::array()}}));
  ASSERT_TRUE(host.LoadMappings({CreateBody("cat >/dev/null")}, "file").ok());
  EXPECT_EQ(host.Handle("GET", kPath, "").body["EventSourceMappings"].size(),
            1u);
}

TEST_F(EsmTest, HostCreatesListsUpdatesAndDeletes) {
  EsmHost host(backend());
  host.AllowApiFunctions(true);
  auto created =
      host.Handle("POST", kPath, CreateBody("cat >/dev/null").dump());
  ASSERT_EQ(created.status, 202) << created.body.dump();
  std::string uuid = created.body["UUID"];
  EXPECT_EQ(created.body["State"], "Enabled");
  EXPECT_EQ(created.body["EventSourceArn"], "");  // resolved at first run
  EXPECT_EQ(created.body["Function"],
            json({{"Command", {"sh", "-c", "cat >/dev/null"}}}));
  Put("a");
  auto run = host.Handle("POST", std::string(kPath) + "/run", "");
  ASSERT_EQ(run.status, 200);
  EXPECT_EQ(run.body, json({{"Invocations", 1}}));
  auto got = host.Handle("GET", std::string(kPath) + "/" + uuid, "");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.body["EventSourceArn"], stream_arn_);
  EXPECT_EQ(got.body["LastProcessingResult"], "OK");
  EXPECT_EQ(got.body["Metrics"]["Invocations"], 1);
  // The checkpoint of the one shard stands at the record delivered.
  auto stream =
      backend().CallStreams("DescribeStream", {{"StreamArn", stream_arn_}});
  ASSERT_TRUE(stream.ok());
  const std::string shard_id =
      (*stream)["StreamDescription"]["Shards"][0]["ShardId"];
  auto iterator = backend().CallStreams(
      "GetShardIterator", {{"StreamArn", stream_arn_},
                           {"ShardId", shard_id},
                           {"ShardIteratorType", "TRIM_HORIZON"}});
  ASSERT_TRUE(iterator.ok());
  auto records = backend().CallStreams(
      "GetRecords", {{"ShardIterator", (*iterator)["ShardIterator"]}});
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(got.body["ShardCheckpoints"],
            json::array({{{"ShardId", shard_id},
                          {"SequenceNumber", Seq((*records)["Records"][0])}}}));
  auto list = host.Handle("GET", kPath, "");
  ASSERT_EQ(list.status, 200);
  ASSERT_EQ(list.body["EventSourceMappings"].size(), 1u);
  EXPECT_EQ(list.body["EventSourceMappings"][0]["UUID"], uuid);
  // Pause, write, nothing runs; resume continues.
  auto paused = host.Handle("PUT", std::string(kPath) + "/" + uuid,
                            R"({"Enabled": false})");
  ASSERT_EQ(paused.status, 202);
  EXPECT_EQ(paused.body["State"], "Disabled");
  Put("b");
  EXPECT_EQ(host.RunDue(), 0);
  host.Handle("PUT", std::string(kPath) + "/" + uuid, R"({"Enabled": true})");
  EXPECT_EQ(host.RunDue(), 1);
  auto bad = host.Handle("PUT", std::string(kPath) + "/" + uuid,
                         R"({"BatchSize": 0})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body["__type"], "ValidationException");
  auto deleted = host.Handle("DELETE", std::string(kPath) + "/" + uuid, "");
  ASSERT_EQ(deleted.status, 202);
  EXPECT_EQ(deleted.body["State"], "Deleting");
  auto gone = host.Handle("GET", std::string(kPath) + "/" + uuid, "");
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.body,
            json({{"__type", "ResourceNotFoundException"},
                  {"message", "The resource you requested does not exist."}}));
}

TEST_F(EsmTest, HostFailuresListOnFailureRecords) {
  EsmHost host(backend());
  host.AllowApiFunctions(true);
  auto created = host.Handle("POST", kPath,
                             CreateBody("cat >/dev/null; exit 1", 0).dump());
  ASSERT_EQ(created.status, 202) << created.body.dump();
  std::string uuid = created.body["UUID"];
  Put("a");
  EXPECT_EQ(host.RunDue(), 1);
  auto failures =
      host.Handle("GET", std::string(kPath) + "/" + uuid + "/failures", "");
  ASSERT_EQ(failures.status, 200);
  ASSERT_EQ(failures.body["Failures"].size(), 1u);
  EXPECT_EQ(failures.body["Failures"][0]["requestContext"]["condition"],
            "RetryAttemptsExhausted");
}

TEST_F(EsmTest, HostRejectsBadBodies) {
  EsmHost host(backend());
  host.AllowApiFunctions(true);
  auto not_json = host.Handle("POST", kPath, "{");
  EXPECT_EQ(not_json.status, 400);
  EXPECT_EQ(not_json.body["__type"], "SerializationException");
  json no_function = CreateBody("true");
  no_function.erase("Function");
  auto missing = host.Handle("POST", kPath, no_function.dump());
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body["__type"], "InvalidParameterValueException");
  json bad_filter = CreateBody("true");
  bad_filter["FilterCriteria"] = {{"Filters", {{{"Pattern", "nope"}}}}};
  auto filter = host.Handle("POST", kPath, bad_filter.dump());
  EXPECT_EQ(filter.status, 400);
  EXPECT_EQ(filter.body["message"],
            "Invalid filter pattern definition. Filters[0]: the pattern is "
            "not valid JSON");
  EXPECT_EQ(host.Handle("GET", std::string(kPath) + "/nope", "").status, 404);
  EXPECT_EQ(host.Handle("GET", kPath, "").body,
            json({{"EventSourceMappings", json::array()}}));
}

TEST_F(EsmTest, HostLoadsAFileAllOrNothing) {
  namespace fs = std::filesystem;
  fs::path file = fs::path(::testing::TempDir()) /
                  ("ddblab_esm_" + std::to_string(getpid()) + ".json");
  EsmHost host(backend());
  json bad = json::array({CreateBody("true"), json{{"TableName", "tbl"}}});
  std::ofstream(file) << bad.dump();
  Status s = host.LoadFile(file.string());
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.error().message.find(": mapping 1: ") != std::string::npos)
      << s.error().message;
  EXPECT_EQ(host.Handle("GET", kPath, "").body["EventSourceMappings"].size(),
            0u);
  std::ofstream(file) << json{
      {"EventSourceMappings",
       {CreateBody("true"),
        CreateBody("true")}}}.dump();
  ASSERT_TRUE(host.LoadFile(file.string()).ok());
  EXPECT_EQ(host.Handle("GET", kPath, "").body["EventSourceMappings"].size(),
            2u);
  fs::remove(file);
}

TEST_F(EsmTest, HostPassRetriesAFailingBatchABoundedNumberOfTimes) {
  EsmHost host(backend());
  host.AllowApiFunctions(true);
  auto created =
      host.Handle("POST", kPath, CreateBody("cat >/dev/null; exit 1").dump());
  ASSERT_EQ(created.status, 202) << created.body.dump();
  std::string uuid = created.body["UUID"];
  Put("poison");
  Put("after");
  // MaximumRetryAttempts -1: the batch is due again after every failure;
  // one pass stops after kMaxStuckRounds fruitless invocations.
  EXPECT_EQ(host.RunDue(), kMaxStuckRounds);
  auto m = host.Handle("GET", std::string(kPath) + "/" + uuid, "").body;
  EXPECT_EQ(m["Metrics"]["Invocations"], kMaxStuckRounds);
  EXPECT_EQ(m["Metrics"]["FunctionErrors"], kMaxStuckRounds);
  EXPECT_EQ(m["Metrics"]["Retries"], kMaxStuckRounds);
  EXPECT_EQ(m["Metrics"]["RecordsDiscarded"], 0);
  // The next pass goes on retrying the same batch.
  EXPECT_EQ(host.RunDue(), kMaxStuckRounds);
  m = host.Handle("GET", std::string(kPath) + "/" + uuid, "").body;
  EXPECT_EQ(m["Metrics"]["Retries"], 2 * kMaxStuckRounds);
}

TEST_F(EsmTest, HostPassIsNotLimitedWhileDeliveryProgresses) {
  EsmHost host(backend());
  host.AllowApiFunctions(true);
  json body = CreateBody("cat >/dev/null");
  body["BatchSize"] = 1;
  ASSERT_EQ(host.Handle("POST", kPath, body.dump()).status, 202);
  const int n = static_cast<int>(kMaxStuckRounds) + 8;
  for (int i = 0; i < n; ++i) Put("k" + std::to_string(i));
  EXPECT_EQ(host.RunDue(), n);  // one invocation per record, all in one pass
  EXPECT_EQ(host.RunDue(), 0);
}

}  // namespace
}  // namespace ddblab::harness::consumer
