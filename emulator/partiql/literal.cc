#include "emulator/partiql/literal.h"

#include <cstdint>
#include <string>
#include <utility>

#include "emulator/value/codec.h"
#include "emulator/value/number.h"

namespace ddblab::partiql {
namespace {

using Json = nlohmann::json;

// DynamoDB Local's message catalog (ValidationExceptionMessages); the bag
// rule was also recorded on DynamoDB Local: "A ? inside a set fails with
// Unsupported data type in Bag".
constexpr char kBagType[] =
    "Unsupported data type in Bag. DynamoDB only supports either numbers or "
    "strings in bags";
// Pinned on AWS (partiqlFunctions.test.ts: set_add of <<>>).
constexpr char kEmptyBag[] = "Empty bags are not supported";

std::string Describe(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kCall:
      return e.text;
    case ExprKind::kPath:
      return e.text;
    case ExprKind::kBinary:
      return BinaryOpText(e.op);
    case ExprKind::kLiteral:
      return "MISSING";
    default:
      return "expression";
  }
}

}  // namespace

Error ParameterCountMismatch() {
  return Error::Validation(
      "Number of parameters in request and statement don't match.");
}

namespace {

// A number DynamoDB's PartiQL reads like Java's BigDecimal: an exponent that
// does not fit a 32-bit integer can't be converted at all (pinned on AWS:
// partiqlParameterNumbers.test.ts, "The parameter cannot be converted to a
// numeric value: 1e99999999999").
bool ExponentFits(const std::string& text) {
  size_t e = text.find_first_of("eE");
  if (e == std::string::npos) return true;
  size_t i = e + 1;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  int64_t exponent = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return true;  // Number::Parse words it
    exponent = exponent * 10 + (text[i] - '0');
    if (exponent > 2147483648LL) return false;
  }
  bool negative = text.find('-', e) != std::string::npos;
  return negative ? exponent <= 2147483648LL : exponent <= 2147483647LL;
}

// The first number in `value` (document order) whose exponent doesn't fit.
const Json* UnconvertibleNumber(const Json& value) {
  if (!value.is_object() || value.size() != 1) return nullptr;
  auto first = value.begin();
  const std::string& type = first.key();
  const Json& body = first.value();
  if (type == "N" && body.is_string() &&
      !ExponentFits(body.get<std::string>())) {
    return &body;
  }
  if (type == "NS" && body.is_array()) {
    for (const Json& n : body) {
      if (n.is_string() && !ExponentFits(n.get<std::string>())) return &n;
    }
  }
  if (type == "L" && body.is_array()) {
    for (const Json& element : body) {
      if (const Json* bad = UnconvertibleNumber(element)) return bad;
    }
  }
  if (type == "M" && body.is_object()) {
    for (const auto& [name, member] : body.items()) {
      if (const Json* bad = UnconvertibleNumber(member)) return bad;
    }
  }
  return nullptr;
}

}  // namespace

Status ValidateParameters(const Json& parameters) {
  if (parameters.is_null()) return OkStatus();
  if (!parameters.is_array()) {
    return Error::Serialization("Unexpected field type");
  }
  for (const Json& parameter : parameters) {
    if (const Json* bad = UnconvertibleNumber(parameter)) {
      return Error::Validation(
          "The parameter cannot be converted to a numeric value: " +
          bad->get<std::string>());
    }
    Result<value::AttributeValue> decoded =
        value::DecodeAttributeValue(parameter);
    // Too deep a parameter gets the codec's text, DynamoDB's ("Nesting
    // Levels have exceeded supported limits: Attributes in the item have
    // nested levels beyond supported limit", pinned on AWS by the
    // conformance suite's partiqlParameterNumbers test).
    if (!decoded.ok()) return std::move(decoded).error();
  }
  return OkStatus();
}

bool ValueBuilder::IsValue(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      return e.literal != LiteralKind::kMissing;
    case ExprKind::kParameter:
    case ExprKind::kList:
    case ExprKind::kBag:
    case ExprKind::kTuple:
      return true;
    default:
      return false;
  }
}

Result<value::AttributeValue> ValueBuilder::Build(const Expr& e) const {
  DDBLAB_ASSIGN_OR_RETURN(Json json, BuildAt(e, "root"));
  // Whatever DynamoDB checks on an AttributeValue (set duplicates, nesting).
  return value::DecodeAttributeValue(json);
}

Result<Json> ValueBuilder::BuildAt(const Expr& e,
                                   const std::string& path) const {
  switch (e.kind) {
    case ExprKind::kLiteral:
      switch (e.literal) {
        case LiteralKind::kString:
          return Json{{"S", e.text}};
        case LiteralKind::kNumber: {
          Result<value::Number> n = value::Number::Parse(e.text);
          if (!n.ok()) {
            return Error::Validation(n.error().message + " under " + path);
          }
          if (n->is_zero() && !e.text.empty() && e.text[0] == '-') {
            // DynamoDB Local's message catalog (ValidationExceptionMessages).
            return Error::Validation(
                "Negative zero decimal is not supported under key " + path);
          }
          return Json{{"N", n->ToString()}};
        }
        case LiteralKind::kTrue:
          return Json{{"BOOL", true}};
        case LiteralKind::kFalse:
          return Json{{"BOOL", false}};
        case LiteralKind::kNull:
          return Json{{"NULL", true}};
        case LiteralKind::kMissing:
          break;
      }
      break;
    case ExprKind::kParameter:
      if (!parameters_.is_array() ||
          static_cast<size_t>(e.param_index) >= parameters_.size()) {
        return ParameterCountMismatch();
      }
      return parameters_[static_cast<size_t>(e.param_index)];
    case ExprKind::kList: {
      Json list = Json::array();
      for (size_t i = 0; i < e.args.size(); ++i) {
        DDBLAB_ASSIGN_OR_RETURN(
            Json element,
            BuildAt(*e.args[i], path + "[" + std::to_string(i) + "]"));
        list.push_back(std::move(element));
      }
      return Json{{"L", std::move(list)}};
    }
    case ExprKind::kTuple: {
      Json map = Json::object();
      for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
        const Expr& key = *e.args[i];
        const Expr& val = *e.args[i + 1];
        if (key.kind != ExprKind::kLiteral ||
            key.literal != LiteralKind::kString) {
          // DynamoDB Local's message catalog; the type name is UNVERIFIED.
          return Error::Validation(
              "Tuple keys must be of type String. Actual type: " +
              std::string(key.kind == ExprKind::kLiteral &&
                                  key.literal == LiteralKind::kNumber
                              ? "DECIMAL"
                              : "EXPRESSION") +
              " under " + path);
        }
        if (map.contains(key.text)) {
          // DynamoDB Local's message catalog (ValidationExceptionMessages).
          return Error::Validation("Duplicate keys in tuple. Key: " + key.text +
                                   " under " + path);
        }
        if (val.kind == ExprKind::kLiteral &&
            val.literal == LiteralKind::kMissing) {
          continue;  // PartiQL drops a field whose value is MISSING.
        }
        DDBLAB_ASSIGN_OR_RETURN(Json member,
                                BuildAt(val, path + "." + key.text));
        map[key.text] = std::move(member);
      }
      return Json{{"M", std::move(map)}};
    }
    case ExprKind::kBag:
      return BuildBag(e, path);
    default:
      break;
  }
  // Pinned on AWS for a function call inside an INSERT value
  // (partiqlFunctions.test.ts: "Unsupported data type: set_add under key
  // root at 1:60:7"); the same shape for other non-values is UNVERIFIED.
  return Error::Validation("Unsupported data type: " + Describe(e) +
                           " under key root at " + e.pos.ToString());
}

Result<Json> ValueBuilder::BuildBag(const Expr& e,
                                    const std::string& path) const {
  if (e.args.empty()) return Error::Validation(kEmptyBag);
  bool strings = false;
  bool numbers = false;
  Json elements = Json::array();
  for (const auto& arg : e.args) {
    if (arg->kind != ExprKind::kLiteral ||
        (arg->literal != LiteralKind::kString &&
         arg->literal != LiteralKind::kNumber)) {
      return Error::Validation(kBagType);
    }
    DDBLAB_ASSIGN_OR_RETURN(Json element, BuildAt(*arg, path));
    if (arg->literal == LiteralKind::kString) {
      strings = true;
      elements.push_back(element["S"]);
    } else {
      numbers = true;
      elements.push_back(element["N"]);
    }
  }
  if (strings && numbers) return Error::Validation(kBagType);
  return Json{{strings ? "SS" : "NS", std::move(elements)}};
}

}  // namespace ddblab::partiql
