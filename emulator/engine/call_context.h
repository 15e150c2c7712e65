// emulator/engine/call_context.h: what one call carries besides its request.
//
// EmulatorImpl::CallDeferred / CallStreamsDeferred make one CallContext per
// call, after looking the operation's name up (the one lookup by name), and
// pass it EXPLICITLY down the call: every handler is
// `(EmulatorImpl&, CallContext&, const Json&)`, every typed step
// `ExecuteX(EmulatorImpl&, CallContext&, const XRequest&)`, and the write
// path (WriteBatch) and the read pages (read_common.h) get its capacity
// ledger. It holds:
//   - the operation (emulator/api/operation.h) and so its traits;
//   - the call's clock time (the time capacity is taken at and faults are
//     decided at);
//   - the per-call part of the fault decision (CallFaults, filled by the
//     fault seam, fault_seam.h): which batch items are left unprocessed, by
//     table as the request named it and position in that table's list, and
//     GetRecords' visibility delay; the stale_read and index_lag faults
//     the consistency model (consistency/consistency.h) applies;
//   - the capacity ledger (capacity/capacity_ledger.h): the model or null
//     when not enforced, the factor, what was taken, the last rejection.
//
// Code that runs an operation outside EmulatorImpl::Call (tests, benches)
// makes a default context: `CallContext call(Operation::kPutItem);` is
// not enforced and has no faults.
//
// Thread-safety: a context belongs to its call, on one thread at a time.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/clock.h"
#include "emulator/api/operation.h"
#include "emulator/engine/capacity/capacity_ledger.h"

namespace ddblab::engine {

// The part of a fault decision the operation itself acts on.
class CallFaults {
 public:
  // Leaves item `position` (0-based, in the request's list for that table)
  // of the table named `table` (the name or ARN as the request gave it)
  // unprocessed.
  void LeaveUnprocessed(std::string_view table, size_t position) {
    auto it = unprocessed_.find(table);
    if (it == unprocessed_.end()) {
      it = unprocessed_.emplace(std::string(table), std::set<size_t>()).first;
    }
    it->second.insert(position);
  }
  // Whether item `position` of `table` (as the request gave it) is left
  // unprocessed. Asked by BatchWriteItem per write request and by
  // BatchGetItem per key, with the item's position in the request: any
  // order, any number of times.
  bool Unprocessed(std::string_view table, size_t position) const {
    if (unprocessed_.empty()) return false;
    auto it = unprocessed_.find(table);
    return it != unprocessed_.end() && it->second.count(position) > 0;
  }
  bool any_unprocessed() const { return !unprocessed_.empty(); }

  // GetRecords reads only records older than this (zero: no delay).
  Duration visibility_delay{};

  // A stale_read fault: this eventually consistent read sees the state of
  // this long ago (zero: the consistency model decides).
  Duration stale_read{};
  // index_lag faults: the call's writes reach `index` of `table` (a table
  // name) this long late.
  struct IndexLag {
    std::string table;
    std::string index;
    Duration duration{};
  };
  std::vector<IndexLag> index_lags;

 private:
  std::map<std::string, std::set<size_t>, std::less<>> unprocessed_;
};

struct CallContext {
  explicit CallContext(Operation op, TimePoint at = {})
      : operation(op), now(at) {}

  const OperationInfo& info() const { return InfoOf(operation); }

  Operation operation;
  TimePoint now;  // the clock when the call began
  CallFaults faults;
  CapacityLedger capacity;  // not enforced unless EmulatorImpl set it
};

}  // namespace ddblab::engine
