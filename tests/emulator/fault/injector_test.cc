// Tests of the Injector (emulator/fault/injector.h): matching by operation,
// table and key; nth / after / times / from / until; seeded probability
// draws; counters, the log, and what a call's Decision holds.
#include "emulator/fault/injector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ddblab::fault {
namespace {

using Json = nlohmann::json;

Plan MustParse(const char* text) {
  Result<Plan> plan = ParsePlanText(text);
  EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : ToString(plan.error()));
  return plan.ok() ? std::move(*plan) : Plan{};
}

TableFacts Facts(std::string_view name) {
  TableFacts f;
  f.found = true;
  f.arn = "arn:aws:dynamodb:us-east-1:000000000000:table/" + std::string(name);
  f.key_attributes = {"pk"};
  return f;
}

Json Put(const std::string& table, const std::string& pk) {
  return Json{{"TableName", table},
              {"Item", {{"pk", {{"S", pk}}}, {"v", {{"N", "1"}}}}}};
}

const TimePoint kT0 = FromEpochSeconds(1000);

// Runs `calls` PutItems on T with pk "k<i>" and gives which call numbers
// (1-based) fired.
std::vector<int> FiredCalls(Injector& injector, int calls,
                            TimePoint now = kT0) {
  std::vector<int> fired;
  for (int i = 1; i <= calls; ++i) {
    const Json request = Put("T", "k" + std::to_string(i));
    CallView call = DescribeCall(Operation::kPutItem, request);
    if (injector.Decide(call, now, Facts)) fired.push_back(i);
  }
  return fired;
}

TEST(FaultInjector, EmptyPlanIsInactive) {
  Injector injector(1);
  EXPECT_FALSE(injector.active());
  injector.SetPlan(MustParse(R"({"rules": [{"effect": "throttle"}]})"));
  EXPECT_TRUE(injector.active());
  injector.SetPlan(Plan{});
  EXPECT_FALSE(injector.active());
}

TEST(FaultInjector, NthAfterTimes) {
  Injector a(1);
  a.SetPlan(
      MustParse(R"({"rules": [{"effect": "throttle", "nth": [1, 2, 5]}]})"));
  EXPECT_EQ(FiredCalls(a, 6), (std::vector<int>{1, 2, 5}));
  Injector b(1);
  b.SetPlan(MustParse(
      R"({"rules": [{"effect": "throttle", "after": 2, "times": 3}]})"));
  EXPECT_EQ(FiredCalls(b, 8), (std::vector<int>{3, 4, 5}));
}

TEST(FaultInjector, FromUntilOnTheClock) {
  Injector injector(1);
  injector.SetPlan(MustParse(
      R"({"rules": [{"effect": "throttle", "from": 1000, "until": 1010}]})"));
  EXPECT_TRUE(FiredCalls(injector, 1, FromEpochSeconds(999)).empty());
  EXPECT_EQ(FiredCalls(injector, 1, FromEpochSeconds(1000)).size(), 1u);
  EXPECT_EQ(FiredCalls(injector, 1, FromEpochSeconds(1009)).size(), 1u);
  EXPECT_TRUE(FiredCalls(injector, 1, FromEpochSeconds(1010)).empty());
}

TEST(FaultInjector, MatchesOperationTableAndKey) {
  Injector injector(1);
  injector.SetPlan(MustParse(R"({"rules": [{"operation": "PutItem",
      "table": "T", "key": {"pk": {"S": "cart#1"}}, "effect": "throttle"}]})"));
  auto fires = [&](Operation op, const Json& request) {
    return injector.Decide(DescribeCall(op, request), kT0, Facts).has_value();
  };
  EXPECT_TRUE(fires(Operation::kPutItem, Put("T", "cart#1")));
  EXPECT_FALSE(fires(Operation::kPutItem, Put("T", "cart#2")));
  EXPECT_FALSE(fires(Operation::kPutItem, Put("U", "cart#1")));
  EXPECT_FALSE(
      fires(Operation::kGetItem,
            Json{{"TableName", "T"}, {"Key", {{"pk", {{"S", "cart#1"}}}}}}));
  EXPECT_TRUE(
      fires(Operation::kPutItem,
            Put("arn:aws:dynamodb:us-east-1:000000000000:table/T", "cart#1")));
  const Json status = injector.StatusJson();
  EXPECT_EQ(status["rules"][0]["matched"], 2);
  EXPECT_EQ(status["rules"][0]["fired"], 2);
}

TEST(FaultInjector, BatchItemsSelectedByKeyAndCount) {
  Injector injector(1);
  injector.SetPlan(MustParse(R"({"rules": [{"operation": "BatchWriteItem",
      "key": {"g": {"S": "odd"}}, "effect": "unprocessed", "count": 2}]})"));
  Json writes = Json::array();
  for (int i = 0; i < 5; ++i) {
    writes.push_back({{"PutRequest",
                       {{"Item",
                         {{"pk", {{"S", "k" + std::to_string(i)}}},
                          {"g", {{"S", i % 2 == 1 ? "odd" : "even"}}}}}}}});
  }
  const Json request = {{"RequestItems", {{"T", writes}}}};
  const CallView call = DescribeCall(Operation::kBatchWriteItem, request);
  ASSERT_EQ(call.items.size(), 5u);
  std::optional<Decision> d = injector.Decide(call, kT0, Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->effect, Effect::kUnprocessed);
  EXPECT_EQ(d->items, (std::vector<size_t>{1, 3}));
  std::vector<LogEntry> log = injector.Log();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].seq, 1);
  EXPECT_EQ(log[0].time, kT0);
  EXPECT_EQ(log[0].operation, "BatchWriteItem");
  EXPECT_EQ(log[0].table, "T");
  EXPECT_EQ(log[0].rule_id, "0");
  EXPECT_EQ(log[0].effect, Effect::kUnprocessed);
  EXPECT_EQ(log[0].keys, Json::parse(R"([{"pk": {"S": "k1"}},
                                          {"pk": {"S": "k3"}}])"));
}

TEST(FaultInjector, ProbabilityIsSeededPerRuleAndCallNumber) {
  const char* plan = R"({"rules": [
      {"id": "p", "operation": "PutItem", "effect": "throttle",
       "probability": 0.3}]})";
  Injector a(42);
  a.SetPlan(MustParse(plan));
  const std::vector<int> first = FiredCalls(a, 200);
  Injector b(42);
  b.SetPlan(MustParse(plan));
  EXPECT_EQ(FiredCalls(b, 200), first);
  // Roughly 30% fire (a fixed draw sequence: this cannot flake).
  EXPECT_GT(first.size(), 40u);
  EXPECT_LT(first.size(), 80u);
  Injector other_seed(43);
  other_seed.SetPlan(MustParse(plan));
  EXPECT_NE(FiredCalls(other_seed, 200), first);
  // A rule added before it (matching other calls) does not move its draws.
  Injector c(42);
  c.SetPlan(MustParse(R"({"rules": [
      {"id": "q", "operation": "GetItem", "effect": "throttle",
       "probability": 0.5},
      {"id": "p", "operation": "PutItem", "effect": "throttle",
       "probability": 0.3}]})"));
  for (int i = 0; i < 7; ++i) {
    c.Decide(
        DescribeCall(Operation::kGetItem,
                     Json{{"TableName", "T"}, {"Key", {{"pk", {{"S", "x"}}}}}}),
        kT0, Facts);
  }
  EXPECT_EQ(FiredCalls(c, 200), first);
}

// A draw hook decides each draw of a rule with 0 < probability < 1, told
// the rule, its matching-call number and the seed's outcome; rules with
// probability 1 (or none) never ask it. Null gives the generator back.
TEST(FaultInjector, ADrawHookDecidesProbabilisticDraws) {
  const char* plan = R"({"rules": [
      {"id": "p", "operation": "PutItem", "effect": "throttle",
       "probability": 0.3},
      {"id": "sure", "operation": "GetItem", "effect": "throttle",
       "probability": 1}]})";
  Injector seeded(42);
  seeded.SetPlan(MustParse(plan));
  const std::vector<int> by_seed = FiredCalls(seeded, 20);
  Injector hooked(42);
  hooked.SetPlan(MustParse(plan));
  std::vector<FaultDraw> asked;
  hooked.SetDrawHook([&](const FaultDraw& draw) {
    asked.push_back(draw);
    return !draw.seeded;  // every draw the other way
  });
  const std::vector<int> inverted = FiredCalls(hooked, 20);
  ASSERT_EQ(asked.size(), 20u);
  std::vector<int> expected;
  for (int i = 1; i <= 20; ++i) {
    if (std::find(by_seed.begin(), by_seed.end(), i) == by_seed.end()) {
      expected.push_back(i);
    }
    EXPECT_EQ(asked[i - 1].rule_id, "p");
    EXPECT_EQ(asked[i - 1].match, i);
    EXPECT_EQ(asked[i - 1].probability, 0.3);
    EXPECT_EQ(asked[i - 1].seeded,
              std::find(by_seed.begin(), by_seed.end(), i) != by_seed.end());
  }
  EXPECT_EQ(inverted, expected);
  std::optional<Decision> get = hooked.Decide(
      DescribeCall(Operation::kGetItem,
                   Json{{"TableName", "T"}, {"Key", {{"pk", {{"S", "x"}}}}}}),
      kT0, Facts);
  ASSERT_TRUE(get.has_value());
  EXPECT_EQ(get->rule_id, "sure");
  EXPECT_EQ(asked.size(), 20u);  // probability 1: no draw to decide
  hooked.SetDrawHook(nullptr);
  hooked.SetPlan(MustParse(plan));  // counters back to 0
  EXPECT_EQ(FiredCalls(hooked, 20), by_seed);
}

TEST(FaultInjector, FirstTerminalRuleWinsLatencyAdds) {
  Injector injector(1);
  injector.SetPlan(MustParse(R"({"rules": [
      {"id": "slow", "effect": "latency", "duration": "2s"},
      {"id": "a", "effect": "internal_error"},
      {"id": "b", "effect": "throttle"},
      {"id": "slower", "effect": "latency", "duration": "500ms"}]})"));
  std::optional<Decision> d = injector.Decide(
      DescribeCall(Operation::kPutItem, Put("T", "k")), kT0, Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->effect, Effect::kInternalError);
  EXPECT_EQ(d->rule_id, "a");
  EXPECT_EQ(d->latency, std::chrono::milliseconds(2500));
  const Json status = injector.StatusJson();
  EXPECT_EQ(status["rules"][2]["matched"], 1);  // counted, did not fire
  EXPECT_EQ(status["rules"][2]["fired"], 0);
  std::vector<LogEntry> log = injector.Log();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0].rule_id, "slow");
  EXPECT_EQ(log[1].rule_id, "a");
  EXPECT_EQ(log[2].rule_id, "slower");
  EXPECT_EQ(LogEntryToJson(log[1]),
            Json::parse(R"({"seq": 2, "time": 1000.0, "operation": "PutItem",
                "table": "T", "keys": [{"pk": {"S": "k"}}], "rule": "a",
                "effect": "internal_error"})"));
}

TEST(FaultInjector, AddedLatencyIsCappedAtTheSdkReadTimeout) {
  Injector injector(1);
  injector.SetPlan(MustParse(R"({"rules": [
      {"id": "a", "effect": "latency", "duration": "45s"},
      {"id": "b", "effect": "latency", "duration": "45s"}]})"));
  std::optional<Decision> d = injector.Decide(
      DescribeCall(Operation::kPutItem, Put("T", "k")), kT0, Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->latency, std::chrono::seconds(60));
  EXPECT_EQ(injector.Log().size(), 2u);  // both fired
}

TEST(FaultInjector, SetPlanResetsCountersKeepsLog) {
  Injector injector(1);
  injector.SetPlan(
      MustParse(R"({"rules": [{"effect": "throttle", "nth": [1]}]})"));
  EXPECT_EQ(FiredCalls(injector, 3), std::vector<int>{1});
  injector.SetPlan(
      MustParse(R"({"rules": [{"effect": "throttle", "nth": [1]}]})"));
  EXPECT_EQ(FiredCalls(injector, 3), std::vector<int>{1});
  EXPECT_EQ(injector.Log().size(), 2u);
  EXPECT_EQ(injector.Log()[1].seq, 2);
}

Json Get(const std::string& table, const std::string& pk) {
  return Json{{"TableName", table}, {"Key", {{"pk", {{"S", pk}}}}}};
}

TEST(FaultInjector, StaleReadFiresForItsKeyOnly) {
  Injector injector(1);
  injector.SetPlan(MustParse(R"({"rules": [
      {"id": "old", "operation": "GetItem", "key": {"pk": {"S": "a"}},
       "effect": "stale_read", "duration": "1s"},
      {"id": "older", "operation": "GetItem", "key": {"pk": {"S": "a"}},
       "nth": [2], "effect": "stale_read", "duration": "3s"}]})"));
  EXPECT_FALSE(
      injector
          .Decide(DescribeCall(Operation::kGetItem, Get("T", "b")), kT0, Facts)
          .has_value());
  std::optional<Decision> d = injector.Decide(
      DescribeCall(Operation::kGetItem, Get("T", "a")), kT0, Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_FALSE(d->effect.has_value());
  EXPECT_EQ(d->stale_read, std::chrono::seconds(1));
  EXPECT_TRUE(d->index_lags.empty());
  EXPECT_FALSE(ImmediateError(DescribeCall(Operation::kGetItem, Get("T", "a")),
                              *d, Facts)
                   .has_value());
  // Both fire on the second read of "a": the longest wins.
  d = injector.Decide(DescribeCall(Operation::kGetItem, Get("T", "a")), kT0,
                      Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->stale_read, std::chrono::seconds(3));
  std::vector<LogEntry> log = injector.Log();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(LogEntryToJson(log[0]),
            Json::parse(R"({"seq": 1, "time": 1000.0, "operation": "GetItem",
                "table": "T", "keys": [{"pk": {"S": "a"}}], "rule": "old",
                "effect": "stale_read"})"));
}

TEST(FaultInjector, IndexLagCarriesTableIndexAndDuration) {
  Injector injector(1);
  injector.SetPlan(MustParse(R"({"rules": [
      {"id": "a", "table": "T", "index": "byWindow", "effect": "index_lag",
       "duration": "5s"},
      {"id": "b", "operation": "BatchWriteItem", "table": "T",
       "key": {"pk": {"S": "k1"}}, "index": "byWindow", "effect": "index_lag",
       "duration": "7s"},
      {"id": "c", "table": "T", "index": "byOwner", "effect": "index_lag",
       "duration": "1s"},
      {"id": "t", "table": "T", "nth": [1], "effect": "throttle"}]})"));
  std::optional<Decision> d = injector.Decide(
      DescribeCall(Operation::kPutItem, Put("T", "k1")), kT0, Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->effect, Effect::kThrottle);  // combines with a terminal effect
  EXPECT_EQ(d->stale_read, Duration::zero());
  ASSERT_EQ(d->index_lags.size(), 2u);
  EXPECT_EQ(d->index_lags[0].table, "T");
  EXPECT_EQ(d->index_lags[0].index, "byWindow");
  EXPECT_EQ(d->index_lags[0].duration, std::chrono::seconds(5));
  EXPECT_EQ(d->index_lags[0].items, std::vector<size_t>{0});
  EXPECT_EQ(d->index_lags[1].index, "byOwner");
  EXPECT_EQ(d->index_lags[1].duration, std::chrono::seconds(1));
  // A batch over T and U: the items of T; rules a and b (the same index)
  // give one entry, the longer duration, the union of their items.
  Json writes_t = Json::array();
  for (const char* pk : {"k0", "k1"}) {
    writes_t.push_back(
        {{"PutRequest", {{"Item", {{"pk", {{"S", std::string(pk)}}}}}}}});
  }
  const Json batch = {
      {"RequestItems",
       {{"U",
         Json::array({{{"PutRequest", {{"Item", {{"pk", {{"S", "u"}}}}}}}}})},
        {"T", writes_t}}}};
  const CallView call = DescribeCall(Operation::kBatchWriteItem, batch);
  d = injector.Decide(call, kT0, Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_FALSE(d->effect.has_value());
  ASSERT_EQ(d->index_lags.size(), 2u);
  EXPECT_EQ(d->index_lags[0].index, "byWindow");
  EXPECT_EQ(d->index_lags[0].duration, std::chrono::seconds(7));
  EXPECT_EQ(d->index_lags[0].items, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(call.items[2].table, "U");  // (RequestItems keys come sorted)
  // A write to another table: nothing fires.
  EXPECT_FALSE(
      injector
          .Decide(DescribeCall(Operation::kPutItem, Put("U", "k1")), kT0, Facts)
          .has_value());
}

TEST(FaultInjector, StaleReadHorizonFollowsThePlan) {
  Injector injector(1);
  EXPECT_EQ(injector.stale_read_horizon(), Duration::zero());
  injector.SetPlan(MustParse(R"({"rules": [
      {"effect": "stale_read", "duration": "250ms"},
      {"effect": "stale_read", "duration": "1s"},
      {"effect": "latency", "duration": "5s"}]})"));
  EXPECT_EQ(injector.stale_read_horizon(), std::chrono::seconds(1));
  injector.SetPlan(MustParse(R"({"rules": [{"effect": "throttle"}]})"));
  EXPECT_EQ(injector.stale_read_horizon(), Duration::zero());
}

TEST(FaultInjector, StreamsCallsNameTheirTable) {
  const std::string arn =
      "arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/"
      "2024-01-01T00:00:00.000";
  const CallView call = DescribeCall(Operation::kGetRecords,
                                     Json{{"ShardIterator", arn + "|1|abc"}});
  EXPECT_EQ(call.tables, std::vector<std::string>{"T"});
  Injector injector(1);
  injector.SetPlan(
      MustParse(R"({"rules": [{"table": "T", "effect": "empty"}]})"));
  std::optional<Decision> d = injector.Decide(call, kT0, Facts);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->effect, Effect::kEmpty);
  // request_limit never matches a Streams call (no such Streams error).
  Injector limits(1);
  limits.SetPlan(MustParse(R"({"rules": [{"effect": "request_limit"}]})"));
  EXPECT_FALSE(limits.Decide(call, kT0, Facts).has_value());
}

}  // namespace
}  // namespace ddblab::fault
