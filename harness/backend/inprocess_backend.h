// harness/backend/inprocess_backend.h: ddblab in this process.
//
// Wraps a ddblab::Emulator; the only harness file that sees the emulator's
// API is inprocess_backend.cc. Options come from the backend string's query
// ("emulator?clock=manual&ttl_delay=0&stream_shards=4", see backend.h).
// BorrowEmulator wraps an Emulator someone else owns (`ddblab serve`
// hosting event source mappings on its own engine).
//
// Thread-safety: as Emulator (Call/CallStreams from many threads).
#pragma once

#include <memory>
#include <string_view>

#include "harness/backend/backend.h"

namespace ddblab {
class Emulator;
}  // namespace ddblab

namespace ddblab::harness {

// Opens an in-process emulator from the query part of "emulator?<query>"
// (may be empty). An unknown key or a bad value is a ValidationException
// naming it.
Result<std::unique_ptr<Backend>> OpenInProcessBackend(std::string_view query);

// A backend named "emulator" on `emulator`, which it does not own (it must
// outlive the backend). Clock control when the emulator's clock is a
// ManualClock; TTL sweep, stream shards, fault plans, reset and consistency
// always.
std::unique_ptr<Backend> BorrowEmulator(Emulator& emulator);

}  // namespace ddblab::harness
