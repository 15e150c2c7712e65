// harness/bench/stepped_backend.cc: a backend and a local ManualClock moved
// together.
#include "harness/bench/stepped_backend.h"

#include <chrono>

#include "harness/bench/bench_tables.h"

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
  auto clock = std::make_shared<ManualClock>(TimePoint());
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
  // The server's time, as a new table's CreationDateTime shows it.
  const std::string probe = UniqueTableName("ddblab_bench_clock");
  auto created = inner->Call(
      "CreateTable",
      {{"TableName", probe},
       {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
       {"AttributeDefinitions",
        {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
       {"BillingMode", "PAY_PER_REQUEST"}});
  if (!created.ok()) return created.error();
  (void)inner->Call("DeleteTable", {{"TableName", probe}});
  const double now =
      (*created)["TableDescription"].value("CreationDateTime", 0.0);
  clock->Set(TimePoint(std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(now))));
  return std::unique_ptr<Backend>(
      new SteppedBackend(std::move(inner), std::move(clock)));
}

}  // namespace ddblab::harness::bench
