// The ddblab::Emulator facade (emulator/api/emulator.h) over EmulatorImpl.
#include "emulator/api/emulator.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <utility>

#include "emulator/engine/capacity/capacity_model.h"
#include "emulator/engine/consistency/consistency_json.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/streams_glue/stream_sink.h"
#include "emulator/engine/ttl/ttl_delay.h"
#include "emulator/engine/ttl/ttl_sweeper.h"
#include "emulator/fault/injector.h"

namespace ddblab {

engine::EmulatorImpl& engine::ImplOf(Emulator& emulator) {
  return *emulator.impl_;
}

namespace {

using SharedLock = std::shared_lock<std::shared_mutex>;

constexpr int kMaxStreamShards = 1024;

}  // namespace

Emulator::Emulator(std::unique_ptr<engine::EmulatorImpl> impl)
    : impl_(std::move(impl)), clock_(impl_->shared_clock()) {}

Emulator::~Emulator() = default;

Result<std::unique_ptr<Emulator>> Emulator::Open(Options options) {
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<engine::EmulatorImpl> impl,
                          engine::EmulatorImpl::Open(std::move(options)));
  return std::unique_ptr<Emulator>(new Emulator(std::move(impl)));
}

namespace {

// Waits out a latency fault's delay, outside the reset lock: a Reset (and a
// ManualClock's owner, who moves the clock) must not wait for it.
Result<nlohmann::json> Answer(DeferredAnswer answer, std::stop_token stop) {
  if (answer.due) answer.due->clock->SleepUntil(answer.due->at, stop);
  return std::move(answer.result);
}

}  // namespace

Result<nlohmann::json> Emulator::Call(std::string_view operation,
                                      const nlohmann::json& request) {
  return Answer(CallDeferred(operation, request), stop_waiting_.get_token());
}

Result<nlohmann::json> Emulator::CallStreams(std::string_view operation,
                                             const nlohmann::json& request) {
  return Answer(CallStreamsDeferred(operation, request),
                stop_waiting_.get_token());
}

DeferredAnswer Emulator::CallDeferred(std::string_view operation,
                                      const nlohmann::json& request) {
  DeferredAnswer answer = [&] {
    SharedLock lock(reset_mu_);
    return impl_->CallDeferred(operation, request);
  }();
  return MoveManualClock(std::move(answer));
}

DeferredAnswer Emulator::CallStreamsDeferred(std::string_view operation,
                                             const nlohmann::json& request) {
  DeferredAnswer answer = [&] {
    SharedLock lock(reset_mu_);
    return impl_->CallStreamsDeferred(operation, request);
  }();
  return MoveManualClock(std::move(answer));
}

DeferredAnswer Emulator::MoveManualClock(DeferredAnswer answer) {
  if (answer.due) {
    if (auto* manual = dynamic_cast<ManualClock*>(clock_.get())) {
      manual->Set(answer.due->at);  // forward only: never back
    }
  }
  return answer;
}

void Emulator::StopWaiting() {
  stop_waiting_.request_stop();
  SharedLock lock(reset_mu_);
  impl_->StopWaiting();
}

Options Emulator::options() const {
  SharedLock lock(reset_mu_);
  return impl_->options();
}

Clock& Emulator::clock() { return *clock_; }

Status Emulator::Reset(const ResetOptions& reset) {
  auto* manual = dynamic_cast<ManualClock*>(clock_.get());
  if (reset.clock && manual == nullptr) {
    return Error::Validation(
        "the clock is not a manual clock; it cannot be set");
  }
  if (reset.ttl_delay) {
    Result<engine::TtlDelay> delay = engine::TtlDelay::Parse(*reset.ttl_delay);
    if (!delay.ok()) return std::move(delay).error();
  }
  if (reset.stream_shards &&
      (*reset.stream_shards < 1 || *reset.stream_shards > kMaxStreamShards)) {
    return Error::Validation("stream_shards must be from 1 to " +
                             std::to_string(kMaxStreamShards));
  }
  if (reset.shard_rollover && *reset.shard_rollover < Duration::zero()) {
    return Error::Validation("shard_rollover must not be negative");
  }
  std::unique_lock lock(reset_mu_);  // no call in flight from here on
  Options options = impl_->options();
  options.clock = clock_;
  options.fault_plan = nullptr;
  if (reset.seed) options.seed = *reset.seed;
  if (reset.ttl_delay) options.ttl_delay = *reset.ttl_delay;
  if (reset.stream_shards) options.stream_shards = *reset.stream_shards;
  if (reset.shard_rollover) options.shard_rollover = *reset.shard_rollover;
  // An in-memory database goes with its engine; a file keeps its rows
  // unless they are deleted.
  if (!options.db_path.empty() && options.db_path != ":memory:") {
    DDBLAB_RETURN_IF_ERROR(impl_->DropEverything());
  }
  if (reset.clock) manual->Reset(*reset.clock);
  // The old engine goes first: it stops its TTL thread and closes its
  // database, whose file lock the new one takes.
  Options previous = impl_->options();
  impl_.reset();
  Result<std::unique_ptr<engine::EmulatorImpl>> fresh =
      engine::EmulatorImpl::Open(std::move(options));
  if (!fresh.ok()) {
    Error error = std::move(fresh).error();
    Result<std::unique_ptr<engine::EmulatorImpl>> again =
        engine::EmulatorImpl::Open(std::move(previous));
    if (!again.ok()) {
      // No engine to answer with: a storage failure the process cannot
      // recover from.
      std::fprintf(stderr,
                   "ddblab: the database cannot be reopened after a "
                   "reset: %s\n",
                   error.message.c_str());
      std::abort();
    }
    impl_ = std::move(again).value();
    if (stop_waiting_.stop_requested()) impl_->StopWaiting();
    impl_->faults().SetDrawHook(draw_hook_);
    return error;
  }
  impl_ = std::move(fresh).value();
  if (stop_waiting_.stop_requested()) impl_->StopWaiting();
  impl_->faults().SetDrawHook(draw_hook_);
  return OkStatus();
}

Result<int64_t> Emulator::SweepTtl() {
  SharedLock lock(reset_mu_);
  return impl_->ttl().SweepDue();
}

Result<std::vector<TtlTableStatus>> Emulator::TtlStatus() {
  SharedLock lock(reset_mu_);
  impl_->RunDueWork();  // as if swept when the clock moved
  DDBLAB_ASSIGN_OR_RETURN(std::vector<engine::TtlTableReport> report,
                          impl_->ttl().StatusReport());
  std::vector<TtlTableStatus> out;
  out.reserve(report.size());
  for (engine::TtlTableReport& r : report) {
    out.push_back({std::move(r.table_name), r.waiting, r.next_due});
  }
  return out;
}

Result<StreamShardSplit> Emulator::SplitStreamShards(
    std::string_view table, const std::optional<std::string>& shard_id) {
  SharedLock lock(reset_mu_);
  // The TTL deletions due since the clock moved go to the parent shards.
  impl_->RunDueWork();
  DDBLAB_ASSIGN_OR_RETURN(streams::SplitResult split,
                          engine::SplitStreamShards(*impl_, table, shard_id));
  return StreamShardSplit{std::move(split.closed), std::move(split.created)};
}

Status Emulator::SetFaultPlan(const nlohmann::json& plan) {
  fault::Plan parsed;
  if (!plan.is_null()) {
    DDBLAB_ASSIGN_OR_RETURN(parsed, fault::ParsePlan(plan));
  }
  SharedLock lock(reset_mu_);
  impl_->faults().SetPlan(std::move(parsed));
  return OkStatus();
}

void Emulator::SetFaultDrawHook(FaultDrawHook hook) {
  std::unique_lock lock(reset_mu_);  // not during a Reset
  draw_hook_ = std::move(hook);
  impl_->faults().SetDrawHook(draw_hook_);
}

std::vector<FaultLogEntry> Emulator::FaultLog() const {
  SharedLock lock(reset_mu_);
  std::vector<FaultLogEntry> out;
  for (const fault::LogEntry& e : impl_->faults().Log()) {
    out.push_back(FaultLogEntry{e.seq, e.time, e.operation, e.table, e.keys,
                                e.rule_id,
                                std::string(fault::EffectName(e.effect))});
  }
  return out;
}

nlohmann::json Emulator::FaultStatus() const {
  SharedLock lock(reset_mu_);
  return impl_->faults().StatusJson();
}

nlohmann::json Emulator::ConsistencyStatus() const {
  SharedLock reset_lock(reset_mu_);
  impl_->RunDueWork();  // TTL deletions due count among the pending changes
  auto lock = impl_->Lock();
  return engine::ConsistencyToJson(lock.consistency(), lock.catalog(),
                                   impl_->Now());
}

Status Emulator::SetConsistency(const nlohmann::json& settings) {
  SharedLock reset_lock(reset_mu_);
  impl_->RunDueWork();  // TTL deletions due take the lags they were made with
  auto lock = impl_->Lock();
  return engine::ApplyConsistencyJson(lock.consistency(), settings);
}

int64_t Emulator::SettleConsistency() {
  SharedLock reset_lock(reset_mu_);
  impl_->RunDueWork();  // TTL deletions due are settled too
  auto lock = impl_->Lock();
  return static_cast<int64_t>(lock.consistency().Settle(impl_->Now()));
}

nlohmann::json Emulator::CapacityReport() const {
  SharedLock reset_lock(reset_mu_);
  engine::CapacityModel* model = impl_->capacity();
  if (model != nullptr) {
    // Deleted tables and GSIs are dropped from the report.
    std::set<std::pair<int64_t, int64_t>> live;
    {
      auto lock = impl_->Lock();
      for (const auto& [name, entry] : impl_->catalog().entries()) {
        live.emplace(entry.table->id, 0);
        for (const engine::IndexDef& idx : entry.table->indexes) {
          if (idx.global) live.emplace(entry.table->id, idx.id);
        }
      }
      // Under the engine lock, as admissions are: no table appears between.
      model->Retain(live);
    }
  }
  nlohmann::json out =
      model != nullptr ? model->Report(impl_->Now())
                       : nlohmann::json{{"Tables", nlohmann::json::array()}};
  out["Enforced"] = model != nullptr;
  return out;
}

}  // namespace ddblab
