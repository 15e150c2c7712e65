// emulator/partiql/translate.h: a parsed statement -> the DynamoDB request
// that carries it out (the "plan": an operation and its typed OpRequest,
// op_request.h).
//
// SELECT becomes GetItem (equality on the whole primary key and nothing
// else), Query (equality on the partition key of the table or of the index
// named by FROM "t"."i", optionally with one sort-key condition; the rest of
// the WHERE is the FilterExpression), or Scan (anything else; the WHERE is
// the FilterExpression). INSERT becomes PutItem guarded by
// attribute_not_exists(<partition key>), UPDATE becomes UpdateItem guarded by
// attribute_exists(<partition key>) (DynamoDB fails an UPDATE of a missing
// item with ConditionalCheckFailedException and creates nothing), DELETE
// becomes DeleteItem, and EXISTS(SELECT ...) a transaction ConditionCheck.
// Conditions of a write beyond its key become its ConditionExpression.
//
// Refusals (texts from DynamoDB Local's message catalog unless marked):
//   "Where clause does not contain a mandatory equality on all key
//    attributes"                                     (pinned on AWS)
//   "Select statements within BatchExecuteStatement must specify the primary
//    key in the where clause."                       (pinned on AWS)
//   "Select statements within ExecuteTransaction must specify the primary
//    key in the where clause."                       (pinned on AWS)
//   "EXISTS() must contain a single item read with additional condition"
//                                                     (pinned on AWS)
//   "Unexpected path component at <pos>"             (pinned on AWS)
//   "The first argument to SET_ADD must equal the assignment value at <pos>",
//   "The second argument to SET_ADD must be a value with type SET at <pos>",
//   "SET_ADD must have exactly two arguments at <pos>" (pinned on AWS; the
//    same for SET_DELETE)
//   "One or more parameter values were invalid: Global secondary index <i>
//    does not project [<a>, <b>]"                    (pinned on AWS)
//   "RETURNING clause is not supported in ExecuteTransaction." (DynamoDB
//    Local; an emulator pins it on AWS)
//   "Invalid returning clause: RETURNING <r>. Only RETURNING ALL OLD * is
//    allowed in DELETE statements."
//   key attribute, ORDER BY and index texts listed in translate.cc.
//
// Thread-safety: stateless functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "emulator/api/operation.h"
#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"
#include "emulator/partiql/op_request.h"
#include "emulator/partiql/table_info.h"

namespace ddblab::partiql {

// Which API runs the statement: the rules for reads differ.
enum class Surface { kExecuteStatement, kBatch, kTransaction };

struct PlanOptions {
  Surface surface = Surface::kExecuteStatement;
  bool consistent_read = false;
  // ReturnValuesOnConditionCheckFailure of the request, or empty.
  std::string return_values_on_condition_check_failure;
};

struct Plan {
  // A read (SELECT) or a write (INSERT, UPDATE, DELETE, EXISTS).
  bool read = false;
  // GetItem, Query, Scan, PutItem, UpdateItem or DeleteItem; for a
  // ConditionCheck action (transactions only) condition_check is set and
  // `op` means nothing.
  Operation op = Operation::kGetItem;
  bool condition_check = false;
  OpRequest request;
  // INSERT: a failed condition means the key exists (DuplicateItem).
  bool insert = false;
  // SELECT: the projection when one of its paths ends in a map member below
  // the top level (e.g. m.nested); empty otherwise. Such a path comes back
  // as its own attribute named by its last member ({"nested": ...}), not
  // inside its enclosing map: ShapeItem() does that.
  std::vector<std::vector<PathStep>> projection;

  // "Query {...request...}" for tests.
  std::string DebugString() const;
};

// A SELECT's result item as DynamoDB shapes it (see Plan::projection);
// `item` unchanged when the plan has no such projection.
nlohmann::json ShapeItem(const Plan& plan, nlohmann::json item);

// The table the statement names.
const std::string& StatementTable(const Statement& statement);
// True for SELECT.
bool IsReadStatement(const Statement& statement);

Result<Plan> Translate(const Statement& statement, const TableInfo& table,
                       const nlohmann::json& parameters,
                       const PlanOptions& options);

}  // namespace ddblab::partiql
