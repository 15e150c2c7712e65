// emulator/expr/parser_update.cc: UpdateExpression grammar
// (DynamoDB's expression rules).
//
//   update  := clause { clause }
//   clause  := SET action {',' action} | REMOVE path {',' path}
//            | ADD path ':v' {',' path ':v'} | DELETE path ':v' {...}
//   action  := path '=' value
//   value   := '(' sum ')' | sum
//   sum     := operand [ ('+' | '-') operand ]
//   operand := '(' term ')' | term
//   term    := ':v' | path | name '(' operand {',' operand} ')'
#include <utility>

#include "emulator/expr/parser.h"
#include "emulator/expr/parser_internal.h"

namespace ddblab::expr {
namespace {

using internal::Note;
using internal::Slot;
using value::AttributeValue;
using Type = AttributeValue::Type;

struct UOperand {
  enum class Kind { kPath, kValue, kFunction };
  Kind kind = Kind::kValue;
  DocumentPath path;
  AttributeValue value;
  std::string_view name;  // kFunction
  std::vector<UOperand> args;
  bool resolved = true;
  bool parenthesized = false;
};

std::string OperandTypeMessage(std::string_view op, Type type) {
  std::string msg =
      "Incorrect operand type for operator or function; operator or "
      "function: ";
  msg += op;
  msg += ", operand type: ";
  msg += AttributeValue::TypeName(type);
  return msg;
}

// ADD / DELETE operand type errors use long type names.
std::string_view LongTypeName(Type t) {
  switch (t) {
    case Type::kS:
      return "STRING";
    case Type::kN:
      return "NUMBER";
    case Type::kB:
      return "BINARY";
    case Type::kBool:
      return "BOOLEAN";
    case Type::kNull:
      return "NULL";
    case Type::kL:
      return "LIST";
    case Type::kM:
      return "MAP";
    default:
      return AttributeValue::TypeName(t);
  }
}

class UpdateParser final : public internal::ParserBase {
 public:
  UpdateParser(std::string_view text, Placeholders& ph)
      : ParserBase(text, ExpressionKind::kUpdate, ph) {}

  Result<UpdateExpression> Run();

 private:
  enum Section { kSet, kRemove, kAdd, kDelete, kNone };

  bool IsGrammarKeyword(const Token& t) const override {
    return SectionOf(t) != kNone;
  }
  static Section SectionOf(const Token& t) {
    if (t.IsKeyword("SET")) return kSet;
    if (t.IsKeyword("REMOVE")) return kRemove;
    if (t.IsKeyword("ADD")) return kAdd;
    if (t.IsKeyword("DELETE")) return kDelete;
    return kNone;
  }

  bool ParseTarget(DocumentPath* path, bool* resolved);
  bool ParseSetValue(UOperand* out);
  bool ParseOperandParens(UOperand* out);
  bool ParseTerm(UOperand* out);
  bool ParseArithmetic(UOperand first, UOperand* out);
  void CheckFunction(const UOperand& call);
  bool ParseAddDelete(Section section, UpdateExpression* expr);
  void AddTarget(const DocumentPath& path, bool resolved);
  bool ToValue(UOperand op, UpdateValue* out);

  Slot unknown_function_;
  Slot misused_function_;
  Slot section_;
  Slot overlap_;
  Slot conflict_;
  Slot operand_type_;
  Slot function_;
  std::vector<DocumentPath> targets_;
  bool targets_done_ = false;  // stop comparing after the first overlap
  bool incomplete_ = false;
};

Result<UpdateExpression> UpdateParser::Run() {
  UpdateExpression expr;
  bool seen[4] = {false, false, false, false};
  do {
    const Section section = SectionOf(cur());
    if (section == kNone) {
      SyntaxError();
      return *std::move(fatal_);
    }
    if (seen[section]) {
      static constexpr std::string_view kNames[] = {"SET", "REMOVE", "ADD",
                                                    "DELETE"};
      Note(section_, "The \"" + std::string(kNames[section]) +
                         "\" section can only be used once in an update "
                         "expression;");
    }
    seen[section] = true;
    Advance();
    while (true) {
      if (section == kSet) {
        DocumentPath path;
        bool resolved = true;
        if (!ParseTarget(&path, &resolved) || !Expect(TokenKind::kEq)) {
          return *std::move(fatal_);
        }
        UOperand value;
        if (!ParseSetValue(&value)) return *std::move(fatal_);
        UpdateValue v;
        if (ToValue(std::move(value), &v) && resolved) {
          expr.actions.push_back(
              UpdateAction::Set(std::move(path), std::move(v)));
        } else {
          incomplete_ = true;
        }
      } else if (section == kRemove) {
        DocumentPath path;
        bool resolved = true;
        if (!ParseTarget(&path, &resolved)) return *std::move(fatal_);
        expr.actions.push_back(UpdateAction::Remove(std::move(path)));
      } else if (!ParseAddDelete(section, &expr)) {
        return *std::move(fatal_);
      }
      if (cur().kind != TokenKind::kComma) break;
      Advance();
    }
  } while (cur().kind != TokenKind::kEof);

  for (const Slot* slot : {&reserved_, &unknown_function_, &misused_function_,
                           &section_, &undefined_name_, &undefined_value_,
                           &overlap_, &conflict_, &operand_type_, &function_}) {
    if (*slot) return internal::InvalidExpression(kind_, **slot);
  }
  if (incomplete_) {
    // Unreachable: a value is only dropped when an error was recorded.
    return Error::Internal("UpdateExpression could not be resolved");
  }
  return expr;
}

bool UpdateParser::ParseTarget(DocumentPath* path, bool* resolved) {
  if (!ParsePath(path, resolved)) return false;
  AddTarget(*path, *resolved);
  return true;
}

void UpdateParser::AddTarget(const DocumentPath& path, bool resolved) {
  if (targets_done_ || !resolved) return;
  for (const DocumentPath& earlier : targets_) {
    PathRelation rel = ComparePaths(earlier, path);
    if (rel == PathRelation::kOverlap) {
      Note(overlap_, PathRelationMessage(rel, earlier, path));
      targets_done_ = true;
      return;
    }
    if (rel == PathRelation::kConflict) {
      Note(conflict_, PathRelationMessage(rel, earlier, path));
    }
  }
  targets_.push_back(path);
}

bool UpdateParser::ParseAddDelete(Section section, UpdateExpression* expr) {
  DocumentPath path;
  bool resolved = true;
  if (!ParseTarget(&path, &resolved)) return false;
  if (cur().kind != TokenKind::kValuePlaceholder) return SyntaxError();
  const AttributeValue* v = ResolveValue(cur());
  Advance();
  if (v == nullptr) {
    incomplete_ = true;
    return true;
  }
  const Type t = v->type();
  const bool ok = t == Type::kSS || t == Type::kNS || t == Type::kBS ||
                  (section == kAdd && t == Type::kN);
  if (!ok) {
    Note(operand_type_,
         "Incorrect operand type for operator or function; operator: " +
             std::string(section == kAdd ? "ADD" : "DELETE") +
             ", operand type: " + std::string(LongTypeName(t)));
  }
  if (!resolved) {
    incomplete_ = true;
    return true;
  }
  if (section == kAdd) {
    expr->actions.push_back(UpdateAction::Add(std::move(path), *v));
  } else {
    expr->actions.push_back(UpdateAction::Delete(std::move(path), *v));
  }
  return true;
}

bool UpdateParser::ParseSetValue(UOperand* out) {
  if (cur().kind != TokenKind::kLParen) {
    UOperand first;
    if (!ParseOperandParens(&first)) return false;
    return ParseArithmetic(std::move(first), out);
  }
  // '(' opens either the whole value `(a + b)` or a first operand `(a) + b`.
  if (!EnterNesting()) return false;
  Advance();
  UOperand first;
  if (!ParseOperandParens(&first)) return false;
  if (cur().kind == TokenKind::kPlus || cur().kind == TokenKind::kMinus) {
    if (!ParseArithmetic(std::move(first), out)) return false;
    if (!Expect(TokenKind::kRParen)) return false;
    LeaveNesting();
    return true;
  }
  if (!Expect(TokenKind::kRParen)) return false;
  LeaveNesting();
  if (first.parenthesized) {  // ((x)): value parens around operand parens
    *out = std::move(first);
    return true;
  }
  first.parenthesized = true;
  return ParseArithmetic(std::move(first), out);
}

bool UpdateParser::ParseArithmetic(UOperand first, UOperand* out) {
  const bool plus = cur().kind == TokenKind::kPlus;
  if (!plus && cur().kind != TokenKind::kMinus) {
    *out = std::move(first);
    return true;
  }
  if (!CountOperator()) return false;
  Advance();
  UOperand second;
  if (!ParseOperandParens(&second)) return false;
  out->kind = UOperand::Kind::kFunction;
  out->name = plus ? "+" : "-";
  out->args.clear();
  out->args.push_back(std::move(first));
  out->args.push_back(std::move(second));
  CheckFunction(*out);
  return true;
}

bool UpdateParser::ParseOperandParens(UOperand* out) {
  if (cur().kind != TokenKind::kLParen) return ParseTerm(out);
  if (!EnterNesting()) return false;
  Advance();
  if (!ParseTerm(out) || !Expect(TokenKind::kRParen)) return false;
  LeaveNesting();
  out->parenthesized = true;
  return true;
}

bool UpdateParser::ParseTerm(UOperand* out) {
  const Token& t = cur();
  if (t.kind == TokenKind::kValuePlaceholder) {
    out->kind = UOperand::Kind::kValue;
    const AttributeValue* v = ResolveValue(t);
    if (v != nullptr) {
      out->value = *v;
    } else {
      out->resolved = false;
    }
    Advance();
    return true;
  }
  if (t.kind == TokenKind::kName && !IsGrammarKeyword(t) &&
      Peek().kind == TokenKind::kLParen) {
    out->kind = UOperand::Kind::kFunction;
    out->name = t.text;
    Advance();
    Advance();
    if (!EnterNesting()) return false;
    while (true) {
      UOperand arg;
      if (!ParseOperandParens(&arg)) return false;
      out->args.push_back(std::move(arg));
      if (cur().kind != TokenKind::kComma) break;
      Advance();
    }
    if (!Expect(TokenKind::kRParen)) return false;
    LeaveNesting();
    CheckFunction(*out);
    return true;
  }
  out->kind = UOperand::Kind::kPath;
  return ParsePath(&out->path, &out->resolved);
}

void UpdateParser::CheckFunction(const UOperand& call) {
  const std::string_view name = call.name;
  const bool arithmetic = name == "+" || name == "-";
  const bool list_append = name == "list_append";
  if (!arithmetic && !list_append && name != "if_not_exists") {
    Note(unknown_function_,
         "Invalid function name; function: " + std::string(name));
    return;
  }
  if (list_append) {
    for (const UOperand& arg : call.args) {
      if (arg.kind == UOperand::Kind::kFunction && arg.name == "list_append") {
        Note(misused_function_,
             "The function is not allowed to be used this way in an "
             "expression; function: list_append");
      }
    }
  }
  if (call.args.size() != 2) {
    Note(function_,
         "Incorrect number of operands for operator or function; operator or "
         "function: " +
             std::string(name) +
             ", number of operands: " + std::to_string(call.args.size()));
    return;
  }
  if (name == "if_not_exists") {
    if (call.args[0].kind != UOperand::Kind::kPath) {
      Note(function_,
           "Operator or function requires a document path; operator or "
           "function: if_not_exists");
    }
    return;
  }
  const Type wanted = list_append ? Type::kL : Type::kN;
  for (const UOperand& arg : call.args) {
    if (arg.kind == UOperand::Kind::kValue && arg.resolved &&
        arg.value.type() != wanted) {
      Note(function_, OperandTypeMessage(name, arg.value.type()));
      return;
    }
  }
}

bool UpdateParser::ToValue(UOperand op, UpdateValue* out) {
  if (!op.resolved) return false;
  switch (op.kind) {
    case UOperand::Kind::kPath:
      *out = UpdateValue::Path(std::move(op.path));
      return true;
    case UOperand::Kind::kValue:
      *out = UpdateValue::Value(std::move(op.value));
      return true;
    case UOperand::Kind::kFunction:
      break;
  }
  if (op.args.size() != 2) return false;
  UpdateValue::Kind kind;
  if (op.name == "+") {
    kind = UpdateValue::Kind::kPlus;
  } else if (op.name == "-") {
    kind = UpdateValue::Kind::kMinus;
  } else if (op.name == "list_append") {
    kind = UpdateValue::Kind::kListAppend;
  } else if (op.name == "if_not_exists") {
    if (op.args[0].kind != UOperand::Kind::kPath || !op.args[0].resolved) {
      return false;
    }
    UpdateValue fallback;
    if (!ToValue(std::move(op.args[1]), &fallback)) return false;
    std::vector<UpdateValue> args;
    args.push_back(std::move(fallback));
    *out = UpdateValue::Call(UpdateValue::Kind::kIfNotExists, std::move(args),
                             std::move(op.args[0].path));
    return true;
  } else {
    return false;
  }
  std::vector<UpdateValue> args(2);
  if (!ToValue(std::move(op.args[0]), &args[0]) ||
      !ToValue(std::move(op.args[1]), &args[1])) {
    return false;
  }
  *out = UpdateValue::Call(kind, std::move(args));
  return true;
}

}  // namespace

Result<UpdateExpression> ParseUpdate(std::string_view text, Placeholders& ph) {
  if (auto e = internal::CheckExpressionText(text, ExpressionKind::kUpdate)) {
    return *std::move(e);
  }
  UpdateParser parser(text, ph);
  return parser.Run();
}

}  // namespace ddblab::expr
