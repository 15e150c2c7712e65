// emulator/engine/fault_seam.h: where the engine meets the fault plan.
//
// EmulatorImpl::CallDeferred / CallStreamsDeferred hand every call to
// CallWithFaults when the plan is not empty (an empty plan costs one atomic
// load), with the call's CallContext (call_context.h). It asks the Injector
// (emulator/fault) what the call gets, then:
//   throttle, internal_error, unavailable, request_limit, conflict,
//   expired_iterator, trimmed: answer that error without executing;
//   lost_response: execute, then answer ErrorType::kOutcomeUnknown;
//   unprocessed: execute with the matched batch items left out: their
//     positions go into the context's CallFaults, which BatchWriteItem and
//     BatchGetItem ask per item once the batch passed validation — they
//     come back in UnprocessedItems / UnprocessedKeys;
//   empty: GetRecords answers no records and the same iterator;
//   visibility_delay: GetRecords reads only records older than the delay
//     (the context's CallFaults::visibility_delay);
//   stale_read: an eventually consistent read of the call sees the state of
//     that long ago; index_lag: the call's writes to the rule's table reach
//     its index that long late (CallFaults::stale_read / index_lags, used
//     by the consistency model, consistency/consistency.h);
//   latency: the answer is due that long after the call on the emulator's
//     clock (a ManualClock: when it is advanced); the call itself runs at
//     once. CallWithFaults does not wait: it sets DeferredAnswer::due, and
//     EmulatorImpl::Call waits for it while a server holds the answer
//     without a thread (emulator/server/http_hold.h).
//
// Thread-safety: CallWithFaults is safe from many threads; each call has
// its own context.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

#include "emulator/api/deferred_answer.h"
#include "emulator/api/result.h"
#include "emulator/engine/call_context.h"

namespace ddblab::engine {

class EmulatorImpl;

// Runs `run` (the dispatch) for `call` under the fault plan, after filling
// call.faults with the decision's per-call part. A latency fault sets the
// answer's due time instead of waiting (the caller waits, or a server holds
// the answer).
DeferredAnswer CallWithFaults(
    EmulatorImpl& impl, CallContext& call, const nlohmann::json& request,
    const std::function<Result<nlohmann::json>()>& run);

}  // namespace ddblab::engine
