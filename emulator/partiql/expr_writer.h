// emulator/partiql/expr_writer.h: writes PartiQL conditions, paths and
// update actions as DynamoDB expressions with placeholders.
//
// Every attribute name becomes a "#nK" placeholder (the same name reuses its
// placeholder) and every value a ":vK" placeholder, so reserved words and
// odd characters never matter. The placeholders' names and values go to the
// plan's OpRequest (op_request.h) as typed values. Conditions are written with
// the fewest parentheses their structure needs: DynamoDB rejects redundant
// ones.
//
// The PartiQL-specific refusals raised here (texts from DynamoDB Local's
// message catalog unless marked pinned):
//   "Unrecognized function: <f> at <pos>"         (pinned on AWS)
//   "Operator or function requires a document path; operator or function: <f>"
//                                                  (pinned on AWS)
//   "Incorrect number of operands for operator or function; operator or
//    function: <f>, number of operands: <n>"       (pinned on AWS)
//   "MISSING must be compared using IS operator"
//   "Unsupported data type for IS operator: <T>. Supported data types are
//    [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"
//   "Unsupported operator in Condition Expression. Operator: <op>"
//   "WHERE clause must contain an expression that resolves to a boolean"
//   "IN operator must have a left hand argument of type Variable Reference
//    and right hand argument of type Seq with at least one member"
//
// Thread-safety: one writer per request, not shared.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "emulator/api/result.h"
#include "emulator/partiql/ast.h"
#include "emulator/partiql/literal.h"
#include "emulator/partiql/op_request.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::partiql {

class ExprWriter {
 public:
  explicit ExprWriter(const ValueBuilder& values) : values_(values) {}

  // "#nK" for an attribute name.
  std::string Name(const std::string& attribute);
  // ":vK" for a value.
  std::string Value(value::AttributeValue value);
  // A document path: "#n0.#n1[2]".
  Result<std::string> Path(const Expr& path);
  // A condition (WHERE clause, or a part of it).
  Result<std::string> Condition(const Expr& e);
  // Several conditions joined with AND.
  Result<std::string> Conjunction(const std::vector<const Expr*>& parts);
  // An operand of a comparison: a path, a value or size(path).
  Result<std::string> Operand(const Expr& e);
  // The right-hand side of SET (path, value, +/-, list_append,
  // if_not_exists).
  Result<std::string> SetValue(const Expr& e);

  // Moves the names and values used so far into `request` (its
  // ExpressionAttributeNames / Values); call once, when done writing.
  void MoveTo(OpRequest* request);

 private:
  // Writes `e` as a condition; `level` is the binding strength of the
  // result (1 OR, 2 AND, 3 NOT, 4 anything else).
  Result<std::string> ConditionAt(const Expr& e, int* level);
  Result<std::string> Wrapped(const Expr& e, int min_level);
  Result<std::string> Call(const Expr& e);
  Result<std::string> Is(const Expr& e);
  Result<std::string> In(const Expr& e);
  Result<std::string> SetOperand(const Expr& e);

  const ValueBuilder& values_;
  std::map<std::string, std::string> name_placeholders_;
  std::vector<std::pair<std::string, std::string>> names_;
  std::vector<std::pair<std::string, value::AttributeValue>> values_out_;
};

// A condition function's refusals (arity, document path), shared with the
// translator: "Incorrect number of operands ..." / "Operator or function
// requires a document path ...". Null error when `e` is acceptable.
Status CheckConditionFunction(const Expr& e);

// True for the functions DynamoDB conditions know.
bool IsConditionFunction(const std::string& name);

Error UnrecognizedFunction(const Expr& call);

}  // namespace ddblab::partiql
