#include "emulator/engine/vector/search_condition.h"

#include <set>
#include <utility>

namespace ddblab::engine {
namespace {

using expr::Condition;
using expr::Operand;

constexpr std::string_view kPrefix = "Invalid SearchConditionExpression: ";

Error Refused(std::string_view text) {
  return Error::Validation(std::string(kPrefix) + std::string(text));
}

Error InvalidComparator() {
  return Refused("Invalid comparator used in SearchConditionExpression");
}

Error InvalidOperator() {
  return Refused("Invalid operator used in SearchConditionExpression");
}

// The tree's shape: only AND of `=` comparisons.
Status CheckShape(const Condition& c) {
  switch (c.kind) {
    case Condition::Kind::kAnd:
      for (const Condition& child : c.children) {
        DDBLAB_RETURN_IF_ERROR(CheckShape(child));
      }
      return OkStatus();
    case Condition::Kind::kCompare: {
      if (c.op != expr::CompareOp::kEq) return InvalidComparator();
      const Operand& a = c.operands[0];
      const Operand& b = c.operands[1];
      if (a.kind == Operand::Kind::kSize || b.kind == Operand::Kind::kSize) {
        return InvalidOperator();  // size() is a function
      }
      if (a.kind == b.kind) return InvalidComparator();
      return OkStatus();
    }
    default:
      return InvalidOperator();
  }
}

void Collect(const Condition& c, std::vector<const Condition*>* out) {
  if (c.kind == Condition::Kind::kAnd) {
    for (const Condition& child : c.children) Collect(child, out);
    return;
  }
  out->push_back(&c);
}

}  // namespace

Result<std::vector<SearchEquality>> AnalyzeSearchCondition(
    const expr::ConditionExpression& condition) {
  DDBLAB_RETURN_IF_ERROR(CheckShape(condition.root));
  std::vector<const Condition*> comparisons;
  Collect(condition.root, &comparisons);
  std::vector<SearchEquality> out;
  for (const Condition* c : comparisons) {
    const bool path_first = c->operands[0].kind == Operand::Kind::kPath;
    const Operand& path = c->operands[path_first ? 0 : 1];
    const Operand& value = c->operands[path_first ? 1 : 0];
    if (path.path.nested()) {
      return Refused(
          "SearchConditionExpression cannot have conditions on nested "
          "attributes");
    }
    out.push_back(SearchEquality{path.path.top(), value.value});
  }
  std::set<std::string> seen;
  for (const SearchEquality& e : out) {
    if (!seen.insert(e.attribute).second) {
      return Refused(
          "SearchConditionExpression must only contain one condition per "
          "attribute");
    }
  }
  return out;
}

}  // namespace ddblab::engine
