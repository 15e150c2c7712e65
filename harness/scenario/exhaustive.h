// harness/scenario/exhaustive.h: `--strategy exhaustive`, every distinct
// schedule of one seed within a preemption bound.
//
// A run is a sequence of picks (which ready actor moves at each step). The
// exploration walks the tree of picks depth-first, statelessly: each
// schedule is a fresh run (RunOnce) that follows a prefix of picks and then
// extends it with the default pick (the actor that moved last while it is
// ready, else the lowest-numbered ready one); the next schedule backtracks
// to the deepest step with an untried ready actor, in ascending order.
// Everything but the picks (the seed's fault draws, the clock) is as in a
// normal run of the seed, so a schedule is the same run every time.
//
// A preemption is a pick, at a step, of another actor than the one that
// moved last while that one is still ready. Schedules with more than
// `max_preemptions` are not run. The exploration stops at the first
// schedule that breaks an invariant, or after `budget` schedules.
//
// Partial-order reduction (sleep sets, Godefroid 1996): each step's
// footprint (footprint.h) is recorded; after the subtree of picking actor p
// at a step has been explored, p sleeps in the subtrees of the other picks
// there until a step dependent on p's step runs, and a sleeping actor is
// neither tried nor picked by default. Of two independent steps only one
// order is run. A run that reaches a step where every ready actor sleeps
// would only repeat a schedule already run (up to the order of independent
// steps): it stops there, unchecked, and counts as `stopped`, not as a
// schedule. With a preemption bound the reduction may skip a schedule whose
// only equivalent within the bound is one it pruned (bounding and sleep
// sets are not designed together); without a bound (K at least the steps)
// it skips none.
//
// Schedule 1 is what MakeScheduler gives for `exhaustive` (strategy.h), so a
// single run with that strategy is the exploration's first schedule.
//
// Thread-safety: reentrant (each exploration owns its runs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

inline constexpr int kDefaultMaxPreemptions = 2;
inline constexpr int kMaxPreemptions = 10;
inline constexpr int64_t kDefaultBudget = 10000;
inline constexpr int64_t kMaxBudget = 1000000;
// Random walks that estimate the size of a bound the budget did not cover
// (at most a tenth of the budget).
inline constexpr int64_t kEstimateProbes = 32;

struct ExhaustiveLimits {
  int max_preemptions = kDefaultMaxPreemptions;  // 0..kMaxPreemptions
  int64_t budget = kDefaultBudget;               // runs, 1..kMaxBudget
  bool reduce = true;  // partial-order reduction (sleep sets)
};

struct ExhaustiveResult {
  // 0, or the failing run's code (RunResult::code) with `failure`; also 1
  // when a schedule did not follow its prefix (the scenario is not
  // deterministic under a fixed schedule).
  int code = 0;
  std::string failure;
  int64_t runs = 0;       // runs made: schedules + stopped
  int64_t schedules = 0;  // distinct schedules run to their end
  int64_t stopped = 0;    // runs stopped as redundant (sleep sets)
  // Every schedule within the bound was run (no violation, budget not hit).
  bool complete = false;
  // When the budget was reached: about how many schedules the bound holds
  // before the reduction (two significant digits; 0: not estimated), the
  // mean of Knuth's estimator over up to kEstimateProbes random walks
  // within the bound (extra runs, not counted in `runs`). Unbiased but
  // rough: a few walks can be off by a large factor.
  int64_t estimated_schedules = 0;
  // The first run that broke an invariant: its number (1-based, among the
  // runs), its picks (actor indices) and its run (without a trace).
  int64_t failing_number = 0;
  std::vector<size_t> failing_picks;
  std::optional<RunResult> failing;
  // The fault rules no schedule's run matched.
  std::vector<std::string> unmatched_rules;
};

// Explores `scenario` under `base` (its seed, backend; trace off). The
// progress callback, when set, is called after each run with the runs so
// far.
ExhaustiveResult ExploreExhaustive(
    const Scenario& scenario, const RunOptions& base,
    const ExhaustiveLimits& limits,
    const std::function<void(int64_t runs)>& progress = {});

// Schedule `number` of the exploration again, by its picks (empty: schedule
// 1), with `base`'s trace setting. The start line says
// "strategy":"exhaustive","exhaustive":{"schedule":N,"max_preemptions":K}.
RunResult RunExhaustiveSchedule(const Scenario& scenario,
                                const RunOptions& base,
                                const std::vector<size_t>& picks,
                                int64_t number, int max_preemptions);

}  // namespace ddblab::harness::scenario
