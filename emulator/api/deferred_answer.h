// emulator/api/deferred_answer.h: an answer that is ready now but due later.
//
// A `latency` fault (emulator/fault/plan.h) makes a call's answer wait on
// the emulator's clock. Emulator::Call waits on the calling thread; the
// deferred form (Emulator::CallDeferred) answers at once with the time the
// answer is due, so that a server can hold many such answers without a
// thread each (emulator/server/http_hold.h) and write each when its time
// comes on that clock (a ManualClock: when it is advanced).
//
// Ownership: DueTime shares the clock, so a held answer keeps it alive.
// Thread-safety: plain value types.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <utility>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"

namespace ddblab {

// When an answer is due: a time on a clock (the emulator's).
struct DueTime {
  TimePoint at;
  std::shared_ptr<Clock> clock;

  bool Reached() const { return clock->Now() >= at; }
};

// Over HTTP, the response header that carries an answer's due time, in
// milliseconds since the epoch on the emulator's clock (ddblab serve sends it
// on every answer a latency fault delayed). On a manual clock the call moved
// the clock there: a client that mirrors that clock follows it.
inline constexpr std::string_view kDueHeader = "X-Ddblab-Due";

struct DeferredAnswer {
  Result<nlohmann::json> result;
  // Unset: due at once.
  std::optional<DueTime> due;
};

}  // namespace ddblab
