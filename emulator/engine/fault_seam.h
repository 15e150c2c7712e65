// emulator/engine/fault_seam.h: where the engine meets the fault plan.
//
// EmulatorImpl::Call / CallStreams hand every call to CallWithFaults when
// the plan is not empty (an empty plan costs one atomic load). It asks the
// Injector (emulator/fault) what the call gets, then:
//   throttle, internal_error, unavailable, request_limit, conflict,
//   expired_iterator, trimmed: answer that error without executing;
//   lost_response: execute, then answer ErrorType::kOutcomeUnknown;
//   unprocessed: execute with the matched batch items left out, through the
//     engine's batch fault hook (EmulatorImpl::batch_unprocessed_hook, run
//     after the batch passed validation) — they come back in
//     UnprocessedItems / UnprocessedKeys;
//   empty: GetRecords answers no records and the same iterator;
//   visibility_delay: GetRecords reads only records older than the delay
//     (ops_streams.cc asks CurrentVisibilityDelay());
//   latency: the answer is due that long after the call on the emulator's
//     clock (a ManualClock: when it is advanced); the call itself runs at
//     once. CallWithFaults does not wait: it sets DeferredAnswer::due, and
//     EmulatorImpl::Call waits for it while a server holds the answer
//     without a thread (emulator/server/http_hold.h).
//
// The per-call part (which batch items, the visibility delay) lives in a
// thread-local context set for the duration of the call: handlers run on
// the calling thread.
//
// Thread-safety: CallWithFaults is safe from many threads; the hook reads
// only the calling thread's context.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>

#include "emulator/api/clock.h"
#include "emulator/api/deferred_answer.h"
#include "emulator/api/result.h"
#include "emulator/fault/call.h"

namespace ddblab::engine {

class EmulatorImpl;

// Runs `run` (the dispatch) for `operation` under the fault plan. A latency
// fault sets the answer's due time instead of waiting (the caller waits, or
// a server holds the answer).
DeferredAnswer CallWithFaults(
    EmulatorImpl& impl, fault::Api api, std::string_view operation,
    const nlohmann::json& request,
    const std::function<Result<nlohmann::json>()>& run);

// Installs the batch hook that leaves the current call's chosen items
// unprocessed (EmulatorImpl::Open does this once).
void InstallFaultHooks(EmulatorImpl& impl);

// The visibility delay of the GetRecords call running on this thread
// (zero when no visibility_delay fault applies).
Duration CurrentVisibilityDelay();

}  // namespace ddblab::engine
