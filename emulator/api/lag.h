// emulator/api/lag.h: how late a reader may see a write — the settings of
// ddblab's eventual-consistency model (engine/consistency/).
//
// A lag is a range of durations: "0" (off: the current state), a duration
// ("2s": always that) or a range "MIN..MAX" ("0..2s", "500ms..1.5s": each
// write or read draws its own lag from the seeded generator, uniformly in
// whole milliseconds, both ends included). Durations use the one grammar of
// emulator/api/duration.h. Errors are ValidationExceptions:
//   invalid lag '2s..1s': the lower end is above the upper end
// and the duration grammar's own texts for a bad end.
//
// Thread-safety: plain value types and pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab {

struct LagRange {
  Duration min{};
  Duration max{};

  bool off() const { return max == Duration::zero(); }
  friend bool operator==(const LagRange&, const LagRange&) = default;
};

// "0", "2s", "0..2s".
Result<LagRange> ParseLagRange(std::string_view text);
// A JSON string in that grammar, or a number of seconds.
Result<LagRange> LagRangeFromJson(const nlohmann::json& value);
// The shortest text ParseLagRange reads back: "0s", "2s", "0s..2s".
std::string LagRangeText(const LagRange& lag);

// The two lags of the model (Options.consistency; `ddblab serve
// --index-lag SPEC --read-lag SPEC`). Both off by default: every read is
// strongly consistent.
struct ConsistencyOptions {
  // How long after a base-table write each global secondary index sees it
  // (drawn per write and per index).
  LagRange index_lag;
  // How old the state an eventually consistent read sees may be (drawn per
  // read): GetItem, BatchGetItem, Query, Scan and PartiQL SELECT without
  // ConsistentRead.
  LagRange read_lag;

  friend bool operator==(const ConsistencyOptions&,
                         const ConsistencyOptions&) = default;
};

}  // namespace ddblab
