// emulator/server/embedded_server.cc: RunServe's server on a thread.
#include "emulator/server/embedded_server.h"

#include <signal.h>

#include <ostream>
#include <streambuf>
#include <thread>
#include <utility>

#include "common/control_token/control_token.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/credentials.h"
#include "emulator/server/handler_slot.h"
#include "emulator/server/http_server.h"
#include "emulator/server/logger.h"
#include "emulator/server/schedule_gate.h"

namespace ddblab::server {
namespace {

// Discards what is written (the logger's stream below its level).
class NullBuffer final : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
};

}  // namespace

class EmbeddedServer::State {
 public:
  State(const ServeOptions& options, std::shared_ptr<Clock> clock,
        AuthConfig auth, ProtocolConfig protocol_config, bool gated)
      : clock_(std::move(clock)),
        null_stream_(&null_buffer_),
        logger_(options.log_level, null_stream_),
        authenticator_(std::move(auth), *clock_),
        // The scheduling gate, when the hooks want one, sits in front of
        // the engine; its idle timeout is real time (as in RunServe).
        gate_(gated ? std::make_unique<ScheduleGate>(
                          handler_, *clock_,
                          dynamic_cast<ManualClock*>(clock_.get()), real_time_)
                    : nullptr),
        protocol_(Front(), authenticator_, *clock_, logger_,
                  std::move(protocol_config)),
        server_(protocol_, logger_, HttpOptions(options)) {}

  RequestHandler& Front() {
    return gate_ ? static_cast<RequestHandler&>(*gate_) : handler_;
  }

  static HttpServerOptions HttpOptions(const ServeOptions& options) {
    HttpServerOptions http;
    http.host = options.host;
    http.port = options.port;
    http.threads = 2;
    http.idle_timeout_seconds = options.idle_timeout_seconds;
    http.max_connections = options.max_connections;
    http.tls_cert_file = options.https_cert;
    http.tls_key_file = options.https_key;
    return http;
  }

  void Stop() {
    if (stopped_) return;
    stopped_ = true;
    Front().StopWaiting();  // the gate first (if any), then the engine
    server_.Shutdown();
    if (serving_.joinable()) serving_.join();
    protocol_.extensions().Stop();
    handler_.Reset();
  }

  std::shared_ptr<Clock> clock_;
  NullBuffer null_buffer_;
  std::ostream null_stream_;
  Logger logger_;
  Authenticator authenticator_;
  HandlerSlot handler_;
  SystemClock real_time_;
  std::unique_ptr<ScheduleGate> gate_;
  Protocol protocol_;
  HttpServer server_;
  std::thread serving_;
  int port_ = 0;
  std::string endpoint_;
  std::string token_;
  bool stopped_ = false;
};

EmbeddedServer::EmbeddedServer(std::unique_ptr<State> state)
    : state_(std::move(state)) {}

EmbeddedServer::~EmbeddedServer() { Stop(); }

int EmbeddedServer::port() const { return state_->port_; }
const std::string& EmbeddedServer::endpoint() const {
  return state_->endpoint_;
}
const std::string& EmbeddedServer::control_token() const {
  return state_->token_;
}

void EmbeddedServer::Stop() { state_->Stop(); }

Result<std::unique_ptr<EmbeddedServer>> EmbeddedServer::Start(
    const ServeOptions& config, const ServeHooks& hooks) {
  // A peer that closes early must not end the process.
  signal(SIGPIPE, SIG_IGN);
  DDBLAB_ASSIGN_OR_RETURN(AuthConfig auth, AuthConfigFor(config));
  std::shared_ptr<Clock> clock =
      hooks.clock ? hooks.clock : std::make_shared<SystemClock>();
  ProtocolConfig protocol_config{config.region, config.seed, {}};
  protocol_config.control.mode = config.control;
  std::string token;
  if (config.control == ControlMode::kLocalToken) {
    token = control_token::NewToken();
    protocol_config.control.token = token;
  }
  auto state = std::make_unique<State>(config, clock, std::move(auth),
                                       std::move(protocol_config),
                                       static_cast<bool>(hooks.schedule));
  state->token_ = token;
  DDBLAB_ASSIGN_OR_RETURN(state->port_, state->server_.Bind());
  state->endpoint_ =
      EndpointUrl(config.host, state->port_, !config.https_cert.empty());
  auto opened = hooks.open(EngineOptionsFor(config, clock, state->port_));
  if (!opened.ok()) {
    return Error::Internal("cannot open database " + config.db + ": " +
                           opened.error().message);
  }
  state->handler_.Set(std::move(opened).value());
  if (hooks.add_routes) {
    if (Status status =
            hooks.add_routes(state->handler_.get(), state->protocol_);
        !status.ok()) {
      state->protocol_.extensions().Stop();
      return status.error();
    }
  }
  if (state->gate_) {
    if (Status status = hooks.schedule(*state->gate_, state->protocol_);
        !status.ok()) {
      state->protocol_.extensions().Stop();
      return status.error();
    }
  }
  State* raw = state.get();
  state->serving_ = std::thread([raw] { raw->server_.Serve(); });
  return std::unique_ptr<EmbeddedServer>(new EmbeddedServer(std::move(state)));
}

}  // namespace ddblab::server
