// harness/scenario/runner.h: one run of a scenario for one seed.
//
// RunOnce opens the backend (a fresh in-process emulator per run, or the
// given endpoint reset to the state of a fresh emulator: POST
// /_ddblab/reset with the scenario's start time, TTL delay and stream
// shards and the run's seed, on `ddblab serve`; elsewhere the scenario's
// tables deleted, the fault plan cleared and the clock set where the
// backend has those controls), creates the tables,
// sets up the actors and the fault plan, then steps: it fires the timeline
// events that are due, and moves one ready actor by one atomic step, chosen
// by the seeded generator (Rng(seed).Fork("schedule")) or, for a pinned
// schedule, by name. When no actor is ready the clock jumps to the next
// time one is (or an event is due). After every step the clock moves by
// backend.tick. When every actor is done and the timeline is empty, each
// stream consumer gets one more poll op and the run goes on (a mapping
// never stops polling), again until a round invokes nothing, at most
// kMaxDrainRounds times; the checks then see every consumer caught up,
// whichever order the actors ran in. The fault plan's draws come from the same
// seed (the emulator is opened, or the server reset, with it). A control call
// that fails (reset, clock, fault plan, shard split, TTL sweep) stops the run
// with code 3 and a message naming the call and giving the backend's own
// ("<file>: reset before the run failed: <Type>: <message>"); a fault plan
// the backend refuses as invalid is bad input (code 2). With a stream consumer
// among the actors, the TTL deletions due are made after every clock move
// by an explicit sweep (SweepTtl, where the backend can), which counts them
// (a deletion after a consumer's drain round began is a new stream record
// to wait for); on a manual clock they would run at the move anyway
// (engine/ttl/ttl_sweeper.h), in process as over HTTP.
//
// The trace is JSONL, one event a line, with no wall-clock field: the same
// scenario, seed and in-process backend give byte-identical traces.
//   {"event":"start","scenario":..,"seed":..,"strategy":..,"backend":..,
//    "t":..}      (an exhaustive schedule adds "exhaustive":{"schedule":N,
//                  "max_preemptions":K} after "strategy")
//   {"step":1,"t":..,"actor":..,"op":..,"result":..}     one per step
//   {"step":1,"call":"PutItem","response":{..}}        one per call made
//   {"step":1,"call":"PutItem","error":"OutcomeUnknown: .."}
//   {"step":1,"fault_draw":{"rule":"0","match":2,"fires":true,
//    "seeded":false}}   a fault rule's draw that the run decided
//                       (RunOptions::draws, or an exhaustive exploration's
//                       scheduler): whether it fired, and what the seed's
//                       draw gave; --replay forces the same outcomes
//   {"event":"clock","t":..,"advance":"55s"}           idle jump
//   {"event":"drain","actor":..,"round":N}             a poll past the ops
//   {"event":"advance"|"faults"|"split_shards"|"sweep_ttl",..}  timeline
//   {"event":"invariant","id":..,"check":..,"holds":..,"problems":[..]}
//   {"event":"end","steps":..,"verdict":"holds"|"violated"}
// Responses longer than 512 bytes are written as {"digest","bytes"}.
//
// Thread-safety: RunOnce is reentrant (each run has its own backend).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/error.h"
#include "harness/scenario/scenario.h"
#include "harness/scenario/strategy.h"

namespace ddblab::harness::scenario {

// Polling rounds a consumer may take past its last op before the run
// fails with "had not caught up".
inline constexpr int kMaxDrainRounds = 100;

// A server a command run talks to (command_run.h): `ddblab serve` in this
// process, started by the `ddblab` executable (cli/run_server.h). Stopped
// when destroyed.
class RunServer {
 public:
  virtual ~RunServer() = default;
  virtual const std::string& endpoint() const = 0;       // "http://127.0.0.1:P"
  virtual const std::string& control_token() const = 0;  // X-Ddblab-Token
};

// What the server starts with: a manual clock at `clock_start`, the
// emulator's seed, TTL delay ("" : 0) and stream shards (0: 1).
struct RunServerSpec {
  int64_t clock_start = 0;
  uint64_t seed = 0;
  std::string ttl_delay;
  int stream_shards = 0;
};

using StartRunServer =
    std::function<Result<std::unique_ptr<RunServer>>(const RunServerSpec&)>;

struct RunOptions {
  // "emulator", "http://HOST:PORT" or "aws[:REGION]".
  std::string backend = "emulator";
  uint64_t seed = 1;
  // A schedule to follow instead of the scenario's own (--replay): actor
  // names, or for command actors the copies' keys (the trace's "actor").
  const std::vector<std::string>* schedule = nullptr;
  // Write the trace (RunResult::trace). --explore and --shrink run without
  // it and run again the one seed whose trace they write: same seed, same
  // run.
  bool trace = true;
  // How the next actor is picked (strategy.h).
  StrategySpec strategy;
  // The steps pct spreads its change points over; 0: RunOnce finds them
  // with a probe run (ProbeRun) first.
  int expected_steps = 0;
  // Picks instead of `strategy`'s own scheduler when set (not owned; an
  // exhaustive exploration's, exhaustive.h). `strategy` still names the
  // run on the start line.
  Scheduler* scheduler = nullptr;
  // The outcomes of the fault plan's draws (rules with 0 < probability <
  // 1), in the order they come, in place of the seed's (the trace's
  // fault_draw lines, for --replay); draws past the end are the seed's.
  // Not with `scheduler`. In process only (Capability::kFaultDraws).
  const std::vector<bool>* draws = nullptr;
  // Written on the start line after "strategy" as "exhaustive" when not
  // null: which schedule of an exhaustive exploration this run is.
  nlohmann::ordered_json exhaustive;
  // Command actors: starts the server of each run (null: such a scenario
  // cannot run, exit 2), and where the programs' output goes ("": a
  // temporary folder removed after the run).
  const StartRunServer* start_server = nullptr;
  std::string logs_dir;
};

struct Violation {
  std::string id;     // "invariants[0]"
  std::string check;  // "ordered_writes"
  std::vector<std::string> problems;
  int step = 0;  // the step after which an every_step check broke; 0: end
};

// Which op of which actor a step worked on.
struct StepRef {
  size_t actor = 0;
  size_t op = 0;
};

// What one call of a step did (for --shrink to pin faults to calls).
struct CallSummary {
  size_t step = 0;  // index into RunResult::steps
  std::string operation;
  std::optional<ErrorType> error;
  std::string message;       // the error's message
  bool unprocessed = false;  // a batch answer with items left
};

struct RunResult {
  // 0: the run went through (see violation); otherwise the exit code the
  // command returns: 2 bad input, 3 the backend lacks a capability or a
  // control call failed, 1 the run could not be completed. `failure` says
  // why.
  int code = 0;
  std::string failure;
  std::vector<std::string> trace;
  std::vector<std::string> schedule;  // the actor of each step
  std::vector<StepRef> steps;
  std::vector<CallSummary> calls;
  std::optional<Violation> violation;  // the first broken invariant
  // The consumer faults that fired, in order.
  std::vector<ConsumerFiring> consumer_firings;
  // The rules of faults.rules no call of the run matched (UnmatchedRules).
  std::vector<std::string> unmatched_rules;
  // The scheduler ended the run (kStopRun) before its actors did: no final
  // checks were made (`violation` can only be an every_step check's).
  bool stopped = false;
};

// One run. Under pct with expected_steps 0 it makes the probe run first.
RunResult RunOnce(const Scenario& scenario, const RunOptions& options);

// The run pct measures a scenario by: `options` with the random strategy,
// seed 0 and no trace. Its steps are the expected steps of every pct run
// of the scenario on that backend, whatever their seed, so a seed and a
// strategy name reproduce a run.
RunResult ProbeRun(const Scenario& scenario, const RunOptions& options);

// "<file>: <path> needs <capability> control; backend <name> has none" for
// the first thing the scenario needs that `has` lacks, or "".
std::string MissingCapability(const Scenario& scenario,
                              const std::string& backend_name, bool has_clock,
                              bool has_faults, bool has_shards,
                              bool has_ttl_sweep, bool has_consistency);

}  // namespace ddblab::harness::scenario
