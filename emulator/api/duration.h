// emulator/api/duration.h: durations written as text ("90s", "15m").
//
// A duration is a non-negative whole number with an optional unit: ms, s,
// m, h or d; a bare number is seconds; at most 100 years. Used wherever a
// duration comes from the user: Options fields parsed by the engine (the TTL
// delay), the server's flags and control endpoints.
//
// Thread-safety: a pure function.
#pragma once

#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab {

// "90s" -> 90 s. Errors are ValidationExceptions saying what is wrong.
Result<Duration> ParseDuration(std::string_view text);

}  // namespace ddblab
