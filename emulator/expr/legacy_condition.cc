// emulator/expr/legacy_condition.cc: Expected, QueryFilter / ScanFilter and
// KeyConditions, converted into condition ASTs (see legacy.h).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/expr/eval_condition.h"
#include "emulator/expr/legacy.h"
#include "emulator/expr/legacy_internal.h"
#include "emulator/value/codec.h"
#include "emulator/value/item_size.h"

namespace ddblab::expr {
namespace {

using legacy_internal::BoolMember;
using legacy_internal::EnumConstraint;
using legacy_internal::IsAbsent;
using legacy_internal::kInvalid;
using legacy_internal::LowerFirst;
using legacy_internal::Member;
using legacy_internal::NotNullConstraint;
using legacy_internal::WrongJsonType;
using value::AttributeValue;
using Type = AttributeValue::Type;
using Json = nlohmann::json;

enum class Op {
  kEq,
  kNe,
  kLe,
  kLt,
  kGe,
  kGt,
  kNotNull,
  kNull,
  kContains,
  kNotContains,
  kBeginsWith,
  kIn,
  kBetween,
};

constexpr uint32_t Bit(Type t) { return 1u << static_cast<unsigned>(t); }
constexpr uint32_t kAnyType = Bit(Type::kS) | Bit(Type::kN) | Bit(Type::kB) |
                              Bit(Type::kBool) | Bit(Type::kNull) |
                              Bit(Type::kM) | Bit(Type::kL) | Bit(Type::kSS) |
                              Bit(Type::kNS) | Bit(Type::kBS);
constexpr uint32_t kSortable = Bit(Type::kS) | Bit(Type::kN) | Bit(Type::kB);
constexpr uint32_t kContainable =
    kSortable | Bit(Type::kBool) | Bit(Type::kNull);
constexpr uint32_t kPrefixable = Bit(Type::kS) | Bit(Type::kB);
constexpr size_t kUnbounded = SIZE_MAX;

struct OpSpec {
  std::string_view name;
  Op op;
  size_t min_args;
  size_t max_args;
  uint32_t types;  // allowed AttributeValueList types
  bool indexable;  // allowed in KeyConditions
};

constexpr std::array<OpSpec, 13> kOps = {{
    {"EQ", Op::kEq, 1, 1, kAnyType, true},
    {"NE", Op::kNe, 1, 1, kAnyType, false},
    {"LE", Op::kLe, 1, 1, kSortable, true},
    {"LT", Op::kLt, 1, 1, kSortable, true},
    {"GE", Op::kGe, 1, 1, kSortable, true},
    {"GT", Op::kGt, 1, 1, kSortable, true},
    {"NOT_NULL", Op::kNotNull, 0, 0, kAnyType, false},
    {"NULL", Op::kNull, 0, 0, kAnyType, false},
    {"CONTAINS", Op::kContains, 1, 1, kContainable, false},
    {"NOT_CONTAINS", Op::kNotContains, 1, 1, kContainable, false},
    {"BEGINS_WITH", Op::kBeginsWith, 1, 1, kPrefixable, true},
    {"IN", Op::kIn, 1, kUnbounded, kSortable, false},
    {"BETWEEN", Op::kBetween, 2, 2, kSortable, true},
}};

// As DynamoDB lists the ComparisonOperator enum in constraint errors.
constexpr std::string_view kOpEnumSet =
    "[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, "
    "BEGINS_WITH, GE, CONTAINS]";

// One attribute's condition after validation.
struct Entry {
  std::string attr;
  const OpSpec* op = nullptr;
  std::vector<AttributeValue> args;
};

// The ComparisonOperator member of `entry` (nullptr if absent); `path` is
// the constraint-error path of the member.
Result<const OpSpec*> ReadOperator(const Json& entry, const std::string& path,
                                   bool required) {
  const Json* m = Member(entry, "ComparisonOperator");
  if (m == nullptr) {
    if (required) return NotNullConstraint(path);
    return static_cast<const OpSpec*>(nullptr);
  }
  if (!m->is_string()) return WrongJsonType(*m);
  const std::string& name = m->get_ref<const std::string&>();
  for (const OpSpec& spec : kOps) {
    if (spec.name == name) return &spec;
  }
  return EnumConstraint(name, path, kOpEnumSet);
}

Result<std::vector<AttributeValue>> DecodeList(const Json* list) {
  std::vector<AttributeValue> out;
  if (list == nullptr) return out;
  if (!list->is_array()) return WrongJsonType(*list);
  out.reserve(list->size());
  for (const Json& v : *list) {
    DDBLAB_ASSIGN_OR_RETURN(AttributeValue av, value::DecodeAttributeValue(v));
    out.push_back(std::move(av));
  }
  return out;
}

// Argument count, allowed types, one type throughout, BETWEEN bounds.
Status CheckArguments(const OpSpec& spec,
                      const std::vector<AttributeValue>& args) {
  if (args.size() < spec.min_args || args.size() > spec.max_args) {
    return Error::Validation(std::string(kInvalid) +
                             "Invalid number of argument(s) for the " +
                             std::string(spec.name) + " ComparisonOperator");
  }
  for (const AttributeValue& v : args) {
    if (!(spec.types & Bit(v.type()))) {
      return Error::Validation(std::string(kInvalid) + "ComparisonOperator " +
                               std::string(spec.name) + " is not valid for " +
                               std::string(AttributeValue::TypeName(v.type())) +
                               " AttributeValue type");
    }
    if (v.type() != args.front().type()) {
      return Error::Validation(
          std::string(kInvalid) +
          "AttributeValues inside AttributeValueList must be of same type");
    }
  }
  if (spec.op == Op::kBetween) {
    std::optional<int> c = CompareScalars(args[0], args[1]);
    if (c && *c > 0) {
      return Error::Validation(
          "The BETWEEN condition was provided a range where the lower bound "
          "is greater than the upper bound");
    }
  }
  return OkStatus();
}

Condition Build(const Entry& e) {
  const DocumentPath path(e.attr);
  auto value = [&e](size_t i) { return Operand::Value(e.args[i]); };
  switch (e.op->op) {
    case Op::kEq:
      return Condition::Compare(CompareOp::kEq, Operand::Path(path), value(0));
    case Op::kNe:
      return Condition::Compare(CompareOp::kNe, Operand::Path(path), value(0));
    case Op::kLe:
      return Condition::Compare(CompareOp::kLe, Operand::Path(path), value(0));
    case Op::kLt:
      return Condition::Compare(CompareOp::kLt, Operand::Path(path), value(0));
    case Op::kGe:
      return Condition::Compare(CompareOp::kGe, Operand::Path(path), value(0));
    case Op::kGt:
      return Condition::Compare(CompareOp::kGt, Operand::Path(path), value(0));
    case Op::kNotNull:
      return Condition::Function(Condition::Kind::kAttributeExists,
                                 {Operand::Path(path)});
    case Op::kNull:
      return Condition::Function(Condition::Kind::kAttributeNotExists,
                                 {Operand::Path(path)});
    case Op::kContains:
      return Condition::Function(Condition::Kind::kContains,
                                 {Operand::Path(path), value(0)});
    case Op::kNotContains: {
      // DynamoDB: false when the attribute is absent (unlike NE).
      std::vector<Condition> both;
      both.push_back(Condition::Function(Condition::Kind::kAttributeExists,
                                         {Operand::Path(path)}));
      both.push_back(Condition::Not(Condition::Function(
          Condition::Kind::kContains, {Operand::Path(path), value(0)})));
      return Condition::Logical(Condition::Kind::kAnd, std::move(both));
    }
    case Op::kBeginsWith:
      return Condition::Function(Condition::Kind::kBeginsWith,
                                 {Operand::Path(path), value(0)});
    case Op::kIn: {
      std::vector<Operand> operands;
      operands.push_back(Operand::Path(path));
      for (size_t i = 0; i < e.args.size(); ++i) operands.push_back(value(i));
      Condition c =
          Condition::Function(Condition::Kind::kIn, std::move(operands));
      return c;
    }
    case Op::kBetween:
      return Condition::Between(Operand::Path(path), value(0), value(1));
  }
  return Condition::Logical(Condition::Kind::kAnd, {});
}

// ConditionalOperator: nullopt when absent, else whether it is OR.
Result<std::optional<bool>> ReadConditionalOperator(const Json* op) {
  if (IsAbsent(op)) return std::optional<bool>();
  if (!op->is_string()) return WrongJsonType(*op);
  const std::string& s = op->get_ref<const std::string&>();
  if (s == "AND") return std::optional<bool>(false);
  if (s == "OR") return std::optional<bool>(true);
  return EnumConstraint(s, "conditionalOperator", "[AND, OR]");
}

// Joins the per-attribute conditions (`entries` = entries in the map).
Result<ConditionExpression> Combine(std::vector<Condition> conditions,
                                    size_t entries,
                                    std::optional<bool> use_or) {
  if (use_or.has_value()) {
    if (entries == 0) {
      return Error::Validation(
          "ConditionalOperator cannot be used without Filter or Expected");
    }
    if (entries == 1) {
      return Error::Validation(
          "ConditionalOperator can only be used when Filter or Expected has "
          "two or more elements");
    }
  }
  ConditionExpression out;
  if (conditions.size() == 1) {
    out.root = std::move(conditions.front());
  } else {
    out.root = Condition::Logical(
        use_or.value_or(false) ? Condition::Kind::kOr : Condition::Kind::kAnd,
        std::move(conditions));
  }
  return out;
}

// The entries of a QueryFilter / ScanFilter / KeyConditions map, validated.
Result<std::vector<Entry>> ReadConditions(const Json& map,
                                          std::string_view param) {
  std::vector<Entry> out;
  if (map.is_null()) return out;
  if (!map.is_object()) return WrongJsonType(map);
  const std::string lower = LowerFirst(param);
  for (const auto& [attr, cond] : map.items()) {
    if (cond.is_null()) {
      return Error::Validation(
          "The filter condition for an attribute cannot be null: " + attr);
    }
    if (!cond.is_object()) return WrongJsonType(cond);
    Entry e;
    e.attr = attr;
    DDBLAB_ASSIGN_OR_RETURN(
        e.op,
        ReadOperator(cond, lower + "." + attr + ".member.comparisonOperator",
                     /*required=*/true));
    DDBLAB_ASSIGN_OR_RETURN(e.args,
                            DecodeList(Member(cond, "AttributeValueList")));
    DDBLAB_RETURN_IF_ERROR(CheckArguments(*e.op, e.args));
    out.push_back(std::move(e));
  }
  return out;
}

// The structural checks of one Expected entry, in DynamoDB's order.
Status CheckExpectedShape(const std::string& attr, const Json* exists_json,
                          std::optional<bool> exists, const Json* value,
                          const Json* list, const OpSpec* op) {
  auto invalid = [&attr](std::string_view what) {
    return Error::Validation(std::string(kInvalid) + std::string(what) +
                             " for Attribute: " + attr);
  };
  if (exists_json != nullptr && op != nullptr) {
    return invalid("Exists and ComparisonOperator cannot be used together");
  }
  if (value != nullptr && list != nullptr) {
    return invalid("Value and AttributeValueList cannot be used together");
  }
  if (op == nullptr && list != nullptr) {
    return invalid(
        "AttributeValueList can only be used with a ComparisonOperator");
  }
  if (exists == false && value != nullptr) {
    return invalid("Value cannot be used when Exists is false");
  }
  if (value == nullptr && list == nullptr) {
    if (op != nullptr) {
      if (op->op != Op::kNull && op->op != Op::kNotNull) {
        return invalid(
            "Value or AttributeValueList must be used with "
            "ComparisonOperator: " +
            std::string(op->name));
      }
    } else if (!exists.has_value()) {
      return invalid("Value must be provided when Exists is null");
    } else if (*exists) {
      return invalid("Value must be provided when Exists is true");
    }
  }
  return OkStatus();
}

}  // namespace

Result<ConditionExpression> ConvertExpected(const Json& expected,
                                            const Json* conditional_operator) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<bool> use_or,
                          ReadConditionalOperator(conditional_operator));
  std::vector<Condition> conditions;
  size_t entries = 0;
  if (!expected.is_null()) {
    if (!expected.is_object()) return WrongJsonType(expected);
    entries = expected.size();
    size_t running_size = 0;
    for (const auto& [attr, entry] : expected.items()) {
      if (entry.is_null()) {
        return Error::Validation(std::string(kInvalid) +
                                 "ExpectedAttributeValue must not be null for "
                                 "Attribute: " +
                                 attr);
      }
      if (!entry.is_object()) return WrongJsonType(entry);
      DDBLAB_ASSIGN_OR_RETURN(
          const OpSpec* op,
          ReadOperator(entry, "expected." + attr + ".member.comparisonOperator",
                       /*required=*/false));
      DDBLAB_ASSIGN_OR_RETURN(std::optional<bool> exists,
                              BoolMember(entry, "Exists"));
      const Json* value_json = Member(entry, "Value");
      const Json* list_json = Member(entry, "AttributeValueList");
      if (list_json != nullptr && !list_json->is_array()) {
        return WrongJsonType(*list_json);
      }
      DDBLAB_RETURN_IF_ERROR(CheckExpectedShape(
          attr, Member(entry, "Exists"), exists, value_json, list_json, op));
      Entry e;
      e.attr = attr;
      e.op = op;
      if (value_json != nullptr) {
        DDBLAB_ASSIGN_OR_RETURN(AttributeValue v,
                                value::DecodeAttributeValue(*value_json));
        e.args.push_back(std::move(v));
      } else {
        DDBLAB_ASSIGN_OR_RETURN(e.args, DecodeList(list_json));
      }
      running_size += attr.size();
      for (const AttributeValue& v : e.args) {
        running_size += value::AttributeValueSize(v);
      }
      if (running_size > value::kMaxItemSize) {
        return Error::Validation(
            "Item size has exceeded the maximum allowed size");
      }
      if (op != nullptr) {
        DDBLAB_RETURN_IF_ERROR(CheckArguments(*op, e.args));
        conditions.push_back(Build(e));
      } else if (!e.args.empty()) {
        // {Value: v} or {Value: v, Exists: true}: equality.
        conditions.push_back(Condition::Compare(
            CompareOp::kEq, Operand::Path(DocumentPath(attr)),
            Operand::Value(e.args[0])));
      } else {
        // {Exists: false}.
        conditions.push_back(
            Condition::Function(Condition::Kind::kAttributeNotExists,
                                {Operand::Path(DocumentPath(attr))}));
      }
    }
  }
  return Combine(std::move(conditions), entries, use_or);
}

Result<ConditionExpression> ConvertFilter(const Json& filter,
                                          const Json* conditional_operator,
                                          std::string_view param) {
  DDBLAB_ASSIGN_OR_RETURN(std::optional<bool> use_or,
                          ReadConditionalOperator(conditional_operator));
  DDBLAB_ASSIGN_OR_RETURN(std::vector<Entry> entries,
                          ReadConditions(filter, param));
  std::vector<Condition> conditions;
  conditions.reserve(entries.size());
  for (const Entry& e : entries) conditions.push_back(Build(e));
  return Combine(std::move(conditions), entries.size(), use_or);
}

Status CheckQueryFilterKeys(const Json& query_filter,
                            const std::vector<std::string>& key_names) {
  if (!query_filter.is_object()) return OkStatus();
  for (const auto& [attr, cond] : query_filter.items()) {
    for (const std::string& key : key_names) {
      if (attr == key) {
        return Error::Validation(
            "QueryFilter can only contain non-primary key attributes: Primary "
            "key attribute: " +
            attr);
      }
    }
  }
  return OkStatus();
}

Result<KeyCondition> ConvertKeyConditions(const Json& key_conditions,
                                          const KeySchemaInfo& schema) {
  DDBLAB_ASSIGN_OR_RETURN(std::vector<Entry> entries,
                          ReadConditions(key_conditions, "KeyConditions"));
  if (entries.size() != 1 && entries.size() != 2) {
    return Error::Validation("Conditions can be of length 1 or 2 only");
  }
  auto find = [&entries](const std::string& name) -> const Entry* {
    for (const Entry& e : entries) {
      if (e.attr == name) return &e;
    }
    return nullptr;
  };
  constexpr char kNotSupported[] = "Query key condition not supported";
  constexpr char kMissed[] = "Query condition missed key schema element: ";
  constexpr char kNotIndexable[] =
      "Attempted conditional constraint is not an indexable operation";
  const std::string kTypeMismatch =
      std::string(kInvalid) +
      "Condition parameter type does not match schema type";
  auto check = [&](const Entry& e, Type type) -> Status {
    if (!e.op->indexable) return Error::Validation(kNotIndexable);
    for (const AttributeValue& v : e.args) {
      if (v.type() != type) return Error::Validation(kTypeMismatch);
    }
    return OkStatus();
  };

  if (!schema.range_name && entries.size() > 1) {
    return Error::Validation(kNotSupported);
  }
  const Entry* hash = find(schema.hash_name);
  if (hash == nullptr) return Error::Validation(kMissed + schema.hash_name);
  DDBLAB_RETURN_IF_ERROR(check(*hash, schema.hash_type));
  if (hash->op->op != Op::kEq) return Error::Validation(kNotSupported);
  KeyCondition out;
  out.hash_value = hash->args[0];
  if (!schema.range_name) return out;

  const Entry* range = find(*schema.range_name);
  if (range == nullptr) {
    if (entries.size() > 1) {
      return Error::Validation(kMissed + *schema.range_name);
    }
    return out;
  }
  DDBLAB_RETURN_IF_ERROR(check(*range, schema.range_type));
  RangeCondition rc;
  switch (range->op->op) {
    case Op::kEq:
      rc.op = RangeOp::kEq;
      break;
    case Op::kLt:
      rc.op = RangeOp::kLt;
      break;
    case Op::kLe:
      rc.op = RangeOp::kLe;
      break;
    case Op::kGt:
      rc.op = RangeOp::kGt;
      break;
    case Op::kGe:
      rc.op = RangeOp::kGe;
      break;
    case Op::kBetween:
      rc.op = RangeOp::kBetween;
      rc.b = range->args[1];
      break;
    default:  // only BEGINS_WITH is left among the indexable operators
      rc.op = RangeOp::kBeginsWith;
      break;
  }
  rc.a = range->args[0];
  out.range = std::move(rc);
  return out;
}

}  // namespace ddblab::expr
