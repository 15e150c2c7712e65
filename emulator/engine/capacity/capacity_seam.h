// emulator/engine/capacity/capacity_seam.h: where the engine meets the capacity
// model (capacity_model.h), with Options.capacity = kEnforce.
//
// EmulatorImpl::Call hands every call to CallWithCapacity when the model
// exists (off: one null check per call). It sets a thread-local context for
// the call (handlers run on the calling thread); the places that know what a
// request consumes — WriteBatch::Apply for every user write (before it
// writes anything), GetItem, BatchGetItem, Query, Scan and TransactGetItems
// after their reads — call AdmitCapacity, which does nothing outside an
// enforced call and otherwise takes the units (doubled in transactions) or
// answers DynamoDB's throttle error. When the call then fails anyway, the
// units it took are given back: a failed request consumes nothing.
//
// A conditional write whose condition fails still consumes write units on
// DynamoDB: ChargeFailedCondition takes them and keeps them although the call
// fails (the ConditionalCheckFailedException body carries no
// ConsumedCapacity, as on DynamoDB).
//
// Batches catch the throttle of one item (IsCapacityThrottle) and leave it
// unprocessed; transactions turn it into a TransactionCanceledException with
// a throttling reason for that action (CapacityCancellation).
//
// Thread-safety: CallWithCapacity is safe from many threads; the other
// functions act on the calling thread's context.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/capacity/capacity_model.h"
#include "emulator/engine/table.h"

namespace ddblab::engine {

class EmulatorImpl;

Result<nlohmann::json> CallWithCapacity(
    EmulatorImpl& impl, std::string_view operation,
    const std::function<Result<nlohmann::json>()>& run);

// Whether the call running on this thread is under enforcement.
bool CapacityEnforced();

// Takes `charges` (not yet doubled for transactions) against `table` for the
// running call; OK when not enforced.
Status AdmitCapacity(const Table& table, std::vector<CapacityCharge> charges);

// When `check` is a ConditionalCheckFailedException of a single-item write
// (PutItem, UpdateItem, DeleteItem, PartiQL), charges what DynamoDB charges
// for it: 1 write unit when the item is absent, else ceil(KB) of the larger
// of `old_size` and `new_size` (0 when the new item is unknown) on the
// table's partition `pk`, kept although the call fails. Answers the throttle
// error instead when that does not fit; otherwise `check` unchanged.
Status ChargeFailedCondition(const Table& table, const std::string& pk,
                             bool exists, int64_t old_size, int64_t new_size,
                             Status check);

// Whether `error` is a throttle AdmitCapacity answered.
bool IsCapacityThrottle(const Error& error);

// The TransactionCanceledException of a transaction of `actions` actions
// whose action `throttled` was throttled (the last AdmitCapacity rejection).
Error CapacityCancellation(size_t actions, size_t throttled);

}  // namespace ddblab::engine
