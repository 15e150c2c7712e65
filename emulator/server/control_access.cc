// emulator/server/control_access.cc: see control_access.h.
#include "emulator/server/control_access.h"

#include <nlohmann/json.hpp>

#include "common/control_token/control_token.h"
#include "emulator/server/protocol.h"

namespace ddblab::server {
namespace {

WireResponse Refusal(int status, std::string_view type, std::string message) {
  WireResponse response;
  response.status = status;
  response.content_type = "application/json";
  response.body =
      nlohmann::json{{"type", type}, {"message", std::move(message)}}.dump();
  return response;
}

}  // namespace

std::string_view ControlModeName(ControlMode mode) {
  switch (mode) {
    case ControlMode::kOff:
      return "off";
    case ControlMode::kLocalToken:
      return "local-token";
    case ControlMode::kOpen:
      return "open";
  }
  return "open";
}

std::optional<ControlMode> ParseControlMode(std::string_view text) {
  for (ControlMode mode :
       {ControlMode::kOff, ControlMode::kLocalToken, ControlMode::kOpen}) {
    if (text == ControlModeName(mode)) return mode;
  }
  return std::nullopt;
}

std::optional<WireResponse> CheckControlAccess(
    const ControlAccess& access, const Authenticator& authenticator,
    const WireRequest& request, bool public_route) {
  if (access.mode == ControlMode::kOff) {
    return Refusal(404, "UnknownOperationException",
                   "the control endpoints are off (ddblab serve --control "
                   "off): " +
                       request.path + " is not served");
  }
  if (public_route) return std::nullopt;
  if (access.mode == ControlMode::kLocalToken) {
    std::optional<std::string_view> token =
        request.Header(control_token::kHeader);
    if (!token) {
      return Refusal(
          403, "AccessDeniedException",
          "missing control token: send the token ddblab serve printed at "
          "start (also in its token file) in the X-Ddblab-Token header");
    }
    if (!control_token::TokensEqual(*token, access.token)) {
      return Refusal(403, "AccessDeniedException",
                     "wrong control token in the X-Ddblab-Token header");
    }
  }
  if (request.method != "GET" && request.method != "HEAD" &&
      MediaType(request.Header("Content-Type").value_or("")) !=
          "application/json") {
    return Refusal(415, "ValidationException",
                   "control requests must be sent with Content-Type: "
                   "application/json");
  }
  if (authenticator.mode() == AuthMode::kVerify) {
    if (Status signed_ok = authenticator.Check(request); !signed_ok.ok()) {
      return Refusal(403, signed_ok.error().Name(), signed_ok.error().message);
    }
  }
  return std::nullopt;
}

}  // namespace ddblab::server
