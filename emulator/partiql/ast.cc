#include "emulator/partiql/ast.h"

#include <utility>

namespace ddblab::partiql {

Expr::Expr() = default;
Expr::~Expr() = default;
Expr::Expr(Expr&&) noexcept = default;
Expr& Expr::operator=(Expr&&) noexcept = default;

const char* BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAnd:
      return "AND";
    case BinaryOp::kOr:
      return "OR";
    case BinaryOp::kEq:
      return "=";
    case BinaryOp::kNe:
      return "<>";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kConcat:
      return "||";
    case BinaryOp::kLike:
      return "LIKE";
  }
  return "?";
}

const char* ReturningText(Returning r) {
  switch (r) {
    case Returning::kNone:
      return "";
    case Returning::kAllOld:
      return "ALL OLD *";
    case Returning::kModifiedOld:
      return "MODIFIED OLD *";
    case Returning::kAllNew:
      return "ALL NEW *";
    case Returning::kModifiedNew:
      return "MODIFIED NEW *";
  }
  return "";
}

namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

std::string Join(const std::vector<ExprPtr>& args) {
  std::string out;
  for (const ExprPtr& arg : args) {
    out += " ";
    out += arg->DebugString();
  }
  return out;
}

}  // namespace

std::string Expr::DebugString() const {
  switch (kind) {
    case ExprKind::kLiteral:
      switch (literal) {
        case LiteralKind::kString:
          return Quote(text);
        case LiteralKind::kNumber:
          return text;
        case LiteralKind::kTrue:
          return "true";
        case LiteralKind::kFalse:
          return "false";
        case LiteralKind::kNull:
          return "null";
        case LiteralKind::kMissing:
          return "missing";
      }
      return "?";
    case ExprKind::kParameter:
      return "?" + std::to_string(param_index);
    case ExprKind::kPath: {
      std::string out = "(path " + (quoted ? "\"" + text + "\"" : text);
      for (const PathStep& step : steps) {
        out += " ";
        if (step.kind == PathStep::Kind::kMember) {
          out += step.name;
        } else {
          out += "[" + std::to_string(step.index) + "]";
        }
      }
      return out + ")";
    }
    case ExprKind::kCall:
      return "(call " + text + Join(args) + ")";
    case ExprKind::kNot:
      return "(not" + Join(args) + ")";
    case ExprKind::kNegate:
      return "(neg" + Join(args) + ")";
    case ExprKind::kBinary: {
      std::string name = BinaryOpText(op);
      if (op == BinaryOp::kAnd) name = "and";
      if (op == BinaryOp::kOr) name = "or";
      if (op == BinaryOp::kLike) name = "like";
      return "(" + name + Join(args) + ")";
    }
    case ExprKind::kBetween:
      return std::string(negated ? "(not-between" : "(between") + Join(args) +
             ")";
    case ExprKind::kIn:
      return std::string(negated ? "(not-in" : "(in") + Join(args) + ")";
    case ExprKind::kIs:
      return std::string(negated ? "(is-not" : "(is") + Join(args) + " " +
             type_name + ")";
    case ExprKind::kList:
      return "(list" + Join(args) + ")";
    case ExprKind::kBag:
      return "(bag" + Join(args) + ")";
    case ExprKind::kTuple:
      return "(tuple" + Join(args) + ")";
    case ExprKind::kExists:
      return "(exists " + (select ? select->DebugString() : "") + ")";
  }
  return "?";
}

std::string SelectStmt::DebugString() const {
  std::string out = "(select ";
  if (star) {
    out += "*";
  } else {
    out += "(" + Join(projection).substr(projection.empty() ? 0 : 1) + ")";
  }
  out += " from " + table;
  if (index) out += "." + *index;
  if (where) out += " where " + where->DebugString();
  for (const OrderBy& order : order_by) {
    out += " order-by " + order.key->DebugString() +
           (order.descending ? " desc" : " asc");
  }
  return out + ")";
}

std::string Statement::DebugString() const {
  switch (kind) {
    case Kind::kSelect:
      return select.DebugString();
    case Kind::kExists:
      return "(exists " + select.DebugString() + ")";
    case Kind::kInsert:
      return "(insert " + insert.table + " " + insert.value->DebugString() +
             ")";
    case Kind::kUpdate: {
      std::string out = "(update " + update.table;
      for (const UpdateAction& action : update.actions) {
        if (action.kind == UpdateAction::Kind::kSet) {
          out += " (set " + action.target->DebugString() + " " +
                 action.value->DebugString() + ")";
        } else {
          out += " (remove " + action.target->DebugString() + ")";
        }
      }
      if (update.where) out += " where " + update.where->DebugString();
      if (update.returning != Returning::kNone) {
        out += std::string(" returning ") + ReturningText(update.returning);
      }
      return out + ")";
    }
    case Kind::kDelete: {
      std::string out = "(delete " + del.table;
      if (del.where) out += " where " + del.where->DebugString();
      if (del.returning != Returning::kNone) {
        out += std::string(" returning ") + ReturningText(del.returning);
      }
      return out + ")";
    }
  }
  return "?";
}

}  // namespace ddblab::partiql
