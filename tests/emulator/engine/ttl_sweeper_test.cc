// TTL deletion: which items go, when, and how (system deletes through the
// one write path).
#include "emulator/engine/ttl/ttl_sweeper.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "emulator/engine/item_writer.h"
#include "tests/emulator/engine/ttl_test_util.h"

namespace ddblab::engine::testing {
namespace {

using Origin = ChangeEvent::Origin;

class TtlSweeperTest : public TtlEngineTest {};

TEST_F(TtlSweeperTest, DeletesOnlyExpiredNumberTtls) {
  CreateTtlTable();
  Put("ttl", "past", N(kT0 - 10));
  Put("ttl", "now", N(kT0));
  Put("ttl", "future", N(kT0 + 100));
  Put("ttl", "none", nullptr);
  Put("ttl", "string", {{"S", std::to_string(kT0 - 10)}});
  Put("ttl", "set", {{"NS", {std::to_string(kT0 - 10)}}});
  Put("ttl", "bool", {{"BOOL", true}});
  Put("ttl", "list", {{"L", {N(kT0 - 10)}}});
  // Deletion of "past" is due at once, and runs when the clock moves.
  // "now" (ttl equal to now) is not expired: TTL deletes only ttl < now.
  for (const char* pk :
       {"past", "now", "future", "none", "string", "set", "bool", "list"}) {
    EXPECT_TRUE(Has("ttl", pk)) << pk;
  }
  EXPECT_EQ(Waiting("ttl"), 3);  // "past", "now" and "future"
  Advance(1);
  EXPECT_FALSE(Has("ttl", "past"));
  EXPECT_FALSE(Has("ttl", "now"));
  Advance(99);
  EXPECT_TRUE(Has("ttl", "future"));  // its ttl is now
  Advance(1);
  EXPECT_FALSE(Has("ttl", "future"));
  EXPECT_EQ(Waiting("ttl"), 0);
  EXPECT_EQ(Describe("ttl")["ItemCount"], 5);
}

TEST_F(TtlSweeperTest, FiveYearRule) {
  CreateTtlTable();
  Put("ttl", "five_years", N(kT0 - kTtlMaxAgeSeconds));
  Put("ttl", "older", N(kT0 - kTtlMaxAgeSeconds - 1));
  Put("ttl", "1975", N(162777600));
  EXPECT_TRUE(Has("ttl", "five_years"));  // due, kept until a move or sweep
  EXPECT_EQ(Sweep(), 1);
  EXPECT_FALSE(Has("ttl", "five_years"));
  EXPECT_TRUE(Has("ttl", "older"));
  EXPECT_TRUE(Has("ttl", "1975"));
  EXPECT_EQ(Waiting("ttl"), 0);
  Advance(86400);
  EXPECT_EQ(Sweep(), 0);
  EXPECT_TRUE(Has("ttl", "older"));
}

TEST_F(TtlSweeperTest, FractionalAndExponentNumbers) {
  CreateTtlTable();
  Put("ttl", "half", N(std::to_string(kT0) + ".5"));  // expires at T0 + 1
  Put("ttl", "exp", N("170406719e1"));                // T0 - 10: expired
  Put("ttl", "exp1", N("170406720e1"));               // exactly T0: not yet
  Put("ttl", "exp2", N("1.704067201E9"));             // T0 + 1
  EXPECT_TRUE(Has("ttl", "exp"));  // due at once, kept until the clock moves
  EXPECT_TRUE(Has("ttl", "exp1"));
  EXPECT_TRUE(Has("ttl", "half"));
  EXPECT_TRUE(Has("ttl", "exp2"));
  EXPECT_EQ(QueueDue("ttl", "exp"), kT0);
  EXPECT_EQ(QueueDue("ttl", "half"), kT0 + 1);
  EXPECT_EQ(QueueDue("ttl", "exp1"), kT0 + 1);
  EXPECT_EQ(QueueDue("ttl", "exp2"), kT0 + 2);
  Advance(1);
  EXPECT_EQ(Sweep(), 3);
  EXPECT_FALSE(Has("ttl", "exp"));
  EXPECT_FALSE(Has("ttl", "half"));
  EXPECT_FALSE(Has("ttl", "exp1"));
  EXPECT_TRUE(Has("ttl", "exp2"));
  Advance(1);
  EXPECT_FALSE(Has("ttl", "exp2"));
}

TEST_F(TtlSweeperTest, ExpiredItemsStayReadableAndWritableUntilDeleted) {
  Options options;
  options.ttl_delay = "90s";
  Open(options);
  CreateTtlTable();
  Put("ttl", "a", N(kT0 - 1));  // expired at T0, due at T0 + 90
  EXPECT_TRUE(Has("ttl", "a"));
  EXPECT_EQ(QueueDue("ttl", "a"), kT0 + 90);
  Put("ttl", "a", N(kT0 - 1), {{"note", {{"S", "updated while expired"}}}});
  Json got =
      Ok("GetItem", {{"TableName", "ttl"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(got["Item"]["note"]["S"], "updated while expired");
  Advance(89);
  EXPECT_TRUE(Has("ttl", "a"));
  Advance(1);
  EXPECT_FALSE(Has("ttl", "a"));
}

// The TTL rule on a manual clock: due deletions run when the clock moves
// or on an explicit sweep, never because a call arrived. An item written
// already expired reads back at the same clock time, and is gone after a
// move (of a millisecond: any move).
TEST_F(TtlSweeperTest, ExpiredAtTheWriteReadableUntilTheClockMoves) {
  CreateTtlTable();
  auto recorder = AddRecorder();
  Put("ttl", "a", N(kT0 - 10));
  EXPECT_EQ(QueueDue("ttl", "a"), kT0);  // due at the write
  EXPECT_TRUE(Has("ttl", "a"));
  EXPECT_TRUE(Has("ttl", "a"));
  EXPECT_EQ(Ok("Scan", {{"TableName", "ttl"}})["Count"], 1);
  EXPECT_EQ(Waiting("ttl"), 1);
  clock_->Advance(std::chrono::milliseconds(1));
  EXPECT_FALSE(Has("ttl", "a"));
  EXPECT_EQ(Waiting("ttl"), 0);
  ASSERT_EQ(recorder->events.size(), 2u);
  EXPECT_EQ(recorder->events[1].origin, Origin::kTtl);
  EXPECT_EQ(recorder->events[1].now, kT0);  // dated when it fell due
}

// Calls of every kind at one clock time delete nothing, however many.
TEST_F(TtlSweeperTest, CallsWithoutAClockMoveDeleteNothing) {
  CreateTtlTable();
  auto recorder = AddRecorder();
  Put("ttl", "a", N(kT0 - 10));
  for (int i = 0; i < 3; ++i) {
    Put("ttl", "other" + std::to_string(i), N(kT0 - 10));
    EXPECT_TRUE(Has("ttl", "a"));
    Ok("Query", {{"TableName", "ttl"},
                 {"KeyConditionExpression", "pk = :a"},
                 {"ExpressionAttributeValues", {{":a", {{"S", "a"}}}}}});
    Ok("DescribeTimeToLive", {{"TableName", "ttl"}});
    ASSERT_TRUE(emu_->CallStreams("ListStreams", Json::object()).ok());
  }
  EXPECT_EQ(Ok("Scan", {{"TableName", "ttl"}})["Count"], 4);
  EXPECT_EQ(Waiting("ttl"), 4);
  EXPECT_EQ(ToEpochSeconds(clock_->Now()), kT0);
  for (const RecordingSink::Event& e : recorder->events) {
    EXPECT_NE(e.origin, Origin::kTtl) << e.pk;
  }
}

// An explicit sweep deletes what is due without a clock move.
TEST_F(TtlSweeperTest, ExplicitSweepDeletesWithoutAClockMove) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 - 10));
  Put("ttl", "b", N(kT0 + 10));
  EXPECT_TRUE(Has("ttl", "a"));
  EXPECT_EQ(Sweep(), 1);
  EXPECT_EQ(clock_->Now(), FromEpochSeconds(kT0));
  EXPECT_FALSE(Has("ttl", "a"));
  EXPECT_TRUE(Has("ttl", "b"));
  EXPECT_EQ(Waiting("ttl"), 1);
}

// A set moves the clock as an advance does; the first call after a move
// sweeps before it runs, so a write it makes waits for the next move.
TEST_F(TtlSweeperTest, AWriteAfterAMoveWaitsForTheNextMove) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 - 10));
  ASSERT_TRUE(clock_->Set(FromEpochSeconds(kT0 + 5)));
  Put("ttl", "b", N(kT0 - 10));  // sweeps "a" first
  EXPECT_EQ(QueueDue("ttl", "a"), std::nullopt);
  EXPECT_EQ(QueueDue("ttl", "b"), kT0 + 5);
  EXPECT_FALSE(Has("ttl", "a"));
  EXPECT_TRUE(Has("ttl", "b"));
  EXPECT_EQ(Sweep(), 1);  // an explicit sweep at the same time
  EXPECT_FALSE(Has("ttl", "b"));
  Put("ttl", "c", N(kT0 - 10));
  EXPECT_TRUE(Has("ttl", "c"));  // the sweep covered this time already
  Advance(1);
  EXPECT_FALSE(Has("ttl", "c"));
}

TEST_F(TtlSweeperTest, IndexEntriesGoLikeDeleteItem) {
  CreateGsiTable("gsi");
  EnableTtl("gsi");
  for (int i = 0; i < 10; ++i) {
    Put("gsi", "k" + std::to_string(i), N(kT0 + (i < 6 ? 10 : 1000)),
        {{"g", {{"S", "G" + std::to_string(i % 3)}}}});
  }
  auto index_rows = [&] {
    int64_t id = TableId("gsi");
    auto lock = impl().Lock();
    const Table& table = *impl().catalog().Find("gsi")->table;
    storage::ScanSpec spec;
    spec.table_id = id;
    spec.index_id = table.indexes.at(0).id;
    int rows = 0;
    EXPECT_TRUE(impl()
                    .store()
                    .Scan(spec,
                          [&](const storage::Row&) {
                            ++rows;
                            return true;
                          })
                    .ok());
    return rows;
  };
  EXPECT_EQ(index_rows(), 10);
  Advance(11);
  EXPECT_EQ(Sweep(), 6);
  EXPECT_EQ(index_rows(), 4);
  Json table = Describe("gsi");
  EXPECT_EQ(table["ItemCount"], 4);
  EXPECT_EQ(table["GlobalSecondaryIndexes"][0]["ItemCount"], 4);
}

TEST_F(TtlSweeperTest, DeletionIsASystemDeleteThroughTheWritePath) {
  CreateTtlTable();
  auto recorder = AddRecorder();
  Put("ttl", "a", N(kT0 + 5));
  Put("ttl", "b", nullptr);
  Ok("DeleteItem", {{"TableName", "ttl"}, {"Key", {{"pk", {{"S", "b"}}}}}});
  Advance(7);
  EXPECT_EQ(Sweep(), 1);
  ASSERT_EQ(recorder->events.size(), 4u);
  const RecordingSink::Event& user_delete = recorder->events[2];
  EXPECT_EQ(user_delete.origin, Origin::kUser);
  const RecordingSink::Event& ttl = recorder->events[3];
  EXPECT_EQ(ttl.table, "ttl");
  EXPECT_EQ(ttl.pk, "a");
  EXPECT_EQ(ttl.origin, Origin::kTtl);
  EXPECT_TRUE(ttl.had_old);
  EXPECT_FALSE(ttl.has_new);
  // Dated when the deletion fell due (ttl T0 + 5 < T0 + 6), not at the
  // sweep's now.
  EXPECT_EQ(ttl.now, kT0 + 6);
}

TEST_F(TtlSweeperTest, StreamRecordCarriesTheServiceIdentity) {
  Ok("CreateTable",
     Json{{"TableName", "ttl"},
          {"BillingMode", "PAY_PER_REQUEST"},
          {"AttributeDefinitions",
           {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
          {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
          {"StreamSpecification",
           {{"StreamEnabled", true}, {"StreamViewType", "KEYS_ONLY"}}}});
  EnableTtl("ttl");
  Put("ttl", "user", nullptr);
  Put("ttl", "timed", N(kT0 + 5));
  Ok("DeleteItem", {{"TableName", "ttl"}, {"Key", {{"pk", {{"S", "user"}}}}}});
  Advance(6);
  EXPECT_EQ(Sweep(), 1);
  std::string arn = Describe("ttl")["LatestStreamArn"];
  Json shards = emu_->CallStreams("DescribeStream", {{"StreamArn", arn}})
                    ->at("StreamDescription")
                    .at("Shards");
  std::vector<Json> removes;
  for (const Json& shard : shards) {
    Result<Json> it = emu_->CallStreams(
        "GetShardIterator", {{"StreamArn", arn},
                             {"ShardId", shard["ShardId"]},
                             {"ShardIteratorType", "TRIM_HORIZON"}});
    ASSERT_TRUE(it.ok()) << ToString(it.error());
    Result<Json> records = emu_->CallStreams(
        "GetRecords", {{"ShardIterator", (*it)["ShardIterator"]}});
    ASSERT_TRUE(records.ok()) << ToString(records.error());
    for (const Json& r : (*records)["Records"]) {
      if (r["eventName"] == "REMOVE") removes.push_back(r);
    }
  }
  ASSERT_EQ(removes.size(), 2u);
  for (const Json& r : removes) {
    const std::string pk = r["dynamodb"]["Keys"]["pk"]["S"];
    if (pk == "timed") {
      EXPECT_EQ(r["userIdentity"],
                Json::parse(R"({"PrincipalId": "dynamodb.amazonaws.com",
                                "Type": "Service"})"));
    } else {
      EXPECT_EQ(pk, "user");
      EXPECT_FALSE(r.contains("userIdentity"));
    }
  }
}

// The REMOVE record is dated when the deletion fell due (expiry + delay),
// not when the clock, jumping an hour, let the next call sweep it.
TEST_F(TtlSweeperTest, StreamRecordCarriesTheDueTimeAfterAClockJump) {
  Options options;
  options.ttl_delay = "90s";
  Open(options);
  Ok("CreateTable",
     Json{{"TableName", "ttl"},
          {"BillingMode", "PAY_PER_REQUEST"},
          {"AttributeDefinitions",
           {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
          {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
          {"StreamSpecification",
           {{"StreamEnabled", true}, {"StreamViewType", "KEYS_ONLY"}}}});
  EnableTtl("ttl");
  Put("ttl", "timed", N(kT0 + 10));  // expired at T0 + 11, due at T0 + 101
  Advance(3600);
  EXPECT_FALSE(Has("ttl", "timed"));
  std::string arn = Describe("ttl")["LatestStreamArn"];
  Json shards = emu_->CallStreams("DescribeStream", {{"StreamArn", arn}})
                    ->at("StreamDescription")
                    .at("Shards");
  std::vector<Json> records;
  for (const Json& shard : shards) {
    Result<Json> it = emu_->CallStreams(
        "GetShardIterator", {{"StreamArn", arn},
                             {"ShardId", shard["ShardId"]},
                             {"ShardIteratorType", "TRIM_HORIZON"}});
    ASSERT_TRUE(it.ok()) << ToString(it.error());
    Result<Json> got = emu_->CallStreams(
        "GetRecords", {{"ShardIterator", (*it)["ShardIterator"]}});
    ASSERT_TRUE(got.ok()) << ToString(got.error());
    for (const Json& r : (*got)["Records"]) records.push_back(r);
  }
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["eventName"], "INSERT");
  EXPECT_EQ(records[0]["dynamodb"]["ApproximateCreationDateTime"], kT0);
  EXPECT_EQ(records[1]["eventName"], "REMOVE");
  EXPECT_EQ(records[1]["dynamodb"]["ApproximateCreationDateTime"], kT0 + 101);
}

// An item written already past its due time falls due at that write: its
// deletion is never dated before the write.
TEST_F(TtlSweeperTest, ItemWrittenPastItsDueTimeIsDeletedAtTheWrite) {
  CreateTtlTable();
  auto recorder = AddRecorder();
  Advance(10);
  Put("ttl", "old", N(kT0 - 200));
  EXPECT_EQ(QueueDue("ttl", "old"), kT0 + 10);
  Advance(50);
  EXPECT_FALSE(Has("ttl", "old"));
  ASSERT_EQ(recorder->events.size(), 2u);
  EXPECT_EQ(recorder->events[0].now, kT0 + 10);
  EXPECT_EQ(recorder->events[1].origin, Origin::kTtl);
  EXPECT_EQ(recorder->events[1].now, kT0 + 10);
}

TEST_F(TtlSweeperTest, SweepCountsAndStatus) {
  Options options;
  options.ttl_delay = "60s";
  Open(options);
  CreateTtlTable("tta");
  CreateTtlTable("ttb");
  CreateTtlTable("off", /*enable=*/false);
  Put("tta", "1", N(kT0 + 10));
  Put("tta", "2", N(kT0 + 20));
  Put("ttb", "1", N(kT0 + 5));
  Put("off", "1", N(kT0 - 1));
  Result<std::vector<TtlTableStatus>> status = emu_->TtlStatus();
  ASSERT_TRUE(status.ok());
  ASSERT_EQ(status->size(), 2u);
  EXPECT_EQ((*status)[0].table_name, "tta");
  EXPECT_EQ((*status)[0].waiting, 2);
  EXPECT_EQ((*status)[0].next_due, kT0 + 71);
  EXPECT_EQ((*status)[1].table_name, "ttb");
  EXPECT_EQ((*status)[1].next_due, kT0 + 66);
  Advance(71);  // no call in between: SweepTtl does the work
  EXPECT_EQ(Sweep(), 2);
  EXPECT_EQ(Sweep(), 0);
  EXPECT_EQ(Waiting("tta"), 1);
  EXPECT_EQ(Waiting("ttb"), 0);
  EXPECT_TRUE(Has("off", "1"));
}

TEST_F(TtlSweeperTest, ManyBatchesInOneSweep) {
  CreateTtlTable();
  const int n = static_cast<int>(TtlSweeper::kBatch) * 2 + 500;
  for (int i = 0; i < n; ++i) Put("ttl", "k" + std::to_string(i), N(kT0 + 60));
  EXPECT_EQ(Waiting("ttl"), n);
  Advance(61);
  EXPECT_EQ(Sweep(), n);
  EXPECT_EQ(Describe("ttl")["ItemCount"], 0);
}

TEST_F(TtlSweeperTest, DeleteTableDropsItsQueue) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 10));
  Ok("DeleteTable", {{"TableName", "ttl"}});
  {
    auto lock = impl().Lock();
    Result<std::vector<TtlQueueTableStats>> stats =
        impl().ttl().queue().Stats();
    ASSERT_TRUE(stats.ok());
    EXPECT_TRUE(stats->empty());
  }
  Advance(10);
  EXPECT_EQ(Sweep(), 0);
}

TEST_F(TtlSweeperTest, QueueSurvivesReopen) {
  std::string path = ::testing::TempDir() + "ttl_reopen.db";
  std::filesystem::remove(path);
  Options options;
  options.db_path = path;
  Open(options);
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 100));
  Put("ttl", "b", N(kT0 + 200));
  Open(options);  // reopens the same file
  EXPECT_EQ(Waiting("ttl"), 2);
  Advance(101);
  EXPECT_FALSE(Has("ttl", "a"));  // the earliest due time was reloaded
  EXPECT_TRUE(Has("ttl", "b"));
  emu_.reset();
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
}

TEST_F(TtlSweeperTest, BadDelaySpecFailsOpen) {
  Options options;
  options.clock = clock_;
  options.ttl_delay = "soon";
  Result<std::unique_ptr<Emulator>> emu = Emulator::Open(options);
  ASSERT_FALSE(emu.ok());
  EXPECT_EQ(ToString(emu.error()),
            "ValidationException: invalid TTL delay 'soon': invalid duration "
            "'soon': no number (expected a number with an optional unit us, "
            "ms, s, m, h or d, e.g. 90s, 1.5m, 250ms) (expected 0, a duration "
            "like 90s or 15m, a range like 1m..48h, or aws)");
}

TEST_F(TtlSweeperTest, BackgroundThreadSweepsOnItsClock) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 30));
  // The thread normally runs only on a SystemClock; started on the manual
  // clock it sleeps until the clock is advanced. Calls stop sweeping.
  impl().ttl().StartThread(std::chrono::seconds(10));
  ASSERT_TRUE(impl().ttl().has_thread());
  EXPECT_EQ(Waiting("ttl"), 1);
  Advance(31);
  // Wait (without sleeping) until the thread's sweep has run.
  bool gone = false;
  for (int i = 0; i < 2'000'000 && !gone; ++i) {
    gone = Waiting("ttl") == 0;
    if (!gone) std::this_thread::yield();
  }
  EXPECT_TRUE(gone);
  EXPECT_FALSE(Has("ttl", "a"));
  emu_.reset();  // stops and joins the thread
}

TEST_F(TtlSweeperTest, SystemClockEmulatorStopsCleanly) {
  Options options;
  options.clock = std::make_shared<SystemClock>();
  options.ttl_sweep_interval = std::chrono::milliseconds(1);
  auto emu = Emulator::Open(options);
  ASSERT_TRUE(emu.ok());
  EXPECT_TRUE(ImplOf(**emu).ttl().has_thread());
  emu->reset();
}

}  // namespace
}  // namespace ddblab::engine::testing
