// emulator/api/fault_draw.h: the draw of a fault rule with a probability,
// and the hook that may decide it instead of the seeded generator.
//
// A rule with 0 < probability < 1 that matches a call and passes its other
// conditions (nth, after, times, from, until) draws whether it fires from
// Rng(Hash(seed, "<rule id>#<n>")) (emulator/fault/injector.h). With a
// FaultDrawHook set (Emulator::SetFaultDrawHook), the injector asks the
// hook instead, telling it what the seeded draw gave: an exhaustive
// exploration (harness/scenario/exhaustive.h) explores both outcomes. Rules
// without a probability, or with 0 or 1, draw nothing and never ask.
//
// Thread-safety: plain value types. The injector calls the hook with its
// lock held: the hook must not call back into the emulator.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ddblab {

struct FaultDraw {
  std::string rule_id;  // the rule's "id" (default: its index)
  int64_t match = 0;    // the rule's matching-call number n (1-based)
  double probability = 0;
  bool seeded = false;  // whether the seeded draw fires
};

// Returns whether the rule fires for this call.
using FaultDrawHook = std::function<bool(const FaultDraw&)>;

}  // namespace ddblab
