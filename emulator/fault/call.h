// emulator/fault/call.h: what a call is about, read from its request JSON —
// its operation, the tables it names and the items (keys) it touches — so
// that fault rules can be matched without the engine.
//
// Tables given as ARNs (table, stream or index ARNs, shard iterators, which
// start with the stream ARN) are reduced to the table name. Items: the Key
// (PutItem: the Item) of single-item operations; every WriteRequest's Item
// or Key of a BatchWriteItem; every Keys entry of a BatchGetItem; every
// action's Item or Key of TransactWriteItems / TransactGetItems. Query,
// Scan and PartiQL calls have no items (PartiQL calls no table either).
//
// The operation arrives as its enum (emulator/api/operation.h): the name was
// looked up once, by the engine's entry point; what faults need to know of it
// (API, write or read, data plane, transaction actions) are its traits.
//
// Thread-safety: plain value types; a CallView points into the request it
// was made from and must not outlive it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/api/operation.h"

namespace ddblab::fault {

using Api = OperationApi;

struct CallItem {
  std::string table;        // table name
  std::string given_table;  // the name or ARN as the request gave it
  // Batch: the index within that table's list; transactions: the action's
  // index; single-item operations: 0.
  size_t position = 0;
  // The Item or Key object; null if the request has none there (malformed).
  const nlohmann::json* item = nullptr;
};

struct CallView {
  Api api = Api::kDynamoDb;  // the operation's API
  Operation operation = Operation::kGetItem;
  std::vector<std::string> tables;  // names, in request order, no repeats
  std::vector<CallItem> items;      // in request order
  // Transactions: the number of actions (CancellationReasons entries).
  size_t actions = 0;
};

CallView DescribeCall(Operation operation, const nlohmann::json& request);

// The table name in a table name or an ARN naming a table (or a stream or
// index of it); other ARNs come back unchanged.
std::string TableNameOf(std::string_view name_or_arn);

}  // namespace ddblab::fault
