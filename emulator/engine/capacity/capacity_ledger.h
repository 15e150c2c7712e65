// emulator/engine/capacity/capacity_ledger.h: one call's account with the
// capacity model (capacity_model.h), with Options.capacity = kEnforce.
//
// Every call has a CapacityLedger in its CallContext (call_context.h).
// EmulatorImpl::CallDeferred makes it enforced when the model exists (off:
// one null check per call), with the call's clock time and the operation's
// capacity factor (2 in transactions: TransactGetItems, TransactWriteItems,
// ExecuteTransaction; emulator/api/operation.h). A default-constructed ledger
// is not enforced: every method then does nothing (TTL deletions, callers
// outside a call).
//
// The places that know what a request consumes — WriteBatch::ApplyInto for
// every user write (before it writes anything), GetItem, BatchGetItem,
// Query, Scan and TransactGetItems after their reads — call Admit, which
// takes the units (times the factor) or answers DynamoDB's throttle error.
// When the call then fails anyway, EmulatorImpl gives back what it took
// (RefundAll): a failed request consumes nothing.
//
// A conditional write whose condition fails still consumes write units on
// DynamoDB: ChargeFailedCondition takes them and keeps them although the call
// fails (the ConditionalCheckFailedException body carries no
// ConsumedCapacity, as on DynamoDB).
//
// Batches catch the throttle of one item (IsThrottle) and leave it
// unprocessed; transactions turn it into a TransactionCanceledException with
// a throttling reason for that action (Cancellation).
//
// Thread-safety: one ledger belongs to one call (one thread at a time); the
// model it points to is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/engine/capacity/capacity_model.h"
#include "emulator/engine/table.h"

namespace ddblab::engine {

class CapacityLedger {
 public:
  CapacityLedger() = default;  // not enforced
  // Enforced against `model` (not null) at `now`; units times `factor`.
  CapacityLedger(CapacityModel* model, TimePoint now, double factor)
      : model_(model), now_(now), factor_(factor) {}

  // Whether the call is under enforcement.
  bool enforced() const { return model_ != nullptr; }
  double factor() const { return factor_; }

  // Takes `charges` (not yet multiplied by the factor) against `table`; OK
  // when not enforced.
  Status Admit(const Table& table, std::vector<CapacityCharge> charges);

  // When `check` is a ConditionalCheckFailedException of a single-item write
  // (PutItem, UpdateItem, DeleteItem, PartiQL), charges what DynamoDB charges
  // for it: 1 write unit when the item is absent, else ceil(KB) of the larger
  // of `old_size` and `new_size` (0 when the new item is unknown) on the
  // table's partition `pk`, kept although the call fails. Answers the
  // throttle error instead when that does not fit; otherwise `check`
  // unchanged.
  Status ChargeFailedCondition(const Table& table, const std::string& pk,
                               bool exists, int64_t old_size, int64_t new_size,
                               Status check);

  // Whether `error` is a throttle Admit answered.
  bool IsThrottle(const Error& error) const;

  // The TransactionCanceledException of a transaction of `actions` actions
  // whose action `throttled` was throttled (the last Admit rejection).
  Error Cancellation(size_t actions, size_t throttled) const;

  // Gives back everything Admit took (the call failed).
  void RefundAll();

 private:
  // Takes `charges` (the factor applied) from the model; on a rejection,
  // keeps it and answers the throttle error.
  Status Take(const Table& table, const std::vector<CapacityCharge>& charges);

  struct Taken {
    int64_t table_id;
    std::vector<CapacityCharge> charges;
  };

  CapacityModel* model_ = nullptr;  // null: not enforced
  TimePoint now_{};
  double factor_ = 1;
  std::vector<Taken> taken_;                    // given back if the call fails
  std::optional<CapacityRejection> rejection_;  // the last one
};

}  // namespace ddblab::engine
