// cli/serve_hooks.h: the hooks that make the server `ddblab serve`: the
// engine (EmulatorHandler) and every control layer (TTL and clock,
// streams, faults, capacity, consistency, event source mappings, reset, the
// web console), for `ddblab serve` and the server `ddblab run` starts for
// command actors (cli/run_server.h).
//
// Thread-safety: pure function of its arguments.
#pragma once

#include "cli/command_line.h"
#include "emulator/api/result.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// The hooks for `config`; an error (a bad flag value, named) otherwise.
Result<server::ServeHooks> ServeHooksFor(const ServeConfig& config);

}  // namespace ddblab::cli
