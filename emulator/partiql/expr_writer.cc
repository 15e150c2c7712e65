#include "emulator/partiql/expr_writer.h"

#include <utility>

namespace ddblab::partiql {
namespace {

constexpr int kOr = 1;
constexpr int kAnd = 2;
constexpr int kNot = 3;
constexpr int kAtom = 4;

// DynamoDB Local's message catalog (ValidationExceptionMessages).
constexpr char kMissingCompared[] =
    "MISSING must be compared using IS operator";
constexpr char kNotBoolean[] =
    "WHERE clause must contain an expression that resolves to a boolean";
constexpr char kBadIn[] =
    "IN operator must have a left hand argument of type Variable Reference "
    "and right hand argument of type Seq with at least one member";
constexpr char kIsOperand[] =
    "The left hand side argument to IS must be a Variable Reference, "
    "Literal, or Path";

bool IsMissing(const Expr& e) {
  return e.kind == ExprKind::kLiteral && e.literal == LiteralKind::kMissing;
}

bool IsBoolLiteral(const Expr& e, bool* value) {
  if (e.kind != ExprKind::kLiteral) return false;
  if (e.literal == LiteralKind::kTrue) {
    *value = true;
    return true;
  }
  if (e.literal == LiteralKind::kFalse) {
    *value = false;
    return true;
  }
  return false;
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt ||
         op == BinaryOp::kLe || op == BinaryOp::kGt || op == BinaryOp::kGe;
}

Error UnsupportedConditionOperator(const std::string& op) {
  // DynamoDB Local's message catalog; which spelling of the operator AWS
  // writes is UNVERIFIED.
  return Error::Validation(
      "Unsupported operator in Condition Expression. Operator: " + op);
}

}  // namespace

bool IsConditionFunction(const std::string& name) {
  return name == "attribute_exists" || name == "attribute_not_exists" ||
         name == "attribute_type" || name == "begins_with" ||
         name == "contains" || name == "size";
}

Error UnrecognizedFunction(const Expr& call) {
  // Pinned on AWS (paritysuite/dynamodb-conformance
  // tests/tier3/error-messages/partiqlFunctions.test.ts).
  return Error::Validation("Unrecognized function: " + call.text + " at " +
                           call.pos.ToString());
}

Status CheckConditionFunction(const Expr& e) {
  size_t want = (e.text == "attribute_exists" ||
                 e.text == "attribute_not_exists" || e.text == "size")
                    ? 1
                    : 2;
  if (e.args.size() != want) {
    // Pinned on AWS (partiqlFunctions.test.ts).
    return Error::Validation(
        "Incorrect number of operands for operator or function; operator or "
        "function: " +
        e.text + ", number of operands: " + std::to_string(e.args.size()));
  }
  if ((e.text == "attribute_exists" || e.text == "attribute_not_exists" ||
       e.text == "attribute_type") &&
      !e.args[0]->IsPath()) {
    // Pinned on AWS (partiqlFunctions.test.ts).
    return Error::Validation(
        "Operator or function requires a document path; operator or "
        "function: " +
        e.text);
  }
  return OkStatus();
}

std::string ExprWriter::Name(const std::string& attribute) {
  auto it = name_placeholders_.find(attribute);
  if (it != name_placeholders_.end()) return it->second;
  std::string placeholder = "#n" + std::to_string(name_placeholders_.size());
  name_placeholders_[attribute] = placeholder;
  names_.emplace_back(placeholder, attribute);
  return placeholder;
}

std::string ExprWriter::Value(value::AttributeValue value) {
  std::string placeholder = ":v" + std::to_string(values_out_.size());
  values_out_.emplace_back(placeholder, std::move(value));
  return placeholder;
}

void ExprWriter::MoveTo(OpRequest* request) {
  request->names = std::move(names_);
  request->values = std::move(values_out_);
  names_.clear();
  values_out_.clear();
}

Result<std::string> ExprWriter::Path(const Expr& path) {
  std::string out = Name(path.text);
  for (const PathStep& step : path.steps) {
    if (step.kind == PathStep::Kind::kMember) {
      out += "." + Name(step.name);
    } else {
      out += "[" + std::to_string(step.index) + "]";
    }
  }
  return out;
}

Result<std::string> ExprWriter::Condition(const Expr& e) {
  int level = kAtom;
  return ConditionAt(e, &level);
}

Result<std::string> ExprWriter::Conjunction(
    const std::vector<const Expr*>& parts) {
  std::string out;
  for (const Expr* part : parts) {
    DDBLAB_ASSIGN_OR_RETURN(std::string text, Wrapped(*part, kAnd));
    if (!out.empty()) out += " AND ";
    out += text;
  }
  return out;
}

Result<std::string> ExprWriter::Wrapped(const Expr& e, int min_level) {
  int level = kAtom;
  DDBLAB_ASSIGN_OR_RETURN(std::string text, ConditionAt(e, &level));
  if (level < min_level) return "(" + text + ")";
  return text;
}

Result<std::string> ExprWriter::ConditionAt(const Expr& e, int* level) {
  *level = kAtom;
  switch (e.kind) {
    case ExprKind::kBinary: {
      if (e.op == BinaryOp::kAnd || e.op == BinaryOp::kOr) {
        int min = e.op == BinaryOp::kAnd ? kAnd : kOr;
        DDBLAB_ASSIGN_OR_RETURN(std::string left, Wrapped(*e.args[0], min));
        DDBLAB_ASSIGN_OR_RETURN(std::string right, Wrapped(*e.args[1], min));
        *level = min;
        return left + (e.op == BinaryOp::kAnd ? " AND " : " OR ") + right;
      }
      if (!IsComparison(e.op)) {
        return UnsupportedConditionOperator(BinaryOpText(e.op));
      }
      const Expr& l = *e.args[0];
      const Expr& r = *e.args[1];
      if (IsMissing(l) || IsMissing(r)) {
        return Error::Validation(kMissingCompared);
      }
      // attribute_exists(a) = true and the like: the function itself.
      bool truth = false;
      const Expr* call = nullptr;
      if (l.kind == ExprKind::kCall && IsBoolLiteral(r, &truth)) call = &l;
      if (r.kind == ExprKind::kCall && IsBoolLiteral(l, &truth)) call = &r;
      if (call != nullptr && call->text != "size" &&
          (e.op == BinaryOp::kEq || e.op == BinaryOp::kNe)) {
        DDBLAB_ASSIGN_OR_RETURN(std::string text, Call(*call));
        if (truth == (e.op == BinaryOp::kEq)) return text;
        *level = kNot;
        return "NOT " + text;
      }
      DDBLAB_ASSIGN_OR_RETURN(std::string left, Operand(l));
      DDBLAB_ASSIGN_OR_RETURN(std::string right, Operand(r));
      return left + " " + BinaryOpText(e.op) + " " + right;
    }
    case ExprKind::kNot: {
      DDBLAB_ASSIGN_OR_RETURN(std::string inner, Wrapped(*e.args[0], kNot));
      *level = kNot;
      return "NOT " + inner;
    }
    case ExprKind::kBetween: {
      for (const auto& arg : e.args) {
        if (IsMissing(*arg)) return Error::Validation(kMissingCompared);
      }
      DDBLAB_ASSIGN_OR_RETURN(std::string value, Operand(*e.args[0]));
      DDBLAB_ASSIGN_OR_RETURN(std::string low, Operand(*e.args[1]));
      DDBLAB_ASSIGN_OR_RETURN(std::string high, Operand(*e.args[2]));
      std::string text = value + " BETWEEN " + low + " AND " + high;
      if (!e.negated) return text;
      *level = kNot;
      return "NOT " + text;
    }
    case ExprKind::kIn: {
      DDBLAB_ASSIGN_OR_RETURN(std::string text, In(e));
      if (!e.negated) return text;
      *level = kNot;
      return "NOT " + text;
    }
    case ExprKind::kIs: {
      // IS NOT <type> is written "NOT attribute_type(...)".
      if (e.negated && e.type_name != "MISSING") *level = kNot;
      return Is(e);
    }
    case ExprKind::kCall:
      return Call(e);
    default:
      return Error::Validation(kNotBoolean);
  }
}

Result<std::string> ExprWriter::Call(const Expr& e) {
  if (!IsConditionFunction(e.text)) return UnrecognizedFunction(e);
  DDBLAB_RETURN_IF_ERROR(CheckConditionFunction(e));
  std::string out = e.text + "(";
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (i > 0) out += ", ";
    DDBLAB_ASSIGN_OR_RETURN(std::string arg, Operand(*e.args[i]));
    out += arg;
  }
  return out + ")";
}

Result<std::string> ExprWriter::Is(const Expr& e) {
  const Expr& operand = *e.args[0];
  if (!operand.IsPath()) return Error::Validation(kIsOperand);
  DDBLAB_ASSIGN_OR_RETURN(std::string path, Path(operand));
  const std::string& type = e.type_name;
  if (type == "MISSING") {
    return (e.negated ? "attribute_exists(" : "attribute_not_exists(") + path +
           ")";
  }
  std::string dynamo_type;
  if (type == "NULL") {
    dynamo_type = "NULL";
  } else if (type == "BOOL" || type == "BOOLEAN") {
    dynamo_type = "BOOL";
  } else if (type == "STRING") {
    dynamo_type = "S";
  } else if (type == "NUMERIC" || type == "DECIMAL" || type == "DEC") {
    dynamo_type = "N";
  } else if (type == "BLOB") {
    dynamo_type = "B";
  } else if (type == "STRUCT" || type == "TUPLE") {
    dynamo_type = "M";
  } else if (type == "LIST") {
    dynamo_type = "L";
  } else {
    // DynamoDB Local's message catalog (ValidationExceptionMessages).
    return Error::Validation(
        "Unsupported data type for IS operator: " + type +
        ". Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, "
        "NUMERIC, STRUCT, TUPLE, LIST]");
  }
  std::string text = "attribute_type(" + path + ", " +
                     Value(value::AttributeValue::S(dynamo_type)) + ")";
  return e.negated ? "NOT " + text : text;
}

Result<std::string> ExprWriter::In(const Expr& e) {
  const Expr& value = *e.args[0];
  const Expr& list = *e.args[1];
  if (IsMissing(value)) return Error::Validation(kMissingCompared);
  DDBLAB_ASSIGN_OR_RETURN(std::string left, Operand(value));
  std::vector<std::string> operands;
  if (list.kind == ExprKind::kList && !list.args.empty()) {
    for (const auto& element : list.args) {
      if (IsMissing(*element)) return Error::Validation(kMissingCompared);
      DDBLAB_ASSIGN_OR_RETURN(std::string operand, Operand(*element));
      operands.push_back(std::move(operand));
    }
  } else if (list.kind == ExprKind::kParameter) {
    // A list parameter stands for its elements.
    DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue bound, values_.Build(list));
    if (bound.type() != value::AttributeValue::Type::kL || bound.l().empty()) {
      return Error::Validation(kBadIn);
    }
    for (const value::AttributeValue& element : bound.l()) {
      operands.push_back(Value(element));
    }
  } else {
    return Error::Validation(kBadIn);
  }
  std::string out = left + " IN (";
  for (size_t i = 0; i < operands.size(); ++i) {
    if (i > 0) out += ", ";
    out += operands[i];
  }
  return out + ")";
}

Result<std::string> ExprWriter::Operand(const Expr& e) {
  if (e.IsPath()) return Path(e);
  if (IsMissing(e)) return Error::Validation(kMissingCompared);
  if (ValueBuilder::IsValue(e)) {
    DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue value, values_.Build(e));
    return Value(std::move(value));
  }
  if (e.kind == ExprKind::kCall) return Call(e);
  if (e.kind == ExprKind::kBinary) {
    return UnsupportedConditionOperator(BinaryOpText(e.op));
  }
  if (e.kind == ExprKind::kNegate) return UnsupportedConditionOperator("-");
  return Error::Validation(kNotBoolean);
}

Result<std::string> ExprWriter::SetOperand(const Expr& e) {
  if (e.IsPath()) return Path(e);
  if (ValueBuilder::IsValue(e)) {
    DDBLAB_ASSIGN_OR_RETURN(value::AttributeValue value, values_.Build(e));
    return Value(std::move(value));
  }
  if (e.kind == ExprKind::kCall &&
      (e.text == "list_append" || e.text == "if_not_exists")) {
    if (e.args.size() != 2) {
      return Error::Validation(
          "Incorrect number of operands for operator or function; operator "
          "or function: " +
          e.text + ", number of operands: " + std::to_string(e.args.size()));
    }
    DDBLAB_ASSIGN_OR_RETURN(std::string first, SetOperand(*e.args[0]));
    DDBLAB_ASSIGN_OR_RETURN(std::string second, SetOperand(*e.args[1]));
    return e.text + "(" + first + ", " + second + ")";
  }
  if (e.kind == ExprKind::kCall) return UnrecognizedFunction(e);
  if (IsMissing(e)) return Error::Validation(kMissingCompared);
  // DynamoDB Local's message catalog; UNVERIFIED operator spelling.
  std::string op = e.kind == ExprKind::kBinary ? BinaryOpText(e.op) : "-";
  return Error::Validation(
      "Unsupported operator in Update Expression. Operator: " + op);
}

Result<std::string> ExprWriter::SetValue(const Expr& e) {
  if (e.kind == ExprKind::kBinary &&
      (e.op == BinaryOp::kAdd || e.op == BinaryOp::kSub)) {
    DDBLAB_ASSIGN_OR_RETURN(std::string left, SetOperand(*e.args[0]));
    DDBLAB_ASSIGN_OR_RETURN(std::string right, SetOperand(*e.args[1]));
    return left + " " + BinaryOpText(e.op) + " " + right;
  }
  return SetOperand(e);
}

}  // namespace ddblab::partiql
