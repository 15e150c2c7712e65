// emulator/engine/ops/ops_transact.h: the typed TransactWriteItems and
// TransactGetItems (ops_transact.cc); requests and their parsing are in
// transact_request.h. The pattern (Parse / Execute / Render) is described in
// operations.h.
//
// TransactWriteItems' Execute does the whole transaction under the engine
// lock, ClientRequestToken replay included (the token store is the
// emulator's, EmulatorImpl::transact_tokens()), and hands back the response
// body it built there.
//
// Thread-safety: requests and results are plain values owned by one caller;
// Execute takes the engine lock itself.
#pragma once

#include <memory>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/item_writer.h"
#include "emulator/engine/ops/transact_request.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"

namespace ddblab::engine {

class EmulatorImpl;
struct CallContext;

struct TransactWriteResult {
  Json body;  // the response body: ItemCollectionMetrics, ConsumedCapacity
};

// ParseTransactWriteItems, plus the TransactItems JSON kept for the
// ClientRequestToken check when a token is given.
Result<TransactWriteRequest> ParseTransactWrite(
    const Json& request, ExpressionCache* cache = nullptr);
Result<TransactWriteResult> ExecuteTransactWrite(EmulatorImpl& impl,
                                                 CallContext& call,
                                                 const TransactWriteRequest& r);
Result<Json> RenderTransactWrite(const TransactWriteRequest& r,
                                 TransactWriteResult& result);

struct TransactGetResult {
  struct Read {
    std::shared_ptr<const Table> table;
    ExistingItem item;
  };
  std::vector<Read> reads;  // one per action, in request order
};

Result<TransactGetRequest> ParseTransactGet(const Json& request,
                                            ExpressionCache* cache = nullptr);
Result<TransactGetResult> ExecuteTransactGet(EmulatorImpl& impl,
                                             CallContext& call,
                                             const TransactGetRequest& r);
Result<Json> RenderTransactGet(const TransactGetRequest& r,
                               TransactGetResult& result);

}  // namespace ddblab::engine
