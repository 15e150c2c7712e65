// emulator/server/serve.h: running the server, from its options to the
// process's exit status (the `ddblab` command line that fills them is
// cli/command_line.h).
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

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "emulator/api/clock.h"
#include "emulator/api/options.h"
#include "emulator/api/result.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/control_access.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"
#include "emulator/server/request_handler.h"
#include "emulator/server/schedule_gate.h"

namespace ddblab::server {

// What the server itself reads: where it listens, who may call it, and the
// engine options it fills in before the hooks open the engine.
struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8000;  // 0: any free port (printed at startup)
  std::string db = ":memory:";
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  AuthMode auth = AuthMode::kAccept;
  // --auth verify's keys: one pair and/or an AWS credentials file.
  std::string access_key_id;
  std::string secret_access_key;
  std::string credentials_file;
  // --auth-skew: --auth verify's date window around the emulator's clock;
  // nullopt (off): no time check (AuthConfig::max_skew).
  std::optional<Duration> auth_max_skew = kDefaultMaxSkew;
  LogLevel log_level = LogLevel::kInfo;
  uint64_t seed = 0;  // the emulator's and the request ids' seed
  // Who may call the /_ddblab/ control endpoints (control_access.h), and
  // where the local-token mode writes its token ("": the default path,
  // common/control_token).
  ControlMode control = ControlMode::kLocalToken;
  std::string control_token_file;
  // HTTP front end.
  size_t max_connections = 10000;  // open connections; more get a 503
  int idle_timeout_seconds = 60;   // idle keep-alive connections closed
  std::string https_cert;          // both set: serve HTTPS
  std::string https_key;
  // How the startup line names the server ("ddblab 1.2.0 serving ...").
  std::string name = "ddblab";
  // More of the startup line's parenthesis after "auth ...", e.g.
  // ", namespace access-key" ("": nothing more).
  std::string startup_detail;
};

struct ServeHooks {
  // The emulator's clock (a ManualClock for --clock manual); null: a
  // SystemClock. RunServe gives it to the engine (Options.clock), to the
  // Authenticator (so SigV4's date window follows the emulator's time) and
  // to the Protocol (the Date header).
  std::shared_ptr<Clock> clock;
  // Opens the engine for these options (db path, clock, seed, region, ...).
  std::function<Result<std::unique_ptr<RequestHandler>>(const Options&)> open;
  // Optional: registers control endpoints (/_ddblab/...) for the handler.
  std::function<Status(RequestHandler&, Protocol&)> add_routes;
  // Optional: controlled scheduling (schedule_gate.h). When set, RunServe
  // puts a ScheduleGate (off until started) between the Protocol and the
  // handler, with the clock above (a ManualClock: the gate's tick moves it)
  // and real time as its idle clock, and calls this after add_routes to
  // register its control routes (and maybe start a schedule). Shutdown
  // stops the gate first (held requests run at once).
  std::function<Status(ScheduleGate&, Protocol&)> schedule;
  // Optional: lines printed at startup after the control token's line
  // (--control local-token only), given the endpoint URL and the token.
  std::function<std::string(const std::string& endpoint,
                            const std::string& token)>
      token_lines;
};

// "127.0.0.1:8000" ("[::1]:8000" for IPv6 hosts).
std::string EndpointAddress(const std::string& host, int port);
// "http://" (or "https://") + EndpointAddress(host, port).
std::string EndpointUrl(const std::string& host, int port, bool https = false);

// The authenticator's config of `config` (--auth, --region, --auth-skew;
// with --auth verify, the keys of --credentials-file and --access-key-id),
// or the error reading the credentials file.
Result<AuthConfig> AuthConfigFor(const ServeOptions& config);

// The engine's Options of `config` once bound to `port`: database, clock,
// seed, region, account and the endpoint address stream ARNs name.
Options EngineOptionsFor(const ServeOptions& config,
                         std::shared_ptr<Clock> clock, int port);

// The exit status when the database file is in use by another ddblab
// (another server, or an emulator backend of `ddblab run`/`bench`): one
// server per database file (emulator/storage/file_lock.h).
inline constexpr int kExitDatabaseInUse = 3;

// Returns the process exit status: 0 after a signal-driven shutdown, 1 when
// the database cannot be opened or the port cannot be bound, 2 for bad
// credentials, kExitDatabaseInUse (3) when the database file is in use by
// another ddblab ("ddblab: cannot open database PATH: ..." on `err`; the
// port is closed again before it returns).
int RunServe(const ServeOptions& config, const ServeHooks& hooks,
             std::ostream& out, std::ostream& err);

}  // namespace ddblab::server
