// emulator/engine/ops/ops_read.h: the typed Query (ops_query.cc) and Scan
// (ops_scan.cc): Parse (no lock) -> XRequest, Execute (engine lock: table,
// index, start key, checks, one page read) -> ReadResult, Render (no lock:
// filter, projection, counts, LastEvaluatedKey, capacity; read_common.h).
// The pattern is described in operations.h.
//
// Thread-safety: requests and results are plain values owned by one caller
// (a QueryRequest with a legacy QueryFilter borrows it from the request JSON,
// which must outlive it); Execute takes the engine lock itself.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/engine/capacity/capacity.h"
#include "emulator/engine/key_term.h"
#include "emulator/engine/ops/expression_params.h"
#include "emulator/engine/ops/read_common.h"
#include "emulator/engine/request.h"
#include "emulator/engine/table.h"
#include "emulator/expr/expr.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::engine {

class EmulatorImpl;
struct CallContext;

struct QueryRequest {
  std::string table_name;  // as given (name or ARN)
  std::optional<std::string> index_name;
  std::optional<std::string> select;
  std::optional<int64_t> limit;
  bool consistent = false;
  bool forward = true;
  CapacityMode capacity = CapacityMode::kNone;
  std::optional<value::Item> start_key;
  std::vector<KeyTerm> terms;
  ExpressionParams expr;
  const Json* query_filter = nullptr;  // legacy QueryFilter (in the request)
};

struct ScanRequest {
  std::string table_name;  // as given (name or ARN)
  std::optional<std::string> index_name;
  std::optional<std::string> select;
  std::optional<int64_t> limit;
  bool consistent = false;
  CapacityMode capacity = CapacityMode::kNone;
  std::optional<value::Item> start_key;
  std::optional<ScanSegment> segment;
  ExpressionParams expr;
};

// One page as read under the lock, before filter and projection.
struct ReadResult {
  std::shared_ptr<const Table> table;
  const IndexDef* index = nullptr;  // owned by `table`
  SelectMode select = SelectMode::kAllAttributes;
  RawPage page;
};

Result<QueryRequest> ParseQuery(const Json& request,
                                ExpressionCache* cache = nullptr);
// ParseQuery's last step for a parsed KeyConditionExpression
// (r.expr.key_condition set): its terms into r.terms, and the structure
// errors that need no schema. For a caller that fills a QueryRequest itself
// (PartiQL: partiql_operations.h).
Status CollectKeyConditionTerms(QueryRequest& r);
Result<ReadResult> ExecuteQuery(EmulatorImpl& impl, CallContext& call,
                                const QueryRequest& r);
Result<Json> RenderQuery(const QueryRequest& r, ReadResult& result);

Result<ScanRequest> ParseScan(const Json& request,
                              ExpressionCache* cache = nullptr);
Result<ReadResult> ExecuteScan(EmulatorImpl& impl, CallContext& call,
                               const ScanRequest& r);
Result<Json> RenderScan(const ScanRequest& r, ReadResult& result);

}  // namespace ddblab::engine
