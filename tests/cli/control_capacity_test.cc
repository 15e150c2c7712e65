// tests/cli/control_capacity_test.cc: --capacity reaches the engine's
// Options (cli/control_capacity.h), and GET /_ddblab/capacity answers the
// engine's report through a Protocol without a socket.
#include "cli/control_capacity.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/emulator_handler.h"
#include "tests/cli/control_call.h"

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
  control_test::ProtocolOver server(**handler);
  ASSERT_TRUE(hooks.add_routes(**handler, server.protocol).ok());
  control_test::ControlAnswer answer =
      control_test::SendControl(server.protocol, "GET", "/_ddblab/capacity");
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body, (nlohmann::json{{"Enforced", true},
                                         {"Tables", nlohmann::json::array()}}));
}

}  // namespace
}  // namespace ddblab::cli
