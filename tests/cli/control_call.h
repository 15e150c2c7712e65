// tests/cli/control_call.h: what the control tests of cli/ share: a
// server::Protocol over a handler with what it needs (a manual clock, a
// quiet logger, an accepting authenticator), and one control request
// (/_ddblab/...) through it: JSON in, the status and the parsed JSON body
// out (the body must say it is JSON).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>

#include "emulator/api/clock.h"
#include "emulator/server/authenticator.h"
#include "emulator/server/logger.h"
#include "emulator/server/protocol.h"

namespace ddblab::cli::control_test {

// A Protocol over `handler`, as RunServe builds it (add the hooks' routes
// with `hooks.add_routes(handler, protocol)`).
struct ProtocolOver {
  explicit ProtocolOver(server::RequestHandler& handler)
      : protocol(handler, authenticator, clock, logger,
                 server::ProtocolConfig{}) {}
  ManualClock clock;
  std::ostringstream log;
  server::Logger logger{server::LogLevel::kError, log};
  server::Authenticator authenticator{server::AuthConfig{}, clock};
  server::Protocol protocol;
};

struct ControlAnswer {
  int status;
  nlohmann::json body;
};

inline ControlAnswer SendControl(server::Protocol& protocol, std::string method,
                                 std::string path, std::string body = "") {
  server::WireRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.headers = {{"Content-Type", "application/json"}};
  r.body = std::move(body);
  server::WireResponse response = protocol.Handle(r);
  EXPECT_EQ(response.content_type, "application/json") << response.body;
  return {response.status,
          nlohmann::json::parse(response.body, nullptr, false)};
}

}  // namespace ddblab::cli::control_test
