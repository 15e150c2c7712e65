// cli/control_consistency.h: `ddblab serve`'s controls of the
// eventual-consistency model (emulator/engine/consistency/consistency.h):
// lagging global secondary indexes and stale eventually consistent reads.
//
// Flags (parsed into ServeConfig::consistency by command_line.cc, applied
// here as Options.consistency): --index-lag SPEC, --read-lag SPEC, each a lag
// as emulator/api/lag.h reads it ("0", "2s", "0..2s"); both 0 (off) by
// default.
//
// Control endpoints (JSON bodies; shapes in
// emulator/engine/consistency/consistency_json.h):
//   GET  /_ddblab/consistency  -> 200 Emulator::ConsistencyStatus():
//          {"index_lag": "0s..2s", "read_lag": "1s", "tables": {...},
//           "pending": {"orders": {"byWindow": 3}}}
//   POST /_ddblab/consistency  body: settings, e.g. {"index_lag": "2s",
//          "tables": {"orders": {"read_lag": "0"}}} (members left out stay)
//          -> 200 the new status. A body that is not JSON, or settings the
//          model refuses -> 400 {"type": "ValidationException", "message":
//          "read_lag: invalid lag '2s..1s': the lower end is above the upper
//          end"}; nothing changes then.
//   POST /_ddblab/consistency/settle -> 200 {"settled": N}: every pending
//          index change is visible now; N is how many there were.
// POST /_ddblab/reset puts the lags back to the flags' (a reset opens the
// engine anew with its Options).
//
// Thread-safety: the routes may run concurrently with DynamoDB calls; the
// Emulator serialises them with its engine lock.
#pragma once

#include "cli/command_line.h"
#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// Puts the flags' lags into Options.consistency and adds the routes above.
Status AddConsistencyControl(const ServeConfig& config,
                             server::ServeHooks& hooks);

// Registers the routes for `emulator` (which must outlive `protocol`'s use).
Status AddConsistencyRoutes(Emulator& emulator, server::Protocol& protocol);

}  // namespace ddblab::cli
