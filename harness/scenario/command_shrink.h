// harness/scenario/command_shrink.h: `--shrink` for command actors — the
// same failure with fewer context switches.
//
// The user's programs cannot be cut into ops as pattern actors are, so the
// shrink works on the schedule alone: the failing run's steps, by the copy
// that made each (its access key, as the trace names it), in blocks of
// consecutive steps of one copy. Greedily, from the start: where a copy A's
// block ends and another begins, A's next block is moved up to follow it
// (the steps in between wait), and the candidate is replayed on the server
// (RunOptions::schedule, with the same seed). It is kept when the replay
// follows it to the end and breaks the same invariant in the same way (a
// problem of the same kind, digits aside, as shrink.h keeps cuts); each
// kept move removes at least one switch. It stops when no move is kept.
// Each copy keeps its number of steps, so a program that sends as many
// requests whatever it reads replays every candidate; one whose requests
// depend on its answers (a retry after a conditional failure) may refuse a
// candidate, which is then dropped.
//
// The fault plan is left as it is: its draws are keyed by each rule's
// matching call number, so a candidate may shift them; such a candidate
// usually fails differently and is dropped.
//
// Thread-safety: reentrant (each candidate is a run of its own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/scenario/runner.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

struct CommandShrinkResult {
  std::vector<std::string> schedule;  // the steps' copies (access keys)
  RunResult run;                      // its run, with its trace
  size_t switches_before = 0;
  size_t switches_after = 0;
  int runs = 0;  // candidate runs
};

// The copies' keys of a trace's step lines, in order.
std::vector<std::string> StepKeys(const std::vector<std::string>& trace);

// How often the schedule moves from one copy to another.
size_t Switches(const std::vector<std::string>& schedule);

// `failing`: seed `seed`'s run of `s`, with its trace, breaking an
// invariant. `base`: the backend, strategy and server starter.
CommandShrinkResult ShrinkCommandRun(const Scenario& s, uint64_t seed,
                                     const RunResult& failing,
                                     const RunOptions& base);

}  // namespace ddblab::harness::scenario
