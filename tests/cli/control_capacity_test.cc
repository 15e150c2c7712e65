// tests/cli/control_capacity_test.cc: --capacity reaches the engine's
// Options (cli/control_capacity.h), and GET /_ddblab/capacity answers the
// engine's report through a Protocol without a socket.
#include "cli/control_capacity.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/emulator_handler.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"

namespace ddblab::cli {
namespace {

// Opens the engine through the hooks AddCapacityControl wrapped; `seen`
// gets the Options the engine opened with.
Result<std::unique_ptr<server::RequestHandler>> OpenWith(
    const ServeConfig& config, server::ServeHooks& hooks, Options* seen) {
  hooks.open = [seen](const Options& options) {
    *seen = options;
    return EmulatorHandler::Open(options);
  };
  DDBLAB_RETURN_IF_ERROR(AddCapacityControl(config, hooks));
  return hooks.open(Options{});
}

TEST(AddCapacityControlTest, FlagSetsTheEngineOption) {
  for (Capacity capacity : {Capacity::kOff, Capacity::kEnforce}) {
    ServeConfig config;
    config.capacity = capacity;
    server::ServeHooks hooks;
    Options seen;
    seen.capacity =
        capacity == Capacity::kOff ? Capacity::kEnforce : Capacity::kOff;
    ASSERT_TRUE(OpenWith(config, hooks, &seen).ok());
    EXPECT_EQ(seen.capacity, capacity);
  }
}

TEST(AddCapacityControlTest, RouteAnswersTheReport) {
  ServeConfig config;
  config.capacity = Capacity::kEnforce;
  server::ServeHooks hooks;
  Options seen;
  auto handler = OpenWith(config, hooks, &seen);
  ASSERT_TRUE(handler.ok()) << handler.error().message;
  ManualClock clock;
  std::ostringstream log;
  server::Logger logger(server::LogLevel::kError, log);
  server::Authenticator authenticator(server::AuthConfig{}, clock);
  server::Protocol protocol(**handler, authenticator, clock, logger,
                            server::ProtocolConfig{});
  ASSERT_TRUE(hooks.add_routes(**handler, protocol).ok());
  server::WireRequest request;
  request.method = "GET";
  request.path = "/_ddblab/capacity";
  server::WireResponse response = protocol.Handle(request);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(nlohmann::json::parse(response.body),
            (nlohmann::json{{"Enforced", true},
                            {"Tables", nlohmann::json::array()}}));
}

}  // namespace
}  // namespace ddblab::cli
