// cli/control_response.h: the JSON answers of the /_ddblab/ control
// endpoints hosted by the `ddblab` executable.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "emulator/api/clock.h"
#include "emulator/api/error.h"
#include "emulator/server/wire_message.h"

namespace ddblab::cli {

// `body` as application/json with `status`.
server::WireResponse ControlJson(int status, const nlohmann::json& body);

// A 400 naming the error (not DynamoDB's error shape: wire_error.h has that):
// {"type": "<ExceptionName>", "message": "..."}.
server::WireResponse ControlError(const Error& error);

// A time as control answers give it: epoch seconds, an integer when whole,
// else a fraction.
nlohmann::json EpochJson(TimePoint t);

}  // namespace ddblab::cli
