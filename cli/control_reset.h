// cli/control_reset.h: `ddblab serve`'s POST /_ddblab/reset, a new run on
// the same server (test frameworks and `ddblab run --backend http://...`
// call it before each run).
//
//   POST /_ddblab/reset  {"clock": EPOCH_SECONDS, "seed": N,
//                         "ttl_delay": "0"|"90s"|"1m..48h"|"aws",
//                         "stream_shards": 1..1024,
//                         "shard_rollover": "4h"|"off"}   (each optional)
// ("shard_rollover" is a duration as emulator/api/duration.h reads it: text
// or a number of seconds.)
//
// Drops every table (with its items, indexes, stream and TTL queue), every
// hosted event source mapping (a reset hook of the extensions, file
// mappings too), the fault plan with its counters and log, the capacity
// ledger, and the consistency model's pending changes and settings (the lags
// go back to --index-lag / --read-lag); then sets what the body gives
// (Emulator::Reset): the engine starts as one opened with those options
// would, so the fault draws of seed N are those of an emulator opened with
// seed N. "clock" may move a manual clock backwards (a reset is a new run);
// on a system clock it is a 400. A field not given keeps the value in force
// (the serve flag's, or the last reset's).
//
// Answers 200 {"now": <epoch seconds>, "mode": "manual"|"system", "seed": N,
// "ttl_delay": "...", "stream_shards": N, "shard_rollover": "4h"|"off"}.
// A body that is not a JSON object, an unknown field (named) or a bad value
// is a 400 {"message": ...}, and nothing is changed; a bad value gets the
// message of the matching serve flag with the field's name in place of the
// flag's ("invalid value 0 for \"stream_shards\": expected a number of
// shards from 1 to 1024", "\"ttl_delay\": <TtlDelay::Parse's message>").
//
// Requests in flight finish before the reset, later ones wait for it: each
// call sees the server before or after, never half reset.
//
// Thread-safety: the route may run concurrently with DynamoDB calls and
// other control routes.
#pragma once

#include "cli/command_line.h"
#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// Registers the route once the engine is open.
Status AddResetControl(const ServeConfig& config, server::ServeHooks& hooks);

// Registers the route for `emulator` (which must outlive `protocol`'s use).
Status AddResetRoutes(Emulator& emulator, server::Protocol& protocol);

}  // namespace ddblab::cli
