// harness/scenario/run_args.h: the command line of `ddblab run` (its
// flags, usage and help), parsed into RunArgs for the modes of
// run_command.cc.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "harness/scenario/runner.h"
#include "harness/scenario/strategy.h"

namespace ddblab::harness::scenario {

// The usage lines, and `ddblab run --help`'s text after them (every flag on
// a line of its own, then the exit codes).
extern const char* const kRunUsage;
extern const char* const kRunHelp;

struct RunArgs {
  std::vector<std::string> files;
  std::string backend = "emulator";
  std::optional<uint64_t> seed;
  std::optional<int64_t> explore;
  std::optional<std::pair<uint64_t, uint64_t>> seeds;  // --seeds A-B
  std::optional<std::pair<uint64_t, uint64_t>> shard;  // --shard I/N
  std::string json_out;
  bool merge = false;
  std::string replay;
  bool shrink = false;
  std::string shrink_out;
  std::string trace;
  std::string report;
  StrategySpec strategy;
  std::optional<int> max_preemptions;
  std::optional<int> max_faults;  // --max-faults: fault flips, exhaustive
  std::optional<int64_t> budget;
  bool no_reduction = false;
  int jobs = 1;  // --jobs J: seeds run at once by --explore / --seeds
  const StartRunServer* start_server = nullptr;
};

// Parses the arguments; an error message (without the "ddblab run: ")
// when they are bad, "" when they are fine.
std::string ParseRunArgs(std::span<const std::string> args, RunArgs* out);

// The RunOptions every mode starts from (backend, strategy, server starter).
RunOptions BaseOptions(const RunArgs& args);

// Where a command run that writes --trace OUT keeps its programs' output:
// OUT.logs/ (other runs use a temporary folder).
std::string LogsDirOf(const RunArgs& args);

// What command actors cannot do yet, as the flag named in the exit-2
// message ("" when the mode is fine).
std::string CommandModeProblem(const RunArgs& args);

}  // namespace ddblab::harness::scenario
