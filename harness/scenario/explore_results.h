// harness/scenario/explore_results.h: what an exploration found, as the
// `ddblab run --json OUT` document, and `ddblab run --merge` of several.
//
// A seed range A-B may be split over N machines (`--shard I/N`): shard I
// (1-based) runs the seeds A+I-1, A+I-1+N, A+I-1+2N, ... up to B (the seeds
// ≡ A+I-1 mod N), so every shard covers the early seeds too. Each run writes
// one document ({"ddblab_run_results": 1, "results": [...]}, one result per
// scenario file; docs/run-results.schema.json); --merge reads them back,
// refuses results that ran a seed twice, and combines them per file and
// strategy.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ddblab::harness::scenario {

// Seeds from..to (inclusive), of which shard `index` of `count` runs every
// count-th from from + index - 1.
struct SeedRange {
  uint64_t from = 1;
  uint64_t to = 1;
  uint64_t index = 1;  // 1..count
  uint64_t count = 1;

  uint64_t First() const { return from + index - 1; }
  // How many seeds the shard runs (0 when First() is past `to`).
  uint64_t Size() const;
  // "1-200", "1-200, shard 2/4".
  std::string Text() const;
};

struct ExploreResult {
  std::string file;
  std::string scenario;  // its name
  std::string expect;    // "holds" or "violated"
  std::string strategy;  // "random", "pct:3", "exhaustive"
  double seconds = 0;    // wall time of the runs
  // --explore / --seeds:
  SeedRange seeds;
  int64_t runs = 0;
  int64_t broke = 0;
  std::optional<uint64_t> first_failing_seed;
  int64_t distinct_schedules = 0;
  // exhaustive:
  uint64_t seed = 0;
  int max_preemptions = 0;
  int64_t budget = 0;
  int64_t explored = 0;  // distinct schedules run to their end
  int64_t stopped = 0;   // runs stopped as redundant
  bool complete = false;
  std::optional<int64_t> failing_schedule;
  // The budget was reached: about how many schedules the bound holds
  // (ExhaustiveResult::estimated_schedules; optional in documents).
  std::optional<int64_t> estimated_schedules;

  bool Exhaustive() const { return strategy == "exhaustive"; }
  bool Violated() const {
    return Exhaustive() ? failing_schedule.has_value() : broke > 0;
  }
};

nlohmann::json ResultsToJson(const std::vector<ExploreResult>& results);

// The results of one --json document; an error message naming what is wrong
// when `doc` is not one.
std::string ResultsFromJson(const nlohmann::json& doc,
                            std::vector<ExploreResult>* out);

// `ddblab run --merge FILE...`: reads each document, prints per scenario
// file and strategy the combined summary and expectation, then the first
// failing seed of all. Returns the exit code: 0 every expectation met, 1
// one failed, 2 bad input (the message, "ddblab run: --merge: ...", on
// `err`).
int MergeResults(const std::vector<std::string>& paths, std::ostream& out,
                 std::ostream& err);

// "10,000".
std::string Thousands(int64_t n);

// A rate for people: "1,234" from 10 up, "2.5" from 1, "0.33" below (a slow
// exploration of real programs is not "0 seeds/s").
std::string Rate(double per_second);

}  // namespace ddblab::harness::scenario
