// emulator/engine/ttl/ttl_sweeper.h: deletes expired items (DynamoDB's TTL and
// Streams documentation).
//
// The TTL service of one emulator: it owns the deletion queue (ttl_queue.h),
// registers the sink that maintains it, and sweeps. A sweep reads the queue
// rows due at the clock's now (earliest first) in batches of kBatch; for
// each it re-reads the item and re-checks it (the TTL attribute may have
// changed, the item may be gone, the table's TTL disabled, the expiry more
// than five years old), then deletes it as a system delete through the one
// write path (WriteBatch::Apply with ChangeEvent::Origin::kTtl), stamped with
// the time the deletion fell due (not the sweep's now, which may be much
// later after a clock jump): index entries go as with DeleteItem, the
// streams sink marks the record as a service delete and dates it at the due
// time, and the sink removes the queue row. One SQLite transaction per batch.
// Caveat: on a SystemClock the thread sweeps every `interval`; a write that
// leaves the TTL value alone between the due time and that sweep gets a
// stream record dated after the deletion's (sequence numbers stay in order).
//
// Driving: on a SystemClock, StartThread() runs a std::jthread that sweeps
// every `interval` (Clock::SleepUntil with the thread's stop_token) and
// stops in the destructor. On any other clock there is no thread:
// EmulatorImpl::RunDueWork() calls RunIfDue() at the start of each call —
// one atomic load of the earliest due time unless something is due.
//
// Ownership: created and owned by EmulatorImpl; borrows it.
// Thread-safety: SweepDue/RunIfDue/StatusReport take the engine lock
// themselves and must be called without it; Create needs it (both
// annotated, see emulator_impl.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/api/thread_annotations.h"
#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/ttl/ttl_queue.h"
#include "emulator/engine/ttl/ttl_schedule.h"

namespace ddblab::engine {

// TTL deletions waiting in one table (the facade's TtlTableStatus).
struct TtlTableReport {
  std::string table_name;
  int64_t waiting = 0;              // items with a scheduled deletion
  std::optional<int64_t> next_due;  // epoch seconds of the earliest one
};

class TtlSweeper {
 public:
  static constexpr int64_t kBatch = 1000;

  // At construction time: creates the queue schema, registers the sink on
  // `impl`.
  static Result<std::unique_ptr<TtlSweeper>> Create(EmulatorImpl& impl,
                                                    TtlDelay delay)
      DDBLAB_REQUIRES(impl.mu());
  ~TtlSweeper();  // stops the thread, if any

  TtlSweeper(const TtlSweeper&) = delete;
  TtlSweeper& operator=(const TtlSweeper&) = delete;

  // Starts the background sweeper (at most once).
  void StartThread(Duration interval);
  bool has_thread() const { return thread_.joinable(); }

  // Deletes every item due at the clock's now; returns how many.
  Result<int64_t> SweepDue() DDBLAB_EXCLUDES(impl_.mu());
  // SweepDue() if the earliest due time has come; else nothing.
  Result<int64_t> RunIfDue() DDBLAB_EXCLUDES(impl_.mu());

  // Every table with TTL enabled (by name): queue rows and earliest due.
  Result<std::vector<TtlTableReport>> StatusReport()
      DDBLAB_EXCLUDES(impl_.mu());

  TtlQueue& queue() { return *queue_; }
  const TtlSchedule& schedule() const { return schedule_; }

 private:
  TtlSweeper(EmulatorImpl& impl, TtlDelay delay,
             std::shared_ptr<TtlQueue> queue);
  // One batch; sets *more when a full batch was taken.
  Result<int64_t> SweepBatch(bool* more) DDBLAB_REQUIRES(impl_.mu());

  EmulatorImpl& impl_;
  TtlSchedule schedule_;
  std::shared_ptr<TtlQueue> queue_;
  std::jthread thread_;  // last: stopped and joined first
};

}  // namespace ddblab::engine
