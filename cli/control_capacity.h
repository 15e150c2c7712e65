// cli/control_capacity.h: `ddblab serve` capacity enforcement and report.
//
// Flag (command_line.h): --capacity off|enforce sets Options.capacity.
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

#include "cli/command_line.h"
#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// Wraps `hooks`: the engine opens with --capacity's mode, and the route
// above is registered.
Status AddCapacityControl(const ServeConfig& config, server::ServeHooks& hooks);

// Registers the route for `emulator` (which must outlive `protocol`'s use).
Status AddCapacityRoutes(Emulator& emulator, server::Protocol& protocol);

}  // namespace ddblab::cli
