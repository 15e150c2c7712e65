// harness/scenario/invariants.h: evaluating a scenario's invariants.
//
// Pattern checks (ordered_writes, idempotent_counter, ttl_window_sweeper)
// compare the tables with what the actors did (World) through the
// patterns' own Check functions; generic checks read the table: an item
// equals a given item (or is absent), a table holds N items, a numeric
// attribute sums to N over the table, or to the sum of an attribute over
// the items the actors wrote (World::writes; "over_writes"). The
// rollup_aggregator check reads the tables on `backend`; the
// ttl_expiry_listener check is the shared listener's own (World::listeners,
// on the backend the actors use). The unique_claims check reads its
// tables alone (no two accounts hold one email).
//
// Thread-safety: free functions on the caller's backend.
#pragma once

#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/scenario/actors.h"
#include "harness/scenario/scenario.h"

namespace ddblab::harness::scenario {

// One sentence per problem; empty when the invariant holds. `backend`
// should not be the traced one (checks are not steps).
Result<std::vector<std::string>> Evaluate(const InvariantSpec& invariant,
                                          const Scenario& scenario,
                                          Backend& backend, const World& world);

}  // namespace ddblab::harness::scenario
