// emulator/engine/ops/partiql_operations.h: the engine's
// partiql::Operations (emulator/partiql/op_request.h), what
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction
// (ops_partiql.cc) run their plans on.
//
// A table is described straight from the catalog (no DescribeTable). Each
// plan's OpRequest becomes its operation's typed request (ops_item.h,
// ops_read.h, transact_request.h) directly — no JSON request is written or
// parsed — with the checks the operation's Parse would make on such a
// request, in Parse's order and with its texts:
//   - an item's top-level attribute names (value/attribute_name.h), then
//     its size ("Item size has exceeded the maximum allowed size"), a
//     transaction's payload size;
//   - the placeholders (expr::Placeholders::FromDecoded), then the
//     expression texts, parsed by ParseExpressions (expression_params.h);
//     Query's key condition analysed as ParseQuery does;
//   - the start key of a NextToken, decoded as an ExclusiveStartKey is.
// The JSON-shape checks (types, lengths, enums) are not made again: the
// PartiQL request had them (ops_partiql.cc) and a plan cannot break them.
// Then the operation's Execute and Render run, in the PartiQL call's
// CallContext: its capacity ledger is charged (ExecuteTransaction's factor
// 2 applies to the transaction it runs). A ClientRequestToken is remembered
// with the TransactItems as DynamoDB JSON (partiql::TransactItemsJson), as
// a TransactWriteItems' are.
//
// Thread-safety: one per PartiQL call, used on its thread; Execute takes
// the engine lock itself (call WITHOUT it).
#pragma once

#include <string>

#include "emulator/api/result.h"
#include "emulator/engine/call_context.h"
#include "emulator/engine/request.h"
#include "emulator/partiql/op_request.h"
#include "emulator/partiql/table_info.h"

namespace ddblab::engine {

class EmulatorImpl;

class PartiqlOperations : public partiql::Operations {
 public:
  // Both must outlive this object.
  PartiqlOperations(EmulatorImpl& impl, CallContext& call)
      : impl_(impl), call_(call) {}

  Result<partiql::TableInfo> Describe(const std::string& table) override;
  Result<Json> Run(Operation op, partiql::OpRequest request) override;
  Result<Json> RunTransaction(partiql::TransactRequest request) override;

 private:
  EmulatorImpl& impl_;
  CallContext& call_;
};

}  // namespace ddblab::engine
