// emulator/server/schedule_gate.h: controlled scheduling at the wire. A
// RequestHandler in front of the engine's that holds the requests of the
// schedule's actors and lets them through one at a time, in an order a
// seeded strategy picks.
//
// Off by default: every call passes straight through (one relaxed atomic
// load). Start(config) puts it in controlled mode:
//   - An actor is named by the SigV4 access key its requests are signed
//     with (Caller::access_key). A request of an actor is held; requests of
//     any other key run at once, unscheduled (set-up, checks).
//   - When every actor that has not ended has a request held (and no
//     scheduled request runs), the Chooser picks one of them (`ready`: the
//     indices of those actors, ascending; `step`: 1-based). It runs (the
//     inner handler: the fault plan applies), the manual clock moves by
//     `tick`, it is answered, and the gate waits again. Exactly one
//     scheduled request runs at a time. An actor with more than one request
//     held (several connections) has them taken in arrival order.
//   - A lost answer (ErrorType::kOutcomeUnknown, the lost_response fault:
//     the call was applied, the connection is dropped) is that actor's step
//     like any other; the SDK's retry arrives as its next request.
//   - Done(actor) ends an actor: it no longer holds up the others, and a
//     later request signed with its key runs at once, unscheduled (traced
//     with "after_done": true).
//   - Idle: when an actor that has not ended has had no request held and
//     none running for `idle` of real time (the injected idle clock) while
//     another actor's request waits, the schedule stops with the problem
//     "actor b made no request for 10s and did not end: does it wait on
//     something outside DynamoDB?". Every held and every later request of
//     an actor is then answered with an InternalServerError (500) carrying
//     that problem, until Stop().
//   - Replay (ScheduleConfig::replay): the steps follow a recorded list of
//     actors instead of the Chooser. Step k waits as above (every actor
//     that has not ended has a request held), then runs the k-th recorded
//     actor's. When that actor has ended, or the recording is exhausted
//     while actors still send requests, the schedule stops as for idle:
//     "replay: step 5 was actor a's, but a has ended", "replay: the
//     recording has 12 steps; actor b sent a 13th request" (the lowest
//     such actor in `actors`).
//   - Stop() (DELETE, server shutdown) ends the schedule: every held request
//     is released to run at once, unscheduled (released in arrival order,
//     they then run concurrently); the gate is off again. The trace of the last
//     schedule stays readable until the next Start().
//
// The trace (Trace(): one JSON object a line, in the spirit of the scenario
// trace, docs/scenarios.md) has no wall-clock field: the same seed and
// programs that are deterministic given their answers give the same trace,
// byte for byte, on a manual clock. "clock" is the emulator's clock in ms
// since the epoch.
//   {"event":"start","seed":7,"strategy":"random","tick":"1s","idle":"10s",
//    "actors":["a","b"],"clock":1704067200000}
//   {"step":1,"actor":"a","call":"PutItem","request":{...},
//    "response":{...},"clock":1704067200000}
//   {"step":2,"actor":"b","call":"PutItem","request":{...},
//    "error":"ConditionalCheckFailedException: The conditional request
//    failed","clock":1704067201000}
//   {"step":3,"actor":"a","call":"UpdateItem","request":{...},
//    "fault":"lost_response","clock":1704067202000}
//   {"event":"done","actor":"a","steps":2,"clock":...}
//   {"actor":"a","call":"GetItem","request":{...},"response":{...},
//    "clock":...,"after_done":true}
//   {"event":"stopped","problem":"actor b made no request ...","step":3}
//   {"event":"end","steps":3}                                   (Stop)
// A streams call ("GetRecords") carries "service":"streams". "clock" of a
// step is the emulator's time when it ran, before the tick.
//
// Ownership: borrows the inner handler and the clocks (all must outlive the
// gate). Owns the idle watcher thread while a schedule is active.
// Thread-safety: every method may be called from any thread at any time;
// calls block inside CallAs / CallStreamsAs while held. One mutex guards
// the state; the inner handler and the clocks are called without it (the
// Chooser with it: it must not call back into the gate).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/mutex.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"
#include "emulator/server/request_handler.h"

namespace ddblab::server {

// At most this many actors in one schedule.
inline constexpr size_t kMaxScheduleActors = 64;

struct ScheduleConfig {
  // The actors' names: the access keys their requests are signed with;
  // 1 to kMaxScheduleActors, distinct, non-empty.
  std::vector<std::string> actors;
  uint64_t seed = 0;
  // The strategy's name, as GET and the trace show it ("random", "pct:3").
  std::string strategy = "random";
  // How far the manual clock moves after each scheduled request (0: it
  // does not move). Needs a manual clock.
  Duration tick{0};
  // How long (real time) an actor may send nothing while others wait.
  Duration idle = std::chrono::seconds(10);
  // Picks the actor to move: one of `ready` (indices into `actors`,
  // ascending, never empty) at `step` (1-based). Required.
  std::function<size_t(const std::vector<size_t>& ready, int step)> choose;
  // Set: the actor of each step, in order (names from `actors`), followed
  // instead of asking `choose` (see above); `strategy` is then "replay".
  std::optional<std::vector<std::string>> replay;
};

// Whether Start would take `config` (on a server with a manual clock or
// not): a ValidationException naming the field otherwise ("actors[1]: \"a\"
// is listed twice", "tick needs --clock manual", "idle: must be more than
// 0", "replay[3]: \"x\" is not one of the actors").
Status CheckScheduleConfig(const ScheduleConfig& config, bool manual_clock);

class ScheduleGate final : public RequestHandler {
 public:
  // `inner` runs the requests. `clock` is the emulator's clock (the trace
  // reads it); `manual` is that same clock when it is a ManualClock (null
  // on a system clock: a non-zero tick is then refused). `idle_clock` is
  // real time (a SystemClock; tests give a ManualClock).
  ScheduleGate(RequestHandler& inner, const Clock& clock, ManualClock* manual,
               Clock& idle_clock);
  // Stops the schedule (releasing held requests) and the watcher.
  ~ScheduleGate() override;

  ScheduleGate(const ScheduleGate&) = delete;
  ScheduleGate& operator=(const ScheduleGate&) = delete;

  // Starts controlled mode. ValidationException naming the field for a bad
  // config ("actors[1]: \"a\" is listed twice", "tick needs --clock
  // manual"); ResourceInUseException "a schedule is already active: DELETE
  // /_ddblab/schedule first" when one is active or stopped; after
  // StopWaiting, InternalServerError "the server is shutting down".
  Status Start(ScheduleConfig config);
  // Ends actor `name`. ValidationException when no schedule is active or
  // stopped ("no schedule is active: POST /_ddblab/schedule first") or the
  // name is not one of its actors ("unknown actor \"x\": the schedule's
  // actors are a, b"). Ending an ended actor does nothing.
  Status Done(std::string_view name);
  // Ends the schedule (see above); nothing when off.
  void Stop();

  // {"state": "off"} or {"state": "active"|"stopped", "seed", "strategy",
  //  "tick": "1s", "idle": "10s", "step": N, "actors": [{"name",
  //  "state": "running"|"held"|"done", "steps"}], "problem" (stopped)}.
  nlohmann::json State() const;
  // The trace so far (of the last schedule when off): one JSON a line, each
  // ending in '\n'.
  std::string Trace() const;

  // For tests: blocks until actor `name` has a request held, or the gate is
  // not active. A request dispatched at once is never seen held: wait for
  // one that another actor keeps waiting.
  void AwaitHeld(std::string_view name) const;

  // Without a caller: straight to the inner handler.
  Result<nlohmann::json> Call(std::string_view operation,
                              const nlohmann::json& request) override;
  Result<nlohmann::json> CallStreams(std::string_view operation,
                                     const nlohmann::json& request) override;
  DeferredAnswer CallDeferred(std::string_view operation,
                              const nlohmann::json& request) override;
  DeferredAnswer CallStreamsDeferred(std::string_view operation,
                                     const nlohmann::json& request) override;
  // The gate.
  DeferredAnswer CallAs(const Caller& caller, std::string_view operation,
                        const nlohmann::json& request) override;
  DeferredAnswer CallStreamsAs(const Caller& caller, std::string_view operation,
                               const nlohmann::json& request) override;
  // Stop(), refuses any later Start(), then the inner handler's.
  void StopWaiting() override;

 private:
  enum class Mode { kOff, kActive, kStopped };
  // What a held request is told.
  enum class Verdict { kHeld, kGo, kRelease, kRefuse };
  struct Ticket {
    size_t actor = 0;
    uint64_t arrival = 0;  // arrival order, across actors
    TimePoint held_at;     // idle clock
    Verdict verdict = Verdict::kHeld;
    uint64_t release_turn = 0;  // kRelease: the order to enter in
    std::string problem;        // kRefuse
  };
  struct Actor {
    std::string name;
    bool done = false;
    bool stepping = false;  // its scheduled request runs
    int steps = 0;
    TimePoint since;            // idle clock: last answer (or the start)
    std::deque<Ticket*> queue;  // held, in arrival order
  };

  DeferredAnswer Gate(bool streams, const Caller& caller,
                      std::string_view operation,
                      const nlohmann::json& request);
  DeferredAnswer Inner(bool streams, const Caller& caller,
                       std::string_view operation,
                       const nlohmann::json& request);
  std::optional<size_t> ActorIndex(std::string_view name) const
      DDBLAB_REQUIRES(mu_);
  // Picks and starts the next step when every live actor has one held
  // (or stops a replay that cannot go on).
  void Dispatch() DDBLAB_REQUIRES(mu_);
  // Wakes the held requests and the watcher: the state changed.
  void Changed() DDBLAB_REQUIRES(mu_);
  void StopWith(std::string problem) DDBLAB_REQUIRES(mu_);
  void StopLocked() DDBLAB_REQUIRES(mu_);
  // One trace line for a request that ran.
  std::string CallLine(std::optional<int> step, const Actor& actor,
                       bool streams, std::string_view operation,
                       const nlohmann::json& request,
                       const Result<nlohmann::json>& answer,
                       TimePoint clock) const;
  int64_t ClockMs(TimePoint t) const;
  // The idle watcher thread's loop.
  void Watch(std::stop_token stop);
  void JoinWatcher();

  RequestHandler& inner_;
  const Clock& clock_;
  ManualClock* const manual_;
  Clock& idle_clock_;

  // True unless off: the one load a call makes when the gate is off.
  std::atomic<bool> engaged_{false};

  mutable Mutex mu_;
  mutable std::condition_variable_any cv_;
  Mode mode_ DDBLAB_GUARDED_BY(mu_) = Mode::kOff;
  bool shut_down_ DDBLAB_GUARDED_BY(mu_) = false;
  // Bumped by Start: a step that ends after its schedule was replaced
  // leaves the new one alone.
  uint64_t epoch_ DDBLAB_GUARDED_BY(mu_) = 0;
  ScheduleConfig config_ DDBLAB_GUARDED_BY(mu_);
  std::vector<Actor> actors_ DDBLAB_GUARDED_BY(mu_);
  // config_.replay as indices into actors_.
  std::vector<size_t> replay_ DDBLAB_GUARDED_BY(mu_);
  int step_ DDBLAB_GUARDED_BY(mu_) = 0;
  bool running_ DDBLAB_GUARDED_BY(mu_) = false;  // a scheduled request runs
  std::string problem_ DDBLAB_GUARDED_BY(mu_);
  std::vector<std::string> trace_ DDBLAB_GUARDED_BY(mu_);
  uint64_t arrivals_ DDBLAB_GUARDED_BY(mu_) = 0;
  // Released requests enter the inner handler in this order.
  uint64_t releases_issued_ DDBLAB_GUARDED_BY(mu_) = 0;
  uint64_t releases_entered_ DDBLAB_GUARDED_BY(mu_) = 0;
  // The watcher: bumped on every change; `wake_` interrupts its sleep.
  uint64_t changes_ DDBLAB_GUARDED_BY(mu_) = 0;
  std::shared_ptr<std::stop_source> wake_ DDBLAB_GUARDED_BY(mu_);

  // Started by Start, joined by Stop / the destructor (never under mu_).
  Mutex watcher_mu_;
  std::jthread watcher_ DDBLAB_GUARDED_BY(watcher_mu_);
};

}  // namespace ddblab::server
