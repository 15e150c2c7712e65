// tests/cli/control_call.h: one control request (/_ddblab/...) through a
// server::Protocol, as the control tests of cli/ send it: JSON in, the
// status and the parsed JSON body out (the body must say it is JSON).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "emulator/server/protocol.h"

namespace ddblab::cli::control_test {

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
