// emulator/server/control_access.h: who may call the /_ddblab/ control
// endpoints.
//
// The control endpoints move the clock, replace the fault plan, split
// shards, host event source mappings (which may run commands) and reset
// state: whoever can call them controls the server. `ddblab serve --control`
// picks one of three modes:
//   kOff         no control endpoint but GET /_ddblab/health (404 + a
//                message naming the flag);
//   kLocalToken  every control request carries the server's token in the
//                X-Ddblab-Token header (common/control_token), compared in
//                constant time; without it, 403 AccessDeniedException;
//   kOpen        no token (anyone who reaches the port is in control).
// In every mode but kOff:
//   - a request other than GET/HEAD must be Content-Type: application/json
//     (415 otherwise), so that a page of another origin cannot send one
//     without a CORS preflight, which control paths never grant (no
//     Access-Control-* header is ever sent on them);
//   - under --auth verify the request must also be signed with SigV4 as a
//     DynamoDB request is (the Authenticator's answer, with 403).
// Public routes (the web console's static files) skip the token and the
// signature; GET /_ddblab/health is always served.
//
// Refusals are JSON {"type": "<ExceptionName>", "message": "..."}, the
// control endpoints' error shape.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <optional>
#include <string>

#include "emulator/server/authenticator.h"
#include "emulator/server/wire_message.h"

namespace ddblab::server {

enum class ControlMode { kOff, kLocalToken, kOpen };

struct ControlAccess {
  // The library's default is open (unit tests, embedders); `ddblab serve`
  // defaults to kLocalToken (ServeOptions in serve.h).
  ControlMode mode = ControlMode::kOpen;
  std::string token;  // kLocalToken: the expected X-Ddblab-Token
};

// "off", "local-token", "open".
std::string_view ControlModeName(ControlMode mode);
std::optional<ControlMode> ParseControlMode(std::string_view text);

// The refusal to send for `request` to a control path, or nullopt when it
// may proceed. `public_route`: the path belongs to a public route.
std::optional<WireResponse> CheckControlAccess(
    const ControlAccess& access, const Authenticator& authenticator,
    const WireRequest& request, bool public_route);

}  // namespace ddblab::server
