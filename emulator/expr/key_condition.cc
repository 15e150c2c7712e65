// emulator/expr/key_condition.cc
#include "emulator/expr/key_condition.h"

#include <vector>

#include "emulator/expr/eval_condition.h"
#include "emulator/expr/parser.h"

namespace ddblab::expr {
namespace {

using value::AttributeValue;

struct Term {
  std::string attr;
  RangeOp op = RangeOp::kEq;
  std::vector<const AttributeValue*> values;
};

Error InvalidOperator(std::string_view op) {
  return Error::Validation("Invalid operator used in KeyConditionExpression: " +
                           std::string(op));
}

Error InvalidCondition(std::string_view what) {
  return Error::Validation("Invalid condition in KeyConditionExpression: " +
                           std::string(what));
}

// Pre-order walk, checking each node before its operands (DynamoDB's order).
Status Walk(const Condition& c, std::vector<Term>* terms) {
  using Kind = Condition::Kind;
  switch (c.kind) {
    case Kind::kOr:
      return InvalidOperator("OR");
    case Kind::kNot:
      return InvalidOperator("NOT");
    case Kind::kIn:
      return InvalidOperator("IN");
    case Kind::kAttributeExists:
      return InvalidOperator("attribute_exists");
    case Kind::kAttributeNotExists:
      return InvalidOperator("attribute_not_exists");
    case Kind::kAttributeType:
      return InvalidOperator("attribute_type");
    case Kind::kContains:
      return InvalidOperator("contains");
    case Kind::kCompare:
      if (c.op == CompareOp::kNe) return InvalidOperator("<>");
      break;
    case Kind::kAnd:
      for (const Condition& child : c.children) {
        DDBLAB_RETURN_IF_ERROR(Walk(child, terms));
      }
      return OkStatus();
    default:
      break;
  }
  if (c.operands.empty()) return InvalidCondition("No key attribute specified");
  if (c.kind == Kind::kBetween && c.operands[0].kind != Operand::Kind::kPath) {
    return InvalidCondition(
        "BETWEEN operator must have the key attribute as its first operand");
  }
  if (c.kind == Kind::kBeginsWith &&
      c.operands[0].kind != Operand::Kind::kPath) {
    return InvalidCondition(
        "begins_with operator must have the key attribute as its first "
        "operand");
  }
  Term term;
  size_t attr_index = 0;
  bool has_attr = false;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    const Operand& o = c.operands[i];
    if (o.kind == Operand::Kind::kPath) {
      if (has_attr) {
        return InvalidCondition(
            "Multiple attribute names used in one condition");
      }
      if (o.path.nested()) {
        return Error::Validation(
            "KeyConditionExpressions cannot have conditions on nested "
            "attributes");
      }
      has_attr = true;
      term.attr = o.path.top();
      attr_index = i;
    } else if (o.kind == Operand::Kind::kSize) {
      return Error::Validation(
          "KeyConditionExpressions cannot contain nested operations");
    }
  }
  if (!has_attr) return InvalidCondition("No key attribute specified");
  for (const Term& t : *terms) {
    if (t.attr == term.attr) {
      return Error::Validation(
          "KeyConditionExpressions must only contain one condition per key");
    }
  }
  for (size_t i = 0; i < c.operands.size(); ++i) {
    if (i != attr_index) term.values.push_back(&c.operands[i].value);
  }
  if (c.kind == Kind::kBetween) {
    term.op = RangeOp::kBetween;
  } else if (c.kind == Kind::kBeginsWith) {
    term.op = RangeOp::kBeginsWith;
  } else {
    term.op = RangeOpOf(c.op, attr_index != 0);
  }
  terms->push_back(std::move(term));
  return OkStatus();
}

Error TypeMismatch() {
  return Error::Validation(
      "One or more parameter values were invalid: Condition parameter type "
      "does not match schema type");
}

}  // namespace

RangeOp RangeOpOf(CompareOp op, bool flipped) {
  switch (op) {
    case CompareOp::kLt:
      return flipped ? RangeOp::kGt : RangeOp::kLt;
    case CompareOp::kLe:
      return flipped ? RangeOp::kGe : RangeOp::kLe;
    case CompareOp::kGt:
      return flipped ? RangeOp::kLt : RangeOp::kGt;
    case CompareOp::kGe:
      return flipped ? RangeOp::kLe : RangeOp::kGe;
    default:
      return RangeOp::kEq;
  }
}

Result<KeyCondition> AnalyzeKeyCondition(const ConditionExpression& c,
                                         const KeySchemaInfo& schema) {
  std::vector<Term> terms;
  DDBLAB_RETURN_IF_ERROR(Walk(c.root, &terms));
  if (terms.empty() || terms.size() > 2) {
    return Error::Validation("Conditions can be of length 1 or 2 only");
  }
  auto find = [&terms](const std::string& name) -> const Term* {
    for (const Term& t : terms) {
      if (t.attr == name) return &t;
    }
    return nullptr;
  };
  const Term* hash = find(schema.hash_name);
  if (hash == nullptr) {
    return Error::Validation("Query condition missed key schema element: " +
                             schema.hash_name);
  }
  const Term* range = nullptr;
  if (terms.size() > 1 && schema.range_name) {
    range = find(*schema.range_name);
    if (range == nullptr) {
      return Error::Validation("Query condition missed key schema element: " +
                               *schema.range_name);
    }
  }
  if (hash->op != RangeOp::kEq || (!schema.range_name && terms.size() > 1)) {
    return Error::Validation("Query key condition not supported");
  }
  if (hash->values.size() != 1 || hash->values[0]->type() != schema.hash_type) {
    return TypeMismatch();
  }
  KeyCondition out;
  out.hash_value = *hash->values[0];
  if (range != nullptr) {
    RangeCondition rc;
    rc.op = range->op;
    for (const AttributeValue* v : range->values) {
      if (v->type() != schema.range_type) return TypeMismatch();
    }
    if (range->values.empty()) return TypeMismatch();
    rc.a = *range->values[0];
    if (range->values.size() > 1) rc.b = *range->values[1];
    out.range = std::move(rc);
  }
  return out;
}

Result<KeyCondition> ParseKeyCondition(std::string_view text, Placeholders& ph,
                                       const KeySchemaInfo& schema) {
  DDBLAB_ASSIGN_OR_RETURN(
      ConditionExpression c,
      ParseCondition(text, ExpressionKind::kKeyCondition, ph));
  return AnalyzeKeyCondition(c, schema);
}

bool RangeMatches(const RangeCondition& rc, const AttributeValue& v) {
  if (rc.op == RangeOp::kBeginsWith) return BeginsWith(v, rc.a);
  std::optional<int> ca = CompareScalars(v, rc.a);
  if (!ca) return false;
  switch (rc.op) {
    case RangeOp::kEq:
      return *ca == 0;
    case RangeOp::kLt:
      return *ca < 0;
    case RangeOp::kLe:
      return *ca <= 0;
    case RangeOp::kGt:
      return *ca > 0;
    case RangeOp::kGe:
      return *ca >= 0;
    case RangeOp::kBetween: {
      std::optional<int> cb = CompareScalars(v, rc.b);
      return *ca >= 0 && cb && *cb <= 0;
    }
    default:
      return false;
  }
}

}  // namespace ddblab::expr
