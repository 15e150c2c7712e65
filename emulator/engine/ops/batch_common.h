// emulator/engine/ops/batch_common.h: what BatchGetItem (ops_batch_get.cc) and
// BatchWriteItem (ops_batch_write.cc) share (the DynamoDB API reference).
//
// RequestItems is a map from a table name or ARN to that table's requests.
// Its shape constraints go into the RequestParser like any other:
//   * "Value '{}' at 'requestItems' failed to satisfy constraint: Member must
//     have length greater than or equal to 1" (and "less than or equal to
//     <max>" for too many tables);
//   * a key that is neither a valid table name (3..255 chars of
//     [a-zA-Z0-9_.-]) nor an ARN of 1..1024 chars: one error for the map,
//     "Value '<map>' at 'requestItems' failed to satisfy constraint: Map
//     keys must satisfy constraint: [Member must have length less than or
//     equal to 255, Member must have length greater than or equal to 3,
//     Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]".
//
// Capacity is reported per table, as a list of ConsumedCapacity objects in
// the order the tables appear in RequestItems.
//
// Thread-safety: stateless functions and plain values.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/dispatcher.h"
#include "emulator/engine/request.h"

namespace ddblab::engine {

// The map-level constraints of RequestItems (see above).
void CheckRequestItemsMap(RequestParser& p, const Json& items,
                          int64_t max_tables);

// "requestItems.<table>.member".
std::string TableMemberPath(const std::string& table);

// Capacity of one batch, per table entry of RequestItems.
struct TableConsumed {
  std::string name;  // as the request gave it (name or ARN)
  Consumed consumed;
};
// [ConsumedCapacity, ...] or null for kNone.
Json ConsumedCapacityList(const std::vector<TableConsumed>& tables,
                          CapacityMode mode);

// The BatchGetItem limits.
inline constexpr int64_t kMaxBatchGetKeys = 100;
// Returned data per BatchGetItem call: 16 MB counted as 16,000,000 bytes of
// item sizes (DynamoDB's data model) — with 300 KB items that is 52 items, as
// in DynamoDB's documentation.
inline constexpr int64_t kMaxBatchGetBytes = 16'000'000;
// The BatchWriteItem limit (per table and in total).
inline constexpr int64_t kMaxBatchWriteRequests = 25;

}  // namespace ddblab::engine
