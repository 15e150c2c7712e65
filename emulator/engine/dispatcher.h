// emulator/engine/dispatcher.h: operation name -> handler, for one API (the
// DynamoDB API or the DynamoDB Streams API).
//
// Every operation of both APIs is listed once, in the table of op_table.cc;
// a Dispatcher is that table's view for one API. Dispatch is the single
// entry point every request goes through (EmulatorImpl::Call and
// CallStreams, where the fault seam wraps it).
//
// A handler gets the engine and the request body (a JSON object, or null for
// an empty body) and returns the response body or a DynamoDB Error. It runs
// WITHOUT the engine lock (operations.h).
//
// Thread-safety: immutable after construction; safe to share.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::engine {

class EmulatorImpl;

enum class Api { kDynamoDb, kStreams };

using OpHandler = Result<nlohmann::json> (*)(EmulatorImpl& impl,
                                             const nlohmann::json& request);

// One row of the operation table.
struct OpEntry {
  std::string_view name;
  Api api;
  OpHandler handler;
};

// Every operation of both APIs (op_table.cc), sorted by name within each API.
const std::vector<OpEntry>& OperationTable();

class Dispatcher {
 public:
  explicit Dispatcher(Api api);

  // Null if the operation is not part of this API.
  OpHandler Find(std::string_view operation) const;
  // Unknown operation -> UnknownOperationException with an empty message.
  Result<nlohmann::json> Dispatch(EmulatorImpl& impl,
                                  std::string_view operation,
                                  const nlohmann::json& request) const;
  std::vector<std::string> Operations() const;

 private:
  std::vector<const OpEntry*> ops_;  // this API's rows, sorted by name
  // The same rows by name length: Find compares a name only with the few
  // rows of its length (every call passes here; cheaper than a search).
  std::vector<std::vector<const OpEntry*>> by_length_;
};

}  // namespace ddblab::engine
