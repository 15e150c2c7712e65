// emulator/engine/ops/gsi_update_checks.h: the checks of UpdateTable's
// GlobalSecondaryIndexUpdates list that need no table, on the request as
// received (so that any parse of UpdateTable can call them).
//
// In DynamoDB's texts: an entry with no action ("One of
// GlobalSecondaryIndexUpdate.Update, ... must not be null"), an entry with
// several ("Only one global secondary index action is allowed per
// GlobalSecondaryIndexUpdate object"), an empty list next to another change
// ("List of GlobalSecondaryIndexUpdates is empty"; alone, an empty list is
// no change at all, which the caller reports), and one index named by two
// entries ("Only one global secondary index update per index is allowed
// simultaneously. Index: <name>"). The order of these checks among
// themselves is our choice.
//
// Thread-safety: stateless functions.
#pragma once

#include <nlohmann/json.hpp>

#include "emulator/api/result.h"

namespace ddblab::engine {

// `updates` is the GlobalSecondaryIndexUpdates list (nullptr when absent);
// call once its members' shapes were accepted.
Status CheckGsiUpdateList(const nlohmann::json* updates);

// Whether the list holds something to do (absent and [] do not).
bool HasGsiUpdates(const nlohmann::json* updates);

}  // namespace ddblab::engine
