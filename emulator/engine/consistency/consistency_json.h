// emulator/engine/consistency/consistency_json.h: the consistency model's
// settings and pending index changes as JSON — what Emulator's
// ConsistencyStatus / SetConsistency / SettleConsistency (and so
// `/_ddblab/consistency` and scenario files) read and write.
//
// Status:
//   {"index_lag": "0s..2s", "read_lag": "1s",
//    "tables": {"orders": {"read_lag": "0s", "index_lag": "2s",
//                          "indexes": {"byWindow": "5s"}}},
//    "pending": {"orders": {"byWindow": 3}}}
// (a table appears under "tables" only with overrides, under "pending"
// only with index changes not yet visible).
//
// Settings (every member optional; what is missing stays):
//   {"index_lag": SPEC, "read_lag": SPEC,
//    "tables": {"orders": {"read_lag": SPEC, "index_lag": SPEC,
//                          "indexes": {"byWindow": SPEC}}
//               | null}}
// SPEC is a lag (emulator/api/lag.h): "0", "2s", "0..2s", or seconds. A
// table's settings replace its overrides; null removes them. Errors are
// ValidationExceptions naming the member (`tables.orders.read_lag: invalid
// lag ...`); nothing changes then. Tables and indexes need not exist yet.
//
// Thread-safety: engine lock held.
#pragma once

#include <nlohmann/json.hpp>

#include "emulator/api/clock.h"
#include "emulator/api/result.h"
#include "emulator/engine/catalog.h"
#include "emulator/engine/consistency/consistency.h"

namespace ddblab::engine {

nlohmann::json ConsistencyToJson(const Consistency& model,
                                 const Catalog& catalog, TimePoint now);

Status ApplyConsistencyJson(Consistency& model, const nlohmann::json& settings);

}  // namespace ddblab::engine
