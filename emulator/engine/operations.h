// emulator/engine/operations.h: every operation of the engine, as the
// dispatch table (op_table.cc) and in-process callers (PartiQL, a harness)
// reach them.
//
// Data-plane operations are typed, in three steps:
//
//   Result<XRequest> ParseX(const Json& request,           // no lock
//                           ExpressionCache* = nullptr);
//   Result<XResult>  ExecuteX(EmulatorImpl&, CallContext&,
//                             XRequest);                   // takes the lock
//   Result<Json>     RenderX(const XRequest&, XResult&);   // no lock
//
// Parse makes every check that needs no table, in DynamoDB's order (so a
// bad request fails before the lock is taken); Execute looks the table up,
// makes the remaining checks, reads and writes under the engine lock and
// returns what it found as values; Render builds the response body from the
// request and the result (decoding stored items outside the lock). The Parse
// steps that read expressions take the emulator's ExpressionCache
// (expression_cache.h; RunTyped passes it, nullptr parses every time). The
// dispatch table composes the three; a caller that already has typed values
// builds the XRequest itself, making the checks Parse would have made on it,
// and calls Execute and Render (PartiQL does: ops/partiql_operations.h). The
// CallContext (call_context.h) is the call's: its operation, clock time,
// fault decision (batch items left unprocessed, GetRecords' visibility
// delay) and capacity ledger, passed explicitly to every step that needs
// them (a caller outside a call passes a default one). Types:
//   GetItem, PutItem, DeleteItem, UpdateItem        ops_item.h
//   Query, Scan                                     ops_read.h
//   BatchGetItem, BatchWriteItem                    ops_batch.h
//   TransactGetItems, TransactWriteItems            ops_transact.h
//
// The control plane (tables, TTL, tags), the PartiQL operations and the
// Streams API keep one JSON-in / JSON-out handler each, declared below.
//
// Thread-safety: all functions here are safe to call from many threads,
// WITHOUT the engine lock (Execute and the handlers take it themselves).
#pragma once

#include <type_traits>

#include "emulator/api/result.h"
#include "emulator/engine/call_context.h"
#include "emulator/engine/dispatcher.h"
#include "emulator/engine/ops/ops_batch.h"
#include "emulator/engine/ops/ops_item.h"
#include "emulator/engine/ops/ops_read.h"
#include "emulator/engine/ops/ops_transact.h"
#include "emulator/engine/request.h"

namespace ddblab::engine {

class EmulatorImpl;
class ExpressionCache;

// The emulator's cache of parsed expressions (expression_cache.h), which
// the typed Parse steps that read expressions take.
ExpressionCache* ExpressionCacheOf(EmulatorImpl& impl);

// A JSON handler (dispatcher.h's OpHandler): the call's context and the
// request body (a JSON object, or null for an empty body) -> the response
// body or a DynamoDB Error.
using Handler = OpHandler;

// Tables (ops_create_table.cc, ops_table.cc, ops_update_table.cc).
Result<Json> HandleCreateTable(EmulatorImpl& impl, CallContext& call,
                               const Json& request);
Result<Json> HandleDescribeTable(EmulatorImpl& impl, CallContext& call,
                                 const Json& request);
Result<Json> HandleDeleteTable(EmulatorImpl& impl, CallContext& call,
                               const Json& request);
Result<Json> HandleListTables(EmulatorImpl& impl, CallContext& call,
                              const Json& request);
Result<Json> HandleUpdateTable(EmulatorImpl& impl, CallContext& call,
                               const Json& request);
Result<Json> HandleDescribeLimits(EmulatorImpl& impl, CallContext& call,
                                  const Json& request);
Result<Json> HandleDescribeEndpoints(EmulatorImpl& impl, CallContext& call,
                                     const Json& request);
// TTL (ops_ttl.cc) and tags (ops_tags.cc).
Result<Json> HandleUpdateTimeToLive(EmulatorImpl& impl, CallContext& call,
                                    const Json& request);
Result<Json> HandleDescribeTimeToLive(EmulatorImpl& impl, CallContext& call,
                                      const Json& request);
Result<Json> HandleTagResource(EmulatorImpl& impl, CallContext& call,
                               const Json& request);
Result<Json> HandleUntagResource(EmulatorImpl& impl, CallContext& call,
                                 const Json& request);
Result<Json> HandleListTagsOfResource(EmulatorImpl& impl, CallContext& call,
                                      const Json& request);
Result<Json> HandleDescribeContinuousBackups(EmulatorImpl& impl,
                                             CallContext& call,
                                             const Json& request);
Result<Json> HandleUpdateContinuousBackups(EmulatorImpl& impl,
                                           CallContext& call,
                                           const Json& request);
// On-demand backups (ops_on_demand_backups.cc).
Result<Json> HandleCreateBackup(EmulatorImpl& impl, CallContext& call,
                                const Json& request);
Result<Json> HandleDescribeBackup(EmulatorImpl& impl, CallContext& call,
                                  const Json& request);
Result<Json> HandleListBackups(EmulatorImpl& impl, CallContext& call,
                               const Json& request);
Result<Json> HandleDeleteBackup(EmulatorImpl& impl, CallContext& call,
                                const Json& request);
Result<Json> HandleRestoreTableFromBackup(EmulatorImpl& impl, CallContext& call,
                                          const Json& request);
// Resource-based policies (ops_resource_policy.cc).
Result<Json> HandlePutResourcePolicy(EmulatorImpl& impl, CallContext& call,
                                     const Json& request);
Result<Json> HandleGetResourcePolicy(EmulatorImpl& impl, CallContext& call,
                                     const Json& request);
Result<Json> HandleDeleteResourcePolicy(EmulatorImpl& impl, CallContext& call,
                                        const Json& request);
// SearchVectors (ops_search_vectors.cc).
Result<Json> HandleSearchVectors(EmulatorImpl& impl, CallContext& call,
                                 const Json& request);
// PartiQL (ops_partiql.cc): shape checks, then each statement's typed plan
// becomes the typed request of an operation above and runs its Execute and
// Render (ops/partiql_operations.h; never the dispatcher, never a JSON
// request).
Result<Json> HandleExecuteStatement(EmulatorImpl& impl, CallContext& call,
                                    const Json& request);
Result<Json> HandleBatchExecuteStatement(EmulatorImpl& impl, CallContext& call,
                                         const Json& request);
Result<Json> HandleExecuteTransaction(EmulatorImpl& impl, CallContext& call,
                                      const Json& request);
// DynamoDB Streams API (ops_streams.cc).
Result<Json> HandleListStreams(EmulatorImpl& impl, CallContext& call,
                               const Json& request);
Result<Json> HandleDescribeStream(EmulatorImpl& impl, CallContext& call,
                                  const Json& request);
Result<Json> HandleGetShardIterator(EmulatorImpl& impl, CallContext& call,
                                    const Json& request);
Result<Json> HandleGetRecords(EmulatorImpl& impl, CallContext& call,
                              const Json& request);

// A typed operation as a JSON handler: Parse (given the emulator's
// expression cache if it takes one), Execute, Render.
template <auto Parse, auto Execute, auto Render>
Result<Json> RunTyped(EmulatorImpl& impl, CallContext& call,
                      const Json& request) {
  auto parse = [&] {
    if constexpr (std::is_invocable_v<decltype(Parse), const Json&,
                                      ExpressionCache*>) {
      return Parse(request, ExpressionCacheOf(impl));
    } else {
      return Parse(request);
    }
  };
  DDBLAB_ASSIGN_OR_RETURN(auto r, parse());
  DDBLAB_ASSIGN_OR_RETURN(auto result, Execute(impl, call, r));
  return Render(r, result);
}

}  // namespace ddblab::engine
