// The TTL queue: kept in step with writes, TTL settings and the delay
// model; the sweeper re-checks each item at its due time.
#include "emulator/engine/ttl/ttl_queue.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/emulator/engine/ttl_test_util.h"

namespace ddblab::engine::testing {
namespace {

class TtlQueueTest : public TtlEngineTest {};

TEST_F(TtlQueueTest, EnablingCoversItemsAlreadyInTheTable) {
  CreateTtlTable("ttl", /*enable=*/false);
  Put("ttl", "past", N(kT0 - 50));
  Put("ttl", "future", N(kT0 + 50));
  Put("ttl", "none", nullptr);
  Advance(10);
  EXPECT_TRUE(Has("ttl", "past"));  // TTL is not on yet
  EXPECT_EQ(Waiting("ttl"), -1);
  EnableTtl("ttl");
  // Due at once, deleted when the clock next moves.
  EXPECT_TRUE(Has("ttl", "past"));
  EXPECT_EQ(QueueDue("ttl", "past"), kT0 + 10);
  Advance(1);
  EXPECT_FALSE(Has("ttl", "past"));
  EXPECT_TRUE(Has("ttl", "future"));
  EXPECT_EQ(Waiting("ttl"), 1);
  EXPECT_EQ(QueueDue("ttl", "future"), kT0 + 51);  // ttl < now from T0 + 51
  Advance(39);
  EXPECT_TRUE(Has("ttl", "future"));  // its ttl is now
  Advance(1);
  EXPECT_FALSE(Has("ttl", "future"));
  EXPECT_TRUE(Has("ttl", "none"));
}

TEST_F(TtlQueueTest, AnUpdateReschedules) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 10));
  EXPECT_EQ(QueueDue("ttl", "a"), kT0 + 11);
  Put("ttl", "a", N(kT0 + 100));  // pushed into the future
  EXPECT_EQ(QueueDue("ttl", "a"), kT0 + 101);
  Advance(11);
  EXPECT_TRUE(Has("ttl", "a"));
  Put("ttl", "a", N(kT0 + 50));  // and back
  Advance(40);
  EXPECT_FALSE(Has("ttl", "a"));
  EXPECT_EQ(QueueDue("ttl", "a"), std::nullopt);
}

TEST_F(TtlQueueTest, EveryWritePathKeepsTheQueue) {
  CreateTtlTable();
  auto key = [](const char* pk) { return Json{{"pk", {{"S", pk}}}}; };
  Put("ttl", "upd", N(kT0 + 10));
  Put("ttl", "rem", N(kT0 + 10));
  Ok("UpdateItem", {{"TableName", "ttl"},
                    {"Key", key("upd")},
                    {"UpdateExpression", "SET exp = :e"},
                    {"ExpressionAttributeValues", {{":e", N(kT0 + 300)}}}});
  Ok("UpdateItem", {{"TableName", "ttl"},
                    {"Key", key("rem")},
                    {"UpdateExpression", "REMOVE exp"}});
  EXPECT_EQ(QueueDue("ttl", "upd"), kT0 + 301);
  EXPECT_EQ(QueueDue("ttl", "rem"), std::nullopt);
  Ok("BatchWriteItem",
     {{"RequestItems",
       {{"ttl",
         {{{"PutRequest",
            {{"Item",
              {{"pk", {{"S", "batch"}}}, {"exp", N(kT0 + 20)}}}}}}}}}}});
  EXPECT_EQ(QueueDue("ttl", "batch"), kT0 + 21);
  Ok("TransactWriteItems",
     {{"TransactItems",
       {{{"Delete", {{"TableName", "ttl"}, {"Key", key("batch")}}}},
        {{"Put",
          {{"TableName", "ttl"},
           {"Item", {{"pk", {{"S", "tx"}}}, {"exp", N(kT0 + 30)}}}}}}}}});
  EXPECT_EQ(QueueDue("ttl", "batch"), std::nullopt);
  EXPECT_EQ(QueueDue("ttl", "tx"), kT0 + 31);
  Advance(31);
  EXPECT_EQ(Sweep(), 1);  // tx
  EXPECT_TRUE(Has("ttl", "upd"));
  Advance(270);
  EXPECT_FALSE(Has("ttl", "upd"));
  EXPECT_TRUE(Has("ttl", "rem"));
}

TEST_F(TtlQueueTest, RemovingOrRetypingTheValueCancels) {
  CreateTtlTable();
  Put("ttl", "removed", N(kT0 + 10));
  Put("ttl", "retyped", N(kT0 + 10));
  Put("ttl", "ancient", N(kT0 + 10));
  Put("ttl", "removed", nullptr, {{"other", {{"S", "x"}}}});
  Put("ttl", "retyped", {{"S", std::to_string(kT0 + 10)}});
  Put("ttl", "ancient", N(100));  // more than five years ago: never
  EXPECT_EQ(QueueDue("ttl", "removed"), std::nullopt);
  EXPECT_EQ(QueueDue("ttl", "retyped"), std::nullopt);
  EXPECT_EQ(QueueDue("ttl", "ancient"), std::nullopt);
  Advance(3600);
  EXPECT_EQ(Sweep(), 0);
  EXPECT_TRUE(Has("ttl", "removed"));
  EXPECT_TRUE(Has("ttl", "retyped"));
  EXPECT_TRUE(Has("ttl", "ancient"));
}

TEST_F(TtlQueueTest, SameValueRewriteKeepsTheRow) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 10));
  // Written differently, same value: still due at the same time.
  Put("ttl", "a", N(std::to_string(kT0 + 10) + ".000"), {{"x", {{"N", "1"}}}});
  EXPECT_EQ(QueueDue("ttl", "a"), kT0 + 11);
  Ok("DeleteItem", {{"TableName", "ttl"}, {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(QueueDue("ttl", "a"), std::nullopt);
}

TEST_F(TtlQueueTest, SweepRechecksTheItemAtDueTime) {
  CreateTtlTable();
  Put("ttl", "later", N(kT0 + 500));
  Put("ttl", "untimed", nullptr);
  const int64_t id = TableId("ttl");
  auto pk = [](const char* s) {
    return EncodeKeyValue(value::AttributeValue::S(s));
  };
  {
    // Stale rows, as if the queue had missed a write: the item decides.
    auto lock = impl().Lock();
    TtlQueue& q = impl().ttl().queue();
    ASSERT_TRUE(
        q.Put(impl().store().ttl_queue(), id, pk("later"), "", kT0 - 1).ok());
    ASSERT_TRUE(
        q.Put(impl().store().ttl_queue(), id, pk("untimed"), "", kT0 - 1).ok());
    ASSERT_TRUE(
        q.Put(impl().store().ttl_queue(), id, pk("missing"), "", kT0 - 1).ok());
    ASSERT_TRUE(q.Put(impl().store().ttl_queue(), id + 1000, pk("no_table"), "",
                      kT0 - 1)
                    .ok());
  }
  EXPECT_EQ(Sweep(), 0);
  EXPECT_TRUE(Has("ttl", "later"));
  EXPECT_TRUE(Has("ttl", "untimed"));
  EXPECT_EQ(QueueDue("ttl", "later"), kT0 + 501);  // rescheduled
  EXPECT_EQ(QueueDue("ttl", "untimed"), std::nullopt);
  EXPECT_EQ(QueueDue("ttl", "missing"), std::nullopt);
  EXPECT_EQ(Waiting("ttl"), 1);
  auto lock = impl().Lock();
  EXPECT_EQ(impl().ttl().queue().Stats()->size(), 1u);
}

TEST_F(TtlQueueTest, DisablingClearsTheQueue) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 10));
  Put("ttl", "b", N(kT0 + 20));
  EXPECT_EQ(Waiting("ttl"), 2);
  DisableTtl("ttl");
  EXPECT_EQ(Waiting("ttl"), -1);
  Advance(30);
  EXPECT_EQ(Sweep(), 0);
  EXPECT_TRUE(Has("ttl", "a"));
  // Writes to a table without TTL are not queued.
  Put("ttl", "c", N(kT0));
  EXPECT_EQ(Waiting("ttl"), -1);
  // Enabling again takes everything in: all three are expired by now, and
  // go when the clock moves.
  EnableTtl("ttl");
  EXPECT_EQ(Waiting("ttl"), 3);
  Advance(1);
  EXPECT_FALSE(Has("ttl", "a"));
  EXPECT_FALSE(Has("ttl", "b"));
  EXPECT_FALSE(Has("ttl", "c"));
}

TEST_F(TtlQueueTest, EnablingAnotherAttributeUsesIt) {
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 10), {{"until", N(kT0 + 99)}});
  DisableTtl("ttl");
  EnableTtl("ttl", "until");
  EXPECT_EQ(QueueDue("ttl", "a"), kT0 + 100);
  Advance(11);
  EXPECT_TRUE(Has("ttl", "a"));
  Advance(89);
  EXPECT_FALSE(Has("ttl", "a"));
}

// Due times of items k0..k<n-1> written in the given order to a fresh
// emulator with this seed and delay.
std::map<std::string, int64_t> DueTimes(uint64_t seed, const std::string& delay,
                                        bool reverse, int n) {
  Options options;
  options.clock = std::make_shared<ManualClock>();
  options.seed = seed;
  options.ttl_delay = delay;
  auto emu = std::move(Emulator::Open(options)).value();
  auto call = [&](std::string_view op, const Json& req) {
    Result<Json> r = emu->Call(op, req);
    EXPECT_TRUE(r.ok()) << ToString(r.error());
  };
  call("CreateTable",
       {{"TableName", "ttl"},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions",
         {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
        {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}});
  call("UpdateTimeToLive", {{"TableName", "ttl"},
                            {"TimeToLiveSpecification",
                             {{"Enabled", true}, {"AttributeName", "exp"}}}});
  for (int j = 0; j < n; ++j) {
    int i = reverse ? n - 1 - j : j;
    call("PutItem", {{"TableName", "ttl"},
                     {"Item",
                      {{"pk", {{"S", "k" + std::to_string(i)}}},
                       {"exp", {{"N", std::to_string(kT0 + 1000 + i)}}}}}});
  }
  std::map<std::string, int64_t> out;
  auto lock = ImplOf(*emu).Lock();
  int64_t id = ImplOf(*emu).catalog().Find("ttl")->table->id;
  for (int i = 0; i < n; ++i) {
    std::string pk = "k" + std::to_string(i);
    auto due = ImplOf(*emu).ttl().queue().DueOf(
        id, EncodeKeyValue(value::AttributeValue::S(pk)), "");
    out[pk] = due.ok() && *due ? **due : -1;
  }
  return out;
}

TEST_F(TtlQueueTest, DelayModelsAreSeededAndIndependentOfWriteOrder) {
  const int n = 40;
  for (const char* delay : {"0", "90s", "1m..48h", "aws"}) {
    SCOPED_TRACE(delay);
    auto forward = DueTimes(11, delay, false, n);
    EXPECT_EQ(forward, DueTimes(11, delay, true, n));
    EXPECT_EQ(forward, DueTimes(11, delay, false, n));
    int64_t min_delay = INT64_MAX, max_delay = 0;
    for (int i = 0; i < n; ++i) {
      // Expired from ttl + 1 on (ttl < now), then the delay.
      int64_t d = forward["k" + std::to_string(i)] - (kT0 + 1000 + i + 1);
      min_delay = std::min(min_delay, d);
      max_delay = std::max(max_delay, d);
    }
    std::string spec = delay;
    if (spec == "0") {
      EXPECT_EQ(max_delay, 0);
    } else if (spec == "90s") {
      EXPECT_EQ(min_delay, 90);
      EXPECT_EQ(max_delay, 90);
    } else {
      EXPECT_GE(min_delay, 60);
      EXPECT_LE(max_delay, 48 * 3600);
      EXPECT_LT(min_delay, max_delay);
      // Another seed, other delays.
      EXPECT_NE(forward, DueTimes(12, delay, false, n));
    }
  }
}

TEST_F(TtlQueueTest, ItemsGoExactlyAtTheirSeededDueTime) {
  Options options;
  options.seed = 3;
  options.ttl_delay = "1m..2h";
  Open(options);
  CreateTtlTable();
  Put("ttl", "a", N(kT0 + 10));
  Put("ttl", "b", N(kT0 + 10));
  int64_t due_a = *QueueDue("ttl", "a");
  int64_t due_b = *QueueDue("ttl", "b");
  ASSERT_NE(due_a, due_b);
  const int64_t first = std::min(due_a, due_b);
  const int64_t second = std::max(due_a, due_b);
  const std::string first_pk = due_a < due_b ? "a" : "b";
  const std::string second_pk = due_a < due_b ? "b" : "a";
  Advance(first - kT0 - 1);
  EXPECT_TRUE(Has("ttl", first_pk));
  Advance(1);
  EXPECT_FALSE(Has("ttl", first_pk));
  EXPECT_TRUE(Has("ttl", second_pk));
  Advance(second - first);
  EXPECT_FALSE(Has("ttl", second_pk));
}

TEST_F(TtlQueueTest, ChangeCooldownIsConfigurable) {
  // Default: no cooldown.
  CreateTtlTable();
  DisableTtl("ttl");
  EnableTtl("ttl");
  // DynamoDB's hour.
  Options options;
  options.ttl_update_cooldown = std::chrono::hours(1);
  Open(options);
  CreateTtlTable("hour");
  const Json disable{{"TableName", "hour"},
                     {"TimeToLiveSpecification",
                      {{"Enabled", false}, {"AttributeName", "exp"}}}};
  const std::string cooldown =
      "ValidationException: Time to live has been modified multiple times "
      "within a fixed interval";
  EXPECT_EQ(FailText("UpdateTimeToLive", disable), cooldown);
  Advance(1800);
  EXPECT_EQ(FailText("UpdateTimeToLive", disable), cooldown);
  Advance(1799);
  EXPECT_EQ(FailText("UpdateTimeToLive", disable), cooldown);
  Advance(1);  // an hour after the last success; failures did not extend it
  DisableTtl("hour");
  EXPECT_EQ(FailText("UpdateTimeToLive",
                     {{"TableName", "hour"},
                      {"TimeToLiveSpecification",
                       {{"Enabled", true}, {"AttributeName", "exp"}}}}),
            cooldown);
}

}  // namespace
}  // namespace ddblab::engine::testing
