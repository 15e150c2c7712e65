// harness/backend/inprocess_backend.h: ddblab in this process.
//
// Wraps a ddblab::Emulator; the only harness file that sees the emulator's
// API is inprocess_backend.cc. Options come from the backend string's query
// ("emulator?clock=manual&ttl_delay=0&stream_shards=4", see backend.h).
//
// Thread-safety: as Emulator (Call/CallStreams from many threads).
#pragma once

#include <memory>
#include <string_view>

#include "harness/backend/backend.h"

namespace ddblab::harness {

// Opens an in-process emulator from the query part of "emulator?<query>"
// (may be empty). An unknown key or a bad value is a ValidationException
// naming it.
Result<std::unique_ptr<Backend>> OpenInProcessBackend(std::string_view query);

}  // namespace ddblab::harness
