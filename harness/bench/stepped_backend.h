// harness/bench/stepped_backend.h: a network backend whose clock the bench
// moves in step with the server's.
//
// An HttpBackend's clock() is the client's; against `ddblab serve --clock
// manual` the benchmark needs the server's time. SteppedBackend owns a
// ManualClock set to the server's time when opened
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
// reads the server's time (the CreationDateTime of a table it creates and
// deletes) and returns a backend whose clock() shows the server's time. An
// error when the server has no clock control.
Result<std::unique_ptr<Backend>> OpenStepped(const std::string& spec);

}  // namespace ddblab::harness::bench
