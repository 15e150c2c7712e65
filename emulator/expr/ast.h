// emulator/expr/ast.h: the parsed, resolved form of every expression kind.
//
// Parsing (parser.h) produces these trees with placeholders already
// substituted; evaluation lives apart (eval_condition.h, eval_update.h,
// projection.h, key_condition.h). The types are plain public structs so that
// other code (legacy Expected / QueryFilter / AttributeUpdates conversions)
// can build them directly.
//
// Thread-safety: plain value types; immutable once built, safe to share.
#pragma once

#include <string_view>
#include <vector>

#include "emulator/expr/path.h"
#include "emulator/value/attribute_value.h"

namespace ddblab::expr {

enum class ExpressionKind {
  kCondition,
  kFilter,
  kKeyCondition,
  kUpdate,
  kProjection,
  kSearchCondition,  // SearchVectors' SearchConditionExpression
};

// "ConditionExpression", "FilterExpression", ... as used in the
// "Invalid <Param>: ..." prefix of every parse error.
constexpr std::string_view ParamName(ExpressionKind kind) {
  switch (kind) {
    case ExpressionKind::kCondition:
      return "ConditionExpression";
    case ExpressionKind::kFilter:
      return "FilterExpression";
    case ExpressionKind::kKeyCondition:
      return "KeyConditionExpression";
    case ExpressionKind::kUpdate:
      return "UpdateExpression";
    case ExpressionKind::kProjection:
      return "ProjectionExpression";
    case ExpressionKind::kSearchCondition:
      return "SearchConditionExpression";
  }
  return "Expression";
}

// ---------------------------------------------------------------------------
// Condition / filter / key-condition expressions.

// A value inside a condition: an attribute of the item, a constant, or
// size() of either.
struct Operand {
  enum class Kind { kPath, kValue, kSize };
  Kind kind = Kind::kValue;
  DocumentPath path;            // kPath; kSize of an attribute (non-empty)
  value::AttributeValue value;  // kValue; kSize of a constant (path empty)

  static Operand Path(DocumentPath p) {
    Operand o;
    o.kind = Kind::kPath;
    o.path = std::move(p);
    return o;
  }
  static Operand Value(value::AttributeValue v) {
    Operand o;
    o.kind = Kind::kValue;
    o.value = std::move(v);
    return o;
  }
  static Operand SizeOf(DocumentPath p) {
    Operand o;
    o.kind = Kind::kSize;
    o.path = std::move(p);
    return o;
  }
  static Operand SizeOfValue(value::AttributeValue v) {
    Operand o;
    o.kind = Kind::kSize;
    o.value = std::move(v);
    return o;
  }
};

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };

// "=", "<>", "<", "<=", ">", ">=".
constexpr std::string_view CompareOpSymbol(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "<>";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "=";
}

struct Condition {
  enum class Kind {
    kCompare,             // operands[0] op operands[1]
    kBetween,             // operands[0] BETWEEN operands[1] AND operands[2]
    kIn,                  // operands[0] IN (operands[1..])
    kAnd,                 // all children (2 or more)
    kOr,                  // any child (2 or more)
    kNot,                 // children[0]
    kAttributeExists,     // operands[0] is a path
    kAttributeNotExists,  // operands[0] is a path
    kAttributeType,       // type of operands[0] == attribute_type
    kBeginsWith,          // begins_with(operands[0], operands[1])
    kContains,            // contains(operands[0], operands[1])
  };
  Kind kind = Kind::kCompare;
  CompareOp op = CompareOp::kEq;  // kCompare
  std::vector<Operand> operands;
  std::vector<Condition> children;
  value::AttributeValue::Type attribute_type =
      value::AttributeValue::Type::kS;  // kAttributeType

  static Condition Compare(CompareOp op, Operand a, Operand b) {
    Condition c;
    c.kind = Kind::kCompare;
    c.op = op;
    c.operands.reserve(2);
    c.operands.push_back(std::move(a));
    c.operands.push_back(std::move(b));
    return c;
  }
  static Condition Between(Operand x, Operand lo, Operand hi) {
    Condition c;
    c.kind = Kind::kBetween;
    c.operands.reserve(3);
    c.operands.push_back(std::move(x));
    c.operands.push_back(std::move(lo));
    c.operands.push_back(std::move(hi));
    return c;
  }
  static Condition Function(Kind kind, std::vector<Operand> args) {
    Condition c;
    c.kind = kind;
    c.operands = std::move(args);
    return c;
  }
  static Condition Logical(Kind kind, std::vector<Condition> children) {
    Condition c;
    c.kind = kind;
    c.children = std::move(children);
    return c;
  }
  static Condition Not(Condition child) {
    Condition c;
    c.kind = Kind::kNot;
    c.children.push_back(std::move(child));
    return c;
  }
};

struct ConditionExpression {
  Condition root;
};

// ---------------------------------------------------------------------------
// Update expressions.

// The right-hand side of a SET action.
struct UpdateValue {
  enum class Kind {
    kPath,         // the attribute's value (must exist)
    kValue,        // a constant
    kIfNotExists,  // path's value if present, else args[0]
    kListAppend,   // args[0] followed by args[1] (both lists)
    kPlus,         // args[0] + args[1] (numbers)
    kMinus,        // args[0] - args[1] (numbers)
  };
  Kind kind = Kind::kValue;
  DocumentPath path;            // kPath, kIfNotExists
  value::AttributeValue value;  // kValue
  std::vector<UpdateValue> args;

  static UpdateValue Path(DocumentPath p) {
    UpdateValue v;
    v.kind = Kind::kPath;
    v.path = std::move(p);
    return v;
  }
  static UpdateValue Value(value::AttributeValue a) {
    UpdateValue v;
    v.kind = Kind::kValue;
    v.value = std::move(a);
    return v;
  }
  static UpdateValue Call(Kind kind, std::vector<UpdateValue> args,
                          DocumentPath path = {}) {
    UpdateValue v;
    v.kind = kind;
    v.args = std::move(args);
    v.path = std::move(path);
    return v;
  }
};

struct UpdateAction {
  enum class Kind { kSet, kRemove, kAdd, kDelete };
  Kind kind = Kind::kSet;
  DocumentPath path;              // the target
  UpdateValue value;              // kSet
  value::AttributeValue operand;  // kAdd, kDelete: number or set (ADD may
                                  // also take a list: legacy AttributeUpdates)

  static UpdateAction Set(DocumentPath p, UpdateValue v) {
    UpdateAction a;
    a.kind = Kind::kSet;
    a.path = std::move(p);
    a.value = std::move(v);
    return a;
  }
  static UpdateAction Remove(DocumentPath p) {
    UpdateAction a;
    a.kind = Kind::kRemove;
    a.path = std::move(p);
    return a;
  }
  static UpdateAction Add(DocumentPath p, value::AttributeValue v) {
    UpdateAction a;
    a.kind = Kind::kAdd;
    a.path = std::move(p);
    a.operand = std::move(v);
    return a;
  }
  static UpdateAction Delete(DocumentPath p, value::AttributeValue v) {
    UpdateAction a;
    a.kind = Kind::kDelete;
    a.path = std::move(p);
    a.operand = std::move(v);
    return a;
  }
};

struct UpdateExpression {
  // In the order written (clauses in any order; actions of one clause in
  // order). Targets never overlap (the parser rejects that).
  std::vector<UpdateAction> actions;
};

// ---------------------------------------------------------------------------
// Projection expressions.

struct ProjectionExpression {
  std::vector<DocumentPath> paths;
};

}  // namespace ddblab::expr
