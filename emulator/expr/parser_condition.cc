// emulator/expr/parser_condition.cc: ConditionExpression / FilterExpression /
// KeyConditionExpression grammar (shared/spec/expressions.md §3).
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
#include <utility>

#include "emulator/expr/parser.h"
#include "emulator/expr/parser_internal.h"
#include "emulator/value/codec.h"

namespace ddblab::expr {
namespace {

using internal::Note;
using internal::Slot;
using value::AttributeValue;
using Type = AttributeValue::Type;

// An operand while parsing: may still be any function call, which the
// semantic checks then accept (size) or reject.
struct POperand {
  enum class Kind { kPath, kValue, kFunction };
  Kind kind = Kind::kValue;
  DocumentPath path;
  AttributeValue value;
  std::string_view name;  // kFunction
  std::vector<POperand> args;
  int parens = 0;
  bool resolved = true;  // all placeholders defined
  bool has_type = false;  // statically known type (constants, size(), ...)
  Type type = Type::kNull;
};

// A parsed primary: a condition, or (only inside parentheses) an operand
// still waiting for its comparator.
struct PNode {
  bool is_operand = false;
  POperand operand;
  Condition cond;
  int parens = 0;
};

enum class Func {
  kUnknown,
  kAttributeExists,
  kAttributeNotExists,
  kAttributeType,
  kBeginsWith,
  kContains,
  kSize,
  kUpdateOnly,  // list_append, if_not_exists
};

Func LookupFunction(std::string_view name) {
  if (name == "attribute_exists") return Func::kAttributeExists;
  if (name == "attribute_not_exists") return Func::kAttributeNotExists;
  if (name == "attribute_type") return Func::kAttributeType;
  if (name == "begins_with") return Func::kBeginsWith;
  if (name == "contains") return Func::kContains;
  if (name == "size") return Func::kSize;
  if (name == "list_append" || name == "if_not_exists") {
    return Func::kUpdateOnly;
  }
  return Func::kUnknown;
}

bool IsBooleanFunction(Func f) {
  return f == Func::kAttributeExists || f == Func::kAttributeNotExists ||
         f == Func::kAttributeType || f == Func::kBeginsWith ||
         f == Func::kContains;
}

size_t Arity(Func f) {
  switch (f) {
    case Func::kAttributeExists:
    case Func::kAttributeNotExists:
    case Func::kSize:
      return 1;
    default:
      return 2;
  }
}

bool IsScalarType(Type t) {
  return t == Type::kS || t == Type::kN || t == Type::kB;
}

// "{N:1}" as DynamoDB renders a constant in BETWEEN messages.
std::string RenderConstant(const AttributeValue& v) {
  std::string out = "{";
  out += AttributeValue::TypeName(v.type());
  out += ":";
  switch (v.type()) {
    case Type::kS:
      out += v.s();
      break;
    case Type::kN:
      out += v.n().ToString();
      break;
    case Type::kB:
      out += value::Base64Encode(v.b());
      break;
    case Type::kBool:
      out += v.boolean() ? "true" : "false";
      break;
    case Type::kNull:
      out += "true";
      break;
    default:
      out += value::EncodeAttributeValue(v).dump();
      break;
  }
  out += "}";
  return out;
}

// -1, 0, 1 for two values of the same scalar type.
int CompareScalars(const AttributeValue& a, const AttributeValue& b) {
  switch (a.type()) {
    case Type::kN: {
      auto c = a.n() <=> b.n();
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Type::kS: {
      int c = a.s().compare(b.s());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Type::kB: {
      int c = a.b().compare(b.b());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return 0;
  }
}

std::string OperandTypeMessage(std::string_view op, std::string_view type) {
  std::string msg =
      "Incorrect operand type for operator or function; operator or "
      "function: ";
  msg += op;
  msg += ", operand type: ";
  msg += type;
  return msg;
}

std::string MisusedMessage(std::string_view name) {
  return "The function is not allowed to be used this way in an expression; "
         "function: " +
         std::string(name);
}

class ConditionParser final : public internal::ParserBase {
 public:
  ConditionParser(std::string_view text, ExpressionKind kind, Placeholders& ph)
      : ParserBase(text, kind, ph) {}

  Result<ConditionExpression> Run();

 private:
  bool IsGrammarKeyword(const Token& t) const override {
    return t.IsKeyword("AND") || t.IsKeyword("OR") || t.IsKeyword("NOT") ||
           t.IsKeyword("BETWEEN") || t.IsKeyword("IN");
  }
  bool AtConditionTail() const {
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

  bool ParseOr(PNode* out, bool allow_operand);
  bool ParseAnd(PNode* out, bool allow_operand);
  bool ParseNot(PNode* out, bool allow_operand);
  bool ParsePrimary(PNode* out, bool allow_operand);
  bool ParseConditionTail(POperand left, PNode* out);
  bool ParseOperand(POperand* out);

  // Semantic checks (recorded in slots, never fatal).
  void CheckFunctionCall(POperand* call);
  void CheckMisused(const POperand& arg);
  void CheckDistinct(std::string_view op, const POperand& a,
                     const POperand& b);
  void CheckOrderable(std::string_view op, const POperand& x);
  void ConditionComplete();
  Condition FunctionCondition(POperand call);

  // Converts a checked operand; false if it cannot appear in the AST (only
  // possible when an error has been recorded).
  bool ToOperand(POperand p, Operand* out);
  bool ToOperandImpl(POperand p, Operand* out);

  Slot parens_;
  Slot unknown_function_;
  Slot misused_function_;
  Slot operand_count_;
  Slot distinct_;
  Slot function_;
  Slot condition_;  // the first condition that had any of the four above
  bool incomplete_ = false;
};

Result<ConditionExpression> ConditionParser::Run() {
  PNode root;
  if (!ParseOr(&root, false) ||
      (cur().kind != TokenKind::kEof && !SyntaxError())) {
    return *std::move(fatal_);
  }
  ConditionComplete();
  for (const Slot* slot : {&parens_, &unknown_function_, &misused_function_,
                           &reserved_, &condition_}) {
    if (*slot) return internal::InvalidExpression(kind_, **slot);
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
      if (inner.parens > 0) Note(parens_, "The expression has redundant parentheses;");
      *out = std::move(inner);
      out->parens++;
      return true;
    }
    POperand& op = inner.operand;
    if (op.parens > 0) Note(parens_, "The expression has redundant parentheses;");
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
    if (lo.kind == POperand::Kind::kValue && hi.kind == POperand::Kind::kValue &&
        lo.resolved && hi.resolved) {
      std::string bounds = "lower bound operand: AttributeValue: " +
                           RenderConstant(lo.value) +
                           ", upper bound operand: AttributeValue: " +
                           RenderConstant(hi.value);
      if (lo.value.type() != hi.value.type()) {
        Note(function_,
             "The BETWEEN operator requires same data type for lower and "
             "upper bounds; " +
                 bounds);
      } else if (IsScalarType(lo.value.type()) &&
                 CompareScalars(lo.value, hi.value) > 0) {
        Note(function_,
             "The BETWEEN operator requires upper bound to be greater than or "
             "equal to lower bound; " +
                 bounds);
      }
    }
    Operand x, l, h;
    bool ok = ToOperand(std::move(left), &x);
    ok = ToOperand(std::move(lo), &l) && ok;
    ok = ToOperand(std::move(hi), &h) && ok;
    if (ok) out->cond = Condition::Between(std::move(x), std::move(l), std::move(h));
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
        return Fail(internal::InvalidExpression(
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
      if (out->parens > 0) Note(parens_, "The expression has redundant parentheses;");
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
      const AttributeValue* v = ResolveValue(t);
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

void ConditionParser::CheckMisused(const POperand& arg) {
  if (arg.kind == POperand::Kind::kFunction && arg.name != "size") {
    Note(misused_function_, MisusedMessage(arg.name));
  }
}

void ConditionParser::CheckDistinct(std::string_view op, const POperand& a,
                                    const POperand& b) {
  if (a.kind != POperand::Kind::kPath || b.kind != POperand::Kind::kPath ||
      !a.resolved || !b.resolved || !(a.path == b.path)) {
    return;
  }
  Note(distinct_,
       "The first operand must be distinct from the remaining operands for "
       "this operator or function; operator: " +
           std::string(op) + ", first operand: " + RenderPath(a.path));
}

void ConditionParser::CheckOrderable(std::string_view op, const POperand& x) {
  if (x.kind == POperand::Kind::kValue && x.has_type &&
      !IsScalarType(x.type)) {
    Note(function_,
         OperandTypeMessage(op, AttributeValue::TypeName(x.type)));
  }
}

void ConditionParser::CheckFunctionCall(POperand* call) {
  for (const POperand& arg : call->args) CheckMisused(arg);
  const Func f = LookupFunction(call->name);
  if (f == Func::kUnknown) {
    Note(unknown_function_,
         "Invalid function name; function: " + std::string(call->name));
    return;
  }
  if (f == Func::kUpdateOnly) {
    Note(misused_function_, MisusedMessage(call->name));
    return;
  }
  if (call->args.size() != Arity(f)) {
    Note(operand_count_,
         "Incorrect number of operands for operator or function; operator or "
         "function: " +
             std::string(call->name) +
             ", number of operands: " + std::to_string(call->args.size()));
    return;
  }
  if (call->args.size() == 2) {
    CheckDistinct(call->name, call->args[0], call->args[1]);
  }
  const POperand& a0 = call->args[0];
  switch (f) {
    case Func::kAttributeExists:
    case Func::kAttributeNotExists:
      if (a0.kind != POperand::Kind::kPath) {
        Note(function_,
             "Operator or function requires a document path; operator or "
             "function: " +
                 std::string(call->name));
      }
      break;
    case Func::kBeginsWith:
      for (const POperand& arg : call->args) {
        if (arg.has_type && arg.type != Type::kS && arg.type != Type::kB) {
          Note(function_, OperandTypeMessage(
                              "begins_with", AttributeValue::TypeName(arg.type)));
          break;
        }
      }
      break;
    case Func::kAttributeType: {
      const POperand& t = call->args[1];
      if (!t.has_type) {
        if (t.resolved) {
          Note(function_, OperandTypeMessage("attribute_type",
                                             "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"));
        }
      } else if (t.type != Type::kS) {
        Note(function_, OperandTypeMessage("attribute_type",
                                           AttributeValue::TypeName(t.type)));
      } else {
        Type ignored;
        if (t.kind != POperand::Kind::kValue ||
            !AttributeValue::TypeFromName(t.value.s(), &ignored)) {
          Note(function_,
               "Invalid attribute type name found; type: " +
                   (t.kind == POperand::Kind::kValue ? t.value.s()
                                                     : std::string()) +
                   ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
        }
      }
      break;
    }
    case Func::kSize:
      if (a0.has_type && (a0.type == Type::kN || a0.type == Type::kBool ||
                          a0.type == Type::kNull)) {
        Note(function_,
             OperandTypeMessage("size", AttributeValue::TypeName(a0.type)));
      }
      break;
    default:
      break;
  }
  call->has_type = true;
  call->type = f == Func::kSize ? Type::kN : Type::kBool;
}

void ConditionParser::ConditionComplete() {
  if (condition_) return;
  for (Slot* slot :
       {&undefined_any_, &operand_count_, &distinct_, &function_}) {
    if (*slot) {
      condition_ = *slot;
      return;
    }
  }
}

Condition ConditionParser::FunctionCondition(POperand call) {
  const Func f = LookupFunction(call.name);
  Condition c;
  if (f == Func::kSize) Note(misused_function_, MisusedMessage(call.name));
  if (!IsBooleanFunction(f) || call.args.size() != Arity(f)) {
    incomplete_ = true;
  } else {
    switch (f) {
      case Func::kAttributeExists:
        c.kind = Condition::Kind::kAttributeExists;
        break;
      case Func::kAttributeNotExists:
        c.kind = Condition::Kind::kAttributeNotExists;
        break;
      case Func::kAttributeType:
        c.kind = Condition::Kind::kAttributeType;
        break;
      case Func::kBeginsWith:
        c.kind = Condition::Kind::kBeginsWith;
        break;
      default:
        c.kind = Condition::Kind::kContains;
        break;
    }
    if (f == Func::kAttributeType) {
      const POperand& t = call.args[1];
      if (t.kind == POperand::Kind::kValue && t.resolved &&
          t.value.type() == Type::kS) {
        AttributeValue::TypeFromName(t.value.s(), &c.attribute_type);
      }
      call.args.pop_back();
    }
    for (POperand& arg : call.args) {
      Operand o;
      if (ToOperand(std::move(arg), &o)) c.operands.push_back(std::move(o));
    }
  }
  ConditionComplete();
  return c;
}

bool ConditionParser::ToOperand(POperand p, Operand* out) {
  if (!p.resolved || !ToOperandImpl(std::move(p), out)) {
    incomplete_ = true;
    return false;
  }
  return true;
}

bool ConditionParser::ToOperandImpl(POperand p, Operand* out) {
  switch (p.kind) {
    case POperand::Kind::kPath:
      *out = Operand::Path(std::move(p.path));
      return true;
    case POperand::Kind::kValue:
      *out = Operand::Value(std::move(p.value));
      return true;
    case POperand::Kind::kFunction:
      if (p.name != "size" || p.args.size() != 1) return false;
      if (p.args[0].kind == POperand::Kind::kPath && p.args[0].resolved) {
        *out = Operand::SizeOf(std::move(p.args[0].path));
        return true;
      }
      if (p.args[0].kind == POperand::Kind::kValue && p.args[0].resolved) {
        *out = Operand::SizeOfValue(std::move(p.args[0].value));
        return true;
      }
      return false;
  }
  return false;
}

}  // namespace

Result<ConditionExpression> ParseCondition(std::string_view text,
                                           ExpressionKind kind,
                                           Placeholders& ph) {
  if (auto e = internal::CheckExpressionText(text, kind)) return *std::move(e);
  ConditionParser parser(text, kind, ph);
  return parser.Run();
}

}  // namespace ddblab::expr
