// `ddblab run` in process (RunScenarioCommand): traces that repeat byte for
// byte, --replay finding a changed response, --shrink cutting a failing
// run down, and the exact message and exit code of every bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"
#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::Command;
using testing::Lines;
using testing::ReadFile;
using testing::Shipped;
using testing::TempDirFor;
using testing::WithoutRate;
using testing::WriteFile;

size_t StepCount(const std::string& trace) {
  size_t steps = 0;
  for (const std::string& line : Lines(trace)) {
    if (line.starts_with("{\"step\":") &&
        line.find("\"actor\":") != std::string::npos) {
      ++steps;
    }
  }
  return steps;
}

TEST(RunCommand, TheTraceOfAFixedSeedIsByteIdentical) {
  auto dir = TempDirFor("identical");
  const std::string file = Shipped("ordered_writes_sdk_retry_naive.json");
  const std::string a = (dir / "a.jsonl").string();
  const std::string b = (dir / "b.jsonl").string();
  ASSERT_EQ(Command({file, "--seed", "7", "--trace", a}).code == 2, false);
  ASSERT_EQ(Command({file, "--seed", "7", "--trace", b}).code == 2, false);
  const std::string first = ReadFile(a);
  EXPECT_EQ(first, ReadFile(b));
  EXPECT_GE(StepCount(first), 6u);
  EXPECT_TRUE(first.starts_with(
      "{\"event\":\"start\",\"scenario\":\"ordered-writes-sdk-retry-naive\","
      "\"seed\":7,\"strategy\":\"random\",\"backend\":\"emulator\",\"t\":"
      "\"2024-01-01T00:00:00.000Z\""))
      << first;
  // Other seeds schedule the writers differently.
  const std::set<std::string> traces =
      testing::TracesOfSeeds(file, dir, {"1", "2", "3", "4", "5"});
  EXPECT_GT(traces.size(), 1u);
}

TEST(RunCommand, ReplayOfAnUnchangedTraceIsIdentical) {
  auto dir = TempDirFor("replay_same");
  const std::string file =
      Shipped("idempotent_counter_lost_response_naive.json");
  const std::string trace = (dir / "t.jsonl").string();
  Command({file, "--seed", "3", "--trace", trace});
  testing::Ran ran = Command({file, "--replay", trace});
  EXPECT_EQ(ran.code, 0) << ran.err;
  // 10 adds and 3 retries of a lost answer, each a step.
  EXPECT_EQ(ran.out, trace +
                         ": replayed 13 steps of seed 3; every response "
                         "identical\n");
}

TEST(RunCommand, ReplayReportsTheFirstStepWhoseResponseDiffers) {
  auto dir = TempDirFor("replay_changed");
  const std::string file = Shipped("ordered_writes_late_write_correct.json");
  const std::string trace = (dir / "t.jsonl").string();
  Command({file, "--seed", "1", "--trace", trace});
  // Replaying the trace against the naive variant: the same decisions, but
  // the deleter's request is a DeleteItem instead of a tombstone PutItem.
  std::vector<std::string> lines = Lines(ReadFile(trace));
  const std::string naive = Shipped("ordered_writes_late_write_naive.json");
  testing::Ran ran = Command({naive, "--replay", trace});
  EXPECT_EQ(ran.code, 1);
  EXPECT_NE(ran.out.find(": step "), std::string::npos) << ran.out;
  EXPECT_NE(ran.out.find(" differs\n  recorded: {\"step\":"), std::string::npos)
      << ran.out;

  // A changed response in the trace itself is found at its step.
  size_t changed = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("\"call\":\"PutItem\",\"response\":{}") !=
        std::string::npos) {
      changed = i;
      break;
    }
  }
  ASSERT_GT(changed, 0u) << ReadFile(trace);
  const std::string original = lines[changed];
  lines[changed].replace(lines[changed].find("\"response\":{}"), 13,
                         "\"response\":{\"Attributes\":{}}");
  std::string edited;
  for (const std::string& line : lines) edited += line + "\n";
  const std::string edited_path = WriteFile(dir / "edited.jsonl", edited);
  ran = Command({file, "--replay", edited_path});
  EXPECT_EQ(ran.code, 1);
  const int step = nlohmann::json::parse(original)["step"].get<int>();
  EXPECT_EQ(ran.out, edited_path + ": step " + std::to_string(step) +
                         " differs\n  recorded: " + lines[changed] +
                         "\n  replayed: " + original + "\n");
}

TEST(RunCommand, ShrinkWritesASmallerScenarioThatStillFails) {
  auto dir = TempDirFor("shrink");
  const std::string file = Shipped("ordered_writes_sdk_retry_naive.json");
  // The first failing seed and its trace.
  const std::string full = (dir / "full.jsonl").string();
  testing::Ran explored = Command({file, "--explore", "50", "--trace", full});
  ASSERT_EQ(explored.code, 0) << explored.out << explored.err;
  const size_t before = StepCount(ReadFile(full));

  const std::string pinned = (dir / "min.json").string();
  const std::string small = (dir / "min.jsonl").string();
  testing::Ran ran =
      Command({file, "--shrink", "--shrink-out", pinned, "--trace", small});
  ASSERT_EQ(ran.code, 0) << ran.out << ran.err;
  EXPECT_NE(ran.out.find(": wrote " + pinned + " (schedule: "),
            std::string::npos)
      << ran.out;
  const size_t after = StepCount(ReadFile(small));
  EXPECT_LT(after, before) << ran.out;
  // The race needs two writers, a lost answer and its retry: 3 steps.
  EXPECT_EQ(after, 3u) << ReadFile(small);

  // The pinned file replays the failure on its own, every time.
  auto scenario = LoadScenario(pinned);
  ASSERT_TRUE(scenario.ok()) << scenario.error().message;
  ASSERT_TRUE(scenario->schedule.has_value());
  EXPECT_EQ(scenario->schedule->size(), 3u);
  EXPECT_EQ(scenario->actors.size(), 2u);
  testing::Ran again = Command({pinned});
  EXPECT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_TRUE(again.out.ends_with(pinned + ": expect violated: met\n"))
      << again.out;
  EXPECT_NE(again.out.find(pinned + ": seed "), std::string::npos);
}

TEST(RunCommand, ExploreOfACorrectVariantHolds) {
  const std::string file = Shipped("ordered_writes_sdk_retry_correct.json");
  testing::Ran ran = Command({file, "--explore", "20"});
  EXPECT_EQ(ran.code, 0);
  EXPECT_EQ(
      WithoutRate(ran.out),
      file + ": explored 20 seeds (1-20): 0 broke an invariant, 20 held\n" +
          file + ": 19 distinct schedules; no failure in 20 runs; N seeds/s\n" +
          file + ": expect holds: met\n");
  EXPECT_NE(ran.out, WithoutRate(ran.out));  // a rate was printed
}

// --jobs runs seeds at once and prints what one at a time prints.
TEST(RunCommand, JobsRunSeedsAtOnceWithTheSameOutput) {
  const std::string naive = Shipped("ordered_writes_sdk_retry_naive.json");
  const std::string correct = Shipped("ordered_writes_sdk_retry_correct.json");
  testing::Ran one = Command({naive, correct, "--explore", "12"});
  testing::Ran three =
      Command({naive, correct, "--explore", "12", "--jobs", "3"});
  EXPECT_EQ(one.code, 0) << one.err;
  EXPECT_EQ(three.code, 0) << three.err;
  EXPECT_EQ(WithoutRate(three.out), WithoutRate(one.out));
  EXPECT_NE(one.out.find(naive + ": seed 3: "), std::string::npos) << one.out;
}

TEST(RunCommand, ExploreSaysTheRunsUntilTheFirstFailure) {
  const std::string file = Shipped("ordered_writes_sdk_retry_naive.json");
  testing::Ran ran = Command({file, "--seeds", "2-21"});
  EXPECT_EQ(ran.code, 0);
  EXPECT_NE(WithoutRate(ran.out).find(
                file +
                ": explored 20 seeds (2-21): 2 broke an invariant, 18 "
                "held (first: seed 3)\n" +
                file +
                ": 19 distinct schedules; first failure after 2 runs; N "
                "seeds/s\n" +
                file + ": expect violated: met\n"),
            std::string::npos)
      << ran.out;
}

TEST(RunCommand, ShardsSplitTheSeedsAndMergeBackToTheWhole) {
  auto dir = TempDirFor("shards");
  const std::string file = Shipped("ordered_writes_sdk_retry_naive.json");
  const std::string a = (dir / "a.json").string();
  const std::string b = (dir / "b.json").string();
  testing::Ran one =
      Command({file, "--seeds", "1-20", "--shard", "1/2", "--json", a});
  EXPECT_EQ(one.code, 0);
  EXPECT_EQ(WithoutRate(one.out),
            file +
                ": seed 3: invariants[0] (ordered_writes): doc/a should hold "
                "the write of ts 1704067208000 but holds a write of ts "
                "1704067206000 (an older write arrived last and won)\n" +
                file +
                ": explored 10 seeds (1-20, shard 1/2): 1 broke an "
                "invariant, 9 held (first: seed 3)\n" +
                file +
                ": 10 distinct schedules; first failure after 2 runs; N "
                "seeds/s\n" +
                file + ": expect violated: met\n");
  // Shard 2 (the even seeds) breaks nothing: not a failure on its own.
  testing::Ran two =
      Command({file, "--seeds", "1-20", "--shard", "2/2", "--json", b});
  EXPECT_EQ(two.code, 0);
  EXPECT_TRUE(two.out.ends_with(
      file +
      ": expect violated: not met by shard 2/2 alone; --merge of "
      "every shard's --json judges it\n"))
      << two.out;
  const nlohmann::json doc = nlohmann::json::parse(ReadFile(b));
  ASSERT_EQ(doc["results"].size(), 1u);
  const nlohmann::json& r = doc["results"][0];
  EXPECT_EQ(doc["ddblab_run_results"], 1);
  EXPECT_EQ(r["file"], file);
  EXPECT_EQ(r["scenario"], "ordered-writes-sdk-retry-naive");
  EXPECT_EQ(r["strategy"], "random");
  EXPECT_EQ(r["expect"], "violated");
  EXPECT_EQ(r["seeds"], nlohmann::json::parse(
                            R"({"from":1,"to":20,"shard":2,"shards":2})"));
  EXPECT_EQ(r["runs"], 10);
  EXPECT_EQ(r["broke"], 0);
  EXPECT_EQ(r["held"], 10);
  EXPECT_TRUE(r["first_failing_seed"].is_null());
  EXPECT_EQ(r["distinct_schedules"], 9);
  EXPECT_GT(r["seeds_per_second"].get<double>(), 0);

  testing::Ran merged = Command({"--merge", a, b});
  EXPECT_EQ(merged.code, 0) << merged.err;
  EXPECT_EQ(merged.out,
            file +
                ": merged 2 results (random): explored 20 seeds of 1-20: 1 "
                "broke an invariant, 19 held (first: seed 3)\n" +
                file + ": at most 19 distinct schedules (the results' sum); " +
                merged.out.substr(merged.out.find("sum); ") + 6,
                                  merged.out.find(" seeds/s per") -
                                      merged.out.find("sum); ") - 6) +
                " seeds/s per machine\n" + file +
                ": expect violated: met\n"
                "first failing seed of all: 3 of " +
                file + " (random)\n");
  // The whole range in one run says the same.
  testing::Ran whole = Command({file, "--seeds", "1-20"});
  EXPECT_NE(whole.out.find(": explored 20 seeds (1-20): 1 broke an "
                           "invariant, 19 held (first: seed 3)\n"),
            std::string::npos);
  testing::Ran empty = Command({file, "--seeds", "1-2", "--shard", "3/4"});
  EXPECT_EQ(empty.code, 2);
  EXPECT_EQ(empty.err, "ddblab run: --shard 3/4 leaves no seed of 1-2\n");
  // A shard given twice ran its seeds twice.
  testing::Ran twice = Command({"--merge", a, b, a});
  EXPECT_EQ(twice.code, 2);
  EXPECT_EQ(twice.err, "ddblab run: --merge: " + a + " and " + a +
                           " both ran seed 1 of " + file + " (random)\n");
  EXPECT_EQ(twice.out, "");
}

TEST(RunCommand, ExhaustiveWritesItsJson) {
  auto dir = TempDirFor("exhaustive_json");
  const std::string file = Shipped("approval_retry_revert_naive.json");
  const std::string out = (dir / "e.json").string();
  testing::Ran ran = Command(
      {file, "--strategy", "exhaustive", "--budget", "50", "--json", out});
  EXPECT_EQ(ran.code, 0);
  nlohmann::json r = nlohmann::json::parse(ReadFile(out))["results"][0];
  EXPECT_EQ(r["strategy"], "exhaustive");
  EXPECT_EQ(r["seed"], 1);
  EXPECT_EQ(r["max_preemptions"], 2);
  EXPECT_EQ(r["budget"], 50);
  EXPECT_EQ(r["explored"], 3);
  EXPECT_EQ(r["stopped"], 0);
  EXPECT_EQ(r["complete"], false);
  EXPECT_EQ(r["failing_schedule"], 3);
  testing::Ran merged = Command({"--merge", out});
  EXPECT_EQ(merged.code, 0);
  EXPECT_EQ(merged.out,
            file +
                ": exhaustive seed 1 (K=2, budget 50): schedule 3 broke an "
                "invariant\n" +
                file +
                ": expect violated: met\n"
                "first failing seed of all: none (no seed broke an "
                "invariant)\n");
}

TEST(RunCommand, TheApprovalRacesNeedTwoPreemptions) {
  for (const char* name :
       {"approval_retry_revert_naive.json", "approval_third_writer_naive.json",
        "approval_slow_review_naive.json"}) {
    const std::string file = Shipped(name);
    testing::Ran one =
        Command({file, "--strategy", "exhaustive", "--max-preemptions", "1"});
    EXPECT_EQ(one.code, 1) << one.out;
    EXPECT_NE(one.out.find(": every invariant held\n"), std::string::npos)
        << one.out;
    EXPECT_NE(one.out.find(": explored all "), std::string::npos) << one.out;
    testing::Ran two = Command({file, "--strategy", "exhaustive"});
    EXPECT_EQ(two.code, 0) << two.out;
  }
}

TEST(RunCommand, AnUnmetExpectationExitsWithOne) {
  auto dir = TempDirFor("unmet");
  std::string text = ReadFile(Shipped("ordered_writes_sdk_retry_naive.json"));
  text.replace(text.find("\"expect\": \"violated\""), 20,
               "\"expect\": \"holds\"");
  const std::string file = WriteFile(dir / "unmet.json", text);
  testing::Ran ran = Command({file, "--explore", "30"});
  EXPECT_EQ(ran.code, 1);
  EXPECT_TRUE(ran.out.ends_with(file + ": expect holds: FAILED\n")) << ran.out;
}

// ---- bad input: exit code 2 and the exact message --------------------------

struct BadFile {
  const char* name;
  std::string text;
  std::string message;  // after "<file>: "
};

const char* kGood = R"({
  "name": "t",
  "actors": [{"name": "c", "pattern": "idempotent_counter",
              "ops": [{"add": {"counter": "x", "key": "k"}}]}],
  "invariants": [{"check": "idempotent_counter"}],
  "expect": "holds"
})";

// kGood with `from` replaced by `to`.
std::string Edit(const std::string& from, const std::string& to) {
  std::string text = kGood;
  size_t at = text.find(from);
  if (at == std::string::npos) return "(edit did not apply: " + from + ")";
  return text.replace(at, from.size(), to);
}

std::string BadFileName(const ::testing::TestParamInfo<BadFile>& param) {
  return param.param.name;
}

class BadFileTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadFileTest, ExitsWithTwoAndNamesThePath) {
  auto dir = TempDirFor(std::string("bad_") + GetParam().name);
  const std::string file = WriteFile(dir / "s.json", GetParam().text);
  testing::Ran ran = Command({file});
  EXPECT_EQ(ran.code, 2);
  EXPECT_EQ(ran.out, "");
  EXPECT_EQ(ran.err, file + ": " + GetParam().message + "\n");
}

INSTANTIATE_TEST_SUITE_P(
    Messages, BadFileTest,
    ::testing::Values(
        BadFile{"window_unit",
                Edit("\"pattern\": \"idempotent_counter\",",
                     "\"pattern\": \"idempotent_counter\", \"params\": "
                     "{\"window\": \"5 min\"},"),
                "actors[0].params.window: invalid duration '5 min': unknown "
                "unit ' min' (expected a number with an optional unit us, ms, "
                "s, m, h or d, e.g. 90s, 1.5m, 250ms)"},
        BadFile{"not_json", "{\"name\": \"t\",\n  actors: []}",
                "not JSON: line 2, column 3: syntax error while parsing "
                "object key - invalid literal; last read: '\"t\",<U+000A>  a'; "
                "expected string literal"},
        BadFile{"unknown_top_field",
                Edit("\"name\": \"t\",", "\"name\": \"t\", \"expct\": 1,"),
                "expct: unknown field (expected actors, backend, description, "
                "expect, faults, invariants, name, schedule, tables, "
                "timeline)"},
        BadFile{"no_name", Edit("\"name\": \"t\",", ""), "name: required"},
        BadFile{"unknown_pattern",
                Edit("\"idempotent_counter\",", "\"counter\","),
                "actors[0].pattern: unknown pattern \"counter\" "
                "(ordered_writes, idempotent_counter, ttl_window_sweeper, "
                "rollup_aggregator, ttl_expiry_listener, unique_claims, "
                "script; or \"command\": a program)"},
        BadFile{
            "unknown_variant",
            Edit("\"pattern\": \"idempotent_counter\",",
                 "\"pattern\": \"idempotent_counter\", \"variant\": "
                 "\"fast\","),
            "actors[0].variant: unknown idempotent counter variant "
            "\"fast\" (correct, no_idempotency_key, unbounded_history, "
            "published_sliding_window, remove_repair, stale_read_modify_write, "
            "consistent_read_modify_write)"},
        BadFile{"unknown_param",
                Edit("\"pattern\": \"idempotent_counter\",",
                     "\"pattern\": \"idempotent_counter\", \"params\": "
                     "{\"windw\": \"5m\"},"),
                "actors[0].params.windw: unknown field (expected "
                "max_attempts, max_trim, sdk_retries, table, window)"},
        BadFile{"bad_op", Edit("{\"add\":", "{\"sub\":"),
                "actors[0].ops[0].sub: unknown operation (expected add)"},
        BadFile{"op_missing_key", Edit(", \"key\": \"k\"", ""),
                "actors[0].ops[0].add.key: required"},
        BadFile{"count_zero",
                Edit("\"name\": \"c\",", "\"name\": \"c\", \"count\": 0,"),
                "actors[0].count: expected an integer from 1 to 100, got 0"},
        BadFile{"expect_word", Edit("\"holds\"", "\"passes\""),
                "expect: expected \"holds\" or \"violated\", got \"passes\""},
        BadFile{
            "unknown_check",
            Edit("\"check\": \"idempotent_counter\"", "\"check\": \"counter\""),
            "invariants[0].check: unknown check \"counter\" "
            "(ordered_writes, idempotent_counter, ttl_window_sweeper, "
            "rollup_aggregator, ttl_expiry_listener, unique_claims, "
            "item_equals, count, sum, command)"},
        BadFile{"timeline_order",
                Edit("\"expect\"",
                     "\"timeline\": [{\"at\": \"2m\", \"advance\": \"1m\"}, "
                     "{\"at\": \"1m\", \"advance\": \"1m\"}], \"expect\""),
                "timeline[1].at: events must be in time order (1m comes "
                "after 2m)"},
        BadFile{"timeline_two_kinds",
                Edit("\"expect\"",
                     "\"timeline\": [{\"at\": \"1m\", \"advance\": \"1m\", "
                     "\"sweep_ttl\": true}], \"expect\""),
                "timeline[0]: expected exactly one of advance, faults, "
                "split_shards, sweep_ttl"},
        BadFile{"schedule_name",
                Edit("\"expect\"", "\"schedule\": [\"c\", \"d\"], \"expect\""),
                "schedule[1]: no actor is named d"},
        BadFile{"bad_clock",
                Edit("\"expect\"",
                     "\"backend\": {\"clock\": \"yesterday\"}, \"expect\""),
                "backend.clock: expected a UTC time such as "
                "\"2024-01-01T00:00:00Z\" or epoch seconds, got "
                "\"yesterday\""},
        BadFile{"fault_plan",
                Edit("\"expect\"",
                     "\"faults\": {\"rules\": [{\"effect\": \"thorttle\"}]}, "
                     "\"expect\""),
                "faults.rules[0].effect: unknown effect \"thorttle\""},
        BadFile{"sweeper_not_multiple",
                R"({"name": "t", "actors": [{"name": "s",
                  "pattern": "ttl_window_sweeper",
                  "params": {"window": "90s", "frequency": "1m"},
                  "ops": [{"sweep": {}}]}],
                  "invariants": [{"check": "ttl_window_sweeper"}],
                  "expect": "holds"})",
                "actors[0].params: TTL window sweeper: window (90s) must be a "
                "multiple of the frequency (60s), or items are left until "
                "DynamoDB's own TTL"}),
    BadFileName);

TEST(RunCommand, BadArgumentsExitWithTwo) {
  const std::string usage =
      "usage: ddblab run FILE... [--backend emulator|http://HOST:PORT|aws] "
      "[--seed N] [--explore N] [--seeds A-B] [--shard I/N] [--strategy S] "
      "[--max-preemptions K] [--max-faults F] [--budget N] [--no-reduction] "
      "[--jobs J] [--json OUT] [--replay TRACE] [--shrink] [--shrink-out PATH] "
      "[--trace "
      "OUT.jsonl] "
      "[--report OUT.html]\n"
      "       ddblab run --merge RESULT.json...\n";
  const std::string file = Shipped("ordered_writes_sdk_retry_naive.json");
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  for (const Case& c : std::vector<Case>{
           {{}, "ddblab run: no scenario file given\n"},
           {{file, "--sed", "1"}, "ddblab run: unknown option --sed\n"},
           {{file, "--seed", "x"},
            "ddblab run: --seed expects a non-negative integer, got x\n"},
           {{file, "--explore", "0"},
            "ddblab run: --explore expects a number of seeds from 1 to "
            "1000000, got 0\n"},
           {{file, "--seed"}, "ddblab run: --seed needs a value\n"},
           {{file, "--strategy", "pct:0"},
            "ddblab run: --strategy expected random, pct, pct:D with D "
            "from 1 to 10 or exhaustive, got pct:0\n"},
           {{file, "--strategy", "exhaustive", "--max-preemptions", "11"},
            "ddblab run: --max-preemptions expects a number from 0 to 10, "
            "got 11\n"},
           {{file, "--strategy", "exhaustive", "--budget", "0"},
            "ddblab run: --budget expects a number of schedules from 1 to "
            "1000000, got 0\n"},
           {{file, "--strategy", "exhaustive", "--explore", "5"},
            "ddblab run: --strategy exhaustive runs every schedule of one "
            "seed: give --budget N (schedules) and --seed N, not "
            "--explore\n"},
           {{file, "--budget", "5"},
            "ddblab run: --max-preemptions, --max-faults, --budget and "
            "--no-reduction apply to --strategy exhaustive only\n"},
           {{file, "--strategy", "exhaustive", "--max-faults", "1001"},
            "ddblab run: --max-faults expects a number from 0 to 1000, got "
            "1001\n"},
           {{file, "--backend", "emulator?clock=system"},
            "ddblab run: --backend emulator takes no options (the scenario's "
            "backend member sets the clock, TTL delay and stream shards), got "
            "emulator?clock=system\n"},
           {{file, file, "--shrink"},
            "ddblab run: --trace, --report, --replay and --shrink take one "
            "scenario file, got 2\n"},
           {{file, "--replay", "t", "--shrink"},
            "ddblab run: --replay cannot be combined with --explore or "
            "--shrink\n"},
           {{file, "--seeds", "5-2"},
            "ddblab run: --seeds expects a range A-B of seeds (A <= B, at "
            "most 1000000 seeds), got 5-2\n"},
           {{file, "--seeds", "0-1000000"},
            "ddblab run: --seeds expects a range A-B of seeds (A <= B, at "
            "most 1000000 seeds), got 0-1000000\n"},
           {{file, "--seeds", "1-5", "--seed", "2"},
            "ddblab run: --seeds A-B cannot be combined with --seed or "
            "--explore\n"},
           {{file, "--shard", "3/2", "--explore", "4"},
            "ddblab run: --shard expects I/N with 1 <= I <= N <= 1000, got "
            "3/2\n"},
           {{file, "--shard", "0/2", "--explore", "4"},
            "ddblab run: --shard expects I/N with 1 <= I <= N <= 1000, got "
            "0/2\n"},
           {{file, "--shard", "1/2"},
            "ddblab run: --shard I/N needs the seeds to split: --seeds A-B or "
            "--explore N\n"},
           {{file, "--json", "o.json"},
            "ddblab run: --json applies to --explore, --seeds and --strategy "
            "exhaustive\n"},
           {{file, "--strategy", "exhaustive", "--seeds", "1-3"},
            "ddblab run: --strategy exhaustive runs every schedule of one "
            "seed: give --budget N (schedules) and --seed N, not --explore "
            "or --seeds\n"},
           {{file, "--jobs", "0", "--explore", "4"},
            "ddblab run: --jobs expects a number of seeds to run at once "
            "from 1 to 64, got 0\n"},
           {{file, "--jobs", "2"},
            "ddblab run: --jobs applies to --explore and --seeds\n"},
           {{file, "--jobs", "2", "--explore", "4", "--backend",
             "http://127.0.0.1:1"},
            "ddblab run: --jobs needs --backend emulator: seeds run at once "
            "against one server or account would share its tables\n"},
           {{"--merge"},
            "ddblab run: --merge needs at least one result file\n"},
           {{"--merge", "a.json", "--explore", "3"},
            "ddblab run: --merge takes result files only, no other option\n"},
       }) {
    testing::Ran ran = Command(c.args);
    EXPECT_EQ(ran.code, 2);
    EXPECT_EQ(ran.err, c.err + usage);
  }
  testing::Ran help = Command({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_TRUE(help.out.starts_with(usage)) << help.out;
  EXPECT_EQ(help.err, "");
  // Every flag of the usage line has a line of its own.
  for (const char* flag :
       {"\n  --backend B ", "\n  --seed N ", "\n  --explore N ",
        "\n  --strategy S ", "\n  --max-preemptions K ", "\n  --budget N ",
        "\n  --no-reduction ", "\n  --seeds A-B ", "\n  --shard I/N ",
        "\n  --json OUT ", "\n  --merge ", "\n  --replay TRACE ",
        "\n  --shrink ", "\n  --shrink-out PATH ", "\n  --trace OUT.jsonl ",
        "\n  --report OUT.html ", "\n  --help, -h "}) {
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(help.out.find("\nExit codes: 0 every expectation met"),
            std::string::npos);
  testing::Ran missing = Command({"/nonexistent/s.json"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "/nonexistent/s.json: cannot read the file\n");

  auto dir = TempDirFor("bad_trace");
  const std::string trace =
      WriteFile(dir / "t.jsonl", "{\"event\":\"start\"}\nnot json\n");
  testing::Ran bad_trace = Command({file, "--replay", trace});
  EXPECT_EQ(bad_trace.code, 2);
  EXPECT_EQ(bad_trace.err, trace + ": line 2: not a JSON object\n");
  const std::string no_seed = WriteFile(dir / "n.jsonl", "{\"step\":1}\n");
  testing::Ran unseeded = Command({file, "--replay", no_seed});
  EXPECT_EQ(unseeded.code, 2);
  EXPECT_EQ(unseeded.err, no_seed + ": no start event with the seed\n");
}

// ---- capabilities: exit code 3 ---------------------------------------------

TEST(RunCommand, WhatABackendLacksIsNamedWithThePathThatNeedsIt) {
  auto scenario = LoadScenario(Shipped("ttl_sweeper_unprocessed_naive.json"));
  ASSERT_TRUE(scenario.ok());
  const std::string file = Shipped("ttl_sweeper_unprocessed_naive.json");
  EXPECT_EQ(MissingCapability(*scenario, "aws:eu-west-1", false, false, false,
                              false, false),
            file +
                ": backend.tick needs clock control; backend aws:eu-west-1 "
                "has none");
  scenario->tick = Duration::zero();
  EXPECT_EQ(MissingCapability(*scenario, "aws:eu-west-1", false, false, false,
                              false, false),
            file +
                ": actors[1].start needs clock control; backend "
                "aws:eu-west-1 has none");
  EXPECT_EQ(MissingCapability(*scenario, "http://127.0.0.1:8000", true, false,
                              true, true, true),
            file +
                ": faults needs fault plan control; backend "
                "http://127.0.0.1:8000 has none");
  EXPECT_EQ(
      MissingCapability(*scenario, "emulator", true, true, true, true, true),
      "");
  scenario->consistency = {{"index_lag", "2s"}};
  EXPECT_EQ(MissingCapability(*scenario, "http://localhost:8000", true, true,
                              true, true, false),
            file +
                ": backend.consistency needs consistency control; backend "
                "http://localhost:8000 has none");
  // A scenario that needs nothing runs anywhere.
  auto plain =
      LoadScenario(Shipped("idempotent_counter_history_400kb_naive.json"));
  ASSERT_TRUE(plain.ok());
  plain->tick = Duration::zero();
  EXPECT_EQ(MissingCapability(*plain, "aws:eu-west-1", false, false, false,
                              false, false),
            "");
}

}  // namespace
}  // namespace ddblab::harness::scenario

namespace ddblab::harness::scenario {
namespace {

// --report: one page with a lane per actor, the steps, the lost answers in
// red and the broken invariant highlighted.
TEST(RunCommand, ReportShowsLanesFaultsAndTheViolation) {
  auto dir = TempDirFor("report");
  const std::string file = Shipped("ordered_writes_sdk_retry_naive.json");
  const std::string report = (dir / "r.html").string();
  testing::Ran ran = Command({file, "--seed", "3", "--report", report});
  ASSERT_EQ(ran.code, 0) << ran.err;
  const std::string html = ReadFile(report);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>")) << html;
  EXPECT_NE(html.find("<div class=\"lane\" data-actor=\"writer#1\">writer#1"
                      "</div><div class=\"lane\" data-actor=\"writer#2\">"),
            std::string::npos);
  EXPECT_NE(html.find("<div class=\"step fault\" data-actor=\"writer#2\">"),
            std::string::npos);
  EXPECT_NE(html.find("<div class=\"call fault\">PutItem &rarr; "
                      "OutcomeUnknown: the request may have been applied; "
                      "its answer was lost</div>"),
            std::string::npos);
  EXPECT_NE(html.find("<div class=\"invariant violation\">invariants[0] "
                      "ordered_writes: broken<ul><li>doc/a should hold the "
                      "write of ts 1704067208000 but holds a write of ts "
                      "1704067206000 (an older write arrived last and "
                      "won)</li></ul></div>"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);  // nothing external
}

}  // namespace
}  // namespace ddblab::harness::scenario
