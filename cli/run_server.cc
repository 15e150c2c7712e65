// cli/run_server.cc: an EmbeddedServer composed as `ddblab serve`.
#include "cli/run_server.h"

#include <memory>
#include <string>
#include <utility>

#include "cli/command_line.h"
#include "cli/serve_hooks.h"
#include "emulator/server/embedded_server.h"

namespace ddblab::cli {
namespace {

class Started final : public harness::scenario::RunServer {
 public:
  explicit Started(std::unique_ptr<server::EmbeddedServer> server)
      : server_(std::move(server)) {}
  const std::string& endpoint() const override { return server_->endpoint(); }
  const std::string& control_token() const override {
    return server_->control_token();
  }

 private:
  std::unique_ptr<server::EmbeddedServer> server_;
};

Result<std::unique_ptr<harness::scenario::RunServer>> Start(
    const harness::scenario::RunServerSpec& spec) {
  ServeConfig config;
  config.host = "127.0.0.1";
  config.port = 0;
  config.seed = spec.seed;
  config.clock = "manual=" + std::to_string(spec.clock_start);
  if (!spec.ttl_delay.empty()) config.ttl_delay = spec.ttl_delay;
  if (spec.stream_shards > 0) config.stream_shards = spec.stream_shards;
  config.control = server::ControlMode::kLocalToken;
  config.ui = false;
  config.log_level = server::LogLevel::kError;
  // The programs are gone when the server stops: idle connections are
  // theirs.
  config.idle_timeout_seconds = 2;
  DDBLAB_ASSIGN_OR_RETURN(server::ServeHooks hooks, ServeHooksFor(config));
  DDBLAB_ASSIGN_OR_RETURN(auto server,
                          server::EmbeddedServer::Start(config, hooks));
  return std::unique_ptr<harness::scenario::RunServer>(
      new Started(std::move(server)));
}

}  // namespace

harness::scenario::StartRunServer RunServerStarter() { return &Start; }

}  // namespace ddblab::cli
