// harness/bench/stepped_backend.cc: a backend and a local ManualClock moved
// together.
#include "harness/bench/stepped_backend.h"

#include <chrono>

#include "harness/backend/forwarding_backend.h"
#include "harness/bench/bench_tables.h"

namespace ddblab::harness::bench {
namespace {

// Holds the inner backend, so that it exists before ForwardingBackend
// (bases are built in the order they are listed).
struct OwnedInner {
  std::unique_ptr<Backend> owned;
};

// Forwards every call; moves the local clock with the server's.
class SteppedBackend final : private OwnedInner, public ForwardingBackend {
 public:
  SteppedBackend(std::unique_ptr<Backend> inner,
                 std::shared_ptr<ManualClock> clock)
      : OwnedInner{std::move(inner)},
        ForwardingBackend(*owned),
        clock_(std::move(clock)) {}

  Clock& clock() override { return *clock_; }
  Status AdvanceClock(Duration d) override {
    DDBLAB_RETURN_IF_ERROR(ForwardingBackend::AdvanceClock(d));
    clock_->Advance(d);
    return OkStatus();
  }
  Status SetClock(TimePoint t) override {
    DDBLAB_RETURN_IF_ERROR(ForwardingBackend::SetClock(t));
    clock_->Set(t);
    return OkStatus();
  }

 private:
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
