// emulator/api/duration.h: the one way a user writes a duration, as text
// ("90s", "1.5m") or as JSON (that text, or a number of seconds). Every flag
// (`ddblab serve`, `run`, `bench`), scenario file field, fault plan field,
// emulator option and control endpoint reads durations through here; every
// layer may include it.
//
// The grammar, whole text, nothing around it:
//
//   duration := number [unit]
//   number   := digits ["." digits]        digits: one or more of 0-9
//   unit     := "us" | "ms" | "s" | "m" | "h" | "d"
//
// - A bare number is seconds: "90" is 90 s, "0" is zero.
// - Decimals are exact: "1.5s" is 1500 ms, "0.25" is 250 ms, "1.5us" is
//   1500 ns; a fraction finer than a nanosecond ("0.0001us") is an error.
// - No sign, exponent, spaces, upper-case unit or combined units: "1m30s"
//   is written "90s" or "1.5m".
// - At most 100 years (36500d), so time points stay far from overflow.
//
// As JSON (DurationFromJson): a string in the grammar, or a number of
// seconds, not negative, at most 100 years; a fraction of a second is
// rounded to the nearest nanosecond.
//
// Errors are ValidationExceptions, e.g.
//   invalid duration '5 min': unknown unit ' min' (expected a number with an
//   optional unit us, ms, s, m, h or d, e.g. 90s, 1.5m, 250ms)
// where the reason is one of: empty, no number, no digit after '.', unknown
// unit '<u>', finer than a nanosecond, longer than 100 years (for numbers:
// negative, longer than 100 years). Callers put where the value came from
// in front ("--ttl-sweep-interval: ", "rules[0].duration: ") and check
// their own range (a fault's 366 days, a flag's whole seconds) after.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab {

// "90s" -> 90 s; an Error saying what is wrong otherwise.
Result<Duration> ParseDuration(std::string_view text);

// A JSON string in the grammar, or a number of seconds.
Result<Duration> DurationFromJson(const nlohmann::json& value);

// The shortest text ParseDuration reads back as exactly `d` (d >= 0): the
// largest unit that divides it ("90s", "15m", "250ms", "1500us"), "0s" for
// zero, and decimals of a microsecond below that ("0.5us").
std::string DurationText(Duration d);

}  // namespace ddblab
