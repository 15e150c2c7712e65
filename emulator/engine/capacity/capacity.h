// emulator/engine/capacity/capacity.h: consumed capacity (DynamoDB's data
// model) and its ConsumedCapacity / ItemCollectionMetrics response shapes.
//
//   Read:  ceil(size / 4 KB) units, at least 1; eventually consistent x 0.5;
//          transactional x 2. A missing item reads as size 0 (1 or 0.5).
//   Write: ceil(size / 1 KB) units, at least 1, of the larger of the old
//          and new item; transactional x 2. Deleting a missing item: 1.
//   Index writes (GSI/LSI): per index whose entry changes, 1 unit per KB of
//   the projected entry; a key change costs the old delete plus the new put;
//   an unchanged entry costs nothing.
//
// With ReturnConsumedCapacity TOTAL the response carries
//   {"TableName": <name or ARN as given>, "CapacityUnits": t}
// and with INDEXES also "Table": {"CapacityUnits"} and
// "GlobalSecondaryIndexes"/"LocalSecondaryIndexes": {name: {"CapacityUnits"}}
// (only the index maps that are non-empty), and for vector indexes
// "VectorIndexes": {name: {"VectorWriteRequestBytes": b}} (DynamoDB meters
// vector writes in bytes, never in CapacityUnits; TOTAL does not show them;
// a transaction does not double them, DynamoDB's rule being unknown).
//
// Thread-safety: plain values and stateless functions.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/engine/request.h"

namespace ddblab::engine {

enum class CapacityMode { kNone, kTotal, kIndexes };

// Reads ReturnConsumedCapacity (enum INDEXES | TOTAL | NONE) into `mode`.
void ReadCapacityMode(RequestParser& parser, const Json& request,
                      CapacityMode* mode);

double ReadUnits(int64_t size, bool consistent);
double WriteUnits(int64_t size);

// Capacity consumed on one table by one request.
struct Consumed {
  double table = 0;
  std::map<std::string, double> global_indexes;
  std::map<std::string, double> local_indexes;
  // VectorWriteRequestBytes per vector index (not part of Total()).
  std::map<std::string, double> vector_indexes;

  double Total() const;
  Consumed& operator+=(const Consumed& other);
  Consumed& Scale(double factor);  // e.g. x2 for transactions
};

// The ConsumedCapacity object, or null for kNone. `table_name` is echoed as
// the request gave it (a name or an ARN).
Json ConsumedCapacityJson(std::string_view table_name, const Consumed& c,
                          CapacityMode mode);

}  // namespace ddblab::engine
