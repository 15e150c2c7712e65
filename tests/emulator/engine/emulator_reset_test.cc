// tests/emulator/engine/emulator_reset_test.cc: Emulator::Reset, a new run
// on the same emulator: nothing of the old run is left (tables, streams,
// fault plan, counters and log, capacity ledger; the rows of a file
// database too), the clock goes where asked (backwards too), and the
// emulator then behaves as one opened with the new seed and settings.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/emulator/engine/engine_test_util.h"

namespace ddblab::engine {
namespace {

using testing::EngineTest;
using testing::Json;

const Json kHalfThrottled = Json::parse(R"({"rules": [
  {"operation": "PutItem", "effect": "throttle", "probability": 0.5}]})");

class EmulatorResetTest : public EngineTest {
 protected:
  Json Put(const std::string& pk) {
    return Json{{"TableName", "tab"}, {"Item", {{"pk", {{"S", pk}}}}}};
  }
  // Which of 40 PutItems the plan throttled ("x") or let through (".").
  std::string Draws() {
    std::string out;
    for (int i = 0; i < 40; ++i) {
      out +=
          emu_->Call("PutItem", Put("k" + std::to_string(i))).ok() ? "." : "x";
    }
    return out;
  }
  Json StreamTable() {
    return Ok("CreateTable", Json::parse(R"({"TableName": "str",
      "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "StreamSpecification": {"StreamEnabled": true,
                              "StreamViewType": "NEW_IMAGE"}})"));
  }
};

TEST_F(EmulatorResetTest, LeavesNoTableStreamFaultPlanOrLog) {
  CreateTable("tab");
  StreamTable();
  ASSERT_TRUE(emu_->SetFaultPlan(kHalfThrottled).ok());
  (void)Draws();
  ASSERT_FALSE(emu_->FaultLog().empty());

  ASSERT_TRUE(emu_->Reset(ResetOptions{}).ok());

  EXPECT_EQ(Ok("ListTables", Json::object())["TableNames"], Json::array());
  EXPECT_EQ(emu_->CallStreams("ListStreams", Json::object())->at("Streams"),
            Json::array());
  EXPECT_TRUE(emu_->FaultLog().empty());
  EXPECT_EQ(emu_->FaultStatus()["rules"], Json::array());
  EXPECT_EQ(emu_->CapacityReport()["Tables"], Json::array());
  EXPECT_EQ(FailText("GetItem",
                     {{"TableName", "tab"}, {"Key", {{"pk", {{"S", "k0"}}}}}}),
            "ResourceNotFoundException: Requested resource not found");
  // The engine works on: the same table again, empty, and no plan.
  CreateTable("tab");
  EXPECT_EQ(Draws(), std::string(40, '.'));
}

// The seed of a reset drives the draws as the seed of Open does: the same
// faults fire, and streams get the same shard ids.
TEST_F(EmulatorResetTest, ASeedGivesTheDrawsOfAnEmulatorOpenedWithIt) {
  Options fresh_options;
  fresh_options.seed = 42;
  fresh_options.clock = std::make_shared<ManualClock>(FromEpochSeconds(5000));
  auto fresh = Emulator::Open(fresh_options);
  ASSERT_TRUE(fresh.ok());
  std::swap(emu_, *fresh);  // the fixture helpers call the fresh one
  CreateTable("tab");
  ASSERT_TRUE(emu_->SetFaultPlan(kHalfThrottled).ok());
  const std::string expected = Draws();
  const Json expected_stream = StreamTable()["TableDescription"];
  std::swap(emu_, *fresh);

  CreateTable("tab");  // seed 7, used and then reset
  ASSERT_TRUE(emu_->SetFaultPlan(kHalfThrottled).ok());
  const std::string before = Draws();
  ResetOptions reset;
  reset.seed = 42;
  reset.clock = FromEpochSeconds(5000);
  ASSERT_TRUE(emu_->Reset(reset).ok());
  EXPECT_EQ(emu_->options().seed, 42u);
  CreateTable("tab");
  ASSERT_TRUE(emu_->SetFaultPlan(kHalfThrottled).ok());
  EXPECT_EQ(Draws(), expected);
  EXPECT_NE(before, expected);  // seed 7 draws others: the check can fail
  EXPECT_EQ(StreamTable()["TableDescription"], expected_stream);
}

TEST_F(EmulatorResetTest, MovesTheClockBackwardsAndSetsTtlAndStreams) {
  clock_->Advance(std::chrono::hours(48));
  ResetOptions reset;
  reset.clock = FromEpochSeconds(1000);
  reset.ttl_delay = "90s";
  reset.stream_shards = 3;
  reset.shard_rollover = Duration::zero();
  ASSERT_TRUE(emu_->Reset(reset).ok());
  EXPECT_EQ(ToEpochSeconds(emu_->clock().Now()), 1000);
  EXPECT_EQ(&emu_->clock(), clock_.get());
  const Options now = emu_->options();
  EXPECT_EQ(now.ttl_delay, "90s");
  EXPECT_EQ(now.stream_shards, 3);
  EXPECT_EQ(now.shard_rollover, Duration::zero());
  EXPECT_EQ(now.seed, 7u);  // not given: kept
  StreamTable();
  const std::string arn = Describe("str")["LatestStreamArn"];
  Result<Json> stream =
      emu_->CallStreams("DescribeStream", {{"StreamArn", arn}});
  ASSERT_TRUE(stream.ok());
  EXPECT_EQ((*stream)["StreamDescription"]["Shards"].size(), 3u);
}

TEST_F(EmulatorResetTest, BadSettingsChangeNothing) {
  CreateTable("tab");
  ResetOptions bad_delay;
  bad_delay.ttl_delay = "soon";
  Status refused = emu_->Reset(bad_delay);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().type, ErrorType::kValidation);
  ResetOptions bad_shards;
  bad_shards.stream_shards = 0;
  refused = emu_->Reset(bad_shards);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message, "stream_shards must be from 1 to 1024");
  EXPECT_EQ(Ok("ListTables", Json::object())["TableNames"],
            Json::array({"tab"}));

  Options system;
  system.seed = 3;
  auto on_system = Emulator::Open(system);  // a SystemClock
  ASSERT_TRUE(on_system.ok());
  ResetOptions clock;
  clock.clock = FromEpochSeconds(1000);
  refused = (*on_system)->Reset(clock);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "the clock is not a manual clock; it cannot be set");
}

TEST_F(EmulatorResetTest, EmptiesAFileDatabase) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      ("ddblab_reset_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  Options options;
  options.db_path = (dir / "db.sqlite").string();
  Open(options);
  CreateTable("tab");
  StreamTable();
  Ok("PutItem", Put("a"));
  ASSERT_TRUE(emu_->Reset(ResetOptions{}).ok());
  EXPECT_EQ(Ok("ListTables", Json::object())["TableNames"], Json::array());
  CreateTable("uuu");
  Open(options);  // the file as a new process would find it
  EXPECT_EQ(Ok("ListTables", Json::object())["TableNames"],
            Json::array({"uuu"}));
  EXPECT_EQ(emu_->CallStreams("ListStreams", Json::object())->at("Streams"),
            Json::array());
  emu_.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ddblab::engine
