// cli/control_capacity.h: `ddblab serve` capacity report.
//
// Flag (cli.h): --capacity off|enforce sets Options.capacity.
//
// Control endpoint:
//   GET /_ddblab/capacity -> 200 Emulator::CapacityReport():
//     {"Enforced": bool, "Tables": [{"TableName", "BillingMode",
//      "Read": {"ProvisionedUnits" | "AllowedUnits", "Consumed":
//               [{"Second": epoch seconds, "Units": u}, ...]},
//      "Write": {...}, "ThrottledRequests": {reason: requests},
//      "GlobalSecondaryIndexes": [{"IndexName", ...same...}]}]}
//
// Thread-safety: the route may run concurrently with DynamoDB calls; the
// capacity model is thread-safe.
#pragma once

#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"

namespace ddblab::server {

// Registers the route for `emulator` (which must outlive `protocol`'s use).
Status AddCapacityRoutes(Emulator& emulator, Protocol& protocol);

}  // namespace ddblab::server
