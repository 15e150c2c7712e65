// Persistence, "bad input changes nothing" and concurrency.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine::testing {
namespace {

Json S(const std::string& s) { return {{"S", s}}; }

class EngineStateTest : public EngineTest {
 protected:
  // Everything observable: tables, descriptions, TTL, tags, items.
  Json Snapshot() {
    Json out = Json::object();
    Json names = Ok("ListTables", Json())["TableNames"];
    out["tables"] = names;
    for (const auto& name : names) {
      Json t;
      t["describe"] = Describe(name);
      t["ttl"] = Ok("DescribeTimeToLive", {{"TableName", name}});
      t["tags"] = Ok("ListTagsOfResource",
                     {{"ResourceArn", t["describe"]["TableArn"]}});
      Json items = Json::array();
      auto lock = impl().Lock();
      const Table& table =
          *impl().catalog().Find(name.get<std::string>())->table;
      storage::ScanSpec spec;
      spec.table_id = table.id;
      EXPECT_TRUE(impl()
                      .store()
                      .Scan(spec,
                            [&](const storage::Row& row) {
                              items.push_back(std::string(row.item));
                              return true;
                            })
                      .ok());
      for (const IndexDef& idx : table.indexes) {
        spec.index_id = idx.id;
        EXPECT_TRUE(impl()
                        .store()
                        .Scan(spec,
                              [&](const storage::Row& row) {
                                items.push_back(idx.name + ":" +
                                                std::string(row.item));
                                return true;
                              })
                        .ok());
      }
      t["rows"] = items;
      out[name.get<std::string>()] = t;
    }
    return out;
  }
};

TEST_F(EngineStateTest, FileDatabaseKeepsTablesAndItemsAcrossReopen) {
  std::string dir =
      "/tmp/ddblab-engine-test-" + std::to_string(getpid()) + "-" +
      ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = dir + "/ddb.sqlite";
  Open(options);
  Ok("CreateTable", Json::parse(R"({"TableName": "kept",
      "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "g", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "GlobalSecondaryIndexes": [{"IndexName": "gsi",
        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"}}],
      "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"},
      "Tags": [{"Key": "k", "Value": "v"}]})"));
  Ok("UpdateTimeToLive", {{"TableName", "kept"},
                          {"TimeToLiveSpecification",
                           {{"Enabled", true}, {"AttributeName", "exp"}}}});
  for (int i = 0; i < 20; ++i) {
    Ok("PutItem", {{"TableName", "kept"},
                   {"Item",
                    {{"pk", S("k" + std::to_string(i))},
                     {"g", S(i % 2 ? "odd" : "even")}}}});
  }
  Ok("DeleteItem", {{"TableName", "kept"}, {"Key", {{"pk", S("k0")}}}});
  Json before = Snapshot();
  emu_.reset();  // close
  Open(options);
  Json after = Snapshot();
  EXPECT_EQ(after, before);
  EXPECT_EQ(after["kept"]["describe"]["ItemCount"], 19);
  EXPECT_EQ(after["kept"]["describe"]["GlobalSecondaryIndexes"][0]["ItemCount"],
            19);
  EXPECT_EQ(Ok("GetItem", {{"TableName", "kept"}, {"Key", {{"pk", S("k5")}}}}),
            Json({{"Item", {{"pk", S("k5")}, {"g", S("odd")}}}}));
  // The reopened emulator keeps working and keeps ids apart.
  CreateTable("second");
  EXPECT_NE(Describe("second")["TableId"], Describe("kept")["TableId"]);
  emu_.reset();
  std::filesystem::remove_all(dir);
}

// Two emulators on one file would each keep their own catalog: the second
// Open is refused (ResourceInUseException, from the storage's file lock)
// while the first keeps serving, and succeeds once the first is closed.
TEST_F(EngineStateTest, SecondEmulatorOnAFileInUseIsRefused) {
  std::string dir =
      "/tmp/ddblab-engine-test-" + std::to_string(getpid()) + "-" +
      ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = dir + "/ddb.sqlite";
  Open(options);
  CreateTable("first");

  auto second = Emulator::Open(options);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(ToString(second.error()),
            "ResourceInUseException: database " + options.db_path +
                " is already open in this process: one emulator per database "
                "file; close it or use another database file");
  Ok("PutItem", {{"TableName", "first"}, {"Item", {{"pk", S("a")}}}});

  emu_.reset();  // releases the file
  auto reopened = Emulator::Open(options);
  ASSERT_TRUE(reopened.ok()) << ToString(reopened.error());
  auto got = (*reopened)->Call(
      "GetItem", {{"TableName", "first"}, {"Key", {{"pk", S("a")}}}});
  ASSERT_TRUE(got.ok()) << ToString(got.error());
  EXPECT_EQ(*got, Json({{"Item", {{"pk", S("a")}}}}));
  (*reopened).reset();
  std::filesystem::remove_all(dir);
}

TEST_F(EngineStateTest, OpenFailsCleanlyOnBadPath) {
  Options options;
  options.db_path = "/nonexistent-ddblab-dir/x/db.sqlite";
  auto emu = Emulator::Open(options);
  ASSERT_FALSE(emu.ok());
  EXPECT_EQ(emu.error().type, ErrorType::kInternalServerError);
}

TEST_F(EngineStateTest, BadInputChangesNothing) {
  Ok("CreateTable", Json::parse(R"({"TableName": "base",
      "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "g", "AttributeType": "N"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "GlobalSecondaryIndexes": [{"IndexName": "gsi",
        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"}}]})"));
  Ok("PutItem",
     {{"TableName", "base"}, {"Item", {{"pk", S("a")}, {"g", {{"N", "1"}}}}}});
  Json before = Snapshot();
  std::vector<std::pair<std::string, Json>> bad;
  auto add = [&](const std::string& op, Json request) {
    bad.emplace_back(op, std::move(request));
  };
  Json table = {{"TableName", "base"}};
  auto with = [&](Json extra) {
    Json r = table;
    r.update(extra);
    return r;
  };
  add("PutItem", with({{"Item", {{"pk", S("a")}, {"g", S("x")}}}}));
  add("PutItem", with({{"Item", {{"pk", {{"N", "1"}}}}}}));
  add("PutItem", with({{"Item", {{"pk", S("a")}, {"b", Json::object()}}}}));
  add("PutItem",
      with({{"Item", {{"pk", S("a")}}}, {"ReturnValues", "ALL_NEW"}}));
  add("PutItem", {{"TableName", "nope"}, {"Item", {{"pk", S("a")}}}});
  add("DeleteItem", with({{"Key", {{"pk", S("a")}, {"x", S("y")}}}}));
  add("DeleteItem",
      with({{"Key", {{"pk", S("a")}}}, {"ConditionExpression", "x"}}));
  add("CreateTable", with({{"AttributeDefinitions", Json::array()}}));
  add("CreateTable", Json::parse(R"({"TableName": "base",
      "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})"));
  add("UpdateTable", table);
  add("UpdateTable",
      with({{"GlobalSecondaryIndexUpdates",
             Json::array({{{"Delete", {{"IndexName", "missing"}}}}})}}));
  add("UpdateTable",
      with({{"StreamSpecification", {{"StreamEnabled", false}}}}));
  add("UpdateTimeToLive",
      with({{"TimeToLiveSpecification",
             {{"Enabled", false}, {"AttributeName", "e"}}}}));
  add("TagResource",
      {{"ResourceArn", "arn:aws:dynamodb:us-east-1:000000000000:table/base"},
       {"Tags", Json::array({{{"Key", "aws:k"}, {"Value", "v"}}})}});
  add("DeleteTable", {{"TableName", "bas"}});
  add("DeleteTable", Json::array());
  for (const auto& [op, request] : bad) {
    Fail(op, request);
  }
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(EngineStateTest, ConcurrentPutsAreAllCounted) {
  CreateTable("conc");
  constexpr int kThreads = 8;
  constexpr int kPerThread = 200;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        Json item = {
            {"pk", S("t" + std::to_string(t) + "-" + std::to_string(i))},
            {"shared", S("x")}};
        if (!emu_->Call("PutItem", {{"TableName", "conc"}, {"Item", item}})
                 .ok()) {
          failures++;
        }
        // Everyone also overwrites one hot item.
        if (!emu_->Call("PutItem",
                        {{"TableName", "conc"},
                         {"Item",
                          {{"pk", S("hot")}, {"by", S(std::to_string(t))}}}})
                 .ok()) {
          failures++;
        }
        if (!emu_->Call("GetItem",
                        {{"TableName", "conc"}, {"Key", {{"pk", S("hot")}}}})
                 .ok()) {
          failures++;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  Json d = Describe("conc");
  EXPECT_EQ(d["ItemCount"], kThreads * kPerThread + 1);
  auto lock = impl().Lock();
  const Table& t = *impl().catalog().Find("conc")->table;
  auto stats = impl().store().ComputeStats(t.id, storage::kBaseTable);
  EXPECT_EQ(stats->count, kThreads * kPerThread + 1);
  EXPECT_EQ(stats->bytes, d["TableSizeBytes"].get<int64_t>());
}

}  // namespace
}  // namespace ddblab::engine::testing
