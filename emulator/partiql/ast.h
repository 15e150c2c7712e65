// emulator/partiql/ast.h: the syntax tree of one PartiQL statement.
//
// The parser builds it; the translator (translate.h) turns it into DynamoDB
// requests. Nodes own their children (unique_ptr). DebugString() renders a
// node as an S-expression for tests: (= (path pk) 'a').
//
// Thread-safety: plain values; not shared.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emulator/partiql/lexer.h"

namespace ddblab::partiql {

struct PathStep {
  enum class Kind { kMember, kIndex };
  Kind kind = Kind::kMember;
  std::string name;   // kMember
  int64_t index = 0;  // kIndex
  Position pos;
  friend bool operator==(const PathStep&, const PathStep&) = default;
};

enum class ExprKind {
  kLiteral,    // literal, text
  kParameter,  // param_index
  kPath,       // text (root name), steps
  kCall,       // text (function name, lower case), args
  kNot,        // args[0]
  kNegate,     // unary minus, args[0]
  kBinary,     // op, args[0], args[1]
  kBetween,    // negated, args: value, low, high
  kIn,         // negated, args[0] value, args[1] a kList (the operands)
  kIs,         // negated, args[0], type_name (MISSING, NULL, BOOLEAN, ...)
  kList,       // [a, b] or (a, b) after IN; args
  kBag,        // <<a, b>>; args
  kTuple,      // {k: v}; args alternate key, value
  kExists,     // EXISTS(SELECT ...): select
};

enum class LiteralKind { kString, kNumber, kTrue, kFalse, kNull, kMissing };

enum class BinaryOp {
  kAnd,
  kOr,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kConcat,
  kLike,
};

// The operator as DynamoDB expressions write it: "AND", "=", "<>", "+"...
const char* BinaryOpText(BinaryOp op);

struct SelectStmt;

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  Position pos;
  LiteralKind literal = LiteralKind::kNull;
  // kLiteral: the string value or the number text; kPath: the root name;
  // kCall: the function name in lower case.
  std::string text;
  bool quoted = false;  // kPath: the root name was "quoted"
  std::vector<PathStep> steps;
  int param_index = 0;  // kParameter: 0-based position of the '?'
  BinaryOp op = BinaryOp::kAnd;
  bool negated = false;  // NOT IN, NOT BETWEEN, IS NOT
  std::string type_name;
  std::vector<std::unique_ptr<Expr>> args;
  std::unique_ptr<SelectStmt> select;  // kExists

  Expr();
  ~Expr();
  Expr(Expr&&) noexcept;
  Expr& operator=(Expr&&) noexcept;

  bool IsPath() const { return kind == ExprKind::kPath; }
  // A path with no steps: a top-level attribute.
  bool IsTopLevelName() const { return IsPath() && steps.empty(); }
  std::string DebugString() const;
};

using ExprPtr = std::unique_ptr<Expr>;

struct OrderBy {
  ExprPtr key;
  bool descending = false;
};

struct SelectStmt {
  bool star = false;
  std::vector<ExprPtr> projection;  // when !star
  std::string table;
  std::optional<std::string> index;
  ExprPtr where;  // may be null
  std::vector<OrderBy> order_by;
  std::string DebugString() const;
};

enum class Returning { kNone, kAllOld, kModifiedOld, kAllNew, kModifiedNew };
const char* ReturningText(Returning r);  // "ALL OLD *", ...

struct UpdateAction {
  enum class Kind { kSet, kRemove };
  Kind kind = Kind::kSet;
  ExprPtr target;  // a path
  ExprPtr value;   // kSet
};

struct InsertStmt {
  std::string table;
  ExprPtr value;
};

struct UpdateStmt {
  std::string table;
  std::vector<UpdateAction> actions;
  ExprPtr where;
  Returning returning = Returning::kNone;
};

struct DeleteStmt {
  std::string table;
  ExprPtr where;
  Returning returning = Returning::kNone;
};

struct Statement {
  enum class Kind { kSelect, kInsert, kUpdate, kDelete, kExists };
  Kind kind = Kind::kSelect;
  SelectStmt select;  // kSelect and kExists (the SELECT inside EXISTS)
  InsertStmt insert;
  UpdateStmt update;
  DeleteStmt del;
  int parameter_count = 0;  // number of '?' in the statement
  std::string DebugString() const;
};

}  // namespace ddblab::partiql
