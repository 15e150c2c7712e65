// emulator/fault/throttle.h: DynamoDB's throughput-throttle errors, shared by
// the fault injector (errors.cc) and the engine's capacity model
// (engine/capacity/capacity_model.h), so that both answer with the same bodies.
//
//   - ProvisionedThroughputExceededException (provisioned table or index):
//     "message" + "ThrottlingReasons" [{"reason", "resource"}];
//   - ThrottlingException (on-demand): "message" + "throttlingReasons"
//     (DynamoDB's model spells it with a lower-case t);
//   - the TransactionCanceledException that a throttled action causes, with
//     a ProvisionedThroughputExceeded / ThrottlingError reason.
//
// A reason is ResourceType (Table|Index) + OperationType (Read|Write) +
// LimitType (ProvisionedThroughputExceeded, KeyRangeThroughputExceeded,
// AccountLimitExceeded, MaxOnDemandThroughputExceeded); the resource is the
// table or index ARN.
//
// Thread-safety: stateless functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::fault {

struct ThrottleCause {
  std::string reason;    // e.g. "TableWriteProvisionedThroughputExceeded"
  std::string resource;  // table or index ARN
};

// The throttle error for `causes` (at least one; the first one chooses the
// message): PTEE on a provisioned table, ThrottlingException on-demand.
Error ThroughputThrottle(bool on_demand,
                         const std::vector<ThrottleCause>& causes);

// The CancellationReasons entry of a transaction action throttled by
// `cause`: {"Code": "ProvisionedThroughputExceeded" | "ThrottlingError",
// "Message": ...}.
nlohmann::json ThrottleCancellationReason(bool on_demand,
                                          const ThrottleCause& cause);

// TransactionCanceledException with these reasons (one per action; the
// message lists their codes).
Error TransactionCancelled(nlohmann::json reasons);

}  // namespace ddblab::fault
