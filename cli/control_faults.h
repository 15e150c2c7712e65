// cli/control_faults.h: `ddblab serve` fault-plan controls.
//
// Flag (command_line.h): --faults FILE loads a fault plan (JSON, {"rules":
// [...]}, format in emulator/fault/plan.h) at startup; a bad file stops the
// server with a message naming the offending path.
//
// Control endpoints (JSON bodies):
//   POST   /_ddblab/faults      body: a plan. Replaces the plan in force and
//          resets its counters -> 200 the plan as GET shows it. A bad plan
//          -> 400 {"type": "ValidationException", "message":
//          "rules[2].effect: unknown effect \"thorttle\""}; the old plan
//          stays in force.
//   GET    /_ddblab/faults      -> 200 {"rules": [{...canonical rule...,
//          "matched": <calls counted>, "fired": <faults fired>}, ...]}
//   DELETE /_ddblab/faults      -> 200 {"rules": []}: no faults from now on.
//   GET    /_ddblab/faults/log  -> 200 {"faults": [{"seq", "time" (epoch
//          seconds on the emulator clock), "operation", "table", "keys",
//          "rule", "effect"}, ...]}, oldest first.
//
// Thread-safety: the routes may run concurrently with DynamoDB calls; the
// fault injector is thread-safe.
#pragma once

#include "cli/command_line.h"
#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// Reads --faults (if given) into Options.fault_plan and adds the routes
// above. An unreadable or bad file is a ValidationException naming it.
Status AddFaultControl(const ServeConfig& config, server::ServeHooks& hooks);

// Registers the routes for `emulator` (which must outlive `protocol`'s use).
Status AddFaultRoutes(Emulator& emulator, server::Protocol& protocol);

}  // namespace ddblab::cli
