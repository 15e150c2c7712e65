// emulator/engine/dispatcher.h: operation -> handler, for one API (the
// DynamoDB API or the DynamoDB Streams API).
//
// The operations and their traits are one list (emulator/api/operation.h);
// the ones the engine serves are paired with their handlers in the table of
// op_table.cc; a Dispatcher is that table's view for one API, indexed by the
// Operation enum (no name is compared here: EmulatorImpl::CallDeferred looks
// the name up once, with OperationByName, and builds the call's CallContext).
//
// A handler gets the engine, the call's context (call_context.h) and the
// request body (a JSON object, or null for an empty body) and returns the
// response body or a DynamoDB Error. It runs WITHOUT the engine lock
// (operations.h).
//
// Thread-safety: immutable after construction; safe to share.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "emulator/api/operation.h"
#include "emulator/api/result.h"

namespace ddblab::engine {

class EmulatorImpl;
struct CallContext;

using Api = OperationApi;

using OpHandler = Result<nlohmann::json> (*)(EmulatorImpl& impl,
                                             CallContext& call,
                                             const nlohmann::json& request);

// One row of the operation table: an operation the engine serves.
struct OpEntry {
  Operation operation;
  OpHandler handler;
};

// Every operation the engine serves, of both APIs (op_table.cc).
const std::vector<OpEntry>& OperationTable();

class Dispatcher {
 public:
  explicit Dispatcher(Api api);

  // Null if the operation is not served, or not part of this API.
  OpHandler Find(Operation operation) const {
    return handlers_[static_cast<size_t>(operation)];
  }
  // Runs call.operation's handler; an operation this API does not serve ->
  // UnknownOperationException with an empty message.
  Result<nlohmann::json> Dispatch(EmulatorImpl& impl, CallContext& call,
                                  const nlohmann::json& request) const;
  // The names of this API's operations, sorted.
  std::vector<std::string> Operations() const;

 private:
  std::array<OpHandler, kOperationCount> handlers_{};
};

}  // namespace ddblab::engine
