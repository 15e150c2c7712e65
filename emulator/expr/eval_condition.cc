// emulator/expr/eval_condition.cc
#include "emulator/expr/eval_condition.h"

#include <algorithm>

namespace ddblab::expr {
namespace {

using value::AttributeValue;
using Type = AttributeValue::Type;

// An operand's value: either a pointer into the item / AST, or a computed
// size() held locally.
class Evaluated {
 public:
  Evaluated(const Operand& o, const value::Item& item) {
    switch (o.kind) {
      case Operand::Kind::kPath:
        ptr_ = FindPath(item, o.path);
        break;
      case Operand::Kind::kValue:
        ptr_ = &o.value;
        break;
      case Operand::Kind::kSize: {
        const AttributeValue* target =
            o.path.empty() ? &o.value : FindPath(item, o.path);
        if (target == nullptr) break;
        std::optional<int64_t> size = SizeOf(*target);
        if (!size) break;
        storage_ = AttributeValue::N(value::Number::FromInt64(*size));
        ptr_ = &storage_;
        break;
      }
    }
  }
  Evaluated(const Evaluated&) = delete;
  Evaluated& operator=(const Evaluated&) = delete;

  const AttributeValue* get() const { return ptr_; }

 private:
  const AttributeValue* ptr_ = nullptr;
  AttributeValue storage_;
};

bool OrderedCompare(CompareOp op, const AttributeValue* a,
                    const AttributeValue* b) {
  if (a == nullptr || b == nullptr) return false;
  std::optional<int> c = CompareScalars(*a, *b);
  if (!c) return false;
  switch (op) {
    case CompareOp::kLt:
      return *c < 0;
    case CompareOp::kLe:
      return *c <= 0;
    case CompareOp::kGt:
      return *c > 0;
    case CompareOp::kGe:
      return *c >= 0;
    default:
      return false;
  }
}

bool Equal(const AttributeValue* a, const AttributeValue* b) {
  return a != nullptr && b != nullptr && *a == *b;
}

void CollectPaths(const Condition& c, std::vector<const DocumentPath*>* out) {
  for (const Operand& o : c.operands) {
    if (!o.path.empty()) out->push_back(&o.path);
  }
  for (const Condition& child : c.children) CollectPaths(child, out);
}

}  // namespace

std::optional<int> CompareScalars(const AttributeValue& a,
                                  const AttributeValue& b) {
  if (a.type() != b.type()) return std::nullopt;
  int c = 0;
  switch (a.type()) {
    case Type::kN: {
      auto o = a.n() <=> b.n();
      c = o < 0 ? -1 : (o > 0 ? 1 : 0);
      break;
    }
    case Type::kS:
      c = a.s().compare(b.s());
      break;
    case Type::kB:
      c = a.b().compare(b.b());
      break;
    default:
      return std::nullopt;
  }
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::optional<int64_t> SizeOf(const AttributeValue& v) {
  switch (v.type()) {
    case Type::kS:
      return static_cast<int64_t>(v.s().size());
    case Type::kB:
      return static_cast<int64_t>(v.b().size());
    case Type::kSS:
      return static_cast<int64_t>(v.ss().size());
    case Type::kNS:
      return static_cast<int64_t>(v.ns().size());
    case Type::kBS:
      return static_cast<int64_t>(v.bs().size());
    case Type::kL:
      return static_cast<int64_t>(v.l().size());
    case Type::kM:
      return static_cast<int64_t>(v.m().size());
    default:
      return std::nullopt;
  }
}

bool BeginsWith(const AttributeValue& a, const AttributeValue& b) {
  if (a.type() != b.type()) return false;
  if (a.type() == Type::kS) return a.s().starts_with(b.s());
  if (a.type() == Type::kB) return a.b().starts_with(b.b());
  return false;
}

bool Contains(const AttributeValue& haystack, const AttributeValue& needle) {
  switch (haystack.type()) {
    case Type::kS:
      return needle.type() == Type::kS &&
             haystack.s().find(needle.s()) != std::string::npos;
    case Type::kB:
      return needle.type() == Type::kB &&
             haystack.b().find(needle.b()) != std::string::npos;
    case Type::kSS: {
      if (needle.type() != Type::kS) return false;
      const auto& ss = haystack.ss();
      return std::find(ss.begin(), ss.end(), needle.s()) != ss.end();
    }
    case Type::kNS: {
      if (needle.type() != Type::kN) return false;
      const auto& ns = haystack.ns();
      return std::find(ns.begin(), ns.end(), needle.n()) != ns.end();
    }
    case Type::kBS: {
      if (needle.type() != Type::kB) return false;
      const auto& bs = haystack.bs();
      return std::find(bs.begin(), bs.end(), needle.b()) != bs.end();
    }
    case Type::kL: {
      const auto& l = haystack.l();
      return std::find(l.begin(), l.end(), needle) != l.end();
    }
    default:
      return false;
  }
}

bool EvaluateCondition(const Condition& c, const value::Item& item) {
  switch (c.kind) {
    case Condition::Kind::kAnd:
      for (const Condition& child : c.children) {
        if (!EvaluateCondition(child, item)) return false;
      }
      return true;
    case Condition::Kind::kOr:
      for (const Condition& child : c.children) {
        if (EvaluateCondition(child, item)) return true;
      }
      return false;
    case Condition::Kind::kNot:
      return !c.children.empty() && !EvaluateCondition(c.children[0], item);
    default:
      break;
  }
  if (c.operands.empty()) return false;
  switch (c.kind) {
    case Condition::Kind::kCompare: {
      if (c.operands.size() != 2) return false;
      Evaluated a(c.operands[0], item);
      Evaluated b(c.operands[1], item);
      if (c.op == CompareOp::kEq) return Equal(a.get(), b.get());
      if (c.op == CompareOp::kNe) return !Equal(a.get(), b.get());
      return OrderedCompare(c.op, a.get(), b.get());
    }
    case Condition::Kind::kBetween: {
      if (c.operands.size() != 3) return false;
      Evaluated x(c.operands[0], item);
      Evaluated lo(c.operands[1], item);
      Evaluated hi(c.operands[2], item);
      return OrderedCompare(CompareOp::kGe, x.get(), lo.get()) &&
             OrderedCompare(CompareOp::kLe, x.get(), hi.get());
    }
    case Condition::Kind::kIn: {
      Evaluated x(c.operands[0], item);
      if (x.get() == nullptr) return false;
      for (size_t i = 1; i < c.operands.size(); ++i) {
        Evaluated candidate(c.operands[i], item);
        if (Equal(x.get(), candidate.get())) return true;
      }
      return false;
    }
    case Condition::Kind::kAttributeExists:
      return Evaluated(c.operands[0], item).get() != nullptr;
    case Condition::Kind::kAttributeNotExists:
      return Evaluated(c.operands[0], item).get() == nullptr;
    case Condition::Kind::kAttributeType: {
      Evaluated x(c.operands[0], item);
      return x.get() != nullptr && x.get()->type() == c.attribute_type;
    }
    case Condition::Kind::kBeginsWith:
    case Condition::Kind::kContains: {
      if (c.operands.size() != 2) return false;
      Evaluated a(c.operands[0], item);
      Evaluated b(c.operands[1], item);
      if (a.get() == nullptr || b.get() == nullptr) return false;
      return c.kind == Condition::Kind::kBeginsWith
                 ? BeginsWith(*a.get(), *b.get())
                 : Contains(*a.get(), *b.get());
    }
    default:
      return false;
  }
}

bool EvaluateCondition(const ConditionExpression& c, const value::Item& item) {
  return EvaluateCondition(c.root, item);
}

std::vector<const DocumentPath*> ReferencedPaths(const Condition& c) {
  std::vector<const DocumentPath*> out;
  CollectPaths(c, &out);
  return out;
}

}  // namespace ddblab::expr
