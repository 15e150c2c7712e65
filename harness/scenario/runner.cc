// harness/scenario/runner.cc: the seeded scheduler and the trace.
#include "harness/scenario/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <stop_token>
#include <utility>

#include "emulator/api/random.h"
#include "harness/backend/backend.h"
#include "harness/patterns/common.h"
#include "harness/scenario/actors.h"
#include "harness/scenario/command_actors.h"
#include "harness/scenario/command_run.h"
#include "harness/scenario/consumer_actors.h"
#include "harness/scenario/consumer_faults.h"
#include "harness/scenario/fields.h"
#include "harness/scenario/invariants.h"
#include "harness/scenario/traced_backend.h"
#include "harness/scenario/unmatched_rules.h"

namespace ddblab::harness::scenario {
namespace {

using ojson = nlohmann::ordered_json;

// "2024-01-01T00:00:01.500Z".
std::string IsoMillis(TimePoint t) {
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         t.time_since_epoch())
                         .count();
  int64_t seconds = ms / 1000;
  int64_t rest = ms % 1000;
  if (rest < 0) {
    rest += 1000;
    --seconds;
  }
  std::string text = patterns::IsoSeconds(seconds);
  char frac[8];
  std::snprintf(frac, sizeof(frac), ".%03d", static_cast<int>(rest));
  text.insert(text.size() - 1, frac);
  return text;
}

std::string Line(const ojson& event) { return event.dump(); }

class Run {
 public:
  Run(const Scenario& scenario, const RunOptions& options)
      : s_(scenario), options_(options) {}

  RunResult Go();

 private:
  RunResult Fail(int code, std::string message) {
    result_.code = code;
    result_.failure = std::move(message);
    return std::move(result_);
  }
  Status OpenBackend();
  // A network backend starts from a clean slate: Reset where the backend
  // can (ddblab serve), else the scenario's tables deleted, no fault plan
  // and the clock set. A failing control call is a ControlFailure.
  Status CleanSlate();
  // Sets backend.consistency once the tables and the actors' setup are in
  // place, both lags off where it says nothing (a ddblab server keeps its
  // flags' lags through a reset; an in-process emulator opens with them
  // off), then settles what the setup left pending: every run starts from a
  // settled state. Settings the backend refuses are a ValidationException
  // naming the member under backend.consistency.
  Status SetConsistency();
  Status FireEvent(const TimelineEvent& event);
  Status JumpTo(TimePoint target);
  // Deletes `table` if it exists and waits until it is gone.
  Status DeleteTable(const std::string& table);
  // Checks `inv`; a broken one is traced and may become the violation.
  Status Check(const InvariantSpec& inv, int step, bool trace_holds);
  TimePoint Now() { return traced_->clock().Now(); }
  // With stream consumers, the TTL deletions due at a clock move are made
  // by an explicit sweep, which counts them (swept_items_); on a manual
  // clock they run at the move either way.
  Status SweepAfterAdvance() {
    if (!sweep_on_advance_) return OkStatus();
    auto swept = traced_->SweepTtl();
    if (!swept.ok()) return ControlFailure("TTL sweep", swept.error());
    swept_items_ += *swept;
    return OkStatus();
  }
  Status Advance(Duration d) {
    if (Status moved = traced_->AdvanceClock(d); !moved.ok()) {
      return ControlFailure("clock advance by " + DurationText(d),
                            moved.error());
    }
    return SweepAfterAdvance();
  }
  // A control call (reset, clock, fault plan, shard split, TTL sweep) that
  // the backend refused or could not answer: the run stops with exit 3
  // (RunResult::code) and this message, never goes on with a wrong state.
  Status ControlFailure(const std::string& call, const Error& error) {
    control_failed_ = true;
    return Error::Internal(call + " failed: " + TraceErrorText(error));
  }
  // The code for a failed step of the run: 3 after a ControlFailure, else
  // `otherwise`.
  int CodeOr(int otherwise) const { return control_failed_ ? 3 : otherwise; }
  void Emit(const ojson& event) {
    if (options_.trace) result_.trace.push_back(Line(event));
  }
  // Lets `scheduler` (when it wants them) or options_.draws decide the
  // fault plan's draws, each traced as a fault_draw line of the step.
  void DecideDraws(Scheduler& scheduler);
  // Writes the draws decided since the last flush as lines of `step`.
  void FlushDraws(int step) {
    for (ojson& draw : pending_draws_) {
      Emit(ojson{{"step", step}, {"fault_draw", std::move(draw)}});
    }
    pending_draws_.clear();
  }
  std::string In(std::string_view what) const {
    return s_.file + ": " + std::string(what);
  }

  const Scenario& s_;
  const RunOptions& options_;
  RunResult result_;
  std::vector<CallSeen> calls_seen_;  // every call of every step
  std::unique_ptr<Backend> backend_;
  std::shared_ptr<ManualClock> mirror_;
  std::unique_ptr<TracedBackend> traced_;
  World world_;
  bool sweep_on_advance_ = false;
  // Items the sweeps after clock moves have deleted (SweepAfterAdvance).
  int64_t swept_items_ = 0;
  bool control_failed_ = false;
  std::vector<ojson> pending_draws_;  // DecideDraws, until FlushDraws
  size_t next_draw_ = 0;              // into options_.draws
};

void Run::DecideDraws(Scheduler& scheduler) {
  const bool scheduled = scheduler.WantsFaultDraws();
  if ((!scheduled && !options_.draws) ||
      !backend_->Has(Capability::kFaultDraws)) {
    return;
  }
  (void)backend_->SetFaultDrawHook(
      [this, &scheduler, scheduled](const FaultDraw& draw) {
        bool fires = draw.seeded;
        if (scheduled) {
          fires = scheduler.Draw(draw);
        } else if (next_draw_ < options_.draws->size()) {
          fires = (*options_.draws)[next_draw_++];
        }
        if (options_.trace) {
          pending_draws_.push_back(ojson{{"rule", draw.rule_id},
                                         {"match", draw.match},
                                         {"fires", fires},
                                         {"seeded", draw.seeded}});
        }
        return fires;
      });
}

Status Run::OpenBackend() {
  if (options_.backend == "emulator") {
    std::string spec =
        "emulator?clock=manual=" + std::to_string(s_.clock_start) +
        "&seed=" + std::to_string(options_.seed);
    if (!s_.ttl_delay.empty()) spec += "&ttl_delay=" + s_.ttl_delay;
    if (s_.stream_shards > 0) {
      spec += "&stream_shards=" + std::to_string(s_.stream_shards);
    }
    auto opened = harness::OpenBackend(spec);
    if (!opened.ok()) {
      return At("backend", opened.error().message);
    }
    backend_ = std::move(*opened);
  } else {
    BackendOptions backend_options;
    mirror_ = std::make_shared<ManualClock>(FromEpochSeconds(s_.clock_start));
    backend_options.clock = mirror_;
    backend_options.retry = RetryPolicy::Off();
    auto opened = harness::OpenBackend(options_.backend, backend_options);
    if (!opened.ok()) return opened.error();
    backend_ = std::move(*opened);
    if (!backend_->Has(Capability::kClock)) {
      // No clock control (AWS, DynamoDB Local, a server on the system
      // clock): the patterns read real time, not a frozen mirror.
      mirror_ = nullptr;
      backend_options.clock = nullptr;
      // Close the first backend before reopening: an emulator on a file
      // holds the file's lock while it is open.
      backend_.reset();
      auto reopened = harness::OpenBackend(options_.backend, backend_options);
      if (!reopened.ok()) return reopened.error();
      backend_ = std::move(*reopened);
    }
  }
  traced_ = std::make_unique<TracedBackend>(*backend_, mirror_);
  traced_->set_summaries(options_.trace);
  return OkStatus();
}

Status Run::DeleteTable(const std::string& table) {
  auto deleted = backend_->Call("DeleteTable", {{"TableName", table}});
  if (!deleted.ok()) {
    if (deleted.error().type == ErrorType::kResourceNotFound) return OkStatus();
    return deleted.error();
  }
  // DynamoDB deletes in the background: wait (on the backend's clock, at
  // most 5 minutes) until the table is gone. ddblab deletes at once.
  for (int attempt = 0; attempt < 150; ++attempt) {
    if (attempt > 0 && mirror_) break;  // a manual clock would never wake us
    auto described = backend_->Call("DescribeTable", {{"TableName", table}});
    if (!described.ok()) {
      if (described.error().type == ErrorType::kResourceNotFound) {
        return OkStatus();
      }
      return described.error();
    }
    backend_->clock().SleepUntil(
        backend_->clock().Now() + std::chrono::seconds(2), std::stop_token());
  }
  return Error::Internal("table " + table +
                         " is still there after DeleteTable");
}

Status Run::JumpTo(TimePoint target) {
  const Duration d = target - Now();
  if (d <= Duration::zero()) return OkStatus();
  DDBLAB_RETURN_IF_ERROR(Advance(d));
  Emit(ojson{{"event", "clock"},
             {"t", IsoMillis(Now())},
             {"advance", DurationText(d)}});
  return OkStatus();
}

Status Run::CleanSlate() {
  if (backend_->Has(Capability::kReset)) {
    // The settings an in-process run opens its emulator with (OpenBackend),
    // every one given so that nothing of the server's flags or of the last
    // run is left: the same seed then draws the same faults.
    ResetSpec spec;
    if (backend_->Has(Capability::kClock)) {
      spec.clock = FromEpochSeconds(s_.clock_start);
    }
    spec.seed = options_.seed;
    spec.ttl_delay = s_.ttl_delay.empty() ? "0" : s_.ttl_delay;
    spec.stream_shards = s_.stream_shards > 0 ? s_.stream_shards : 1;
    spec.shard_rollover = std::chrono::hours(4);  // Options' default
    if (Status reset = backend_->Reset(spec); !reset.ok()) {
      return ControlFailure("reset before the run", reset.error());
    }
    return OkStatus();
  }
  std::vector<std::string> tables;
  for (const json& t : s_.tables) tables.push_back(t["TableName"]);
  for (const ActorSpec& a : s_.actors) {
    if (a.pattern == kRollupAggregator || a.pattern == kTtlExpiryListener) {
      for (const std::string& t : ConsumerActorTables(a)) {
        tables.push_back(t);
      }
    } else if (a.pattern != kScript) {
      tables.push_back(ActorTable(a));
    }
  }
  std::sort(tables.begin(), tables.end());
  tables.erase(std::unique(tables.begin(), tables.end()), tables.end());
  for (const std::string& t : tables) {
    if (Status gone = DeleteTable(t); !gone.ok()) {
      return Error::Internal("deleting table " + t +
                             " before the run: " + ErrorText(gone.error()));
    }
  }
  if (backend_->Has(Capability::kFaultPlan)) {
    if (Status cleared = backend_->SetFaultPlan(nullptr); !cleared.ok()) {
      return ControlFailure("clearing the fault plan before the run",
                            cleared.error());
    }
  }
  if (backend_->Has(Capability::kClock)) {
    if (Status set = traced_->SetClock(FromEpochSeconds(s_.clock_start));
        !set.ok()) {
      return ControlFailure("setting the clock to the start time " +
                                patterns::IsoSeconds(s_.clock_start),
                            set.error());
    }
  }
  return OkStatus();
}

Status Run::SetConsistency() {
  const bool ddblab_server =
      options_.backend != "emulator" && backend_->Has(Capability::kConsistency);
  if (s_.consistency.is_null() && !ddblab_server) return OkStatus();
  json settings = {{"index_lag", "0"}, {"read_lag", "0"}};
  if (s_.consistency.is_object()) settings.update(s_.consistency);
  if (Status set = backend_->SetConsistency(settings); !set.ok()) {
    if (set.error().type == ErrorType::kValidation) {
      return Error::Validation("backend.consistency." + set.error().message);
    }
    return ControlFailure("consistency settings", set.error());
  }
  if (auto settled = backend_->SettleConsistency(); !settled.ok()) {
    return ControlFailure("consistency settle", settled.error());
  }
  return OkStatus();
}

Status Run::FireEvent(const TimelineEvent& event) {
  ojson line = {{"event", event.kind}};
  if (event.kind == "advance") {
    if (Status moved = Advance(event.by); !moved.ok()) {
      return At(Member(event.path, "advance"), moved.error().message);
    }
    line["by"] = DurationText(event.by);
  } else if (event.kind == "faults") {
    Status set = traced_->SetFaultPlan(event.value);
    if (!set.ok()) {
      // A plan the fault layer refuses is bad input (exit 2, as at load);
      // any other failure is the control call's.
      if (set.error().type == ErrorType::kValidation) {
        return At(Member(event.path, "faults"), set.error().message);
      }
      return At(Member(event.path, "faults"),
                ControlFailure("fault plan", set.error()).error().message);
    }
    line["plan"] = event.value;
  } else if (event.kind == "split_shards") {
    auto split = traced_->SplitStreamShards(event.value.get<std::string>(), {});
    if (!split.ok()) {
      return At(Member(event.path, "split_shards"),
                ControlFailure("shard split", split.error()).error().message);
    }
    line["result"] = *split;
  } else if (event.kind == "sweep_ttl") {
    auto swept = traced_->SweepTtl();
    if (!swept.ok()) {
      return At(Member(event.path, "sweep_ttl"),
                ControlFailure("TTL sweep", swept.error()).error().message);
    }
    line["deleted"] = *swept;
  }
  line["t"] = IsoMillis(Now());
  Emit(line);
  return OkStatus();
}

Status Run::Check(const InvariantSpec& inv, int step, bool trace_holds) {
  auto problems = Evaluate(inv, s_, *backend_, world_);
  if (!problems.ok()) {
    return Error::Internal(
        inv.id + " could not be checked: " + ErrorText(problems.error()));
  }
  const bool holds = problems->empty();
  if (holds && !trace_holds) return OkStatus();
  ojson line = {{"event", "invariant"}, {"id", inv.id}, {"check", inv.check}};
  if (step > 0) line["step"] = step;
  line["holds"] = holds;
  if (!holds) line["problems"] = *problems;
  Emit(line);
  if (!holds && !result_.violation) {
    result_.violation = Violation{inv.id, inv.check, *problems, step};
  }
  return OkStatus();
}

RunResult Run::Go() {
  if (Status opened = OpenBackend(); !opened.ok()) {
    return Fail(2, In(opened.error().message));
  }
  std::string missing =
      MissingCapability(s_, backend_->name(), backend_->Has(Capability::kClock),
                        backend_->Has(Capability::kFaultPlan),
                        backend_->Has(Capability::kStreamShards),
                        backend_->Has(Capability::kTtlSweep),
                        backend_->Has(Capability::kConsistency));
  if (!missing.empty()) return Fail(3, missing);
  traced_->set_recording(false);
  if (options_.backend != "emulator") {
    if (Status clean = CleanSlate(); !clean.ok()) {
      return Fail(CodeOr(1), In(clean.error().message));
    }
  }
  for (size_t i = 0; i < s_.tables.size(); ++i) {
    Status made = patterns::EnsureTable(*backend_, s_.tables[i]);
    if (!made.ok()) {
      return Fail(2, In(Index("tables", i) + ": " + ErrorText(made.error())));
    }
  }
  for (const ActorSpec& a : s_.actors) {
    if (a.pattern == kRollupAggregator || a.pattern == kTtlExpiryListener) {
      sweep_on_advance_ = backend_->Has(Capability::kTtlSweep);
    }
  }
  world_.seed = options_.seed;
  world_.consumer_faults = s_.consumer_faults;
  std::vector<std::unique_ptr<Actor>> actors;
  std::map<std::string, size_t> by_name;
  for (const ActorSpec& spec : s_.actors) {
    auto actor = MakeActor(spec, *traced_, *backend_, world_);
    if (!actor.ok()) return Fail(2, In(actor.error().message));
    Status setup = (*actor)->Setup();
    if (!setup.ok()) {
      return Fail(
          1, In(spec.path + ": setup failed: " + ErrorText(setup.error())));
    }
    by_name[spec.name] = actors.size();
    actors.push_back(std::move(*actor));
  }
  if (Status set = SetConsistency(); !set.ok()) {
    return Fail(set.error().type == ErrorType::kValidation ? 2 : 3,
                In(set.error().message));
  }
  if (!s_.faults.is_null()) {
    Status set = traced_->SetFaultPlan(s_.faults);
    if (!set.ok() && set.error().type == ErrorType::kValidation) {
      return Fail(2, In("faults." + set.error().message));
    }
    if (!set.ok()) {
      return Fail(
          3, In(ControlFailure("fault plan", set.error()).error().message));
    }
  }
  traced_->TakeCalls();
  traced_->set_recording(true);

  const TimePoint t0 = Now();
  world_.start = t0;
  ojson start = {{"event", "start"},
                 {"scenario", s_.name},
                 {"seed", options_.seed},
                 {"strategy", options_.strategy.Text()}};
  if (!options_.exhaustive.is_null()) start["exhaustive"] = options_.exhaustive;
  start["backend"] = backend_->name();
  start["t"] = IsoMillis(t0);
  if (!s_.faults.is_null()) start["faults"] = s_.faults;
  if (!s_.consistency.is_null()) start["consistency"] = s_.consistency;
  if (!s_.consumer_faults.empty()) {
    ojson consumer = ojson::array();
    for (const ConsumerFault& f : s_.consumer_faults) {
      consumer.push_back(ConsumerFaultToJson(f));
    }
    start["consumer_faults"] = consumer;
  }
  Emit(start);

  std::unique_ptr<Scheduler> own_scheduler;
  Scheduler* scheduler = options_.scheduler;
  if (!scheduler) {
    own_scheduler = MakeScheduler(options_.strategy, options_.seed,
                                  actors.size(), options_.expected_steps);
    scheduler = own_scheduler.get();
  }
  DecideDraws(*scheduler);
  std::vector<TimePoint> ready_at;
  for (const ActorSpec& spec : s_.actors) ready_at.push_back(t0 + spec.start);
  const bool footprints = scheduler->WantsFootprints();
  traced_->set_footprints(footprints);
  for (const json& table : s_.tables) traced_->NoteTable(table);
  size_t fault_rules = 0;
  if (s_.faults.is_object() && s_.faults.contains("rules") &&
      s_.faults["rules"].is_array()) {
    fault_rules = s_.faults["rules"].size();
  }
  // A plan set by the timeline, and consumer faults, are not judged per
  // call: every step counts as faulted.
  bool every_step_faulted = !s_.consumer_faults.empty();
  for (const TimelineEvent& e : s_.timeline) {
    if (e.kind == "faults") every_step_faulted = true;
  }
  const std::vector<std::string>* forced =
      options_.schedule ? options_.schedule
                        : (s_.schedule ? &*s_.schedule : nullptr);
  size_t next_event = 0;
  size_t forced_pos = 0;
  int step = 0;
  std::vector<int> drain_rounds(actors.size(), 0);
  // swept_items_ when each consumer's last drain round was added.
  std::vector<int64_t> swept_at_drain(actors.size(), 0);
  while (true) {
    while (next_event < s_.timeline.size() &&
           t0 + s_.timeline[next_event].at <= Now()) {
      Status fired = FireEvent(s_.timeline[next_event++]);
      if (!fired.ok()) return Fail(CodeOr(2), In(fired.error().message));
    }
    // Every actor done and the timeline empty: a consumer polls on (its
    // cadence kept), as a mapping never stops, until a round that started
    // after everyone else was done invokes nothing: the checks then see it
    // caught up.
    if (next_event == s_.timeline.size() &&
        std::all_of(actors.begin(), actors.end(),
                    [](const auto& a) { return a->done(); })) {
      for (size_t i = 0; i < actors.size(); ++i) {
        Actor& a = *actors[i];
        // Caught up: a drain round invoked nothing, and no TTL deletion
        // (a new stream record) came after it began.
        if (!a.Polls() || (drain_rounds[i] > 0 && a.LastRoundIdle() &&
                           swept_at_drain[i] == swept_items_)) {
          continue;
        }
        if (drain_rounds[i] == kMaxDrainRounds) {
          return Fail(1, In("actor " + a.spec().name +
                            ": its event source mapping had not caught up "
                            "after " +
                            std::to_string(kMaxDrainRounds) +
                            " polling rounds past its last op (each round "
                            "still invoked the function or failed)"));
        }
        ++drain_rounds[i];
        swept_at_drain[i] = swept_items_;
        a.AddOp(json{{"poll", json::object()}});
        if (a.spec().every > Duration::zero()) {
          ready_at[i] = t0 + a.spec().start +
                        a.spec().every * static_cast<int64_t>(a.next_op());
        }
        Emit(ojson{{"event", "drain"},
                   {"actor", a.spec().name},
                   {"round", drain_rounds[i]}});
      }
    }
    std::optional<TimePoint> event_due;
    if (next_event < s_.timeline.size()) {
      event_due = t0 + s_.timeline[next_event].at;
    }
    size_t pick = 0;
    if (forced) {
      if (forced_pos >= forced->size()) break;
      auto it = by_name.find((*forced)[forced_pos]);
      if (it == by_name.end() || actors[it->second]->done()) {
        ++forced_pos;  // nothing left for that actor: the entry is void
        continue;
      }
      pick = it->second;
      if (ready_at[pick] > Now()) {
        Status jumped = JumpTo(event_due ? std::min(*event_due, ready_at[pick])
                                         : ready_at[pick]);
        if (!jumped.ok()) return Fail(3, In(jumped.error().message));
        continue;
      }
      ++forced_pos;
    } else {
      std::vector<size_t> ready;
      std::optional<TimePoint> soonest = event_due;
      for (size_t i = 0; i < actors.size(); ++i) {
        if (actors[i]->done()) continue;
        if (ready_at[i] <= Now()) {
          ready.push_back(i);
        } else if (!soonest || ready_at[i] < *soonest) {
          soonest = ready_at[i];
        }
      }
      if (ready.empty()) {
        if (!soonest) break;
        if (Status jumped = JumpTo(*soonest); !jumped.ok()) {
          return Fail(3, In(jumped.error().message));
        }
        continue;
      }
      pick = scheduler->Pick(ready, step + 1);
      if (pick == kStopRun) {
        result_.stopped = true;
        return std::move(result_);
      }
    }
    if (++step > s_.max_steps) {
      return Fail(1, In("more than backend.max_steps (" +
                        std::to_string(s_.max_steps) + ") steps"));
    }
    Actor& actor = *actors[pick];
    const TimePoint at = Now();
    const size_t op = actor.next_op();
    StepOutcome outcome = actor.Step();
    result_.steps.push_back({pick, op});
    result_.schedule.push_back(actor.spec().name);
    if (options_.trace) {
      Emit(ojson{{"step", step},
                 {"t", IsoMillis(at)},
                 {"actor", actor.spec().name},
                 {"op", outcome.op},
                 {"result", outcome.result}});
      for (ojson& event : outcome.events) {
        ojson line = {{"step", step}};
        for (auto& [key, value] : event.items()) line[key] = std::move(value);
        Emit(line);
      }
      FlushDraws(step);
    }
    std::vector<CallRecord> calls = traced_->TakeCalls();
    if (footprints) {
      // A step without calls, or one that moved the clock (a tick, a
      // latency fault), is dependent on every other.
      Footprint step_footprint;
      step_footprint.everything = calls.empty() || s_.tick > Duration::zero();
      step_footprint.fault = every_step_faulted;
      for (const CallRecord& call : calls) {
        step_footprint.Add(call.footprint);
        if (call.waited > Duration::zero()) step_footprint.everything = true;
        if (fault_rules > 0 &&
            UnmatchedRules(s_.faults, {{call.operation, call.tables}}).size() <
                fault_rules) {
          step_footprint.fault = true;
        }
      }
      scheduler->Stepped(step_footprint);
    }
    for (CallRecord& call : calls) {
      calls_seen_.push_back({call.operation, call.tables});
      CallSummary summary;
      summary.step = result_.steps.size() - 1;
      summary.operation = call.operation;
      summary.unprocessed = call.unprocessed;
      if (call.error) {
        summary.error = call.error->type;
        summary.message = call.error->message;
      }
      result_.calls.push_back(std::move(summary));
      if (!options_.trace) continue;
      ojson line = {{"step", step}, {"call", call.operation}};
      if (call.waited > Duration::zero()) {
        line["waited"] = DurationText(call.waited);
      }
      if (call.error) {
        line["error"] = TraceErrorText(*call.error);
      } else {
        line["response"] = std::move(call.response);
      }
      Emit(line);
    }
    if (!actor.malformed().empty()) {
      return Fail(
          2, In("step " + std::to_string(step) + ": " + actor.malformed()));
    }
    if (actor.next_op() != op && actor.spec().every > Duration::zero()) {
      ready_at[pick] =
          t0 + actor.spec().start +
          actor.spec().every * static_cast<int64_t>(actor.next_op());
    }
    for (const InvariantSpec& inv : s_.invariants) {
      if (!inv.every_step) continue;
      // A check through the actors' backend (a listener's) is no step.
      traced_->set_recording(false);
      Status checked = Check(inv, step, false);
      traced_->set_recording(true);
      if (!checked.ok()) return Fail(1, In(checked.error().message));
    }
    FlushDraws(step);
    if (s_.tick > Duration::zero()) {
      if (Status moved = Advance(s_.tick); !moved.ok()) {
        return Fail(3, In("backend.tick: " + moved.error().message));
      }
    }
  }
  traced_->set_recording(false);
  result_.consumer_firings = world_.consumer_firings;
  result_.unmatched_rules = UnmatchedRules(s_.faults, calls_seen_);
  for (const InvariantSpec& inv : s_.invariants) {
    Status checked = Check(inv, 0, true);
    if (!checked.ok()) return Fail(1, In(checked.error().message));
  }
  FlushDraws(step);
  Emit(ojson{{"event", "end"},
             {"steps", step},
             {"verdict", result_.violation ? "violated" : "holds"}});
  return std::move(result_);
}

}  // namespace

std::string MissingCapability(const Scenario& s,
                              const std::string& backend_name, bool has_clock,
                              bool has_faults, bool has_shards,
                              bool has_ttl_sweep, bool has_consistency) {
  const auto needs = [&](const std::string& path, const char* what) {
    return s.file + ": " + path + " needs " + what + " control; backend " +
           backend_name + " has none";
  };
  if (!has_clock && s.tick > Duration::zero()) {
    return needs("backend.tick", "clock");
  }
  for (const ActorSpec& a : s.actors) {
    if (has_clock) break;
    if (a.start > Duration::zero())
      return needs(Member(a.path, "start"), "clock");
    if (a.every > Duration::zero())
      return needs(Member(a.path, "every"), "clock");
  }
  if (!has_faults && !s.faults.is_null()) return needs("faults", "fault plan");
  if (!has_consistency && !s.consistency.is_null()) {
    return needs("backend.consistency", "consistency");
  }
  for (const TimelineEvent& e : s.timeline) {
    if (e.kind == "advance" && !has_clock) {
      return needs(Member(e.path, "advance"), "clock");
    }
    if (e.kind == "faults" && !has_faults) {
      return needs(Member(e.path, "faults"), "fault plan");
    }
    if (e.kind == "split_shards" && !has_shards) {
      return needs(Member(e.path, "split_shards"), "stream shard");
    }
    if (e.kind == "sweep_ttl" && !has_ttl_sweep) {
      return needs(Member(e.path, "sweep_ttl"), "TTL sweep");
    }
    if (e.at > Duration::zero() && !has_clock) {
      return needs(Member(e.path, "at"), "clock");
    }
  }
  return "";
}

RunResult ProbeRun(const Scenario& scenario, const RunOptions& options) {
  RunOptions probe = options;
  probe.strategy = StrategySpec();
  probe.seed = 0;
  probe.trace = false;
  probe.schedule = nullptr;
  return Run(scenario, probe).Go();
}

RunResult RunOnce(const Scenario& scenario, const RunOptions& options) {
  // The server's schedule picks the steps of command actors (pct measures
  // there too).
  if (HasCommandActors(scenario)) return RunCommandActors(scenario, options);
  if (options.strategy.kind == StrategySpec::Kind::kPct &&
      options.expected_steps == 0) {
    RunResult probe = ProbeRun(scenario, options);
    if (probe.code != 0) return probe;
    RunOptions measured = options;
    measured.expected_steps =
        std::max<int>(1, static_cast<int>(probe.steps.size()));
    return Run(scenario, measured).Go();
  }
  return Run(scenario, options).Go();
}

}  // namespace ddblab::harness::scenario
