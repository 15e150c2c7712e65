// cli/control_schedule.h: `ddblab serve`'s controlled scheduling of real
// clients at the wire (the gate: emulator/server/schedule_gate.h), its
// control endpoints and its --schedule flag.
//
// Control endpoints (JSON; errors 400 {"type": "ValidationException",
// "message": "<field>: ..."}):
//   POST   /_ddblab/schedule  {"actors": ["a", "b"], "seed": 7,
//            "tick": "1s", "idle": "10s", "strategy": "random",
//            "steps": 100, "replay": [...]}
//            -> 200 the state (GET). Only "actors" is required: the access
//            keys the actors sign with (1 to 64, distinct). "seed": an
//            integer from 0 (default 0). "tick": how far the manual clock
//            moves after each scheduled request (a duration, default 0;
//            non-zero needs --clock manual). "idle": how long (real time)
//            an actor may send nothing while others wait (default 10s).
//            "strategy": "random" (default), "pct" or "pct:D"
//            (harness/scenario/strategy.h); "exhaustive" is refused
//            ("strategy exhaustive needs ddblab run"). "steps": how many
//            steps pct draws its change points among (1 to 1000000,
//            default 100). "replay": ["a", "b", ...]: the actor of each
//            step, in order (names from "actors"), followed instead of a
//            strategy (no "strategy" or "steps" with it; the state says
//            "strategy": "replay"); a name that is no actor's -> 400
//            "replay[3]: \"x\" is not one of the actors". A schedule
//            active or stopped -> 409
//            {"type": "ResourceInUseException", "message": "a schedule is
//            already active: DELETE /_ddblab/schedule first"}.
//   GET    /_ddblab/schedule  -> 200 ScheduleGate::State().
//   DELETE /_ddblab/schedule  -> 200 {"state": "off"}: held requests run at
//            once.
//   POST   /_ddblab/schedule/actors/{name}/done -> 200 the state; an
//            unknown name or no schedule -> 400 naming it.
//   GET    /_ddblab/schedule/trace -> 200 application/x-ndjson, the trace
//            so far (of the last schedule after DELETE).
//
// Flag: --schedule FILE (the POST body in a file) starts the schedule at
// startup; the file is read and checked before the server binds: a bad one
// stops it with "--schedule FILE: <field>: <what is wrong>" (exit 2).
//
// Thread-safety: the routes may run on many threads at once, concurrently
// with held requests; the gate serialises them.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "cli/command_line.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/schedule_gate.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

inline constexpr std::string_view kScheduleActorsPrefix =
    "/_ddblab/schedule/actors";

// A POST body as the gate's config, its Chooser made from the strategy and
// seed. `manual_clock`: whether a non-zero tick is allowed. The error
// names the field ("actors[1]: ...", "tick needs --clock manual").
Result<server::ScheduleConfig> ScheduleFromJson(const nlohmann::json& body,
                                                bool manual_clock);

// Reads and checks --schedule (if given), then sets hooks.schedule to add
// the routes (and start that schedule).
Status AddScheduleControl(const ServeConfig& config, server::ServeHooks& hooks);

// Registers the routes above for `gate` (which must outlive `protocol`).
Status AddScheduleRoutes(server::ScheduleGate& gate,
                         server::Protocol& protocol);

}  // namespace ddblab::cli
