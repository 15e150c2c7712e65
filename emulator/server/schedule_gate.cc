// The scheduling gate: holds actors' requests and lets one through at a
// time (schedule_gate.h).
#include "emulator/server/schedule_gate.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include "emulator/api/duration.h"

namespace ddblab::server {
namespace {

using Json = nlohmann::json;

std::string Dump(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// 1 -> "1st", 12 -> "12th", 23 -> "23rd".
std::string Ordinal(size_t n) {
  const size_t tens = n % 100;
  const char* suffix = "th";
  if (tens < 11 || tens > 13) {
    switch (n % 10) {
      case 1:
        suffix = "st";
        break;
      case 2:
        suffix = "nd";
        break;
      case 3:
        suffix = "rd";
        break;
      default:
        break;
    }
  }
  return std::to_string(n) + suffix;
}

}  // namespace

ScheduleGate::ScheduleGate(RequestHandler& inner, const Clock& clock,
                           ManualClock* manual, Clock& idle_clock)
    : inner_(inner), clock_(clock), manual_(manual), idle_clock_(idle_clock) {}

ScheduleGate::~ScheduleGate() {
  Stop();
  MutexLock lock(watcher_mu_);
  if (watcher_.joinable()) {
    watcher_.request_stop();
    watcher_.join();
  }
}

Status CheckScheduleConfig(const ScheduleConfig& config, bool manual_clock) {
  if (config.actors.empty() || config.actors.size() > kMaxScheduleActors) {
    return Error::Validation("actors: give 1 to " +
                             std::to_string(kMaxScheduleActors) +
                             " actor names (the access keys they sign with)");
  }
  std::set<std::string_view> seen;
  for (size_t i = 0; i < config.actors.size(); ++i) {
    const std::string& name = config.actors[i];
    const std::string where = "actors[" + std::to_string(i) + "]";
    if (name.empty()) return Error::Validation(where + ": the name is empty");
    if (!seen.insert(name).second) {
      return Error::Validation(where + ": \"" + name + "\" is listed twice");
    }
  }
  if (config.tick < Duration::zero()) {
    return Error::Validation("tick: must not be negative");
  }
  if (config.tick > Duration::zero() && !manual_clock) {
    return Error::Validation("tick needs --clock manual");
  }
  if (config.idle <= Duration::zero()) {
    return Error::Validation("idle: must be more than 0");
  }
  if (!config.choose && !config.replay) {
    return Error::Validation("strategy: none given");
  }
  if (config.replay) {
    const std::vector<std::string>& replay = *config.replay;
    for (size_t i = 0; i < replay.size(); ++i) {
      if (std::find(config.actors.begin(), config.actors.end(), replay[i]) ==
          config.actors.end()) {
        return Error::Validation("replay[" + std::to_string(i) + "]: \"" +
                                 replay[i] + "\" is not one of the actors");
      }
    }
  }

  return OkStatus();
}

Status ScheduleGate::Start(ScheduleConfig config) {
  DDBLAB_RETURN_IF_ERROR(CheckScheduleConfig(config, manual_ != nullptr));
  MutexLock watcher_lock(watcher_mu_);
  {
    MutexLock lock(mu_);
    if (shut_down_) return Error::Internal("the server is shutting down");
    if (mode_ != Mode::kOff) {
      return Error::ResourceInUse(
          "a schedule is already active: DELETE /_ddblab/schedule first");
    }
    ++epoch_;
    config_ = std::move(config);
    if (config_.replay) config_.strategy = "replay";
    const TimePoint now = idle_clock_.Now();
    actors_.clear();
    for (const std::string& name : config_.actors) {
      Actor actor;
      actor.name = name;
      actor.since = now;
      actors_.push_back(std::move(actor));
    }
    replay_.clear();
    if (config_.replay) {
      for (const std::string& name : *config_.replay) {
        replay_.push_back(*ActorIndex(name));  // checked above
      }
    }
    step_ = 0;
    running_ = false;
    problem_.clear();
    trace_.clear();
    trace_.push_back(
        "{\"event\":\"start\",\"seed\":" + std::to_string(config_.seed) +
        ",\"strategy\":" + Dump(config_.strategy) +
        ",\"tick\":" + Dump(DurationText(config_.tick)) +
        ",\"idle\":" + Dump(DurationText(config_.idle)) +
        ",\"actors\":" + Dump(config_.actors) +
        ",\"clock\":" + std::to_string(ClockMs(clock_.Now())) + "}");
    mode_ = Mode::kActive;
    engaged_.store(true, std::memory_order_relaxed);
    Changed();
  }
  if (!watcher_.joinable()) {
    watcher_ = std::jthread([this](std::stop_token stop) { Watch(stop); });
  }
  return OkStatus();
}

Status ScheduleGate::Done(std::string_view name) {
  MutexLock lock(mu_);
  if (mode_ == Mode::kOff) {
    return Error::Validation(
        "no schedule is active: POST /_ddblab/schedule first");
  }
  std::optional<size_t> index = ActorIndex(name);
  if (!index) {
    std::string names;
    for (const Actor& actor : actors_) {
      names += (names.empty() ? "" : ", ") + actor.name;
    }
    return Error::Validation("unknown actor \"" + std::string(name) +
                             "\": the schedule's actors are " + names);
  }
  Actor& actor = actors_[*index];
  if (actor.done) return OkStatus();
  actor.done = true;
  trace_.push_back("{\"event\":\"done\",\"actor\":" + Dump(actor.name) +
                   ",\"steps\":" + std::to_string(actor.steps) +
                   ",\"clock\":" + std::to_string(ClockMs(clock_.Now())) + "}");
  // Requests it still has held (a second connection) run unscheduled.
  for (Ticket* ticket : actor.queue) {
    ticket->verdict = Verdict::kRelease;
    ticket->release_turn = releases_issued_++;
  }
  actor.queue.clear();
  Changed();
  Dispatch();
  return OkStatus();
}

void ScheduleGate::Stop() {
  MutexLock lock(mu_);
  StopLocked();
}

void ScheduleGate::StopLocked() {
  if (mode_ == Mode::kOff) return;
  // Every held request, in arrival order.
  std::vector<Ticket*> held;
  for (Actor& actor : actors_) {
    held.insert(held.end(), actor.queue.begin(), actor.queue.end());
    actor.queue.clear();
  }
  std::sort(held.begin(), held.end(),
            [](Ticket* a, Ticket* b) { return a->arrival < b->arrival; });
  for (Ticket* ticket : held) {
    ticket->verdict = Verdict::kRelease;
    ticket->release_turn = releases_issued_++;
  }
  trace_.push_back("{\"event\":\"end\",\"steps\":" + std::to_string(step_) +
                   "}");
  mode_ = Mode::kOff;
  engaged_.store(false, std::memory_order_relaxed);
  Changed();
}

void ScheduleGate::StopWith(std::string problem) {
  problem_ = std::move(problem);
  for (Actor& actor : actors_) {
    for (Ticket* ticket : actor.queue) {
      ticket->verdict = Verdict::kRefuse;
      ticket->problem = problem_;
    }
    actor.queue.clear();
  }
  trace_.push_back("{\"event\":\"stopped\",\"problem\":" + Dump(problem_) +
                   ",\"step\":" + std::to_string(step_) + "}");
  mode_ = Mode::kStopped;
  Changed();
}

void ScheduleGate::StopWaiting() {
  {
    MutexLock lock(mu_);
    StopLocked();
    shut_down_ = true;
  }
  inner_.StopWaiting();
}

Json ScheduleGate::State() const {
  MutexLock lock(mu_);
  if (mode_ == Mode::kOff) return Json{{"state", "off"}};
  Json actors = Json::array();
  for (const Actor& actor : actors_) {
    const char* state = actor.done             ? "done"
                        : !actor.queue.empty() ? "held"
                                               : "running";
    actors.push_back(
        {{"name", actor.name}, {"state", state}, {"steps", actor.steps}});
  }
  Json state{{"state", mode_ == Mode::kActive ? "active" : "stopped"},
             {"seed", config_.seed},
             {"strategy", config_.strategy},
             {"tick", DurationText(config_.tick)},
             {"idle", DurationText(config_.idle)},
             {"step", step_},
             {"actors", std::move(actors)}};
  if (mode_ == Mode::kStopped) state["problem"] = problem_;
  return state;
}

std::string ScheduleGate::Trace() const {
  MutexLock lock(mu_);
  std::string out;
  for (const std::string& line : trace_) {
    out += line;
    out += '\n';
  }
  return out;
}

void ScheduleGate::AwaitHeld(std::string_view name) const {
  MutexLock lock(mu_);
  while (mode_ == Mode::kActive) {
    std::optional<size_t> index = ActorIndex(name);
    if (!index || !actors_[*index].queue.empty()) return;
    cv_.wait(lock);
  }
}

Result<Json> ScheduleGate::Call(std::string_view operation,
                                const Json& request) {
  return inner_.Call(operation, request);
}

Result<Json> ScheduleGate::CallStreams(std::string_view operation,
                                       const Json& request) {
  return inner_.CallStreams(operation, request);
}

DeferredAnswer ScheduleGate::CallDeferred(std::string_view operation,
                                          const Json& request) {
  return inner_.CallDeferred(operation, request);
}

DeferredAnswer ScheduleGate::CallStreamsDeferred(std::string_view operation,
                                                 const Json& request) {
  return inner_.CallStreamsDeferred(operation, request);
}

DeferredAnswer ScheduleGate::CallAs(const Caller& caller,
                                    std::string_view operation,
                                    const Json& request) {
  if (!engaged_.load(std::memory_order_relaxed)) {
    return inner_.CallAs(caller, operation, request);
  }
  return Gate(/*streams=*/false, caller, operation, request);
}

DeferredAnswer ScheduleGate::CallStreamsAs(const Caller& caller,
                                           std::string_view operation,
                                           const Json& request) {
  if (!engaged_.load(std::memory_order_relaxed)) {
    return inner_.CallStreamsAs(caller, operation, request);
  }
  return Gate(/*streams=*/true, caller, operation, request);
}

DeferredAnswer ScheduleGate::Inner(bool streams, const Caller& caller,
                                   std::string_view operation,
                                   const Json& request) {
  return streams ? inner_.CallStreamsAs(caller, operation, request)
                 : inner_.CallAs(caller, operation, request);
}

DeferredAnswer ScheduleGate::Gate(bool streams, const Caller& caller,
                                  std::string_view operation,
                                  const Json& request) {
  MutexLock lock(mu_);
  std::optional<size_t> index;
  if (mode_ != Mode::kOff) index = ActorIndex(caller.access_key);
  if (!index) {
    lock.unlock();
    return Inner(streams, caller, operation, request);
  }
  if (mode_ == Mode::kStopped) {
    return {Error::Internal(problem_), std::nullopt};
  }
  const uint64_t epoch = epoch_;
  if (actors_[*index].done) {
    // After its end: at once, unscheduled, traced as such.
    lock.unlock();
    const TimePoint at = clock_.Now();
    DeferredAnswer answer = Inner(streams, caller, operation, request);
    lock.lock();
    if (epoch_ == epoch) {
      trace_.push_back(CallLine(std::nullopt, actors_[*index], streams,
                                operation, request, answer.result, at));
    }
    return answer;
  }

  Ticket ticket;
  ticket.actor = *index;
  ticket.arrival = arrivals_++;
  ticket.held_at = idle_clock_.Now();
  actors_[*index].queue.push_back(&ticket);
  Changed();
  Dispatch();
  while (ticket.verdict == Verdict::kHeld) cv_.wait(lock);

  switch (ticket.verdict) {
    case Verdict::kHeld:  // not reached: the loop above
    case Verdict::kRefuse:
      return {Error::Internal(ticket.problem), std::nullopt};
    case Verdict::kRelease: {
      while (releases_entered_ != ticket.release_turn) cv_.wait(lock);
      ++releases_entered_;
      cv_.notify_all();
      lock.unlock();
      return Inner(streams, caller, operation, request);
    }
    case Verdict::kGo:
      break;
  }
  // This actor's scheduled step (Dispatch took the ticket off the queue,
  // counted the step and set running_).
  const int step = step_;
  const Duration tick = config_.tick;
  lock.unlock();
  const TimePoint at = clock_.Now();
  DeferredAnswer answer = Inner(streams, caller, operation, request);
  if (manual_ != nullptr && tick > Duration::zero()) manual_->Advance(tick);
  lock.lock();
  if (epoch_ == epoch) {
    Actor& actor = actors_[*index];
    trace_.push_back(
        CallLine(step, actor, streams, operation, request, answer.result, at));
    ++actor.steps;
    actor.stepping = false;
    actor.since = idle_clock_.Now();
    running_ = false;
    Changed();
    Dispatch();
  }
  return answer;
}

std::optional<size_t> ScheduleGate::ActorIndex(std::string_view name) const {
  for (size_t i = 0; i < actors_.size(); ++i) {
    if (actors_[i].name == name) return i;
  }
  return std::nullopt;
}

void ScheduleGate::Dispatch() {
  if (mode_ != Mode::kActive || running_) return;
  std::vector<size_t> ready;
  for (size_t i = 0; i < actors_.size(); ++i) {
    if (actors_[i].done) continue;
    if (actors_[i].queue.empty()) return;  // a live actor has none held
    ready.push_back(i);
  }
  if (ready.empty()) return;
  size_t pick = 0;
  if (config_.replay) {
    const size_t next = static_cast<size_t>(step_);
    if (next >= replay_.size()) {
      StopWith("replay: the recording has " + std::to_string(replay_.size()) +
               " step" + (replay_.size() == 1 ? "" : "s") + "; actor " +
               actors_[ready.front()].name + " sent a " + Ordinal(next + 1) +
               " request");
      return;
    }
    pick = replay_[next];
    if (actors_[pick].done) {
      StopWith("replay: step " + std::to_string(next + 1) + " was actor " +
               actors_[pick].name + "'s, but " + actors_[pick].name +
               " has ended");
      return;
    }
  } else {
    pick = config_.choose(ready, step_ + 1);
    if (std::find(ready.begin(), ready.end(), pick) == ready.end()) {
      pick = ready.front();  // a chooser out of bounds: keep going
    }
  }
  ++step_;
  Actor& actor = actors_[pick];
  Ticket* ticket = actor.queue.front();
  actor.queue.pop_front();
  actor.stepping = true;
  ticket->verdict = Verdict::kGo;
  running_ = true;
  Changed();
}

void ScheduleGate::Changed() {
  ++changes_;
  if (wake_) wake_->request_stop();
  cv_.notify_all();
}

int64_t ScheduleGate::ClockMs(TimePoint t) const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             t.time_since_epoch())
      .count();
}

std::string ScheduleGate::CallLine(std::optional<int> step, const Actor& actor,
                                   bool streams, std::string_view operation,
                                   const Json& request,
                                   const Result<Json>& answer,
                                   TimePoint clock) const {
  std::string line = "{";
  if (step) line += "\"step\":" + std::to_string(*step) + ",";
  line += "\"actor\":" + Dump(actor.name) +
          ",\"call\":" + Dump(std::string(operation));
  if (streams) line += ",\"service\":\"streams\"";
  line += ",\"request\":" + Dump(request);
  if (answer.ok()) {
    line += ",\"response\":" + Dump(*answer);
  } else if (answer.error().type == ErrorType::kOutcomeUnknown) {
    line += ",\"fault\":\"lost_response\"";
  } else {
    line += ",\"error\":" + Dump(std::string(answer.error().Name()) + ": " +
                                 answer.error().message);
  }
  line += ",\"clock\":" + std::to_string(ClockMs(clock));
  if (!step) line += ",\"after_done\":true";
  line += "}";
  return line;
}

void ScheduleGate::Watch(std::stop_token stop) {
  MutexLock lock(mu_);
  while (!stop.stop_requested()) {
    // The actor idle the longest while another waits, and when it times
    // out: its last answer (or the start), or the oldest held request if
    // later.
    std::optional<TimePoint> deadline;
    size_t who = 0;
    if (mode_ == Mode::kActive) {
      std::optional<TimePoint> oldest_held;
      for (const Actor& actor : actors_) {
        if (!actor.queue.empty() &&
            (!oldest_held || actor.queue.front()->held_at < *oldest_held)) {
          oldest_held = actor.queue.front()->held_at;
        }
      }
      if (oldest_held) {
        for (size_t i = 0; i < actors_.size(); ++i) {
          const Actor& actor = actors_[i];
          if (actor.done || actor.stepping || !actor.queue.empty()) continue;
          TimePoint at = std::max(actor.since, *oldest_held) + config_.idle;
          if (!deadline || at < *deadline) {
            deadline = at;
            who = i;
          }
        }
      }
    }
    if (!deadline) {
      const uint64_t seen = changes_;
      cv_.wait(lock, stop, [&]() DDBLAB_NO_THREAD_SAFETY_ANALYSIS {
        return changes_ != seen;
      });
      continue;
    }
    if (idle_clock_.Now() >= *deadline) {
      StopWith("actor " + actors_[who].name + " made no request for " +
               DurationText(config_.idle) +
               " and did not end: does it wait on something outside "
               "DynamoDB?");
      continue;
    }
    auto wake = std::make_shared<std::stop_source>();
    wake_ = wake;
    const TimePoint until = *deadline;
    lock.unlock();
    {
      std::stop_callback on_stop(stop, [wake] { wake->request_stop(); });
      idle_clock_.SleepUntil(until, wake->get_token());
    }
    lock.lock();
    if (wake_ == wake) wake_.reset();
  }
}

}  // namespace ddblab::server
