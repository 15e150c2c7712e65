// harness/scenario/strategy.h: how a run picks the next actor to move.
//
// A strategy sees the ready actors at each step (those whose start / every
// time has come and that are not done) and picks one. It draws only from
// the run's seed, so a seed and a strategy name give the same run again.
//
// - `random`: each step, a ready actor uniformly (ddblab's first strategy;
//   its runs are unchanged).
// - `pct[:D]` (probabilistic concurrency testing, Burckhardt, Kothari,
//   Musuvathi and Nagarakatte, ASPLOS 2010): the actors get distinct random
//   priorities D..D+n-1, and D-1 change points are drawn uniformly among the
//   run's expected steps. The highest-priority ready actor moves; at the
//   j-th change point the actor about to move drops to priority j (below
//   every initial one) and the pick is made again. A race that needs D-1
//   preemptions at the right places shows with probability at least
//   1/(n·k^(D-1)) per run (n actors, k steps). D defaults to 3; 1..10.
// - `exhaustive`: every distinct schedule within a preemption bound, one
//   run each (exhaustive.h drives the runs). On its own (a single run, a
//   replay) it picks schedule 1 of that exploration: the actor that moved
//   last while it is ready, else the lowest-numbered ready actor.
//
// Thread-safety: a Scheduler belongs to one run; ParseStrategy is pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/fault_draw.h"
#include "emulator/api/result.h"
#include "harness/scenario/footprint.h"

namespace ddblab::harness::scenario {

struct StrategySpec {
  enum class Kind { kRandom, kPct, kExhaustive };
  Kind kind = Kind::kRandom;
  int depth = 3;  // pct only

  // "random", "pct:3", "exhaustive": what --strategy takes and the trace's
  // start line says.
  std::string Text() const;
  bool operator==(const StrategySpec&) const = default;
};

inline constexpr int kMaxPctDepth = 10;

// "random", "pct" (depth 3), "pct:D" with D from 1 to 10 or "exhaustive";
// otherwise a ValidationException saying what is accepted.
Result<StrategySpec> ParseStrategy(std::string_view text);

// What Pick returns to end the run at once, without the final checks (an
// exhaustive exploration's run that can only repeat one already made).
inline constexpr size_t kStopRun = static_cast<size_t>(-1);

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The actor to move at `step` (1-based), one of `ready` (actor indices,
  // ascending, never empty), or kStopRun.
  virtual size_t Pick(const std::vector<size_t>& ready, int step) = 0;
  // True when the runner should call Stepped after every step.
  virtual bool WantsFootprints() const { return false; }
  // What the step just made touched (footprint.h).
  virtual void Stepped(const Footprint&) {}
  // True when the runner should let Draw decide the fault plan's draws
  // (rules with 0 < probability < 1), where the backend can
  // (Capability::kFaultDraws).
  virtual bool WantsFaultDraws() const { return false; }
  // Whether the rule fires for this call; `draw.seeded` is what the seed's
  // draw gives. Called inside the backend's call, during a step (or a
  // check): it must not call the backend.
  virtual bool Draw(const FaultDraw& draw) { return draw.seeded; }
};

// `actors`: how many the scenario has; `expected_steps`: how many steps a
// run takes (pct draws its change points among them; at least 1).
std::unique_ptr<Scheduler> MakeScheduler(const StrategySpec& spec,
                                         uint64_t seed, size_t actors,
                                         int expected_steps);

}  // namespace ddblab::harness::scenario
