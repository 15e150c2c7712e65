// harness/bench/stepped_backend.h: a network backend whose clock the bench
// moves in step with the server's.
//
// An HttpBackend's clock() is the client's; against `ddblab serve --clock
// manual` the benchmark needs the server's time. SteppedBackend owns a
// ManualClock set to the same time as the server (OpenStepped sets both)
// and moves both on AdvanceClock/SetClock; every other call goes to the
// wrapped backend unchanged. Retry waits of the wrapped backend advance
// only the local clock (they are rare: ddblab throttles only under a fault
// plan or the capacity model).
//
// Thread-safety: as the wrapped backend; the clock is thread-safe.
#pragma once

#include <memory>
#include <string>

#include "harness/backend/backend.h"

namespace ddblab::harness::bench {

// Opens `spec` (an http[s] endpoint of ddblab serve with a manual clock),
// sets the server's clock to the wall clock's current second and returns a
// backend whose clock() shows the server's time. An error when the server
// has no clock control or its clock is already past the wall clock.
Result<std::unique_ptr<Backend>> OpenStepped(const std::string& spec);

}  // namespace ddblab::harness::bench
