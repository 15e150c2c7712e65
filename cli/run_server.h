// cli/run_server.h: the server `ddblab run` starts for a run of command
// actors (harness/scenario/command_run.h): `ddblab serve` in this process
// on 127.0.0.1 and a free port, in memory, with a manual clock at the
// scenario's start, the run's seed, TTL delay and stream shards, the
// control endpoints behind a fresh token (held in memory only, no token
// file), no web console, logging errors nowhere. Stopped when the returned
// RunServer is destroyed.
//
// Thread-safety: the starter may be called from any thread; each call
// starts a server of its own.
#pragma once

#include "harness/scenario/runner.h"

namespace ddblab::cli {

// The starter to give RunScenarioCommand.
harness::scenario::StartRunServer RunServerStarter();

}  // namespace ddblab::cli
