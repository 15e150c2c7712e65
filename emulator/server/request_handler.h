// emulator/server/request_handler.h: what the HTTP front door calls.
//
// The server parses the wire request, authenticates it and hands the
// operation name and JSON body to a RequestHandler; the answer (a JSON body
// or an Error) goes back on the wire. The engine's Emulator is adapted to it
// by EmulatorHandler (cli/emulator_handler.h); tests use fakes. An answer
// may be due later (a latency fault): CallDeferred says when. The Protocol
// calls CallAs / CallStreamsAs, which also say who signed the request.
//
// Thread-safety: implementations must accept concurrent calls.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "emulator/api/deferred_answer.h"
#include "emulator/api/result.h"
#include "emulator/server/caller.h"

namespace ddblab::server {

class RequestHandler {
 public:
  virtual ~RequestHandler() = default;

  // A DynamoDB operation ("PutItem"), the request body as sent.
  virtual Result<nlohmann::json> Call(std::string_view operation,
                                      const nlohmann::json& request) = 0;
  // A DynamoDB Streams operation ("GetRecords").
  virtual Result<nlohmann::json> CallStreams(std::string_view operation,
                                             const nlohmann::json& request) = 0;

  // What the Protocol calls: the answer now, and when it is due (a latency
  // fault) so that the HTTP server holds it until then without a thread.
  // By default the answer of Call / CallStreams, due at once.
  virtual DeferredAnswer CallDeferred(std::string_view operation,
                                      const nlohmann::json& request) {
    return {Call(operation, request), std::nullopt};
  }
  virtual DeferredAnswer CallStreamsDeferred(std::string_view operation,
                                             const nlohmann::json& request) {
    return {CallStreams(operation, request), std::nullopt};
  }
  // What the Protocol calls for an authenticated request: the same, with
  // who signed it. By default CallDeferred / CallStreamsDeferred (the
  // caller ignored); a handler that routes or schedules by caller
  // overrides these.
  virtual DeferredAnswer CallAs(const Caller& caller,
                                std::string_view operation,
                                const nlohmann::json& request) {
    (void)caller;
    return CallDeferred(operation, request);
  }
  virtual DeferredAnswer CallStreamsAs(const Caller& caller,
                                       std::string_view operation,
                                       const nlohmann::json& request) {
    (void)caller;
    return CallStreamsDeferred(operation, request);
  }
  // Shutdown: wakes every call waiting inside the handler (e.g. an
  // extension's in-process call under a latency fault) and lets no later
  // one wait. By default nothing waits.
  virtual void StopWaiting() {}
};

}  // namespace ddblab::server
