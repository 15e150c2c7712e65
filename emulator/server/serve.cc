#include "emulator/server/serve.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stop_token>
#include <thread>
#include <utility>

#include "common/control_token/control_token.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/credentials.h"
#include "emulator/server/handler_slot.h"
#include "emulator/server/http_server.h"
#include "emulator/server/logger.h"

namespace ddblab::server {
namespace {

// How long shutdown waits for open (idle keep-alive) connections to close.
constexpr auto kConnectionGrace = std::chrono::milliseconds(500);

// Each connection is a descriptor: lift the soft limit (often 1024) toward
// the hard one, enough for `max_connections` plus the database's files.
void RaiseDescriptorLimit(size_t max_connections) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  rlim_t want = static_cast<rlim_t>(max_connections) + 64;
  if (limit.rlim_cur >= want) return;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY
                       ? want
                       : std::min<rlim_t>(want, limit.rlim_max);
  setrlimit(RLIMIT_NOFILE, &limit);
}

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

Result<AuthConfig> AuthConfigFor(const ServeOptions& config) {
  AuthConfig auth;
  auth.mode = config.auth;
  auth.region = config.region;
  auth.max_skew = config.auth_max_skew;
  if (config.auth != AuthMode::kVerify) return auth;
  if (!config.credentials_file.empty()) {
    DDBLAB_ASSIGN_OR_RETURN(auth.credentials,
                            LoadCredentialsFile(config.credentials_file));
  }
  if (!config.access_key_id.empty()) {
    auth.credentials.Add(
        Credential{config.access_key_id, config.secret_access_key, ""});
  }
  return auth;
}

Options EngineOptionsFor(const ServeOptions& config,
                         std::shared_ptr<Clock> clock, int port) {
  Options options;
  options.db_path = config.db;
  options.clock = std::move(clock);
  options.seed = config.seed;
  options.region = config.region;
  options.account_id = config.account_id;
  options.endpoint_address = EndpointAddress(config.host, port);
  return options;
}

std::string EndpointAddress(const std::string& host, int port) {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return h + ":" + std::to_string(port);
}

std::string EndpointUrl(const std::string& host, int port, bool https) {
  return (https ? "https://" : "http://") + EndpointAddress(host, port);
}

int RunServe(const ServeOptions& config, const ServeHooks& hooks,
             std::ostream& out, std::ostream& err) {
  // Every thread started from here on inherits the blocked set; the main
  // thread takes the signals with sigwait.
  sigset_t signals = ShutdownSignals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  Logger logger(config.log_level, err);

  Result<AuthConfig> auth = AuthConfigFor(config);
  if (!auth.ok()) {
    err << "ddblab: " << auth.error().message << "\n";
    return 2;
  }

  // One clock for the engine, the date window of signatures and the Date
  // header: with --clock manual, SigV4 is checked against the manual time.
  std::shared_ptr<Clock> clock =
      hooks.clock ? hooks.clock : std::make_shared<SystemClock>();
  Authenticator authenticator(std::move(auth).value(), *clock);
  HandlerSlot handler;
  // The scheduling gate, when the hooks want one, sits in front of the
  // engine; its idle timeout is real time.
  SystemClock real_time;
  std::unique_ptr<ScheduleGate> gate;
  if (hooks.schedule) {
    gate = std::make_unique<ScheduleGate>(
        handler, *clock, dynamic_cast<ManualClock*>(clock.get()), real_time);
  }
  RequestHandler& front = gate ? static_cast<RequestHandler&>(*gate) : handler;
  ProtocolConfig protocol_config{config.region, config.seed, {}};
  protocol_config.control.mode = config.control;
  if (config.control == ControlMode::kLocalToken) {
    protocol_config.control.token = control_token::NewToken();
  }
  const std::string token = protocol_config.control.token;
  Protocol protocol(front, authenticator, *clock, logger,
                    std::move(protocol_config));
  HttpServerOptions http;
  http.host = config.host;
  http.port = config.port;
  http.idle_timeout_seconds = config.idle_timeout_seconds;
  http.max_connections = config.max_connections;
  http.tls_cert_file = config.https_cert;
  http.tls_key_file = config.https_key;
  RaiseDescriptorLimit(config.max_connections);
  HttpServer server(protocol, logger, std::move(http));
  // Bind first: the engine learns its endpoint address (DescribeEndpoints).
  // Connections wait in the backlog until Serve() starts.
  auto port = server.Bind();
  if (!port.ok()) {
    err << "ddblab: " << port.error().message << "\n";
    return 1;
  }

  // The token file, once the port is known (its default name holds it).
  std::string token_file;
  if (config.control == ControlMode::kLocalToken) {
    if (!config.control_token_file.empty()) {
      token_file = config.control_token_file;
    } else if (auto path = control_token::DefaultTokenPath(*port)) {
      token_file = *path;
    } else {
      err << "ddblab: neither XDG_RUNTIME_DIR nor HOME is set: give "
             "--control-token-file PATH (or --control open|off)\n";
      return 2;
    }
    if (std::string problem = control_token::WriteTokenFile(token_file, token);
        !problem.empty()) {
      err << "ddblab: cannot write the control token: " << problem << "\n";
      return 2;
    }
  }
  struct TokenFileRemover {
    const std::string& path;
    const std::string& token;
    ~TokenFileRemover() {
      if (!path.empty()) control_token::RemoveTokenFile(path, token);
    }
  } remove_token_file{token_file, token};

  auto opened = hooks.open(EngineOptionsFor(config, clock, *port));
  if (!opened.ok()) {
    // Returning closes the bound port: nothing was served.
    err << "ddblab: cannot open database " << config.db << ": "
        << opened.error().message << "\n";
    return opened.error().type == ErrorType::kResourceInUse ? kExitDatabaseInUse
                                                            : 1;
  }
  handler.Set(std::move(opened).value());
  if (hooks.add_routes) {
    if (Status status = hooks.add_routes(handler.get(), protocol);
        !status.ok()) {
      protocol.extensions().Stop();
      err << "ddblab: " << status.error().message << "\n";
      return 1;
    }
  }

  if (gate) {
    if (Status status = hooks.schedule(*gate, protocol); !status.ok()) {
      protocol.extensions().Stop();
      err << "ddblab: " << status.error().message << "\n";
      return 1;
    }
  }

  std::string endpoint =
      EndpointUrl(config.host, *port, !config.https_cert.empty());
  // Before the endpoint line: whoever waits for that line has the warning.
  if (config.control == ControlMode::kOpen) {
    err << "ddblab: WARNING: --control open: anyone who can reach " << endpoint
        << " can move the clock, change the fault plan and split shards\n";
    err.flush();
  }
  out << config.name << " serving DynamoDB at " << endpoint << " (db "
      << config.db << ", region " << config.region << ", auth "
      << (config.auth == AuthMode::kVerify ? "verify" : "accept")
      << config.startup_detail << ")\n"
      << "Try: AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x AWS_REGION="
      << config.region << " aws dynamodb list-tables --endpoint-url "
      << endpoint << "\n";
  switch (config.control) {
    case ControlMode::kLocalToken:
      out << "Control endpoints (/_ddblab/) need the header X-Ddblab-Token: "
          << token << " (also in " << token_file << ")\n";
      if (hooks.token_lines) out << hooks.token_lines(endpoint, token);
      break;
    case ControlMode::kOpen:
    case ControlMode::kOff:
      break;
  }
  out.flush();

  pthread_t main_thread = pthread_self();
  std::mutex stop_mu;
  bool stopping = false;  // guarded by stop_mu
  std::stop_source served;
  std::thread serving([&server, &stop_mu, &stopping, &served, main_thread] {
    server.Serve();
    served.request_stop();
    // Wake the main thread if serving ended on its own (not by Shutdown).
    std::lock_guard<std::mutex> lock(stop_mu);
    if (!stopping) pthread_kill(main_thread, SIGTERM);
  });

  int signal_number = 0;
  sigwait(&signals, &signal_number);
  {
    std::lock_guard<std::mutex> lock(stop_mu);
    stopping = true;
  }
  logger.Log(LogLevel::kInfo, "shutting down");
  // Nothing may wait on the engine's clock now (a ManualClock may never
  // move): in-process calls of extensions stop waiting, and Shutdown sends
  // every held response at once.
  front.StopWaiting();  // the gate first (if any), then the engine
  server.Shutdown();
  protocol.extensions().Stop();  // extensions let go of the engine
  handler.Reset();               // closes the database
  logger.Log(LogLevel::kDebug,
             "database closed; waiting for open connections to finish");
  // Consume any signal already pending, then let a second signal end the
  // process at once: nothing is left to save.
  const timespec zero{0, 0};
  while (sigtimedwait(&signals, nullptr, &zero) > 0) {
  }
  pthread_sigmask(SIG_UNBLOCK, &signals, nullptr);
  // Idle keep-alive connections hold their workers until the keep-alive
  // timeout; give them a moment, then leave without them (every request
  // was answered and the database is closed).
  // Real time: the emulator's clock may be a ManualClock that never moves.
  SystemClock real_clock;
  bool finished = !real_clock.SleepUntil(real_clock.Now() + kConnectionGrace,
                                         served.get_token());
  if (!finished) {
    logger.Log(LogLevel::kDebug, "leaving idle connections behind");
    out.flush();
    err.flush();
    std::fflush(nullptr);
    if (!token_file.empty()) control_token::RemoveTokenFile(token_file, token);
    std::_Exit(0);  // the workers still reference `server`: do not unwind
  }
  serving.join();
  logger.Log(LogLevel::kDebug, "stopped");
  return 0;
}

}  // namespace ddblab::server
