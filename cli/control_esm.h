// cli/control_esm.h: `ddblab serve` hosts event source mappings
// (harness/consumer) on its own engine and port.
//
// Flag (command_line.h): --event-source-mappings FILE creates the mappings of
// FILE (a JSON list of create bodies, see harness/consumer/host.h) at start.
// The file is read and every entry checked before the server binds: a bad file
// stops it with "--event-source-mappings: <path>: mapping <index>: <what is
// wrong>" (exit status 2), and no mapping is created.
//
// Control endpoints: everything under /_ddblab/event-source-mappings goes
// to the EsmHost (create, list, get, update, delete, failures, run); its
// answers are JSON, errors {"__type", "message"} with 400/403/404/405.
// Creating a mapping through them (each runs a command or calls a URL) is
// refused with 403 unless the server was started with --allow-functions.
//
// Delivery reads the stream through an in-process Backend borrowing the
// server's Emulator, so it runs on the server's clock:
//   - system clock: a thread delivers what is due about 4 times a second;
//   - manual clock: no thread; POST /_ddblab/clock runs every mapping until
//     nothing more is due (after the clock moved and TTL swept) before it
//     answers, so the same writes and clock moves give the same invocations
//     every run. POST /_ddblab/event-source-mappings/run delivers what is
//     due without moving the clock.
// At shutdown the thread stops before the engine closes (a stop hook).
// POST /_ddblab/reset deletes every mapping, those of the file too (a reset
// hook; cli/control_reset.h).
//
// Thread-safety: the routes and the clock hook may run concurrently with
// DynamoDB calls; the EsmHost serialises its own work with one mutex. A
// command or invoke-URL function may call back into the server while it
// runs (the HTTP server adds threads while handlers block).
#pragma once

#include <string>
#include <vector>

#include "cli/command_line.h"
#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"
#include "harness/consumer/config.h"

namespace ddblab::cli {

inline constexpr std::string_view kEsmRoutePrefix =
    "/_ddblab/event-source-mappings";

// Reads and checks --event-source-mappings (if given) and wraps `hooks` so
// that the routes, hooks and mappings above are added once the engine is
// open. A bad file is a ValidationException with the message above.
Status AddEsmControl(const ServeConfig& config, server::ServeHooks& hooks);

// Hosts `mappings` (checked create bodies; `source` names them in errors)
// for `emulator` on `protocol`: the prefix route, the after-clock-move hook,
// the delivery thread on a system clock and its stop hook. `emulator` must
// outlive the protocol's stop hooks; `seed` drives the mapping UUIDs;
// `allow_functions` (--allow-functions) lets POST create mappings.
Status AddEsmRoutes(Emulator& emulator, server::Protocol& protocol,
                    const std::vector<harness::consumer::json>& mappings,
                    const std::string& source, uint64_t seed,
                    bool allow_functions);

}  // namespace ddblab::cli
