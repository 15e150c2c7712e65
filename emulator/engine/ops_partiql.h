// emulator/engine/ops_partiql.h: ExecuteStatement, BatchExecuteStatement and
// ExecuteTransaction (operations.md §17).
//
// The handlers check the request's JSON types and shape constraints with
// RequestParser, then hand it to partiql::PartiqlExecutor, whose callback
// is EmulatorImpl::Call: every PartiQL statement runs as the engine's own
// GetItem / Query / Scan / PutItem / UpdateItem / DeleteItem /
// TransactGetItems / TransactWriteItems (and DescribeTable for the key
// schema), so conditions, stream records and TTL are the engine's.
//
// Thread-safety: the handlers hold no lock themselves (EmulatorImpl::Call
// takes it per operation) and are safe to run concurrently.
#pragma once

#include "emulator/engine/dispatcher.h"

namespace ddblab::engine {

void RegisterPartiqlOps(Dispatcher& dispatcher);

}  // namespace ddblab::engine
