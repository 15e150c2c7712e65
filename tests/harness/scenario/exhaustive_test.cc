// --strategy exhaustive (harness/scenario/exhaustive.h): the schedules of
// small hand-counted scenarios, the preemption bound, the budget, a race
// that only one interleaving shows, and the trace of a schedule reproduced
// byte for byte and by --replay; fault draws as branches of the tree.
#include "harness/scenario/exhaustive.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/scenario/scenario.h"
#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::Command;
using testing::Lines;
using testing::ReadFile;
using testing::TempDirFor;
using testing::WriteFile;

// A script op: UpdateItem of item `key` of table xtb with `update`, under
// `condition` when not empty.
std::string Update(const std::string& update, const std::string& condition = "",
                   const std::string& key = "k") {
  std::string op = R"({"call": "UpdateItem", "request": {"TableName": "xtb",
      "Key": {"pk": {"S": ")" +
                   key + R"("}}, "UpdateExpression": ")" + update + R"(",
      "ExpressionAttributeValues": {":one": {"N": "1"}})";
  if (!condition.empty()) {
    op += R"(, "ConditionExpression": ")" + condition + "\"";
  }
  return op + "}}";
}

// Actors a and b with two script ops each, and one invariant.
std::string TwoByTwo(const std::string& a1, const std::string& a2,
                     const std::string& b1, const std::string& b2,
                     const std::string& invariant, const std::string& expect) {
  return R"({"name": "two-by-two",
    "tables": [{"TableName": "xtb", "BillingMode": "PAY_PER_REQUEST",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk",
                                "AttributeType": "S"}]}],
    "actors": [{"name": "a", "pattern": "script", "ops": [)" +
         a1 + "," + a2 + R"(]},
               {"name": "b", "pattern": "script", "ops": [)" +
         b1 + "," + b2 + R"(]}],
    "invariants": [)" +
         invariant + R"(],
    "expect": ")" +
         expect + R"("})";
}

// Four increments of one item: every order ends with n = 4.
std::string Increments() {
  const std::string add = Update("ADD n :one");
  return TwoByTwo(add, add, add, add,
                  R"({"check": "sum", "table": "xtb", "attribute": "n",
                      "equals": 4})",
                  "holds");
}

// A chain of conditions: a sets `a`; b sets `b` if `a` is there; a sets `c`
// if `b` is; b sets `d` if `c` is. Only a b a b (two preemptions) sets `d`.
std::string Chain() {
  return TwoByTwo(Update("SET a = :one"),
                  Update("SET c = :one", "attribute_exists(b)"),
                  Update("SET b = :one", "attribute_exists(a)"),
                  Update("SET d = :one", "attribute_exists(c)"),
                  R"({"check": "sum", "table": "xtb", "attribute": "d",
                      "equals": 0})",
                  "violated");
}

Scenario Parse(const std::string& text) {
  auto scenario = ParseScenario(text, "t.json");
  EXPECT_TRUE(scenario.ok()) << scenario.error().message;
  return scenario.ok() ? *scenario : Scenario();
}

ExhaustiveResult Explore(const std::string& text, int max_preemptions,
                         bool reduce = true) {
  return ExploreExhaustive(Parse(text), RunOptions(),
                           {max_preemptions, kDefaultBudget, reduce});
}

// 2 actors x 2 steps: C(4,2) = 6 interleavings. A preemption switches away
// from an actor that could go on: a a b b and b b a a have none; a b b a and
// b a a b one; a b a b and b a b a two.
TEST(Exhaustive, TwoActorsOfTwoStepsHaveSixSchedulesAndTheBoundCutsThem) {
  for (auto [k, count] : {std::pair{10, 6}, {2, 6}, {1, 4}, {0, 2}}) {
    ExhaustiveResult e = Explore(Increments(), k);
    ASSERT_EQ(e.code, 0) << e.failure;
    EXPECT_TRUE(e.complete) << k;
    EXPECT_FALSE(e.failing.has_value()) << k;
    EXPECT_EQ(e.schedules, count) << k;
    EXPECT_EQ(e.stopped, 0) << k;
  }
}

// Four puts, each of its own item (k1, k2 by a; k3, k4 by b): every pair of
// steps is independent, so the six interleavings are one Mazurkiewicz trace
// and one schedule is run: a a b b. Then b at the second step, with a's
// second step asleep (it was explored there, and b's steps do not touch
// k2): b runs both its steps, and only the sleeping a is left: the run
// stops. Then b first, a's first step asleep: b b, stopped. 1 schedule, 2
// runs stopped.
TEST(Exhaustive, IndependentStepsRunInOneOrderOnly) {
  const std::string put = R"({"call": "PutItem", "request": {
      "TableName": "xtb", "Item": {"pk": {"S": "KEY"}, "n": {"N": "1"}}}})";
  const auto put_of = [&](const std::string& key) {
    std::string op = put;
    return op.replace(op.find("KEY"), 3, key);
  };
  const std::string text = TwoByTwo(
      put_of("k1"), put_of("k2"), put_of("k3"), put_of("k4"),
      R"({"check": "sum", "table": "xtb", "attribute": "n", "equals": 4})",
      "holds");
  ExhaustiveResult reduced = Explore(text, 2);
  ASSERT_EQ(reduced.code, 0) << reduced.failure;
  EXPECT_TRUE(reduced.complete);
  EXPECT_EQ(reduced.schedules, 1);
  EXPECT_EQ(reduced.stopped, 2);
  EXPECT_EQ(reduced.runs, 3);
  ExhaustiveResult full = Explore(text, 2, false);
  EXPECT_EQ(full.schedules, 6);
  EXPECT_EQ(full.stopped, 0);
  // a updates k1 then k2, b updates k1 then k3: only a1 and b1 depend on
  // each other, so there are two classes (a1 before b1, or after). By hand:
  // a a b b; a b b with a2 asleep (explored after a1, independent of b1
  // and b2): stopped; b b a a (a1 woke: it depends on b1); b a a with b2
  // asleep: stopped. 2 schedules, 2 runs stopped.
  const std::string add = "ADD n :one";
  ExhaustiveResult mixed =
      Explore(TwoByTwo(Update(add, "", "k1"), Update(add, "", "k2"),
                       Update(add, "", "k1"), Update(add, "", "k3"),
                       R"({"check": "sum", "table": "xtb", "attribute": "n",
                   "equals": 4})",
                       "holds"),
              2);
  ASSERT_EQ(mixed.code, 0) << mixed.failure;
  EXPECT_EQ(mixed.schedules, 2);
  EXPECT_EQ(mixed.stopped, 2);
}

// The chain breaks on a b a b only: schedule 3 of the depth-first order
// (a a b b, a b b a, a b a b, ...). With one preemption it is out of reach.
TEST(Exhaustive, FindsTheOneInterleavingThatBreaksAndSaysWhichItIs) {
  const auto dir = TempDirFor("exhaustive_chain");
  const std::string file = WriteFile(dir / "chain.json", Chain());
  testing::Ran found = Command({file, "--strategy", "exhaustive"});
  EXPECT_EQ(found.code, 0) << found.err;
  EXPECT_EQ(found.out,
            file +
                ": schedule 3 of the exploration (K=2) broke invariants[0] "
                "(sum): the sum of d over xtb is 1, expected 0\n" +
                file + ": its schedule (seed 1): a b a b\n" + file +
                ": expect violated: met\n");
  testing::Ran bounded =
      Command({file, "--strategy", "exhaustive", "--max-preemptions", "1"});
  EXPECT_EQ(bounded.code, 1) << bounded.err;
  EXPECT_EQ(bounded.out, file +
                             ": explored all 4 distinct schedules (K=1): "
                             "every invariant held\n" +
                             file + ": expect violated: FAILED\n");
}

// Three actors of two increments each: 6!/(2!2!2!) = 90 interleavings.
// A budget of 30 stops short and estimates the whole from 3 random walks
// (Knuth's estimator; seeded, so the same figure every time): 60 here,
// against the 90 there are.
TEST(Exhaustive, ABudgetReachedEstimatesTheSchedulesOfTheBound) {
  const std::string add = Update("ADD n :one");
  std::string text = TwoByTwo(add, add, add, add,
                              R"({"check": "sum", "table": "xtb",
                                  "attribute": "n", "equals": 6})",
                              "holds");
  const std::string b_actor = R"({"name": "b", "pattern": "script")";
  text.insert(text.find(b_actor),
              R"({"name": "c", "pattern": "script", "ops": [)" + add + "," +
                  add + "]},");
  ExhaustiveResult all =
      ExploreExhaustive(Parse(text), RunOptions(), {10, kDefaultBudget, true});
  ASSERT_EQ(all.code, 0) << all.failure;
  EXPECT_TRUE(all.complete);
  EXPECT_EQ(all.schedules, 90);
  EXPECT_EQ(all.estimated_schedules, 0);  // nothing left to estimate
  ExhaustiveResult part =
      ExploreExhaustive(Parse(text), RunOptions(), {10, 30, true});
  ASSERT_EQ(part.code, 0) << part.failure;
  EXPECT_FALSE(part.complete);
  EXPECT_EQ(part.schedules, 30);
  EXPECT_EQ(part.runs, 30);  // the walks are not counted
  EXPECT_EQ(part.estimated_schedules, 60);
}

TEST(Exhaustive, TheBudgetStopsTheExploration) {
  const auto dir = TempDirFor("exhaustive_budget");
  const std::string file = WriteFile(dir / "inc.json", Increments());
  testing::Ran ran = Command({file, "--strategy", "exhaustive", "--budget", "5",
                              "--max-preemptions", "3"});
  EXPECT_EQ(ran.code, 0) << ran.err;
  EXPECT_EQ(ran.out, file +
                         ": budget reached after 5 of about 6 distinct "
                         "schedules (K=3): every invariant held in those; "
                         "more schedules remain within the bound (the total "
                         "is a rough estimate from random walks, before the "
                         "reduction)\n" +
                         file + ": expect holds: met\n");
  // A budget equal to the count explores them all.
  EXPECT_EQ(Command({file, "--strategy", "exhaustive", "--budget", "6"}).out,
            file +
                ": explored all 6 distinct schedules (K=2): every invariant "
                "held\n" +
                file + ": expect holds: met\n");
}

// The failing schedule's trace: the same seed and strategy write the same
// bytes, the start line says which schedule it is, and --replay runs it
// again identically.
TEST(Exhaustive, TheTraceOfAScheduleIsReproducedAndReplays) {
  const auto dir = TempDirFor("exhaustive_trace");
  const std::string file = WriteFile(dir / "chain.json", Chain());
  const std::string one = (dir / "1.jsonl").string();
  const std::string two = (dir / "2.jsonl").string();
  ASSERT_EQ(Command({file, "--strategy", "exhaustive", "--trace", one}).code,
            0);
  ASSERT_EQ(Command({file, "--strategy", "exhaustive", "--trace", two}).code,
            0);
  const std::string trace = ReadFile(one);
  EXPECT_EQ(trace, ReadFile(two));
  const std::vector<std::string> lines = Lines(trace);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front(),
            "{\"event\":\"start\",\"scenario\":\"two-by-two\",\"seed\":1,"
            "\"strategy\":\"exhaustive\",\"exhaustive\":{\"schedule\":3,"
            "\"max_preemptions\":2},\"backend\":\"emulator\","
            "\"t\":\"2024-01-01T00:00:00.000Z\"}");
  EXPECT_EQ(lines.back(),
            "{\"event\":\"end\",\"steps\":4,\"verdict\":"
            "\"violated\"}");
  testing::Ran replay = Command({file, "--replay", one});
  EXPECT_EQ(replay.code, 0) << replay.err;
  EXPECT_EQ(replay.out, one +
                            ": replayed 4 steps of seed 1; every response "
                            "identical\n");
}

// Script actors on table xtb (`actors`: their JSON), a fault plan's rules
// and an invariant that always holds (nobody sets d).
std::string WithFaults(const std::string& actors, const std::string& rules) {
  return R"({"name": "faulted",
    "tables": [{"TableName": "xtb", "BillingMode": "PAY_PER_REQUEST",
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk",
                                "AttributeType": "S"}]}],
    "actors": [)" +
         actors + R"(],
    "faults": {"rules": [)" +
         rules + R"(]},
    "invariants": [{"check": "sum", "table": "xtb", "attribute": "d",
                    "equals": 0}],
    "expect": "holds"})";
}

std::string Script(const std::string& name, const std::string& ops) {
  return R"({"name": ")" + name + R"(", "pattern": "script", "ops": [)" + ops +
         "]}";
}

// One actor, two calls, each matching a rule with probability 0.5: no pick
// to choose, two draws of two outcomes each: 4 leaves. The output says
// that they count fault outcomes.
TEST(ExhaustiveFaults, OneActorOfTwoCallsUnderAProbabilityHasFourLeaves) {
  const std::string add = Update("ADD n :one");
  const std::string text =
      WithFaults(Script("a", add + "," + add),
                 R"({"operation": "UpdateItem", "probability": 0.5,
          "effect": "throttle"})");
  ExhaustiveResult e = Explore(text, 2);
  ASSERT_EQ(e.code, 0) << e.failure;
  EXPECT_TRUE(e.complete);
  EXPECT_TRUE(e.fault_branches);
  EXPECT_EQ(e.schedules, 4);
  EXPECT_EQ(e.stopped, 0);
  // F=0: only the seed's draws; F=1: those with one of the two flipped.
  ExhaustiveResult none = ExploreExhaustive(Parse(text), RunOptions(),
                                            {2, kDefaultBudget, true, 0});
  EXPECT_EQ(none.schedules, 1);
  ExhaustiveResult one = ExploreExhaustive(Parse(text), RunOptions(),
                                           {2, kDefaultBudget, true, 1});
  EXPECT_EQ(one.schedules, 3);
  const auto dir = TempDirFor("exhaustive_fault_leaves");
  const std::string file = WriteFile(dir / "f.json", text);
  EXPECT_EQ(Command({file, "--strategy", "exhaustive"}).out,
            file +
                ": explored all 4 distinct schedules and fault outcomes "
                "(K=2): every invariant held\n" +
                file + ": expect holds: met\n");
  EXPECT_EQ(
      Command({file, "--strategy", "exhaustive", "--max-faults", "1"}).out,
      file +
          ": explored all 3 distinct schedules and fault outcomes "
          "(K=2, F=1): every invariant held\n" +
          file + ": expect holds: met\n");
  // A rule with probability 1 (or 0) draws nothing: no branch.
  ExhaustiveResult certain =
      Explore(WithFaults(Script("a", add + "," + add),
                         R"({"operation": "UpdateItem", "probability": 1,
                     "effect": "throttle"})"),
              2);
  EXPECT_FALSE(certain.fault_branches);
  EXPECT_EQ(certain.schedules, 1);
}

// Two actors of one step each, a updating k1 (the rule's operation) and b
// putting k2. Without the reduction: 2 orders x 2 outcomes of a's draw =
// 4. With it the steps are independent (other items; only a's matched a
// rule): a b under both outcomes, then b first with a asleep (its step's
// footprint over both outcomes is k1 only): stopped. 2 schedules, 1 run
// stopped. When both update k1 under a rule on every UpdateItem, each step
// draws and both matched a rule (dependent): 2 orders x 2 x 2 = 8.
TEST(ExhaustiveFaults, TwoActorsAndOneProbabilisticRuleAreCountedByHand) {
  const std::string put_k2 = R"({"call": "PutItem", "request": {
      "TableName": "xtb", "Item": {"pk": {"S": "k2"}, "n": {"N": "1"}}}})";
  const std::string text = WithFaults(
      Script("a", Update("ADD n :one", "", "k1")) + "," + Script("b", put_k2),
      R"({"operation": "UpdateItem", "probability": 0.5,
          "effect": "throttle"})");
  ExhaustiveResult full = Explore(text, 2, false);
  ASSERT_EQ(full.code, 0) << full.failure;
  EXPECT_TRUE(full.complete);
  EXPECT_EQ(full.schedules, 4);
  EXPECT_EQ(full.stopped, 0);
  ExhaustiveResult reduced = Explore(text, 2);
  ASSERT_EQ(reduced.code, 0) << reduced.failure;
  EXPECT_TRUE(reduced.complete);
  EXPECT_EQ(reduced.schedules, 2);
  EXPECT_EQ(reduced.stopped, 1);
  const std::string add = Update("ADD n :one", "", "k1");
  ExhaustiveResult both =
      Explore(WithFaults(Script("a", add) + "," + Script("b", add),
                         R"({"operation": "UpdateItem", "probability": 0.5,
                             "effect": "throttle"})"),
              2);
  ASSERT_EQ(both.code, 0) << both.failure;
  EXPECT_EQ(both.schedules, 8);
  EXPECT_EQ(both.stopped, 0);
}

// A counter without idempotency keys, one increment, its UpdateItem's
// answer lost with probability 0.01: seed 1 draws no fault and holds.
// Exhaustive's first pass (the seed's draws) has that one schedule; the
// second runs it again, then flips the draw (run 3): the answer is lost,
// the retry (the actor's next step) counts again. The trace records the forced
// outcome, and --replay forces it again.
TEST(ExhaustiveFaults, FindsARaceThatOnlyAFaultTheSeedDoesNotDrawShows) {
  const std::string text = R"({"name": "lost-once",
    "actors": [{"name": "client", "pattern": "idempotent_counter",
                "variant": "no_idempotency_key",
                "ops": [{"add": {"counter": "c", "key": "k1"}}]}],
    "faults": {"rules": [{"id": "lost", "operation": "UpdateItem",
                          "probability": 0.01, "effect": "lost_response"}]},
    "invariants": [{"check": "idempotent_counter"}],
    "expect": "violated"})";
  const auto dir = TempDirFor("exhaustive_fault_race");
  const std::string file = WriteFile(dir / "lost.json", text);
  testing::Ran plain = Command({file, "--seed", "1"});
  EXPECT_EQ(plain.code, 1) << plain.err;
  EXPECT_NE(plain.out.find("expect violated: FAILED"), std::string::npos)
      << plain.out;
  const std::string trace = (dir / "t.jsonl").string();
  testing::Ran found =
      Command({file, "--strategy", "exhaustive", "--trace", trace});
  EXPECT_EQ(found.code, 0) << found.err;
  EXPECT_EQ(found.out.substr(0, found.out.find(" broke ")),
            file + ": schedule 3 of the exploration (K=2)")
      << found.out;
  const std::vector<std::string> lines = Lines(ReadFile(trace));
  std::vector<std::string> draws;
  for (const std::string& line : lines) {
    if (line.find("fault_draw") != std::string::npos) draws.push_back(line);
  }
  ASSERT_EQ(draws.size(), 2u) << ReadFile(trace);
  EXPECT_EQ(draws[0],
            "{\"step\":1,\"fault_draw\":{\"rule\":\"lost\",\"match\":1,"
            "\"fires\":true,\"seeded\":false}}");
  EXPECT_EQ(draws[1],
            "{\"step\":2,\"fault_draw\":{\"rule\":\"lost\",\"match\":2,"
            "\"fires\":false,\"seeded\":false}}");
  EXPECT_EQ(lines.back(),
            "{\"event\":\"end\",\"steps\":2,\"verdict\":\"violated\"}");
  testing::Ran replay = Command({file, "--replay", trace});
  EXPECT_EQ(replay.code, 0) << replay.err;
  EXPECT_EQ(replay.out, trace +
                            ": replayed 2 steps of seed 1; every response "
                            "identical\n");
  // Without the fault_draw lines the seed's draws come back: the run
  // differs at its first step.
  std::string without;
  for (const std::string& line : lines) {
    if (line.find("fault_draw") == std::string::npos) without += line + "\n";
  }
  const std::string stripped = WriteFile(dir / "stripped.jsonl", without);
  testing::Ran differs = Command({file, "--replay", stripped});
  EXPECT_EQ(differs.code, 1);
  EXPECT_EQ(differs.out.substr(0, differs.out.find('\n')),
            stripped + ": step 1 differs")
      << differs.out;
}

}  // namespace
}  // namespace ddblab::harness::scenario
