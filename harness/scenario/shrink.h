// harness/scenario/shrink.h: cutting a failing run down to a minimal one.
//
// Shrink starts from a run (seed) that broke an invariant and pins it: the
// scenario's actors are listed one by one with their ops, and its schedule
// is the run's. It then tries, greedily until nothing more goes, to drop
// whole actors, fault rules and single ops (with the steps that ran them),
// keeping each cut whose run, on the pinned schedule, still breaks the same
// invariant in the same way (one of its problems reads like the first
// problem of the failing run, digits aside) and that still depends on the
// schedule or the faults: the cut file must hold on the serial, fault-free
// schedule (SerialFaultFree), or it is no valid shrink (removing the racing
// actors from a `sum equals 150` file breaks it too, without any race).
// The result is a scenario file that replays the minimal failure on every
// run.
//
// The serial, fault-free schedule: no fault plan (`faults.rules`, the
// timeline's `faults` events) and no consumer faults; the actors run one
// after another in file order, each to its end before the next starts (while
// the running actor waits for its `start` or `every`, the clock jumps to it).
// When the failing file breaks an invariant on that schedule too, its
// failure does not depend on the schedule: Shrink cuts nothing, keeps every
// actor and says so (schedule_independent).
//
// Faults are pinned first where the plan allows it (rules naming their
// operations, with effect lost_response or unprocessed, and no timeline
// plan): each rule becomes an `nth` list of exactly the matching calls that
// it fired in the failing run (a lost answer names its rule; a batch with
// items left is the unprocessed rule's), so the draws no longer shift when
// steps are cut, and single fault firings can be dropped one by one.
//
// Consumer faults (faults.consumer) are pinned likewise, to the keys of the
// records they fired on and how often (no positions, no draws); then whole
// entries and single keys are dropped.
//
// Thread-safety: reentrant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

struct ShrinkResult {
  Scenario pinned;  // the minimal scenario (schedule pinned)
  RunResult run;    // its run: still breaks `violation.id`
  size_t steps_before = 0;
  size_t faults_before = 0;  // faults fired (rules, when not pinned)
  size_t faults_after = 0;
  bool pinned_faults = false;
  size_t actors_before = 0;
  int runs = 0;  // candidate runs tried (serial runs included)
  // The failing file breaks an invariant on the serial, fault-free schedule
  // too (serial_violation): nothing was cut, `pinned` is the file on the
  // failing run's schedule.
  bool schedule_independent = false;
  std::optional<Violation> serial_violation;
};

// `scenario` on the serial, fault-free schedule (see above).
Scenario SerialFaultFree(const Scenario& scenario);

// `failing` is the run of `scenario` with `seed` that broke an invariant.
// True when `run` breaks invariant `id` with a problem of the same kind as
// `first` (the same text, digits aside: "TotalBytes is 700, expected 400"
// and "... is 200, expected 100" are one kind), so a cut that trades the
// failure for another (an overcount for a record never delivered) is not
// kept.
bool SameFailure(const RunResult& run, const std::string& id,
                 const std::string& first);

ShrinkResult Shrink(const Scenario& scenario, uint64_t seed,
                    const RunResult& failing, const RunOptions& options);

}  // namespace ddblab::harness::scenario
