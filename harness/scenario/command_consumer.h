// harness/scenario/command_consumer.h: a consumer actor of a command run
// (command_actors.h, "consumer": the user's stream handler under the
// scheduler).
//
// A CommandConsumer is an event source mapping (harness/consumer/esm.h)
// that reads a table's stream through the run's server and invokes the
// user's function; both sign with the actor's access key, so the server's
// schedule (emulator/server/schedule_gate.h) holds each of its calls and
// orders it among the programs' by the seed, as that actor's step:
//   - its polling rounds run on a thread of their own, one unit after
//     another (EventSourceMapping::StepRound: a DescribeTable,
//     DescribeStream, GetShardIterator or GetRecords call, or one
//     invocation), each unit started as soon as the last ended, so the
//     actor is never long without a request held between two rounds and
//     the schedule's idle rule only sees a function that really hangs;
//   - a Command function (ProcessFunction) runs once per invocation in the
//     scenario's folder with the environment a command actor gets (the
//     actor's key: its DynamoDB calls are the actor's steps too), the event
//     on stdin, its answer on stdout; a Url function is POSTed the event
//     (what runs behind the URL signs with whatever key it has);
//   - faults.consumer applies to the records it is given (FaultyFunction,
//     drawn from Rng(seed).Fork("consumer/" + name));
//   - the mapping's clock is the server's (GET /_ddblab/clock): batching
//     windows and record ages follow the run's manual clock.
//
// Ending: a consumer ends (the run tells the server it is done) once every
// program of the run has ended and one of its rounds that began after that
// invoked nothing, failed nothing and left nothing outstanding, while no
// consumer's function ran or was invoked since the round began
// (ConsumerBoard). After kMaxDrainRounds such rounds without catching up it
// ends with a problem (a violation "consumer" of the run).
//
// Determinism: a consumer's thread runs only between the answer to one of
// its steps and its next request, and the schedule moves no other actor
// while it has no request held: what it reads (the clock, the board, the
// schedule's step) is the same for the same seed and answers.
//
// Trace lines (TakeEvents), each stamped with the schedule's step after
// which it happened: {"step":N,"consumer":"rollup","fault":"slow",
// "effect":"timeout","key":"t1","sequence":"..."} (a consumer fault
// firing, before the function runs), {"step":N,"consumer":"rollup",
// "delivery":{"keys":[..],"first":..,"last":..,"result":"ok"}} (an
// invocation and its outcome), {"step":N,"consumer":"rollup",
// "poll_error":"..."} (a round abandoned). Summary() gives the end line.
//
// Ownership: a CommandConsumer owns its thread, mapping and function; it
// borrows the board and the actor's spec (both must outlive it).
// Thread-safety: Stop, Finished and the destructor from any thread; the
// results (TakeEvents, problem, Summary) after Finished() is true. A
// ConsumerBoard may be used from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "emulator/api/mutex.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"
#include "harness/consumer/function.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

// What the consumers of one run share: whether the programs have all
// ended, and the functions' activity.
class ConsumerBoard {
 public:
  explicit ConsumerBoard(size_t programs) : programs_(programs) {}

  // The run, when a program ended (before it tells the server).
  void ProgramEnded();
  bool ProgramsEnded() const;
  // A consumer, around each invocation of its function.
  void InvocationStarts();
  void InvocationEnds();
  // Moves with every start and end of an invocation.
  int64_t Generation() const;
  // No function runs, and none started or ended since Generation() was
  // `since`.
  bool QuietSince(int64_t since) const;

 private:
  mutable Mutex mu_;
  const size_t programs_;
  size_t ended_ DDBLAB_GUARDED_BY(mu_) = 0;
  int64_t generation_ DDBLAB_GUARDED_BY(mu_) = 0;
  int running_ DDBLAB_GUARDED_BY(mu_) = 0;
};

// A Command function run as a command actor's program is: a process per
// invocation in `cwd` with exactly `env`, the event on stdin (through the
// file `<files>.event`), its stdout (`<files>.response`, then appended to
// `<files>.stdout`) the answer (empty: null), its stderr appended to
// `<files>.stderr`. Exit 0 with JSON (or nothing) is the answer; a
// non-zero exit or a signal is a function error "Runtime.ExitError" (the
// problem line of its stderr), output that is not JSON
// "Runtime.InvalidResponse", a run longer than `timeout` (real time) is
// killed: "Timeout", "Task timed out after 60.00 seconds". A program that
// cannot be started is "not delivered". `stop` (may be null), when set,
// kills a running one (a function error).
class ProcessFunction final : public consumer::Function {
 public:
  ProcessFunction(std::vector<std::string> argv, std::string program,
                  std::string cwd, std::vector<std::string> env,
                  std::string files, std::chrono::milliseconds timeout,
                  const std::atomic<bool>* stop = nullptr);
  consumer::Invocation Invoke(const nlohmann::json& event) override;
  std::string Describe() const override;

 private:
  std::vector<std::string> argv_;
  std::string program_;
  std::string cwd_;
  std::vector<std::string> env_;
  std::string files_;
  std::chrono::milliseconds timeout_;
  const std::atomic<bool>* stop_;
};

struct ConsumerSetup {
  const ActorSpec* actor = nullptr;  // kConsumer
  std::string key;                   // its access key
  std::string endpoint;              // the run's server
  std::string control_token;
  std::string folder;            // the function's working directory
  std::vector<std::string> env;  // the function's whole environment
  std::string files;             // "<logs dir>/<key>": its output files
  uint64_t seed = 0;
  std::vector<ConsumerFault> faults;  // the ones that apply to it
  Duration idle = std::chrono::seconds(10);
};

class CommandConsumer {
 public:
  // Opens its connections and starts its thread. An error says why (the
  // server cannot be reached, the mapping or function is bad).
  static Result<std::unique_ptr<CommandConsumer>> Start(ConsumerSetup setup,
                                                        ConsumerBoard& board);
  ~CommandConsumer();

  CommandConsumer(const CommandConsumer&) = delete;
  CommandConsumer& operator=(const CommandConsumer&) = delete;

  const ActorSpec& spec() const { return *setup_.actor; }
  const std::string& key() const { return setup_.key; }
  // True once its thread has ended (caught up, stopped or failed).
  bool Finished() const { return finished_.load(); }
  // Ends the thread at its next unit (a running function is killed)...
  void RequestStop() { stop_.store(true); }
  // ... and waits for it. A request of its held by the schedule holds it
  // up: tell the server the actor is done (or stop the schedule) first.
  void Stop();

  // After Finished(): the trace lines (step, line), in order.
  std::vector<std::pair<int64_t, nlohmann::ordered_json>> TakeEvents();
  // Not caught up after kMaxDrainRounds rounds past the programs' end.
  const std::optional<std::string>& problem() const { return problem_; }
  // The run cannot go on (the server's control endpoints failed).
  const std::optional<Error>& error() const { return error_; }
  // {"event":"consumer","actor":"rollup","rounds":12,"metrics":{...}}.
  nlohmann::ordered_json Summary() const;

 private:
  CommandConsumer(ConsumerSetup setup, ConsumerBoard& board);
  struct State;
  void Loop();
  // Stamps the events not stamped yet with the schedule's step; false
  // (error_ set) when the server cannot say.
  bool Stamp();

  ConsumerSetup setup_;
  ConsumerBoard& board_;
  std::unique_ptr<State> state_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};
  std::optional<std::string> problem_;
  std::optional<Error> error_;
  int64_t rounds_ = 0;
  std::thread thread_;
};

}  // namespace ddblab::harness::scenario
