// explore_results: the --json document read back, seed ranges of shards,
// and `ddblab run --merge` of hand-written results (exact output; exit 2
// naming the flag for every bad input).
#include "harness/scenario/explore_results.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/harness/scenario/scenario_test_util.h"

namespace ddblab::harness::scenario {
namespace {

using testing::TempDirFor;
using testing::WriteFile;

ExploreResult Shard(uint64_t index, uint64_t count, int64_t broke,
                    std::optional<uint64_t> first) {
  ExploreResult r;
  r.file = "f.json";
  r.scenario = "f";
  r.expect = "violated";
  r.strategy = "pct:3";
  r.seconds = 2;
  r.seeds = {1, 100, index, count};
  r.runs = static_cast<int64_t>(r.seeds.Size());
  r.broke = broke;
  r.first_failing_seed = first;
  r.distinct_schedules = r.runs - 1;
  return r;
}

struct Merged {
  int code;
  std::string out;
  std::string err;
};

Merged Merge(const std::vector<std::string>& paths) {
  std::ostringstream out, err;
  int code = MergeResults(paths, out, err);
  return {code, out.str(), err.str()};
}

TEST(SeedRange, AShardRunsEveryNthSeedFromItsOffset) {
  SeedRange r{1, 10, 2, 3};  // 2, 5, 8
  EXPECT_EQ(r.First(), 2u);
  EXPECT_EQ(r.Size(), 3u);
  EXPECT_EQ(r.Text(), "1-10, shard 2/3");
  EXPECT_EQ((SeedRange{1, 2, 3, 4}.Size()), 0u);
  EXPECT_EQ((SeedRange{5, 9, 1, 1}.Text()), "5-9");
}

TEST(ExploreResults, RatesReadAsPeopleWriteThem) {
  EXPECT_EQ(Rate(1234.4), "1,234");
  EXPECT_EQ(Rate(10), "10");
  EXPECT_EQ(Rate(2.54), "2.5");
  EXPECT_EQ(Rate(0.333), "0.33");  // not "0 seeds/s"
  EXPECT_EQ(Rate(0), "0.00");
}

TEST(ExploreResults, RoundTripThroughJson) {
  std::vector<ExploreResult> in = {Shard(1, 4, 3, 9)};
  ExploreResult e;
  e.file = "g.json";
  e.scenario = "g";
  e.expect = "holds";
  e.strategy = "exhaustive";
  e.seed = 7;
  e.max_preemptions = 2;
  e.budget = 300;
  e.explored = 300;
  e.complete = false;
  e.estimated_schedules = 43000000;
  in.push_back(e);
  std::vector<ExploreResult> out;
  ASSERT_EQ(ResultsFromJson(ResultsToJson(in), &out), "");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].seeds.index, 1u);
  EXPECT_EQ(out[0].seeds.count, 4u);
  EXPECT_EQ(out[0].runs, 25);
  EXPECT_EQ(out[0].first_failing_seed, 9u);
  EXPECT_EQ(out[1].seed, 7u);
  EXPECT_EQ(out[1].explored, 300);
  EXPECT_EQ(out[1].estimated_schedules, 43000000);
  EXPECT_FALSE(out[1].failing_schedule.has_value());
  // Documents written before the estimate have none.
  nlohmann::json doc = ResultsToJson(in);
  EXPECT_EQ(doc["results"][1]["estimated_schedules"], 43000000);
  doc["results"][1].erase("estimated_schedules");
  std::vector<ExploreResult> older;
  ASSERT_EQ(ResultsFromJson(doc, &older), "");
  ASSERT_EQ(older.size(), 2u);
  EXPECT_FALSE(older[1].estimated_schedules.has_value());
}

TEST(ExploreResults, MergeCombinesShardsAndNamesTheFirstFailingSeed) {
  auto dir = TempDirFor("merge");
  const std::string a =
      WriteFile(dir / "a.json", ResultsToJson({Shard(1, 2, 3, 41)}).dump());
  const std::string b =
      WriteFile(dir / "b.json", ResultsToJson({Shard(2, 2, 1, 12)}).dump());
  Merged m = Merge({a, b});
  EXPECT_EQ(m.code, 0);
  EXPECT_EQ(m.err, "");
  EXPECT_EQ(m.out,
            "f.json: merged 2 results (pct:3): explored 100 seeds of 1-100: "
            "4 broke an invariant, 96 held (first: seed 12)\n"
            "f.json: at most 98 distinct schedules (the results' sum); 25 "
            "seeds/s per machine\n"
            "f.json: expect violated: met\n"
            "first failing seed of all: 12 of f.json (pct:3)\n");
  // No shard broke: the expectation fails (exit 1).
  const std::string c = WriteFile(
      dir / "c.json", ResultsToJson({Shard(1, 1, 0, std::nullopt)}).dump());
  Merged none = Merge({c});
  EXPECT_EQ(none.code, 1);
  EXPECT_EQ(none.out,
            "f.json: merged 1 result (pct:3): explored 100 seeds of 1-100: "
            "0 broke an invariant, 100 held\n"
            "f.json: at most 99 distinct schedules (the results' sum); 50 "
            "seeds/s per machine\n"
            "f.json: expect violated: FAILED\n"
            "first failing seed of all: none (no seed broke an invariant)\n");
}

TEST(ExploreResults, BadInputToMergeExitsWithTwo) {
  auto dir = TempDirFor("merge_bad");
  const std::string good =
      WriteFile(dir / "good.json", ResultsToJson({Shard(1, 2, 0, {})}).dump());
  nlohmann::json wrong_runs = ResultsToJson({Shard(1, 2, 0, {})});
  wrong_runs["results"][0]["runs"] = 7;
  nlohmann::json holds = ResultsToJson({Shard(2, 2, 0, {})});
  holds["results"][0]["expect"] = "holds";
  nlohmann::json first_without_broke = ResultsToJson({Shard(2, 2, 0, 4)});
  struct Case {
    std::string name;
    std::string text;
    std::string err;  // after "ddblab run: --merge: <path>"
  };
  for (const Case& c : std::vector<Case>{
           {"nojson.json", "{", ": not JSON"},
           {"other.json", "{\"results\": []}",
            ": not a `ddblab run --json` document (no "
            "\"ddblab_run_results\": 1)"},
           {"runs.json", wrong_runs.dump(),
            ": results[0].runs: 7, but the shard has 50 seeds"},
           {"first.json", first_without_broke.dump(),
            ": results[0].first_failing_seed: must be set exactly when broke "
            "> 0"},
       }) {
    const std::string path = WriteFile(dir / c.name, c.text);
    Merged m = Merge({good, path});
    EXPECT_EQ(m.code, 2) << c.name;
    EXPECT_EQ(m.err, "ddblab run: --merge: " + path + c.err + "\n");
    EXPECT_EQ(m.out, "");
  }
  Merged missing = Merge({(dir / "none.json").string()});
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "ddblab run: --merge: cannot read " +
                             (dir / "none.json").string() + "\n");
  const std::string other = WriteFile(dir / "holds.json", holds.dump());
  Merged disagree = Merge({good, other});
  EXPECT_EQ(disagree.code, 2);
  EXPECT_EQ(disagree.err, "ddblab run: --merge: " + good + " and " + other +
                              " disagree on the expectation of f.json "
                              "(violated, holds)\n");
}

}  // namespace
}  // namespace ddblab::harness::scenario
