// harness/bench/stepped_backend.cc: a backend and a local ManualClock moved
// together.
#include "harness/bench/stepped_backend.h"

#include <chrono>

namespace ddblab::harness::bench {
namespace {

class SteppedBackend final : public Backend {
 public:
  SteppedBackend(std::unique_ptr<Backend> inner,
                 std::shared_ptr<ManualClock> clock)
      : inner_(std::move(inner)), clock_(std::move(clock)) {}

  const std::string& name() const override { return inner_->name(); }
  Result<json> Call(std::string_view operation, const json& request) override {
    return inner_->Call(operation, request);
  }
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override {
    return inner_->CallStreams(operation, request);
  }
  Clock& clock() override { return *clock_; }
  bool Has(Capability capability) const override {
    return inner_->Has(capability);
  }
  Status AdvanceClock(Duration d) override {
    DDBLAB_RETURN_IF_ERROR(inner_->AdvanceClock(d));
    clock_->Advance(d);
    return OkStatus();
  }
  Status SetClock(TimePoint t) override {
    DDBLAB_RETURN_IF_ERROR(inner_->SetClock(t));
    clock_->Set(t);
    return OkStatus();
  }
  Status SetFaultPlan(const json& plan) override {
    return inner_->SetFaultPlan(plan);
  }
  Result<json> SplitStreamShards(
      std::string_view table,
      const std::optional<std::string>& shard_id) override {
    return inner_->SplitStreamShards(table, shard_id);
  }
  Result<int64_t> SweepTtl() override { return inner_->SweepTtl(); }

 private:
  std::unique_ptr<Backend> inner_;
  std::shared_ptr<ManualClock> clock_;
};

}  // namespace

Result<std::unique_ptr<Backend>> OpenStepped(const std::string& spec) {
  const TimePoint start = FromEpochSeconds(
      ToEpochSeconds(TimePoint(std::chrono::duration_cast<Duration>(
          std::chrono::system_clock::now().time_since_epoch()))));
  auto clock = std::make_shared<ManualClock>(start);
  BackendOptions options;
  options.clock = clock;
  DDBLAB_ASSIGN_OR_RETURN(std::unique_ptr<Backend> inner,
                          OpenBackend(spec, options));
  if (!inner->Has(Capability::kClock)) {
    return Error::Validation(
        "--clock virtual needs a backend whose clock the benchmark moves: " +
        spec +
        " is not `ddblab serve --clock manual` (use --clock real, or start "
        "the server with --clock manual)");
  }
  Status set = inner->SetClock(start);
  if (!set.ok()) {
    return Error::Validation(
        "could not set the clock of " + spec + " to the wall clock (" +
        set.error().message +
        "); restart it with --clock manual (its clock must not be ahead of "
        "the wall clock)");
  }
  return std::unique_ptr<Backend>(
      new SteppedBackend(std::move(inner), std::move(clock)));
}

}  // namespace ddblab::harness::bench
