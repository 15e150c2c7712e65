// harness/scenario/exhaustive.h: `--strategy exhaustive`, every distinct
// schedule of one seed within a preemption bound.
//
// A run is a sequence of choices: picks (which ready actor moves at each
// step) and fault draws. A draw is a call's match of a fault rule with
// 0 < probability < 1 that passes the rule's other conditions: the rule
// fires, or not (emulator/api/fault_draw.h; the in-process backend lets
// the scheduler decide it, Capability::kFaultDraws). The exploration walks
// the tree of choices depth-first, statelessly: each run is a fresh run
// (RunOnce) that follows a prefix of choices and then extends it with the
// default ones: the actor that moved last while it is ready, else the
// lowest-numbered ready one; the seed's outcome of a draw. The next run
// backtracks to the deepest choice with an untried branch (ready actors in
// ascending order; the other outcome of a draw). Schedule 1 is thus the
// plain run of the seed. A flip is a draw whose outcome goes against the
// seed's; the tree is walked in passes of growing flips: pass 0 keeps the
// seed's draws (every interleaving of the seed's run first), pass F allows
// F flips and counts the leaves of exactly F (it runs those of fewer again
// on its way: runs, not schedules), until a pass cuts no draw, or F
// reaches `max_fault_flips`. So a race of the interleaving alone is found
// as soon as without fault branches, and one that needs a fault the seed
// does not draw in the first pass that allows it. Everything but the choices
// (the clock, rules without a probability or with 0 or 1, nth / times counts)
// is as in a normal run of the seed, so a run is the same every time. A
// schedule counts as one leaf of the tree: an order of steps and an outcome of
// each of its draws ("distinct schedules and fault outcomes"). A backend
// without Capability::kFaultDraws (a server) keeps the seed's draws.
//
// A preemption is a pick, at a step, of another actor than the one that
// moved last while that one is still ready. Schedules with more than
// `max_preemptions` are not run; draws cost none. Schedules with more
// than `max_fault_flips` flips are not run (-1, the default: no bound). The
// exploration stops at the first schedule that breaks an invariant, or
// after `budget` runs.
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
// Fault draws and the reduction. Both outcomes of every draw are explored
// (a draw node is never pruned: sleep sets only ever prune picks). What a
// step calls may depend on its own draws (a throttled GetItem ends the
// step; a served one goes on to a PutItem), so a step's footprint is not
// one run's: a sleeper carries the union of the footprints its step had
// over every run through that pick, i.e. over every outcome of the step's
// draws (the subtree below the pick, explored in full before the sleeper
// is made, holds them all). Then the sleep-set argument holds per outcome:
// if q's step is independent of p's step under every outcome of p's
// draws, running q first and then p (with outcome o) is equivalent to p
// (with o) then q, which the subtree of p covered. A draw's rule#n and its
// effect do not depend on the order of independent steps: two steps that
// both matched fault rules are dependent (footprint.h: counters), and a
// step that matched none leaves the counters as they were; a step that
// moved the clock (latency, a tick) is dependent on every other. So the
// reduction stays sound with draws, and prunes as much as it would
// without them when the faulted steps touch other items.
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
inline constexpr int kMaxFaultFlips = 1000;  // --max-faults
inline constexpr int64_t kDefaultBudget = 10000;
inline constexpr int64_t kMaxBudget = 1000000;
// Random walks that estimate the size of a bound the budget did not cover
// (at most a tenth of the budget).
inline constexpr int64_t kEstimateProbes = 32;

struct ExhaustiveLimits {
  int max_preemptions = kDefaultMaxPreemptions;  // 0..kMaxPreemptions
  int64_t budget = kDefaultBudget;               // runs, 1..kMaxBudget
  bool reduce = true;        // partial-order reduction (sleep sets)
  int max_fault_flips = -1;  // draws against the seed's; -1: no bound
};

// One choice of a run: the actor picked at a step, or a fault draw's
// outcome (`taken` 1: the rule fires, 0: it does not).
struct ExhaustiveBranch {
  bool draw = false;
  size_t taken = 0;
  bool operator==(const ExhaustiveBranch&) const = default;
};

struct ExhaustiveResult {
  // 0, or the failing run's code (RunResult::code) with `failure`; also 1
  // when a schedule did not follow its prefix (the scenario is not
  // deterministic under a fixed schedule).
  int code = 0;
  std::string failure;
  // Runs made: schedules + stopped + the leaves a pass of more flips ran
  // again.
  int64_t runs = 0;
  int64_t schedules = 0;  // distinct schedules run to their end
  int64_t stopped = 0;    // runs stopped as redundant (sleep sets)
  // Every schedule within the bound was run (no violation, budget not hit).
  bool complete = false;
  // Some run drew a fault outcome: the schedules count fault outcomes too.
  bool fault_branches = false;
  // When the budget was reached: about how many schedules the bound holds
  // before the reduction (two significant digits; 0: not estimated), the
  // mean of Knuth's estimator over up to kEstimateProbes random walks
  // within the bound (extra runs, not counted in `runs`). Unbiased but
  // rough: a few walks can be off by a large factor.
  int64_t estimated_schedules = 0;
  // The first run that broke an invariant: its number (1-based, among the
  // runs), its choices and its run (without a trace).
  int64_t failing_number = 0;
  std::vector<ExhaustiveBranch> failing_branches;
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

// Schedule `number` of the exploration again, by its choices (empty:
// schedule 1), with `base`'s trace setting. The start line says
// "strategy":"exhaustive","exhaustive":{"schedule":N,"max_preemptions":K};
// its fault draws are traced (fault_draw lines), so --replay forces them.
RunResult RunExhaustiveSchedule(const Scenario& scenario,
                                const RunOptions& base,
                                const std::vector<ExhaustiveBranch>& picks,
                                int64_t number, int max_preemptions);

}  // namespace ddblab::harness::scenario
