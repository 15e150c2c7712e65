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
// stops in the destructor.
//
// On any other clock (a ManualClock) there is no thread, and the rule is:
// due deletions run when the clock moves (Advance, Set, Reset — through
// whatever path: the control endpoint, the in-process ManualClock, the
// harness) or on an explicit sweep (SweepDue: Emulator::SweepTtl, POST
// /_ddblab/ttl/sweep), never because another call arrived. Between two
// clock moves an expired item stays readable, as on DynamoDB before its
// background deletion: an item written at T already expired reads back at
// T, and is gone once the clock reads anything else. How: every sweep
// records the clock time it covered (swept_at_); EmulatorImpl::RunDueWork()
// calls CatchUp() at the start of each call (and Emulator's TTL, shard and
// consistency controls do), which sweeps only if the clock no longer reads
// swept_at_ — one atomic load otherwise. No call can see the difference
// from a sweep made at the move itself: nothing was read or written in
// between. The first call after Create counts as a move (it sweeps what a
// database file left due).
//
// Ownership: created and owned by EmulatorImpl; borrows it.
// Thread-safety: SweepDue/RunIfDue/CatchUp/StatusReport take the engine
// lock themselves and must be called without it; Create needs it (both
// annotated, see emulator_impl.h). Sweeps are serialised by their own
// mutex (taken before the engine lock), so the time a sweep records is
// never older than one already recorded.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/mutex.h"
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

  // Deletes every item due at the clock's now; returns how many. Records
  // that now as swept.
  Result<int64_t> SweepDue() DDBLAB_EXCLUDES(impl_.mu(), sweep_mu_);
  // SweepDue() if the earliest due time has come; else nothing (the
  // thread's tick).
  Result<int64_t> RunIfDue() DDBLAB_EXCLUDES(impl_.mu(), sweep_mu_);
  // On a clock without the thread, at the start of each call: SweepDue()
  // if the clock has moved since the last sweep (the earliest due time
  // decides whether there is anything to delete); else nothing.
  Result<int64_t> CatchUp() DDBLAB_EXCLUDES(impl_.mu(), sweep_mu_);

  // Every table with TTL enabled (by name): queue rows and earliest due.
  Result<std::vector<TtlTableReport>> StatusReport()
      DDBLAB_EXCLUDES(impl_.mu());

  TtlQueue& queue() { return *queue_; }
  const TtlSchedule& schedule() const { return schedule_; }

 private:
  TtlSweeper(EmulatorImpl& impl, TtlDelay delay,
             std::shared_ptr<TtlQueue> queue);
  // Every item due at `now` (which becomes swept_at_).
  Result<int64_t> SweepThrough(TimePoint now) DDBLAB_REQUIRES(sweep_mu_)
      DDBLAB_EXCLUDES(impl_.mu());
  // One batch of the rows due at now_s; sets *more when a full batch was
  // taken.
  Result<int64_t> SweepBatch(int64_t now_s, bool* more)
      DDBLAB_REQUIRES(impl_.mu());

  EmulatorImpl& impl_;
  TtlSchedule schedule_;
  std::shared_ptr<TtlQueue> queue_;
  Mutex sweep_mu_;  // one sweep at a time; taken before the engine lock
  // The clock time (ns since the epoch) the last sweep covered; kNever
  // before the first.
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::min();
  std::atomic<int64_t> swept_at_{kNever};
  std::jthread thread_;  // last: stopped and joined first
};

}  // namespace ddblab::engine
