// emulator/server/serve.h: `ddblab serve` from parsed flags to exit status.
//
// Blocks SIGINT/SIGTERM (before any thread starts), binds, opens the
// handler through the hooks (Options.endpoint_address set), prints the endpoint
// and an AWS CLI hint on `out`, serves until SIGINT or SIGTERM, then shuts down
// gracefully: stop the handler's waits (RequestHandler::StopWaiting), stop
// accepting, finish in-flight requests, send every response held for a
// latency fault at once (whatever the clock), run the stop hooks
// of the Protocol's extensions (extensions.h), destroy the handler (closing
// the database), and wait for open connections (a second signal exits at
// once).
//
// Thread-safety: call once per process, from the main thread.
#pragma once

#include <functional>
#include <memory>
#include <ostream>

#include "emulator/api/options.h"
#include "emulator/api/result.h"
#include "emulator/server/cli.h"
#include "emulator/server/protocol.h"
#include "emulator/server/request_handler.h"

namespace ddblab::server {

struct ServeHooks {
  // Opens the engine for these options (db path, clock, seed, region, ...).
  std::function<Result<std::unique_ptr<RequestHandler>>(const Options&)> open;
  // Optional: registers control endpoints (/_ddblab/...) for the handler.
  std::function<Status(RequestHandler&, Protocol&)> add_routes;
};

// "127.0.0.1:8000" ("[::1]:8000" for IPv6 hosts).
std::string EndpointAddress(const std::string& host, int port);
// "http://" (or "https://") + EndpointAddress(host, port).
std::string EndpointUrl(const std::string& host, int port, bool https = false);

// The exit status when the database file is in use by another ddblab
// (another server, or an emulator backend of `ddblab run`/`bench`): one
// server per database file (emulator/storage/file_lock.h).
inline constexpr int kExitDatabaseInUse = 3;

// Returns the process exit status: 0 after a signal-driven shutdown, 1 when
// the database cannot be opened or the port cannot be bound, 2 for bad
// credentials, kExitDatabaseInUse (3) when the database file is in use by
// another ddblab ("ddblab: cannot open database PATH: ..." on `err`; the
// port is closed again before it returns).
int RunServe(const ServeConfig& config, const ServeHooks& hooks,
             std::ostream& out, std::ostream& err);

}  // namespace ddblab::server
