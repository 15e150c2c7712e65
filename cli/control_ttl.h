// cli/control_ttl.h: `ddblab serve` clock and TTL controls.
//
// Flags (parsed into ServeConfig by command_line.cc, checked and applied here):
//   --clock system|manual[=EPOCH_SECONDS]   manual: a ManualClock starting at
//                      EPOCH_SECONDS (default: the real time at start, whole
//                      seconds) that moves only through POST /_ddblab/clock
//   --ttl-delay 0|90s|1m..48h|aws          Options.ttl_delay
//   --ttl-sweep-interval 1s                Options.ttl_sweep_interval
//   --ttl-change-cooldown 0|1h|aws         Options.ttl_update_cooldown (aws:
//                                          DynamoDB's documented hour)
//
// Control endpoints (JSON bodies; a bad request gets 400 and
// {"message": "<what is wrong>"}):
//   GET  /_ddblab/clock      -> {"now": <epoch seconds>,
//                            "mode": "manual"|"system"}
//   POST /_ddblab/clock      {"advance": "90s"} (a duration as
//                            emulator/api/duration.h says, or a number of
//                            seconds) or {"set": <epoch seconds>}
//                            -> {"now": ..., "deleted": <TTL deletions run>};
//                            every due TTL sweep, then every after-clock-move
//                            hook of the Protocol's extensions (hosted event
//                            source mappings deliver what is due), runs
//                            before the answer.
//                            Moving backwards, or a system clock -> 400.
//   POST /_ddblab/ttl/sweep  -> {"deleted": N}
//   GET  /_ddblab/ttl        -> {"now": ..., "delay": "<model>", "tables":
//                            {"<name>": {"waiting": N, "next_due": <epoch
//                            seconds>|null}}} for every table with TTL on
//
// Thread-safety: the routes may run concurrently with DynamoDB calls; clock
// moves are serialised by the ManualClock.
#pragma once

#include <optional>

#include "cli/command_line.h"
#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// Checks the clock/TTL flags of `config` (a bad value is an Error whose
// message names the flag) and wraps `hooks`: the engine opens with the
// chosen clock and TTL options, and the routes above are registered.
Status AddTtlControl(const ServeConfig& config, server::ServeHooks& hooks);

// POST /_ddblab/clock's move of `clock` (a ManualClock, else 400): nullopt
// once moved, else the 400 to answer (nothing moved). The caller sweeps TTL
// and runs the after-clock-move hooks, and answers.
std::optional<server::WireResponse> MoveManualClock(
    Clock& clock, const server::WireRequest& request);
// GET /_ddblab/clock's answer for `clock`.
server::WireResponse ClockStatus(Clock& clock);

// Registers the routes for `emulator` (which must outlive `protocol`'s use).
Status AddTtlRoutes(Emulator& emulator, server::Protocol& protocol);

}  // namespace ddblab::cli
