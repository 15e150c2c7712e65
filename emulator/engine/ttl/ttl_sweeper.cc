#include "emulator/engine/ttl/ttl_sweeper.h"

#include <algorithm>
#include <map>
#include <utility>

#include "emulator/engine/emulator_impl.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/keys.h"

namespace ddblab::engine {

TtlSweeper::TtlSweeper(EmulatorImpl& impl, TtlDelay delay,
                       std::shared_ptr<TtlQueue> queue)
    : impl_(impl),
      schedule_(delay, impl.options().seed),
      queue_(std::move(queue)) {}

TtlSweeper::~TtlSweeper() {
  if (thread_.joinable()) {
    thread_.request_stop();
    thread_.join();
  }
}

Result<std::unique_ptr<TtlSweeper>> TtlSweeper::Create(EmulatorImpl& impl,
                                                       TtlDelay delay) {
  DDBLAB_ASSIGN_OR_RETURN(std::shared_ptr<TtlQueue> queue,
                          TtlQueue::Open(impl.store()));
  std::unique_ptr<TtlSweeper> sweeper(new TtlSweeper(impl, delay, queue));
  impl.AddChangeSink(std::make_shared<TtlQueueSink>(
      std::move(queue), impl.store(), sweeper->schedule_, impl.clock()));
  return sweeper;
}

void TtlSweeper::StartThread(Duration interval) {
  if (thread_.joinable()) return;
  if (interval <= Duration::zero()) interval = std::chrono::seconds(1);
  // The first tick is fixed now, not when the thread gets to run.
  const TimePoint first = impl_.clock().Now() + interval;
  thread_ = std::jthread([this, interval, first](std::stop_token stop) {
    Clock& clock = impl_.clock();
    TimePoint next = first;
    while (clock.SleepUntil(next, stop)) {
      // Errors are retried at the next tick; the queue rows stay.
      (void)RunIfDue();
      TimePoint now = clock.Now();
      next += interval;
      if (next <= now) next = now + interval;
    }
  });
}

Result<int64_t> TtlSweeper::RunIfDue() {
  int64_t earliest = queue_->earliest_hint();
  if (earliest == TtlQueue::kEmpty || earliest > ToEpochSeconds(impl_.Now())) {
    return int64_t{0};
  }
  return SweepDue();
}

Result<int64_t> TtlSweeper::CatchUp() {
  auto ns = [](TimePoint t) { return t.time_since_epoch().count(); };
  // The common case: the clock has not moved since the last sweep.
  if (swept_at_.load(std::memory_order_acquire) == ns(impl_.Now())) {
    return int64_t{0};
  }
  MutexLock lock(sweep_mu_);
  // Read under the sweep lock: the times sweeps cover follow the clock.
  const TimePoint now = impl_.Now();
  if (swept_at_.load(std::memory_order_relaxed) == ns(now)) return int64_t{0};
  int64_t earliest = queue_->earliest_hint();
  if (earliest == TtlQueue::kEmpty || earliest > ToEpochSeconds(now)) {
    swept_at_.store(ns(now), std::memory_order_release);
    return int64_t{0};
  }
  return SweepThrough(now);
}

Result<int64_t> TtlSweeper::SweepDue() {
  MutexLock lock(sweep_mu_);
  return SweepThrough(impl_.Now());
}

Result<int64_t> TtlSweeper::SweepThrough(TimePoint now) {
  const int64_t now_s = ToEpochSeconds(now);
  int64_t total = 0;
  bool first = true;
  bool more = true;
  while (more) {
    auto lock = impl_.Lock();
    if (first) {
      // Table status changes due by now (e.g. the end of DELETING) first.
      DDBLAB_RETURN_IF_ERROR(impl_.SettleAll());
      first = false;
    }
    DDBLAB_ASSIGN_OR_RETURN(int64_t deleted, SweepBatch(now_s, &more));
    total += deleted;
    if (!more) DDBLAB_RETURN_IF_ERROR(queue_->RefreshEarliest());
  }
  // Only a sweep that got through: a failed one is retried at the next call.
  swept_at_.store(now.time_since_epoch().count(), std::memory_order_release);
  return total;
}

Result<int64_t> TtlSweeper::SweepBatch(int64_t now_s, bool* more) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<TtlQueueRow> rows,
                          queue_->Due(now_s, kBatch));
  *more = static_cast<int64_t>(rows.size()) == kBatch;
  if (rows.empty()) return int64_t{0};

  std::map<int64_t, std::shared_ptr<const Table>> tables;  // by id
  for (const auto& [name, entry] : impl_.catalog().entries()) {
    tables.emplace(entry.table->id, entry.table);
  }

  CapacityLedger unmetered;  // TTL deletions consume no capacity
  WriteBatch batch(impl_, unmetered);
  DDBLAB_RETURN_IF_ERROR(batch.Begin());
  // The batch's rows go in one range delete; items whose TTL moved are put
  // back with their new due time (always later than now, so outside it).
  DDBLAB_RETURN_IF_ERROR(
      queue_->RemoveThrough(batch.txn().ttl_queue(), rows.back()));
  int64_t deleted = 0;
  for (const TtlQueueRow& row : rows) {
    auto it = tables.find(row.table_id);
    const Table* table = it == tables.end() ? nullptr : it->second.get();
    if (table == nullptr || !table->ttl.enabled ||
        table->status == TableStatus::kCreating ||
        table->status == TableStatus::kDeleting) {
      continue;
    }
    PrimaryKey key{row.pk, row.sk};
    DDBLAB_ASSIGN_OR_RETURN(ExistingItem old,
                            ExistingItem::Read(impl_.store(), *table, key));
    if (!old.exists()) continue;
    // Re-check the item as it is now: its TTL value decides, not the row.
    DDBLAB_ASSIGN_OR_RETURN(const value::Item* item, old.Get());
    std::optional<int64_t> expiry = TtlExpiry(*item, table->ttl.attribute);
    if (!expiry || !TtlEligible(*expiry, now_s)) {
      std::optional<int64_t> due =
          schedule_.DueOf(*table, row.pk, row.sk, *item, now_s);
      if (due) {
        DDBLAB_RETURN_IF_ERROR(queue_->Put(batch.txn().ttl_queue(),
                                           row.table_id, row.pk, row.sk, *due));
      }
      continue;
    }
    // The row's due time is never before the write that set this value
    // (TtlSchedule::DueOf); the recomputed one covers a row left from
    // before a change of delay model.
    const int64_t due = std::max(
        schedule_.DueAt(*expiry, table->name, row.pk, row.sk), row.due);
    if (due > now_s) {
      DDBLAB_RETURN_IF_ERROR(queue_->Put(batch.txn().ttl_queue(), row.table_id,
                                         row.pk, row.sk, due));
      continue;
    }
    // The system delete, through the one write path, at the time it fell
    // due (its stream record says so), however far the clock jumped past it.
    DDBLAB_ASSIGN_OR_RETURN(
        Consumed used,
        batch.Apply(*table, key, old, nullptr, ChangeEvent::Origin::kTtl,
                    FromEpochSeconds(due)));
    (void)used;  // TTL deletes consume no capacity
    ++deleted;
  }
  DDBLAB_RETURN_IF_ERROR(batch.Commit());
  return deleted;
}

Result<std::vector<TtlTableReport>> TtlSweeper::StatusReport() {
  auto lock = impl_.Lock();
  DDBLAB_ASSIGN_OR_RETURN(std::vector<TtlQueueTableStats> stats,
                          queue_->Stats());
  std::map<int64_t, const TtlQueueTableStats*> by_id;
  for (const TtlQueueTableStats& s : stats) by_id[s.table_id] = &s;
  std::vector<TtlTableReport> out;
  for (const auto& [name, entry] : impl_.catalog().entries()) {
    auto it = by_id.find(entry.table->id);
    if (!entry.table->ttl.enabled && it == by_id.end()) continue;
    TtlTableReport status;
    status.table_name = name;
    if (it != by_id.end()) {
      status.waiting = it->second->waiting;
      status.next_due = it->second->next_due;
    }
    out.push_back(std::move(status));
  }
  return out;
}

}  // namespace ddblab::engine
