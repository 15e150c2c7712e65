// emulator/engine/dispatcher.h: operation name -> handler.
//
// Handlers are registered per family, each family in its own ops_*.cc with
// its own Register*Ops function; RegisterAllOps (dispatcher.cc) lists the
// families — adding a family is one line there. Registering a name again
// replaces the earlier handler (a later family may take over an operation).
//
// A handler gets the engine and the request body (a JSON object, or null for
// an empty body) and returns the response body or a DynamoDB Error. It runs
// WITHOUT the engine lock: parse and validate first, then take
// EmulatorImpl::Lock() for the part that reads or writes state.
//
// Thread-safety: registration happens while the emulator is being built;
// afterwards the dispatcher is read-only and safe to share.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/result.h"

namespace ddblab::engine {

class EmulatorImpl;

using Handler = std::function<Result<nlohmann::json>(
    EmulatorImpl& impl, const nlohmann::json& request)>;

class Dispatcher {
 public:
  void Register(std::string operation, Handler handler);
  // Null if the operation is not registered.
  const Handler* Find(std::string_view operation) const;
  // Unknown operation -> UnknownOperationException with an empty message.
  Result<nlohmann::json> Dispatch(EmulatorImpl& impl,
                                  std::string_view operation,
                                  const nlohmann::json& request) const;
  std::vector<std::string> Operations() const;

 private:
  std::map<std::string, Handler, std::less<>> handlers_;
};

// Families. DynamoDB API:
void RegisterTableOps(Dispatcher& dispatcher);  // ops_table*.cc, ops_ttl.cc,
                                                // ops_tags.cc
void RegisterItemOps(Dispatcher& dispatcher);   // ops_item.cc
void RegisterUpdateItemOps(Dispatcher& dispatcher);  // ops_update_item.cc
void RegisterTransactOps(Dispatcher& dispatcher);    // ops_transact.cc
void RegisterQueryOps(Dispatcher& dispatcher);  // ops_query.cc, ops_scan.cc
void RegisterBatchOps(Dispatcher& dispatcher);  // ops_batch_get.cc,
                                                // ops_batch_write.cc
// DynamoDB Streams API:
void RegisterStreamsOps(Dispatcher& dispatcher);  // ops_streams.cc

// Every family, for the DynamoDB API and the DynamoDB Streams API.
void RegisterAllOps(Dispatcher& dynamodb, Dispatcher& streams);

}  // namespace ddblab::engine
