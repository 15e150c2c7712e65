// emulator/expr/parser_condition.cc: ConditionExpression / FilterExpression /
// KeyConditionExpression grammar (DynamoDB's expression rules).
//
//   or      := and { OR and }
//   and     := not { AND not }
//   not     := NOT not | primary
//   primary := '(' or ')'                      -- a condition in parentheses
//            | operand comparator operand
//            | operand BETWEEN operand AND operand
//            | operand IN '(' operand {',' operand} ')'
//            | function                        -- a boolean function call
//   operand := ':v' | path | name '(' operand {',' operand} ')'
//            | '(' operand ')' [path steps]
// A parenthesised operand at the start of a condition, `(a) < :v`, is
// recognised after its ')' by what follows, so the parser never backtracks.
// Semantic checks live in parser_condition_checks.cc.
#include <utility>

#include "emulator/expr/parser.h"
#include "emulator/expr/parser_condition_internal.h"

namespace ddblab::expr {
namespace internal {

bool ConditionParser::IsGrammarKeyword(const Token& t) const {
  return t.IsKeyword("AND") || t.IsKeyword("OR") || t.IsKeyword("NOT") ||
         t.IsKeyword("BETWEEN") || t.IsKeyword("IN");
}

bool ConditionParser::AtConditionTail() const {
  switch (cur().kind) {
    case TokenKind::kEq:
    case TokenKind::kNe:
    case TokenKind::kLt:
    case TokenKind::kLe:
    case TokenKind::kGt:
    case TokenKind::kGe:
      return true;
    default:
      return cur().IsKeyword("BETWEEN") || cur().IsKeyword("IN");
  }
}

Result<ConditionExpression> ConditionParser::Run() {
  PNode root;
  if (!ParseOr(&root, false) ||
      (cur().kind != TokenKind::kEof && !SyntaxError())) {
    return *std::move(fatal_);
  }
  ConditionComplete();
  for (const Slot* slot : {&parens_, &unknown_function_, &misused_function_,
                           &reserved_, &condition_}) {
    if (*slot) return InvalidExpression(kind_, **slot);
  }
  if (incomplete_) {
    // Unreachable: an operand is only dropped when an error was recorded.
    return Error::Internal("ConditionExpression could not be resolved");
  }
  ConditionExpression expr;
  expr.root = std::move(root.cond);
  return expr;
}

bool ConditionParser::ParseOr(PNode* out, bool allow_operand) {
  if (!ParseAnd(out, allow_operand)) return false;
  if (out->is_operand || !cur().IsKeyword("OR")) return true;
  std::vector<Condition> children;
  children.reserve(2);
  children.push_back(std::move(out->cond));
  while (cur().IsKeyword("OR")) {
    if (!CountOperator()) return false;
    Advance();
    PNode right;
    if (!ParseAnd(&right, false)) return false;
    children.push_back(std::move(right.cond));
  }
  out->cond = Condition::Logical(Condition::Kind::kOr, std::move(children));
  out->parens = 0;
  return true;
}

bool ConditionParser::ParseAnd(PNode* out, bool allow_operand) {
  if (!ParseNot(out, allow_operand)) return false;
  if (out->is_operand || !cur().IsKeyword("AND")) return true;
  std::vector<Condition> children;
  children.reserve(2);
  children.push_back(std::move(out->cond));
  while (cur().IsKeyword("AND")) {
    if (!CountOperator()) return false;
    Advance();
    PNode right;
    if (!ParseNot(&right, false)) return false;
    children.push_back(std::move(right.cond));
  }
  out->cond = Condition::Logical(Condition::Kind::kAnd, std::move(children));
  out->parens = 0;
  return true;
}

bool ConditionParser::ParseNot(PNode* out, bool allow_operand) {
  if (!cur().IsKeyword("NOT")) return ParsePrimary(out, allow_operand);
  // NOT chains need no nesting guard: the operator limit bounds them.
  if (!CountOperator()) return false;
  Advance();
  PNode child;
  if (!ParseNot(&child, false)) return false;
  out->is_operand = false;
  out->parens = 0;
  out->cond = Condition::Not(std::move(child.cond));
  return true;
}

bool ConditionParser::ParsePrimary(PNode* out, bool allow_operand) {
  if (cur().kind == TokenKind::kLParen) {
    if (!EnterNesting()) return false;
    Advance();
    PNode inner;
    if (!ParseOr(&inner, true) || !Expect(TokenKind::kRParen)) return false;
    LeaveNesting();
    if (!inner.is_operand) {
      if (inner.parens > 0)
        Note(parens_, "The expression has redundant parentheses;");
      *out = std::move(inner);
      out->parens++;
      return true;
    }
    POperand& op = inner.operand;
    if (op.parens > 0)
      Note(parens_, "The expression has redundant parentheses;");
    op.parens++;
    if (op.kind == POperand::Kind::kPath &&
        (cur().kind == TokenKind::kDot || cur().kind == TokenKind::kLBracket)) {
      if (!ParsePathTail(&op.path, &op.resolved)) return false;
    }
    if (AtConditionTail()) return ParseConditionTail(std::move(op), out);
    if (allow_operand && cur().kind == TokenKind::kRParen) {
      *out = std::move(inner);
      return true;
    }
    if (op.kind == POperand::Kind::kFunction) {  // `(f(x))` as a condition
      const int parens = op.parens;
      out->is_operand = false;
      out->cond = FunctionCondition(std::move(op));
      out->parens = parens;
      return true;
    }
    return SyntaxError();
  }
  POperand op;
  if (!ParseOperand(&op)) return false;
  if (AtConditionTail()) return ParseConditionTail(std::move(op), out);
  // Inside parentheses an operand (even a function call) may still be
  // followed by a comparator after the ')'; decide there.
  if (allow_operand && cur().kind == TokenKind::kRParen) {
    out->is_operand = true;
    out->parens = 0;
    out->operand = std::move(op);
    return true;
  }
  if (op.kind == POperand::Kind::kFunction) {
    out->is_operand = false;
    out->parens = 0;
    out->cond = FunctionCondition(std::move(op));
    return true;
  }
  return SyntaxError();
}

bool ConditionParser::ParseConditionTail(POperand left, PNode* out) {
  out->is_operand = false;
  out->parens = 0;
  if (!CountOperator()) return false;
  if (cur().IsKeyword("BETWEEN")) {
    Advance();
    POperand lo, hi;
    if (!ParseOperand(&lo)) return false;
    if (!cur().IsKeyword("AND")) return SyntaxError();
    Advance();
    if (!ParseOperand(&hi)) return false;
    CheckMisused(left);
    CheckMisused(lo);
    CheckMisused(hi);
    CheckOrderable("BETWEEN", left);
    CheckOrderable("BETWEEN", lo);
    CheckOrderable("BETWEEN", hi);
    CheckBetweenBounds(lo, hi);
    Operand x, l, h;
    bool ok = ToOperand(std::move(left), &x);
    ok = ToOperand(std::move(lo), &l) && ok;
    ok = ToOperand(std::move(hi), &h) && ok;
    if (ok)
      out->cond = Condition::Between(std::move(x), std::move(l), std::move(h));
    ConditionComplete();
    return true;
  }
  if (cur().IsKeyword("IN")) {
    Advance();
    if (!Expect(TokenKind::kLParen)) return false;
    std::vector<POperand> list;
    while (true) {
      POperand item;
      if (!ParseOperand(&item)) return false;
      list.push_back(std::move(item));
      if (list.size() > static_cast<size_t>(kMaxInOperands)) {
        return Fail(InvalidExpression(
            kind_,
            "The IN operator is provided with too many operands; number of "
            "operands: " +
                std::to_string(list.size())));
      }
      if (cur().kind != TokenKind::kComma) break;
      Advance();
    }
    if (!Expect(TokenKind::kRParen)) return false;
    CheckMisused(left);
    for (const POperand& p : list) CheckMisused(p);
    Condition c;
    c.kind = Condition::Kind::kIn;
    bool ok = true;
    Operand o;
    ok = ToOperand(std::move(left), &o);
    c.operands.push_back(std::move(o));
    for (POperand& p : list) {
      ok = ToOperand(std::move(p), &o) && ok;
      c.operands.push_back(std::move(o));
    }
    if (ok) out->cond = std::move(c);
    ConditionComplete();
    return true;
  }
  CompareOp op;
  switch (cur().kind) {
    case TokenKind::kEq:
      op = CompareOp::kEq;
      break;
    case TokenKind::kNe:
      op = CompareOp::kNe;
      break;
    case TokenKind::kLt:
      op = CompareOp::kLt;
      break;
    case TokenKind::kLe:
      op = CompareOp::kLe;
      break;
    case TokenKind::kGt:
      op = CompareOp::kGt;
      break;
    default:
      op = CompareOp::kGe;
      break;
  }
  Advance();
  POperand right;
  if (!ParseOperand(&right)) return false;
  CheckMisused(left);
  CheckMisused(right);
  CheckDistinct(CompareOpSymbol(op), left, right);
  if (op != CompareOp::kEq && op != CompareOp::kNe) {
    CheckOrderable(CompareOpSymbol(op), left);
    CheckOrderable(CompareOpSymbol(op), right);
  }
  Operand a, b;
  bool ok = ToOperand(std::move(left), &a);
  ok = ToOperand(std::move(right), &b) && ok;
  if (ok) out->cond = Condition::Compare(op, std::move(a), std::move(b));
  ConditionComplete();
  return true;
}

bool ConditionParser::ParseOperand(POperand* out) {
  const Token& t = cur();
  switch (t.kind) {
    case TokenKind::kLParen: {
      if (!EnterNesting()) return false;
      Advance();
      if (!ParseOperand(out) || !Expect(TokenKind::kRParen)) return false;
      LeaveNesting();
      if (out->parens > 0)
        Note(parens_, "The expression has redundant parentheses;");
      out->parens++;
      if (out->kind == POperand::Kind::kPath &&
          (cur().kind == TokenKind::kDot ||
           cur().kind == TokenKind::kLBracket)) {
        return ParsePathTail(&out->path, &out->resolved);
      }
      return true;
    }
    case TokenKind::kValuePlaceholder: {
      out->kind = POperand::Kind::kValue;
      const value::AttributeValue* v = ResolveValue(t);
      if (v != nullptr) {
        out->value = *v;
        out->has_type = true;
        out->type = v->type();
      } else {
        out->resolved = false;
      }
      Advance();
      return true;
    }
    case TokenKind::kName:
      if (!IsGrammarKeyword(t) && Peek().kind == TokenKind::kLParen) {
        out->kind = POperand::Kind::kFunction;
        out->name = t.text;
        Advance();
        Advance();
        if (!EnterNesting()) return false;
        out->args.reserve(2);
        while (true) {
          POperand arg;
          if (!ParseOperand(&arg)) return false;
          out->args.push_back(std::move(arg));
          if (cur().kind != TokenKind::kComma) break;
          Advance();
        }
        if (!Expect(TokenKind::kRParen)) return false;
        LeaveNesting();
        CheckFunctionCall(out);
        return true;
      }
      [[fallthrough]];
    case TokenKind::kNamePlaceholder:
      out->kind = POperand::Kind::kPath;
      return ParsePath(&out->path, &out->resolved);
    default:
      return SyntaxError();
  }
}

}  // namespace internal

Result<ConditionExpression> ParseCondition(std::string_view text,
                                           ExpressionKind kind,
                                           Placeholders& ph) {
  if (auto e = internal::CheckExpressionText(text, kind)) return *std::move(e);
  internal::ConditionParser parser(text, kind, ph);
  return parser.Run();
}

}  // namespace ddblab::expr
