// cli/control_streams.h: `ddblab serve` DynamoDB Streams
// controls.
//
// Control endpoint (JSON bodies):
//   POST /_ddblab/streams/split  {"TableName": "<name or ARN>",
//                                 "ShardId": "<open shard>"  (optional)}
//        -> 200 {"closed": ["shardId-..."], "created": ["shardId-...", ...]}
//        Splits that open shard of the table's enabled stream, or every open
//        shard, into two children each (ParentShardId = the closed shard).
//        Errors: 400 {"type": "<DynamoDB error name>", "message": "..."}
//        (unknown table or shard: ResourceNotFoundException; no enabled
//        stream, closed shard, bad body: ValidationException).
//
// Flags (command_line.h): --stream-shards sets Options::stream_shards,
// --shard-rollover Options::shard_rollover ("off" or "0": never).
//
// Thread-safety: the route may run concurrently with DynamoDB calls; it
// takes the engine lock.
#pragma once

#include "cli/command_line.h"
#include "emulator/api/emulator.h"
#include "emulator/api/result.h"
#include "emulator/server/protocol.h"
#include "emulator/server/serve.h"

namespace ddblab::cli {

// Wraps `hooks` so that the engine gets the stream flags of `config` and
// the route above. A bad flag value is a ValidationException naming it.
Status AddStreamsControl(const ServeConfig& config, server::ServeHooks& hooks);

// Registers the route for `emulator` (which must outlive `protocol`'s use).
Status AddStreamsRoutes(Emulator& emulator, server::Protocol& protocol);

}  // namespace ddblab::cli
