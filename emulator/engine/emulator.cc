// The ddblab::Emulator facade (emulator/api/emulator.h) over EmulatorImpl.
#include "emulator/api/emulator.h"

#include <set>
#include <utility>

#include "emulator/engine/capacity/capacity_model.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/streams_glue/stream_sink.h"
#include "emulator/engine/ttl/ttl_sweeper.h"
#include "emulator/fault/injector.h"

namespace ddblab {

engine::EmulatorImpl& engine::ImplOf(Emulator& emulator) {
  return *emulator.impl_;
}

Emulator::Emulator(std::unique_ptr<engine::EmulatorImpl> impl)
    : impl_(std::move(impl)) {}

Emulator::~Emulator() = default;

Result<std::unique_ptr<Emulator>> Emulator::Open(Options options) {
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<engine::EmulatorImpl> impl,
                          engine::EmulatorImpl::Open(std::move(options)));
  return std::unique_ptr<Emulator>(new Emulator(std::move(impl)));
}

Result<nlohmann::json> Emulator::Call(std::string_view operation,
                                      const nlohmann::json& request) {
  return impl_->Call(operation, request);
}

Result<nlohmann::json> Emulator::CallStreams(std::string_view operation,
                                             const nlohmann::json& request) {
  return impl_->CallStreams(operation, request);
}

DeferredAnswer Emulator::CallDeferred(std::string_view operation,
                                      const nlohmann::json& request) {
  return impl_->CallDeferred(operation, request);
}

DeferredAnswer Emulator::CallStreamsDeferred(std::string_view operation,
                                             const nlohmann::json& request) {
  return impl_->CallStreamsDeferred(operation, request);
}

void Emulator::StopWaiting() { impl_->StopWaiting(); }

const Options& Emulator::options() const { return impl_->options(); }

Clock& Emulator::clock() { return impl_->clock(); }

Result<int64_t> Emulator::SweepTtl() { return impl_->ttl().SweepDue(); }

Result<std::vector<TtlTableStatus>> Emulator::TtlStatus() {
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
  DDBLAB_ASSIGN_OR_RETURN(streams::SplitResult split,
                          engine::SplitStreamShards(*impl_, table, shard_id));
  return StreamShardSplit{std::move(split.closed), std::move(split.created)};
}

Status Emulator::SetFaultPlan(const nlohmann::json& plan) {
  fault::Plan parsed;
  if (!plan.is_null()) {
    DDBLAB_ASSIGN_OR_RETURN(parsed, fault::ParsePlan(plan));
  }
  impl_->faults().SetPlan(std::move(parsed));
  return OkStatus();
}

std::vector<FaultLogEntry> Emulator::FaultLog() const {
  std::vector<FaultLogEntry> out;
  for (const fault::LogEntry& e : impl_->faults().Log()) {
    out.push_back(FaultLogEntry{e.seq, e.time, e.operation, e.table, e.keys,
                                e.rule_id,
                                std::string(fault::EffectName(e.effect))});
  }
  return out;
}

nlohmann::json Emulator::FaultStatus() const {
  return impl_->faults().StatusJson();
}

nlohmann::json Emulator::CapacityReport() const {
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
