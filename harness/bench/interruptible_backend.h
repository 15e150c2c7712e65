// harness/bench/interruptible_backend.h: the Backend `ddblab bench` hands a
// benchmark, so that Ctrl-C still deletes the tables a run created.
//
// Once Interrupt() is called (the command's signal watcher does on SIGINT
// or SIGTERM), every call fails at once with kInterruptedMessage
// (ValidationException type, never retried), except DeleteTable and
// DescribeTable: the benchmark unwinds through its error path and its
// TableCleanup (bench_tables.h) still deletes what it created.
// It also counts calls, so the command tells a bad flag (refused before the
// benchmark calls the backend: exit 2) from a failure during the run
// (exit 1).
//
// Thread-safety: as the inner backend; the flag and the count are atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "harness/backend/forwarding_backend.h"

namespace ddblab::harness::bench {

inline constexpr std::string_view kInterruptedMessage =
    "interrupted (the run was stopped by a signal)";

class InterruptibleBackend final : public ForwardingBackend {
 public:
  explicit InterruptibleBackend(Backend& inner) : ForwardingBackend(inner) {}

  void Interrupt() { interrupted_ = true; }
  bool interrupted() const { return interrupted_; }
  // Calls made through this backend (every kind), interrupted ones too.
  int64_t calls() const { return calls_; }

  // name(), clock() and Has() answer as the inner backend's; every call
  // below is refused once interrupted (Call lets the cleanup through).
  Result<json> Call(std::string_view operation, const json& request) override;
  Result<json> CallStreams(std::string_view operation,
                           const json& request) override;
  Status AdvanceClock(Duration d) override;
  Status SetClock(TimePoint t) override;
  Status SetFaultPlan(const json& plan) override;
  Result<json> SplitStreamShards(
      std::string_view table,
      const std::optional<std::string>& shard_id = {}) override;
  Result<int64_t> SweepTtl() override;

 private:
  // Counts the call; the interruption error if it must not go through.
  std::optional<Error> Refuse(bool cleanup = false);

  std::atomic<bool> interrupted_{false};
  std::atomic<int64_t> calls_{0};
};

}  // namespace ddblab::harness::bench
