// The rollup_aggregator and ttl_expiry_listener actors
// (harness/scenario/consumer_actors.h) stepped one at a time on an
// in-process backend with a manual clock: a writer's step is one write, a
// consumer's step one polling round of its event source mapping.
#include "harness/scenario/consumer_actors.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/scenario/invariants.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {
namespace {

using std::chrono::minutes;

class ConsumerActorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = OpenBackend("emulator?clock=manual=1704067200&seed=3");
    ASSERT_TRUE(opened.ok());
    backend_ = std::move(*opened);
  }

  // The actors of a scenario whose "actors" member is `actors`.
  std::vector<std::unique_ptr<Actor>> Make(const std::string& actors) {
    auto parsed = ParseScenario(
        R"({"name": "t", "actors": )" + actors +
            R"(, "invariants": [{"check": "count", "table": "x", "equals": 0}],
               "expect": "holds"})",
        "t.json");
    EXPECT_TRUE(parsed.ok()) << parsed.error().message;
    scenario_ = *parsed;
    std::vector<std::unique_ptr<Actor>> out;
    for (const ActorSpec& spec : scenario_.actors) {
      auto actor = MakeActor(spec, *backend_, *backend_, world_);
      EXPECT_TRUE(actor.ok()) << actor.error().message;
      EXPECT_TRUE((*actor)->Setup().ok());
      out.push_back(std::move(*actor));
    }
    return out;
  }

  // One poll op run to its end (one polling round, one step per Streams
  // call or invocation): the steps' results and all their events.
  struct Round {
    std::vector<std::string> results;
    std::vector<nlohmann::ordered_json> events;
    // "...; round over: invocations N" ends the last step.
    std::string result() const {
      const std::string& last = results.empty() ? "" : results.back();
      const size_t at = last.find("round over: ");
      return at == std::string::npos ? last : last.substr(at + 12);
    }
  };
  static Round PollRound(Actor& actor) {
    Round round;
    const size_t op = actor.next_op();
    for (int i = 0; i < 100 && !actor.done() && actor.next_op() == op; ++i) {
      StepOutcome step = actor.Step();
      EXPECT_EQ(step.op, "poll");
      round.results.push_back(step.result);
      for (auto& e : step.events) round.events.push_back(std::move(e));
    }
    return round;
  }

  json Rollup(const std::string& customer) {
    auto out = backend_->Call(
        "GetItem", {{"TableName", "ddblab_daily_rollup"},
                    {"Key",
                     {{"CustomerId", {{"S", customer}}},
                      {"Day", {{"S", "2024-01-01T00:00:00.000Z"}}}}}});
    EXPECT_TRUE(out.ok());
    return out->value("Item", json());
  }

  std::unique_ptr<Backend> backend_;
  Scenario scenario_;
  World world_;
};

TEST_F(ConsumerActorTest, ATransferIsOneWriteAndAPollOneRoundOfSteps) {
  auto actors = Make(R"([
    {"name": "w", "pattern": "rollup_aggregator", "repeat": 3,
     "ops": [{"transfer": {"id": "t{i}", "customer": "c1", "bytes": 100}}]},
    {"name": "r", "pattern": "rollup_aggregator", "variant": "published",
     "params": {"mapping": {"BatchSize": 2}}, "repeat": 3,
     "ops": [{"poll": {}}]}])");
  Actor& writer = *actors[0];
  Actor& rollup = *actors[1];
  StepOutcome first = writer.Step();
  EXPECT_EQ(first.op, "transfer t1 c1 100 bytes");
  EXPECT_EQ(first.result, "applied");
  EXPECT_TRUE(first.events.empty());
  writer.Step();
  writer.Step();
  EXPECT_TRUE(writer.done());
  ASSERT_EQ(world_.writes["ddblab_transfers"].size(), 3u);
  EXPECT_EQ(world_.writes["ddblab_transfers"]["t2"]["Bytes"],
            json({{"N", "100"}}));

  // BatchSize 2: the first round delivers two records, the next one. A
  // round is one step per call or invocation.
  Round poll = PollRound(rollup);
  ASSERT_EQ(poll.results.size(), 6u);
  EXPECT_EQ(poll.results[0], "DescribeTable");
  EXPECT_EQ(poll.results[1], "DescribeStream");
  EXPECT_TRUE(poll.results[2].starts_with("GetShardIterator "))
      << poll.results[2];
  EXPECT_TRUE(poll.results[3].ends_with(": 3 records")) << poll.results[3];
  EXPECT_TRUE(poll.results[4].ends_with(": 0 records")) << poll.results[4];
  EXPECT_TRUE(poll.results[5].starts_with("invoke ")) << poll.results[5];
  EXPECT_EQ(poll.result(), "invocations 1");
  ASSERT_EQ(poll.events.size(), 1u);
  EXPECT_EQ(poll.events[0]["delivery"]["keys"], json({"t1", "t2"}));
  EXPECT_EQ(poll.events[0]["delivery"]["result"], "ok");
  EXPECT_EQ(Rollup("c1")["TotalBytes"], json({{"N", "200"}}));
  poll = PollRound(rollup);
  EXPECT_EQ(poll.result(), "invocations 1");
  EXPECT_EQ(poll.events[0]["delivery"]["keys"], json({"t3"}));
  EXPECT_EQ(Rollup("c1")["TotalBytes"], json({{"N", "300"}}));
  poll = PollRound(rollup);
  EXPECT_EQ(poll.result(), "invocations 0");
  EXPECT_TRUE(poll.events.empty());
  EXPECT_TRUE(rollup.done());
}

TEST_F(ConsumerActorTest, ATransferAlreadyWrittenIsNotWrittenAgain) {
  auto actors = Make(R"([
    {"name": "w", "pattern": "rollup_aggregator", "count": 2,
     "ops": [{"transfer": {"id": "t1", "customer": "c{n}", "bytes": 5}}]}])");
  EXPECT_EQ(actors[0]->Step().result, "applied");
  StepOutcome again = actors[1]->Step();
  EXPECT_EQ(again.op, "transfer t1 c2 5 bytes");
  EXPECT_EQ(again.result, "exists");
  // The books keep the write that happened.
  EXPECT_EQ(world_.writes["ddblab_transfers"]["t1"]["CustomerId"],
            json({{"S", "c1"}}));
}

TEST_F(ConsumerActorTest, AFunctionErrorIsRetriedInTheNextRound) {
  auto actors = Make(R"([
    {"name": "w", "pattern": "rollup_aggregator", "repeat": 3,
     "ops": [{"transfer": {"id": "t{i}", "customer": "c1", "bytes": 10}}]},
    {"name": "r", "pattern": "rollup_aggregator", "variant": "published",
     "repeat": 2, "ops": [{"poll": {}}]}])");
  for (int i = 0; i < 3; ++i) actors[0]->Step();
  // The consumer again, with a fault: the function throws at t2, once.
  ConsumerFault fault;
  fault.id = "boom";
  fault.effect = "error";
  fault.keys = {"t2"};
  fault.times = 1;
  world_.consumer_faults = {fault};
  auto rollup = MakeActor(scenario_.actors[1], *backend_, *backend_, world_);
  ASSERT_TRUE(rollup.ok());
  Round failed = PollRound(**rollup);
  EXPECT_EQ(failed.result(), "invocations 1");
  ASSERT_EQ(failed.events.size(), 2u);
  EXPECT_EQ(failed.events[0]["fault"], "boom");
  EXPECT_EQ(failed.events[0]["effect"], "error");
  EXPECT_EQ(failed.events[0]["key"], "t2");
  EXPECT_EQ(failed.events[1]["delivery"]["keys"], json({"t1", "t2", "t3"}));
  EXPECT_EQ(failed.events[1]["delivery"]["result"],
            "error Error: ddblab consumer fault: the function failed on "
            "record " +
                failed.events[0]["sequence"].get<std::string>());
  // t1 was added before the throw, and is added again with the retry.
  EXPECT_EQ(Rollup("c1")["TotalBytes"], json({{"N", "10"}}));
  Round retried = PollRound(**rollup);
  EXPECT_EQ(retried.events[0]["delivery"]["result"], "ok");
  EXPECT_EQ(Rollup("c1")["TotalBytes"], json({{"N", "40"}}));
  ASSERT_EQ(world_.consumer_firings.size(), 1u);
  EXPECT_EQ(world_.consumer_firings[0].actor, "r");
}

TEST_F(ConsumerActorTest, CartsOrdersAndTheListenersPolls) {
  auto actors = Make(R"([
    {"name": "shop", "pattern": "ttl_expiry_listener",
     "ops": [{"cart": {"id": "a", "products": ["p1"], "expires_in": "1m"}},
             {"cart": {"id": "b", "products": ["p2"], "expires_in": "1m"}},
             {"order": {"id": "a"}},
             {"order": {"id": "b"}}]},
    {"name": "mail", "pattern": "ttl_expiry_listener", "repeat": 2,
     "ops": [{"poll": {}}]}])");
  Actor& shop = *actors[0];
  Actor& mail = *actors[1];
  StepOutcome cart = shop.Step();
  EXPECT_EQ(cart.op, "cart a ttl=1704067260 1 products");
  EXPECT_EQ(cart.result, "applied");
  shop.Step();
  StepOutcome order = shop.Step();
  EXPECT_EQ(order.op, "order a");
  EXPECT_EQ(order.result, "placed");
  EXPECT_EQ(world_.writes["ddblab_carts"].count("a"), 0u);
  // The correct filter drops the INSERTs and the user's REMOVE.
  Round quiet = PollRound(mail);
  EXPECT_EQ(quiet.result(), "invocations 0");
  ASSERT_TRUE(backend_->AdvanceClock(minutes(2)).ok());
  // Too late: TTL deleted the cart before the order.
  EXPECT_EQ(shop.Step().result,
            "error ConditionalCheckFailedException: The conditional request "
            "failed");
  Round mailed = PollRound(mail);
  EXPECT_EQ(mailed.result(), "invocations 1");
  EXPECT_EQ(mailed.events[0]["delivery"]["keys"], json({"b"}));
  ASSERT_EQ(world_.listeners.size(), 1u);
  EXPECT_EQ(world_.listeners["ddblab_carts"]->Delivered().size(), 1u);
  auto problems = CheckListeners("", world_);
  ASSERT_TRUE(problems.ok());
  EXPECT_EQ(*problems, std::vector<std::string>());
}

// The listener's check keys by cart version: a cart TTL deleted and mailed
// is not flagged when the shopper writes a new cart with the same id.
TEST_F(ConsumerActorTest, ANewCartUnderAnExpiredCartsIdIsNotFlagged) {
  auto actors = Make(R"([
    {"name": "shop", "pattern": "ttl_expiry_listener",
     "ops": [{"cart": {"id": "a", "products": ["p1"], "expires_in": "1m"}},
             {"cart": {"id": "a", "products": ["p2"], "expires_in": "1h"}}]},
    {"name": "mail", "pattern": "ttl_expiry_listener",
     "ops": [{"poll": {}}]}])");
  Actor& shop = *actors[0];
  Actor& mail = *actors[1];
  EXPECT_EQ(shop.Step().result, "applied");
  ASSERT_TRUE(backend_->AdvanceClock(minutes(2)).ok());
  EXPECT_EQ(PollRound(mail).result(), "invocations 1");
  EXPECT_EQ(shop.Step().result, "applied");
  auto problems = CheckListeners("", world_);
  ASSERT_TRUE(problems.ok());
  EXPECT_EQ(*problems, std::vector<std::string>());
}

TEST_F(ConsumerActorTest, MappingSettingsReachTheEventSourceMapping) {
  // FilterCriteria replaces the variant's filter: nothing matches.
  auto actors = Make(R"([
    {"name": "w", "pattern": "rollup_aggregator",
     "ops": [{"transfer": {"id": "t1", "customer": "c1", "bytes": 1}}]},
    {"name": "r", "pattern": "rollup_aggregator",
     "params": {"mapping": {"FilterCriteria": {"Filters": [
       {"Pattern": "{\"eventName\": [\"REMOVE\"]}"}]}}},
     "ops": [{"poll": {}}]}])");
  actors[0]->Step();
  EXPECT_EQ(PollRound(*actors[1]).result(), "invocations 0");
  EXPECT_EQ(Rollup("c1"), json());
}

TEST_F(ConsumerActorTest, MaximumRetryAttemptsZeroDiscardsAFailedBatch) {
  auto actors = Make(R"([
    {"name": "w", "pattern": "rollup_aggregator", "repeat": 2,
     "ops": [{"transfer": {"id": "t{i}", "customer": "c1", "bytes": 1}}]},
    {"name": "r", "pattern": "rollup_aggregator", "variant": "published",
     "params": {"mapping": {"MaximumRetryAttempts": 0}}, "repeat": 2,
     "ops": [{"poll": {}}]}])");
  ConsumerFault fault;
  fault.id = "poison";
  fault.effect = "error";
  fault.keys = {"t1"};
  world_.consumer_faults = {fault};
  auto rollup = MakeActor(scenario_.actors[1], *backend_, *backend_, world_);
  ASSERT_TRUE(rollup.ok());
  actors[0]->Step();
  actors[0]->Step();
  EXPECT_EQ(PollRound(**rollup).result(), "invocations 1");
  // Not retried: both records of the batch are given up.
  EXPECT_EQ(PollRound(**rollup).result(), "invocations 0");
  EXPECT_EQ(Rollup("c1"), json());
  auto problems = CheckRollups(scenario_, "", *backend_);
  ASSERT_TRUE(problems.ok());
  EXPECT_EQ(*problems,
            (std::vector<std::string>{
                "customer c1 day 2024-01-01T00:00:00.000Z: no rollup item, "
                "expected TotalBytes 2 over 2 records"}));
}

TEST_F(ConsumerActorTest, TheTablesOfEachActor) {
  auto parsed = ParseScenario(R"({"name": "t", "actors": [
      {"name": "r", "pattern": "rollup_aggregator",
       "params": {"source_table": "s", "rollup_table": "r",
                  "dedupe_table": "d"}, "ops": [{"poll": {}}]},
      {"name": "l", "pattern": "ttl_expiry_listener",
       "params": {"table": "carts"}, "ops": [{"poll": {}}]}],
      "invariants": [{"check": "rollup_aggregator"}], "expect": "holds"})",
                              "t.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(ConsumerActorTables(parsed->actors[0]),
            (std::vector<std::string>{"s", "r", "d"}));
  EXPECT_EQ(ConsumerActorTables(parsed->actors[1]),
            std::vector<std::string>{"carts"});
}

}  // namespace
}  // namespace ddblab::harness::scenario
