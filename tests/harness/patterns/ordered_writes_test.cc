// Client-timestamp ordered writes on every pattern row: the correct variant
// ends with the newest write whatever the arrival order, and hides
// tombstones; unconditional puts let the last arrival win; hard deletes let
// a late older write resurrect the item.
#include "harness/patterns/ordered_writes.h"

#include <gtest/gtest.h>

#include "tests/harness/patterns/pattern_test.h"

namespace ddblab::harness::patterns {
namespace {

using testing::TestBackend;

class OrderedTest : public testing::PatternTest {
 protected:
  OrderedWrites Open(OrderedVariant variant) {
    OrderedConfig config;
    config.table = TableName("ordered");
    config.variant = variant;
    auto writes = OrderedWrites::Open(*backend_, config);
    EXPECT_TRUE(writes.ok()) << ToString(writes.error());
    Status setup = writes->Setup();
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    // Setup twice is fine (the table and its TTL exist).
    setup = writes->Setup();
    EXPECT_TRUE(setup.ok()) << ToString(setup.error());
    return *writes;
  }

  // Sends a put and records it in the ledger.
  WriteOutcome Put(OrderedWrites& writes, const std::string& sk, int64_t ts,
                   const std::string& value) {
    json attributes = {{"value", S(value)}};
    ledger_.Put("user#1", sk, ts, attributes);
    auto out = writes.Put("user#1", sk, ts, attributes);
    EXPECT_TRUE(out.ok()) << ToString(out.error());
    return out.ok() ? *out : WriteOutcome::kStale;
  }
  WriteOutcome Delete(OrderedWrites& writes, const std::string& sk,
                      int64_t ts) {
    ledger_.Delete("user#1", sk, ts);
    auto out = writes.Delete("user#1", sk, ts);
    EXPECT_TRUE(out.ok()) << ToString(out.error());
    return out.ok() ? *out : WriteOutcome::kStale;
  }

  json Raw(const OrderedWrites& writes, const std::string& sk) {
    auto out = backend_->Call("GetItem",
                              {{"TableName", writes.config().table},
                               {"Key", {{"pk", S("user#1")}, {"sk", S(sk)}}},
                               {"ConsistentRead", true}});
    EXPECT_TRUE(out.ok());
    return out.ok() ? out->value("Item", json()) : json();
  }

  OrderedLedger ledger_;
};

TEST_P(OrderedTest, CorrectKeepsTheNewestWhateverTheArrivalOrder) {
  OrderedWrites writes = Open(OrderedVariant::kCorrect);
  EXPECT_EQ(Put(writes, "profile", 200, "new"), WriteOutcome::kApplied);
  // The write of ts 100 was sent first but arrives last.
  EXPECT_EQ(Put(writes, "profile", 100, "old"), WriteOutcome::kStale);
  // A retry of the newest (same ts) is accepted again.
  EXPECT_EQ(Put(writes, "profile", 200, "new"), WriteOutcome::kApplied);
  auto got = writes.Get("user#1", "profile");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((**got)["value"], S("new"));
  EXPECT_EQ((**got)["ts"], N(200));
  EXPECT_EQ(*writes.Check(ledger_), Problems());
}

TEST_P(OrderedTest, UnconditionalPutsLetTheLastArrivalWin) {
  OrderedWrites writes = Open(OrderedVariant::kUnconditionalPuts);
  EXPECT_EQ(Put(writes, "profile", 200, "new"), WriteOutcome::kApplied);
  EXPECT_EQ(Put(writes, "profile", 100, "old"), WriteOutcome::kApplied);
  EXPECT_EQ((**writes.Get("user#1", "profile"))["value"], S("old"));
  EXPECT_EQ(*writes.Check(ledger_),
            Problems{"user#1/profile should hold the write of ts 200 but "
                     "holds a write of ts 100 (an older write arrived last "
                     "and won)"});
}

TEST_P(OrderedTest, CorrectDeleteLeavesATombstoneThatOlderWritesCannotPass) {
  OrderedWrites writes = Open(OrderedVariant::kCorrect);
  const int64_t now = ToEpochSeconds(backend_->clock().Now());
  EXPECT_EQ(Put(writes, "cart", 100, "3 items"), WriteOutcome::kApplied);
  EXPECT_EQ(Delete(writes, "cart", 300), WriteOutcome::kApplied);
  // Sent at ts 200, before the delete, delivered after it.
  EXPECT_EQ(Put(writes, "cart", 200, "4 items"), WriteOutcome::kStale);
  // An older delete is stale too.
  EXPECT_EQ(Delete(writes, "cart", 250), WriteOutcome::kStale);
  const int64_t after = ToEpochSeconds(backend_->clock().Now());
  EXPECT_FALSE(writes.Get("user#1", "cart")->has_value());
  // The tombstone: key, ts, Deleted, ttl 7 days ahead; "value" dropped.
  json tombstone = Raw(writes, "cart");
  ASSERT_TRUE(tombstone.contains("ttl"));
  const int64_t ttl = AsInt(tombstone["ttl"]).value_or(0);
  EXPECT_GE(ttl, now + 7 * 24 * 3600);
  EXPECT_LE(ttl, after + 7 * 24 * 3600);  // equal on a manual clock
  tombstone.erase("ttl");
  EXPECT_EQ(tombstone, json({{"pk", S("user#1")},
                             {"sk", S("cart")},
                             {"ts", N(300)},
                             {"Deleted", {{"BOOL", true}}}}));
  EXPECT_EQ(*writes.Check(ledger_), Problems());
  // A newer write after the delete brings the item back, as it should.
  EXPECT_EQ(Put(writes, "cart", 400, "1 item"), WriteOutcome::kApplied);
  EXPECT_EQ((**writes.Get("user#1", "cart"))["value"], S("1 item"));
  EXPECT_FALSE(Raw(writes, "cart").contains("Deleted"));
  EXPECT_EQ(*writes.Check(ledger_), Problems());
}

TEST_P(OrderedTest, TombstoneGoesThroughDynamoDbTtl) {
  if (!HasClock()) GTEST_SKIP() << "needs clock control";
  OrderedWrites writes = Open(OrderedVariant::kCorrect);
  Put(writes, "cart", 100, "3 items");
  Delete(writes, "cart", 300);
  // 7 days later the tombstone has expired (its ttl is less than now from
  // the second after); the rows delete expired items 48 hours after
  // expiry, as DynamoDB may.
  ASSERT_TRUE(backend_->AdvanceClock(std::chrono::hours(7 * 24 + 48)).ok());
  ASSERT_TRUE(backend_->SweepTtl().ok());
  EXPECT_FALSE(Raw(writes, "cart").is_null());
  ASSERT_TRUE(backend_->AdvanceClock(std::chrono::seconds(1)).ok());
  ASSERT_TRUE(backend_->SweepTtl().ok());
  EXPECT_TRUE(Raw(writes, "cart").is_null());
  // Past the tombstone's life, a late older write would resurrect the item:
  // the tombstone period must outlast any write's delay.
  EXPECT_EQ(Put(writes, "cart", 200, "4 items"), WriteOutcome::kApplied);
}

TEST_P(OrderedTest, HardDeletesLetALateOlderWriteResurrectTheItem) {
  OrderedWrites writes = Open(OrderedVariant::kHardDeletes);
  EXPECT_EQ(Put(writes, "cart", 100, "3 items"), WriteOutcome::kApplied);
  EXPECT_EQ(Delete(writes, "cart", 300), WriteOutcome::kApplied);
  EXPECT_TRUE(Raw(writes, "cart").is_null());
  EXPECT_EQ(Put(writes, "cart", 200, "4 items"), WriteOutcome::kApplied);
  EXPECT_EQ((**writes.Get("user#1", "cart"))["value"], S("4 items"));
  EXPECT_EQ(
      *writes.Check(ledger_),
      (Problems{"user#1/cart was deleted at ts 300 but holds a write of ts 200 "
                "(an older write resurrected it)",
                "Query(user#1) shows [cart], expected []"}));
}

TEST_P(OrderedTest, QueriesAndReadsHideTombstones) {
  OrderedWrites writes = Open(OrderedVariant::kCorrect);
  for (int i = 0; i < 6; ++i) {
    Put(writes, "item" + std::to_string(i), 10, "v" + std::to_string(i));
  }
  Delete(writes, "item1", 20);
  Delete(writes, "item4", 20);
  auto items = writes.Query("user#1");
  ASSERT_TRUE(items.ok()) << ToString(items.error());
  std::vector<std::string> sks;
  for (const json& item : *items) sks.push_back(item["sk"]["S"]);
  EXPECT_EQ(sks,
            (std::vector<std::string>{"item0", "item2", "item3", "item5"}));
  EXPECT_FALSE(writes.Get("user#1", "item4")->has_value());
  EXPECT_TRUE(writes.Get("user#1", "item5")->has_value());
  EXPECT_EQ(*writes.Check(ledger_), Problems());
}

TEST_P(OrderedTest, UnconditionalTombstoneIsOverwrittenByALateOlderPut) {
  OrderedWrites writes = Open(OrderedVariant::kUnconditionalPuts);
  Put(writes, "cart", 100, "3 items");
  Delete(writes, "cart", 300);
  Put(writes, "cart", 200, "4 items");
  EXPECT_EQ((**writes.Get("user#1", "cart"))["value"], S("4 items"));
  EXPECT_EQ(writes.Check(ledger_)->size(), 2u);
}

TEST(OrderedConfigTest, BadParametersAreRefused) {
  auto backend = OpenBackend("emulator?clock=manual");
  ASSERT_TRUE(backend.ok());
  OrderedConfig config;
  config.tombstone_ttl = std::chrono::milliseconds(10);
  EXPECT_EQ(OrderedWrites::Open(**backend, config).error().message,
            "ordered writes: tombstone_ttl must be at least 1 second "
            "(default 7 days)");
  config = OrderedConfig();
  config.table = "bad table";
  EXPECT_EQ(OrderedWrites::Open(**backend, config).error().message,
            "ordered writes: table name must be 3 to 255 characters of a-z, "
            "A-Z, 0-9, '_', '-' and '.', got \"bad table\"");
  auto writes = OrderedWrites::Open(**backend, OrderedConfig());
  ASSERT_TRUE(writes.ok());
  EXPECT_EQ(writes->Put("p", "s", 1, {{"ttl", N(5)}}).error().message,
            "ordered writes: attribute ttl belongs to the pattern");
  EXPECT_EQ(ParseOrderedVariant("hard_deletes").value(),
            OrderedVariant::kHardDeletes);
  EXPECT_EQ(ParseOrderedVariant("x").error().message,
            "unknown ordered writes variant \"x\" (correct, "
            "unconditional_puts, hard_deletes)");
}

// Unknown outcomes (Elle's rule): a write whose every answer was lost may or
// may not have applied; a refused write is not expected at all.
TEST_P(OrderedTest, ARefusedWriteIsNotExpected) {
  OrderedWrites writes = Open(OrderedVariant::kCorrect);
  EXPECT_EQ(Put(writes, "profile", 100, "old"), WriteOutcome::kApplied);
  // Sent at ts 200 and throttled: never applied.
  ledger_.Settle(ledger_.Put("user#1", "profile", 200, {{"value", S("new")}}),
                 WriteFate::kRefused);
  EXPECT_EQ(*writes.Check(ledger_), Problems());
  // A key whose every write was refused must hold nothing.
  ledger_.Settle(ledger_.Put("user#1", "never", 300, {{"value", S("x")}}),
                 WriteFate::kRefused);
  EXPECT_EQ(*writes.Check(ledger_), Problems());
  ASSERT_TRUE(writes.Put("user#1", "never", 300, {{"value", S("x")}}).ok());
  EXPECT_EQ(*writes.Check(ledger_),
            (Problems{"user#1/never should hold nothing (no write to it was "
                      "applied) but holds a write of ts 300",
                      "Query(user#1) shows [never, profile], expected "
                      "[profile]"}));
}

TEST_P(OrderedTest, AWriteWhoseAnswerWasLostMayOrMayNotHaveApplied) {
  OrderedWrites writes = Open(OrderedVariant::kCorrect);
  EXPECT_EQ(Put(writes, "profile", 100, "old"), WriteOutcome::kApplied);
  const json attributes = {{"value", S("new")}};
  ledger_.Settle(ledger_.Put("user#1", "profile", 200, attributes),
                 WriteFate::kUnknown);
  EXPECT_EQ(*writes.Check(ledger_), Problems());  // not applied
  ASSERT_TRUE(writes.Put("user#1", "profile", 200, attributes).ok());
  EXPECT_EQ(*writes.Check(ledger_), Problems());  // applied
}

TEST_P(OrderedTest, AnOlderLostWriteThatWonIsStillFound) {
  OrderedWrites writes = Open(OrderedVariant::kUnconditionalPuts);
  const json old_value = {{"value", S("old")}};
  ledger_.Settle(ledger_.Put("user#1", "profile", 100, old_value),
                 WriteFate::kUnknown);
  EXPECT_EQ(Put(writes, "profile", 300, "new"), WriteOutcome::kApplied);
  ledger_.Settle(ledger_.Put("user#1", "profile", 400, {{"value", S("x")}}),
                 WriteFate::kUnknown);
  // The lost write of ts 100 lands last (a retry) and wins.
  ASSERT_TRUE(writes.Put("user#1", "profile", 100, old_value).ok());
  EXPECT_EQ(*writes.Check(ledger_),
            Problems{"user#1/profile should hold the write of ts 300 or the "
                     "write whose answer was lost (ts 400) but holds a write "
                     "of ts 100 (an older write arrived last and won)"});
}

INSTANTIATE_TEST_SUITE_P(Rows, OrderedTest, testing::PatternRows(),
                         [](const auto& row) { return row.param; });

}  // namespace
}  // namespace ddblab::harness::patterns
