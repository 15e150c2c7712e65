// tests/harness/patterns/pattern_backends.h: the backends the pattern tests
// run on, and a test wrapper that injects the failures the patterns exist
// for.
//
// Rows: "emulator" (ddblab in process, ManualClock, TTL deletions 48 h after
// expiry, as DynamoDB's background TTL may take) and "ddblab_http" (`ddblab
// serve --clock manual --ttl-delay 48h`, started once per test binary,
// shared by the tests, which use distinct table names) and "ddblocal"
// (Amazon DynamoDB Local in memory: no clock control, so the tests that
// move time skip themselves there; the others check our texts against it)
// and "aws" (Amazon DynamoDB, only with DDBLAB_TEST_AWS=1).
//
// TestBackend forwards to a row's backend and can:
//   * lose the response of the nth matching call: the request IS applied,
//     the caller gets ErrorType::kOutcomeUnknown (what a connection reset
//     after the write looks like to a client);
//   * leave the first `count` write requests of the nth BatchWriteItem
//     unprocessed: they are not sent and come back in UnprocessedItems,
//     shaped as DynamoDB shapes them;
//   * advance the clock on both sides of an HTTP row (the server's manual
//     clock and the local clock that HttpBackend::clock() reads).
// These are stand-ins for the seeded fault plans of the fault-injection
// layer, applied at the Backend seam.
//
// Thread-safety: test thread only.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/clock.h"
#include "harness/backend/backend.h"

namespace ddblab::harness::testing {

// Opens the row; nullptr with `*skip` set when it cannot run here.
std::unique_ptr<Backend> OpenPatternRow(const std::string& row,
                                        std::string* skip);

// "ddblab_patterns_<random>_": a prefix per test binary run, so tables on
// a shared endpoint (or an AWS account) never clash between runs.
const std::string& TablePrefix();

class TestBackend final : public Backend {
 public:
  // `local_clock`: the ManualClock an HttpBackend reads (null in process).
  TestBackend(std::unique_ptr<Backend> inner,
              std::shared_ptr<ManualClock> local_clock);

  const std::string& name() const override { return inner_->name(); }
  Result<json> Call(std::string_view operation, const json& request) override;
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override {
    return inner_->CallStreams(operation, request);
  }
  Clock& clock() override { return inner_->clock(); }
  bool Has(Capability capability) const override {
    return inner_->Has(capability);
  }
  Status AdvanceClock(Duration d) override;
  Status SetClock(TimePoint t) override;
  Status SetFaultPlan(const json& plan) override {
    return inner_->SetFaultPlan(plan);
  }
  Result<int64_t> SweepTtl() override { return inner_->SweepTtl(); }

  // Loses the answer of the `nth` (1-based, counted from now) call of
  // `operation`.
  void LoseResponse(std::string operation, int nth);
  // The `nth` BatchWriteItem from now, and the `times` - 1 after it, leave
  // their first `count` requests unprocessed.
  void LeaveUnprocessed(int nth, int count, int times = 1);

  int calls(std::string_view operation) const;

  // Deletes every table this wrapper created (test teardown).
  void DeleteCreatedTables();

 private:
  std::unique_ptr<Backend> inner_;
  std::shared_ptr<ManualClock> local_clock_;
  std::string lose_operation_;
  int lose_countdown_ = 0;
  int unprocessed_countdown_ = 0;
  int unprocessed_count_ = 0;
  int unprocessed_times_ = 0;
  std::map<std::string, int, std::less<>> calls_;
  std::vector<std::string> created_;
};

}  // namespace ddblab::harness::testing
