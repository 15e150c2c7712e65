// emulator/expr/parser_condition_checks.cc: the condition parser's semantic
// checks (functions, arity, operand types, distinct operands, BETWEEN
// bounds, misuse) and the conversion of parsed operands to the AST. Each
// check records the first error of its category; ParseCondition reports them
// in DynamoDB's order (see parser.h).
#include <utility>

#include "emulator/expr/eval_condition.h"
#include "emulator/expr/parser_condition_internal.h"
#include "emulator/value/codec.h"

namespace ddblab::expr::internal {
namespace {

using value::AttributeValue;

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

}  // namespace

void ConditionParser::CheckBetweenBounds(const POperand& lo,
                                         const POperand& hi) {
  if (lo.kind != POperand::Kind::kValue || hi.kind != POperand::Kind::kValue ||
      !lo.resolved || !hi.resolved) {
    return;
  }
  std::string bounds =
      "lower bound operand: AttributeValue: " + RenderConstant(lo.value) +
      ", upper bound operand: AttributeValue: " + RenderConstant(hi.value);
  if (lo.value.type() != hi.value.type()) {
    Note(function_,
         "The BETWEEN operator requires same data type for lower and upper "
         "bounds; " +
             bounds);
  } else if (CompareScalars(lo.value, hi.value).value_or(0) > 0) {
    Note(function_,
         "The BETWEEN operator requires upper bound to be greater than or "
         "equal to lower bound; " +
             bounds);
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
  if (x.kind == POperand::Kind::kValue && x.has_type && !IsScalarType(x.type)) {
    Note(function_, OperandTypeMessage(op, AttributeValue::TypeName(x.type)));
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
          Note(function_,
               OperandTypeMessage("begins_with",
                                  AttributeValue::TypeName(arg.type)));
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
    c.operands.reserve(call.args.size());
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

}  // namespace ddblab::expr::internal
