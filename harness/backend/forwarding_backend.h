// harness/backend/forwarding_backend.h: a Backend that hands every call to
// another one, for decorators to derive from and override only what they
// change (as storage/forwarding_store.h does for the item store).
//
//   class Counting : public ForwardingBackend {
//     using ForwardingBackend::ForwardingBackend;
//     Result<json> Call(std::string_view op, const json& r) override {
//       ++calls_;
//       return ForwardingBackend::Call(op, r);
//     }
//   };
//
// Ownership: borrows the inner backend (must outlive it).
// Thread-safety: as the inner backend.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "harness/backend/backend.h"

namespace ddblab::harness {

class ForwardingBackend : public Backend {
 public:
  explicit ForwardingBackend(Backend& inner) : inner_(inner) {}

  const std::string& name() const override { return inner_.name(); }
  Result<json> Call(std::string_view operation, const json& request) override {
    return inner_.Call(operation, request);
  }
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override {
    return inner_.CallStreams(operation, request);
  }
  Clock& clock() override { return inner_.clock(); }
  bool Has(Capability capability) const override {
    return inner_.Has(capability);
  }
  Status AdvanceClock(Duration d) override { return inner_.AdvanceClock(d); }
  Status SetClock(TimePoint t) override { return inner_.SetClock(t); }
  Status SetFaultPlan(const json& plan) override {
    return inner_.SetFaultPlan(plan);
  }
  Status SetFaultDrawHook(FaultDrawHook hook) override {
    return inner_.SetFaultDrawHook(std::move(hook));
  }
  Result<json> SplitStreamShards(
      std::string_view table,
      const std::optional<std::string>& shard_id = {}) override {
    return inner_.SplitStreamShards(table, shard_id);
  }
  Result<int64_t> SweepTtl() override { return inner_.SweepTtl(); }
  Status Reset(const ResetSpec& spec) override { return inner_.Reset(spec); }
  Status SetConsistency(const json& settings) override {
    return inner_.SetConsistency(settings);
  }
  Result<int64_t> SettleConsistency() override {
    return inner_.SettleConsistency();
  }

 protected:
  Backend& inner() { return inner_; }

 private:
  Backend& inner_;
};

}  // namespace ddblab::harness
