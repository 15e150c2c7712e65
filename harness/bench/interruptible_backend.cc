// harness/bench/interruptible_backend.cc: see interruptible_backend.h.
#include "harness/bench/interruptible_backend.h"

namespace ddblab::harness::bench {

std::optional<Error> InterruptibleBackend::Refuse(bool cleanup) {
  ++calls_;
  if (!interrupted_ || cleanup) return std::nullopt;
  return Error::Validation(std::string(kInterruptedMessage));
}

Result<json> InterruptibleBackend::Call(std::string_view operation,
                                        const json& request) {
  const bool cleanup =
      operation == "DeleteTable" || operation == "DescribeTable";
  if (auto refused = Refuse(cleanup)) return *std::move(refused);
  return ForwardingBackend::Call(operation, request);
}

Result<json> InterruptibleBackend::CallStreams(std::string_view operation,
                                               const json& request) {
  if (auto refused = Refuse()) return *std::move(refused);
  return ForwardingBackend::CallStreams(operation, request);
}

Status InterruptibleBackend::AdvanceClock(Duration d) {
  if (auto refused = Refuse()) return *std::move(refused);
  return ForwardingBackend::AdvanceClock(d);
}

Status InterruptibleBackend::SetClock(TimePoint t) {
  if (auto refused = Refuse()) return *std::move(refused);
  return ForwardingBackend::SetClock(t);
}

Status InterruptibleBackend::SetFaultPlan(const json& plan) {
  if (auto refused = Refuse()) return *std::move(refused);
  return ForwardingBackend::SetFaultPlan(plan);
}

Result<json> InterruptibleBackend::SplitStreamShards(
    std::string_view table, const std::optional<std::string>& shard_id) {
  if (auto refused = Refuse()) return *std::move(refused);
  return ForwardingBackend::SplitStreamShards(table, shard_id);
}

Result<int64_t> InterruptibleBackend::SweepTtl() {
  if (auto refused = Refuse()) return *std::move(refused);
  return ForwardingBackend::SweepTtl();
}

}  // namespace ddblab::harness::bench
